// The game model without a browser: every action, and the defects of
// issue 39 that live in the model.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bit, parseCells, type Candidate } from "../../src/board";
import {
  digitsLeft,
  elapsed,
  explainPosition,
  hasProgress,
  marksText,
  newGame,
  progressText,
  restoreGame,
  saveBoard,
  update,
  type Action,
  type Game,
  type StepData,
} from "../../src/model";

const PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

const at = (row: number, column: number): number => (row - 1) * 9 + column - 1;
const cand = (row: number, column: number, digit: number): Candidate => ({ row, column, digit });

function game(): Game {
  return newGame(parseCells(PUZZLE), SOLUTION);
}

/** Runs actions in turn, the clock at `now` for each (1 s apart). */
function run(g: Game, ...actions: Action[]): Game {
  let t = 1000;
  for (const action of actions) {
    g = update(g, action, t);
    t += 1000;
  }
  return g;
}

function step(over: Partial<StepData> = {}): StepData {
  return {
    technique: "Naked Single",
    rating: 2.3,
    cells: [],
    placements: [],
    eliminations: [],
    explanation: "",
    units: [],
    witnesses: [],
    links: [],
    branches: [],
    ...over,
  };
}

test("a new game selects the first empty cell, with nothing entered", () => {
  const g = game();
  assert.equal(g.cursor, at(1, 3));
  assert.deepEqual(g.selection, [at(1, 3)]);
  assert.equal(hasProgress(g), false);
  assert.equal(progressText(g), PUZZLE);
  assert.equal(marksText(g), "");
});

test("select: one cell, or with extend adds and removes cells", () => {
  let g = run(game(), { type: "select", cell: at(2, 2) });
  assert.deepEqual(g.selection, [at(2, 2)]);
  g = run(g, { type: "select", cell: at(3, 3), extend: true }, { type: "select", cell: at(4, 4), extend: true });
  assert.deepEqual(g.selection, [at(2, 2), at(3, 3), at(4, 4)]);
  assert.equal(g.cursor, at(4, 4));
  g = run(g, { type: "select", cell: at(3, 3), extend: true });
  assert.deepEqual(g.selection, [at(2, 2), at(4, 4)]);
});

test("drag adds the cells it passes over", () => {
  const g = run(game(), { type: "select", cell: at(1, 3) }, { type: "drag", cell: at(1, 4) }, { type: "drag", cell: at(2, 4) }, { type: "drag", cell: at(1, 4) });
  assert.deepEqual(g.selection, [at(1, 3), at(1, 4), at(2, 4)]);
  assert.equal(g.cursor, at(1, 4));
});

test("move: arrows within the grid, Shift extends, the edge stops", () => {
  let g = run(game(), { type: "select", cell: at(1, 1) }, { type: "move", rows: -1, columns: 0 });
  assert.equal(g.cursor, at(1, 1));
  g = run(g, { type: "move", rows: 1, columns: 1 });
  assert.deepEqual(g.selection, [at(2, 2)]);
  g = run(g, { type: "move", rows: 0, columns: 1, extend: true });
  assert.deepEqual(g.selection, [at(2, 2), at(2, 3)]);
  g = run(g, { type: "move", rows: 0, columns: 99 });
  assert.equal(g.cursor, at(2, 9));
});

test("selectNone empties the selection; input then changes nothing", () => {
  const g = run(game(), { type: "selectNone" });
  assert.deepEqual(g.selection, []);
  assert.equal(run(g, { type: "input", digit: 4 }).values.join(), g.values.join());
});

test("input places a digit and crosses it out of the peers' marks", () => {
  let g = run(game(), { type: "select", cell: at(1, 4) }, { type: "input", digit: 6, mode: "centre" }, { type: "input", digit: 6, mode: "corner" });
  assert.equal(g.centre[at(1, 4)], bit(6));
  g = run(g, { type: "select", cell: at(1, 3) }, { type: "input", digit: 6 });
  assert.equal(g.values[at(1, 3)], 6);
  assert.equal(g.centre[at(1, 4)], 0);
  assert.equal(g.corner[at(1, 4)], 0);
});

test("typing a cell's digit again clears it", () => {
  const g = run(game(), { type: "input", digit: 4 }, { type: "input", digit: 4 });
  assert.equal(g.values[at(1, 3)], 0);
  assert.equal(g.undo.length, 2);
});

test("a given is never changed", () => {
  const g = run(game(), { type: "select", cell: at(1, 1) }, { type: "input", digit: 9 }, { type: "erase" });
  assert.equal(g.values[at(1, 1)], 5);
  assert.equal(g.undo.length, 0);
});

test("input in several selected cells: candidates toggle in all, digits place in all", () => {
  let g = run(game(), { type: "select", cell: at(1, 3) }, { type: "select", cell: at(1, 4), extend: true });
  g = run(g, { type: "input", digit: 2, mode: "centre" });
  assert.equal(g.centre[at(1, 3)], bit(2));
  assert.equal(g.centre[at(1, 4)], bit(2));
  g = run(g, { type: "input", digit: 2, mode: "centre" });
  assert.equal(g.centre[at(1, 3)] | g.centre[at(1, 4)], 0);
  assert.equal(g.undo.length, 2, "each input is one undo step");
});

test("centre and corner marks are kept apart", () => {
  const g = run(game(), { type: "mode", mode: "corner" }, { type: "input", digit: 1 }, { type: "input", digit: 7 }, { type: "mode", mode: "centre" }, { type: "input", digit: 2 });
  assert.equal(g.corner[at(1, 3)], bit(1) | bit(7));
  assert.equal(g.centre[at(1, 3)], bit(2));
  assert.equal(g.mode, "centre");
});

test("colour mode colours cells, givens too, and the same colour again clears", () => {
  let g = run(game(), { type: "select", cell: at(1, 1) }, { type: "select", cell: at(1, 3), extend: true }, { type: "mode", mode: "colour" }, { type: "input", digit: 3 });
  assert.equal(g.colour[at(1, 1)], 3);
  assert.equal(g.colour[at(1, 3)], 3);
  assert.equal(g.values[at(1, 3)], 0);
  g = run(g, { type: "input", digit: 3 });
  assert.equal(g.colour[at(1, 3)], 0);
});

test("erase clears a digit first, then marks, then the colour", () => {
  let g = run(game(), { type: "input", digit: 1, mode: "centre" }, { type: "input", digit: 3, mode: "colour" }, { type: "input", digit: 4 });
  g = run(g, { type: "erase" });
  assert.equal(g.values[at(1, 3)], 0);
  assert.equal(g.centre[at(1, 3)], bit(1), "the candidates under the digit come back");
  g = run(g, { type: "erase" });
  assert.equal(g.centre[at(1, 3)], 0);
  assert.equal(g.colour[at(1, 3)], 3);
  g = run(g, { type: "erase" });
  assert.equal(g.colour[at(1, 3)], 0);
});

test("erase clears a given's colour", () => {
  let g = run(game(), { type: "select", cell: at(1, 1) }, { type: "input", digit: 4, mode: "colour" });
  assert.equal(g.colour[at(1, 1)], 4);
  g = run(g, { type: "erase" });
  assert.equal(g.colour[at(1, 1)], 0);
  assert.equal(g.values[at(1, 1)], 5);
});

test("highlight lights a digit from the pad, and again switches it off", () => {
  let g = run(game(), { type: "highlight", digit: 5 });
  assert.equal(g.digit, 5);
  g = run(g, { type: "highlight", digit: 5 });
  assert.equal(g.digit, 0);
});

test("digitsLeft counts what is still to place", () => {
  const left = digitsLeft(game());
  assert.equal(left[5], 9 - [...PUZZLE].filter((c) => c === "5").length);
  assert.equal(left.slice(1).reduce((a, b) => a + b), [...PUZZLE].filter((c) => c === ".").length);
});

test("fill writes every empty cell's candidates as one undo step, less what a hint excluded", () => {
  let g = run(game(), { type: "fill" });
  assert.equal(g.centre[at(1, 3)], bit(1) | bit(2) | bit(4));
  assert.equal(g.centre[at(9, 1)], bit(1) | bit(2) | bit(3));
  assert.equal(g.undo.length, 1);
  g = run(game(), { type: "hint", step: step({ eliminations: [cand(1, 3, 2)] }) }, { type: "apply" }, { type: "fill" });
  assert.equal(g.centre[at(1, 3)], bit(1) | bit(4));
});

test("undo and redo walk the history; a new edit drops the redo", () => {
  let g = run(game(), { type: "input", digit: 4 }, { type: "move", rows: 0, columns: 1 }, { type: "input", digit: 6 });
  g = run(g, { type: "undo" });
  assert.equal(g.values[at(1, 4)], 0);
  assert.equal(g.redo.length, 1);
  g = run(g, { type: "redo" });
  assert.equal(g.values[at(1, 4)], 6);
  g = run(g, { type: "undo" }, { type: "undo" });
  assert.equal(progressText(g), PUZZLE);
  g = run(g, { type: "input", digit: 2 });
  assert.equal(g.redo.length, 0);
});

test("the clock runs while playing and stops on pause, when hidden and while explaining", () => {
  let g = update(game(), { type: "visible", visible: true }, 0);
  assert.equal(g.runningSince, 0);
  g = update(g, { type: "pause" }, 5000);
  assert.equal(g.paused, true);
  assert.equal(elapsed(g, 60_000), 5000);
  assert.equal(update(g, { type: "input", digit: 4 }, 6000), g, "no input while paused");
  g = update(g, { type: "resume" }, 10_000);
  assert.equal(elapsed(g, 12_000), 7000);
  g = update(g, { type: "visible", visible: false }, 12_000);
  assert.equal(elapsed(g, 99_000), 7000);
  g = update(g, { type: "visible", visible: true }, 20_000);
  g = update(g, { type: "explain", steps: [step()], fromGivens: true }, 21_000);
  assert.equal(elapsed(g, 50_000), 8000);
  g = update(g, { type: "close" }, 50_000);
  assert.equal(elapsed(g, 51_000), 9000);
});

test("restart clears every entry and the clock, and asks nothing of the model", () => {
  let g = run(game(), { type: "input", digit: 4 }, { type: "input", digit: 3, mode: "colour" }, { type: "fill" });
  g = update(g, { type: "restart" }, 100_000);
  assert.equal(progressText(g), PUZZLE);
  assert.equal(g.centre.some(Boolean) || g.colour.some(Boolean), false);
  assert.equal(g.undo.length, 0);
  assert.equal(elapsed(g, 100_000), 0);
});

test("hint shows level 1; level moves between the three; close hides it", () => {
  let g = run(game(), { type: "hint", step: step() });
  assert.equal(g.hint?.level, 1);
  g = run(g, { type: "level", level: 3 });
  assert.equal(g.hint?.level, 3);
  g = run(g, { type: "level", level: 2 });
  assert.equal(g.hint?.level, 2);
  g = run(g, { type: "close" });
  assert.equal(g.hint, null);
});

test("branch picks a forcing chain's branch within range", () => {
  const branch = { assumedOn: true, links: [], resultOn: false, contradiction: true, techniques: [] };
  let g = run(game(), { type: "hint", step: step({ branches: [branch, branch, branch] }) }, { type: "branch", index: 2 });
  assert.equal(g.hint?.branch, 2);
  g = run(g, { type: "branch", index: 7 });
  assert.equal(g.hint?.branch, 2);
  g = run(g, { type: "branch", index: -1 });
  assert.equal(g.hint?.branch, 0);
});

test("an edit hides the hint and the wrong marks", () => {
  const g = run(game(), { type: "wrong", cells: [at(1, 3)], note: "r1c3: 1 is not right." }, { type: "hint", step: step() }, { type: "input", digit: 4 });
  assert.equal(g.hint, null);
  assert.deepEqual(g.wrong, []);
});

test("wrong marks cells with a note", () => {
  const g = run(game(), { type: "wrong", cells: [at(2, 2)], note: "Fix it" });
  assert.deepEqual(g.wrong, [at(2, 2)]);
  assert.equal(g.note, "Fix it");
});

test("apply places and eliminates as one undo step", () => {
  let g = run(game(), { type: "fill" }, { type: "hint", step: step({ placements: [cand(1, 3, 4)], eliminations: [cand(1, 4, 2)] }) }, { type: "apply" });
  assert.equal(g.values[at(1, 3)], 4);
  assert.equal(g.centre[at(1, 4)] & bit(2), 0);
  assert.equal(g.centre[at(1, 4)] & bit(4), 0, "the placed 4 is crossed out of its peers");
  assert.equal(g.hint, null);
  assert.equal(g.note, "Hint applied. Undo takes it back.");
  g = run(g, { type: "undo" });
  assert.equal(g.values[at(1, 3)], 0);
  assert.notEqual(g.centre[at(1, 4)] & bit(2), 0);
});

test("issue 39 #4: apply writes no candidates in a cell that had none", () => {
  // An elimination in r6c3, where the player wrote nothing.
  const g = run(game(), { type: "hint", step: step({ technique: "Naked Triple", eliminations: [cand(6, 3, 5)] }) }, { type: "apply" });
  assert.equal(g.centre[at(6, 3)], 0, "no candidates written");
  assert.equal(g.excluded[at(6, 3)], bit(5));
  // The next Hint still hears of it: 5 is crossed out of r6c3's marks.
  const marks = marksText(g);
  assert.equal(marks.length, 729);
  assert.equal(marks.slice(at(6, 3) * 9, at(6, 3) * 9 + 9), "1234.6789");
  assert.match(g.note, /r6c3 had no candidates written/);
});

test("writing a candidate back undoes its exclusion", () => {
  let g = run(game(), { type: "hint", step: step({ eliminations: [cand(1, 3, 2)] }) }, { type: "apply" });
  g = run(g, { type: "select", cell: at(1, 3) }, { type: "input", digit: 2, mode: "centre" });
  assert.equal(g.excluded[at(1, 3)], 0);
});

test("issue 39 #3: the last placement by Apply finishes the game", () => {
  const last = at(9, 7); // r9c7, a 1
  const values = parseCells(SOLUTION);
  values[last] = 0;
  let g = restoreGame(parseCells(PUZZLE), SOLUTION, { values });
  g = update(g, { type: "visible", visible: true }, 0);
  g = update(g, { type: "hint", step: step({ placements: [cand(9, 7, 1)] }) }, 1000);
  g = update(g, { type: "apply" }, 61_000);
  assert.equal(g.finished, true);
  assert.match(g.note, /^Solved in 01:01\. Well done!$/);
  assert.equal(g.runningSince, null);
  // Backspace neither edits the solved grid nor restarts the clock.
  const after = update({ ...g, selection: [last], cursor: last }, { type: "erase" }, 70_000);
  assert.equal(after.values[last], 1);
  assert.equal(after.runningSince, null);
  assert.equal(elapsed(after, 90_000), 61_000);
  assert.equal(update(after, { type: "undo" }, 91_000).values[last], 1);
});

test("a full but wrong grid says so and is not finished", () => {
  const values = parseCells(SOLUTION);
  values[at(1, 3)] = 0;
  let g = restoreGame(parseCells(PUZZLE), SOLUTION, { values });
  g = run({ ...g, selection: [at(1, 3)], cursor: at(1, 3) }, { type: "input", digit: 1 });
  assert.equal(g.finished, false);
  assert.match(g.note, /something is not right/);
});

test("issue 39 #2: the undo history survives a save and a reload", () => {
  const g = run(game(), { type: "input", digit: 4 }, { type: "fill" }, { type: "input", digit: 2, mode: "colour" });
  const saved = JSON.parse(JSON.stringify(saveBoard(g, 5000)));
  let back = restoreGame(parseCells(PUZZLE), SOLUTION, saved);
  assert.equal(back.undo.length, 3);
  assert.deepEqual(back.values, g.values);
  assert.deepEqual(back.colour, g.colour);
  back = run(back, { type: "undo" }, { type: "undo" }, { type: "undo" });
  assert.equal(progressText(back), PUZZLE);
  assert.equal(back.centre.some(Boolean), false);
  assert.ok(back.elapsedMs >= 0);
});

test("restore keeps the givens and drops what it cannot read", () => {
  const values = parseCells(SOLUTION);
  values[0] = 9; // a given overwritten in storage
  const g = restoreGame(parseCells(PUZZLE), SOLUTION, { values, centre: [1, 2] as number[], undo: [[[1, 2]]] as number[][][], redo: [] });
  assert.equal(g.values[0], 5);
  assert.equal(g.centre.every((m) => m === 0), true);
  assert.deepEqual(g.undo, []);
  assert.equal(g.finished, true, "the rest is the solution");
});

test("issue 39 #8: explain starts from the player's position and marks", () => {
  let g = run(game(), { type: "input", digit: 4 }, { type: "move", rows: 0, columns: 1 }, { type: "input", digit: 2, mode: "centre" }, { type: "input", digit: 6, mode: "centre" });
  const steps = [step({ placements: [cand(1, 4, 6)] }), step({ placements: [cand(1, 6, 8)] })];
  g = run(g, { type: "explain", steps, fromGivens: false });
  let pos = explainPosition(g)!;
  assert.equal(pos.values[at(1, 3)], 4, "the player's 4 is there");
  assert.equal(pos.marks[at(1, 4)], bit(2) | bit(6), "and the player's candidates");
  g = run(g, { type: "step", delta: 1 });
  pos = explainPosition(g)!;
  assert.equal(pos.values[at(1, 4)], 6, "step 1's placement is behind");
  assert.equal(g.explain?.index, 1);
  g = run(g, { type: "step", delta: 5 });
  assert.equal(g.explain?.index, 1);
  // From the givens when asked.
  const fromGivens = run(g, { type: "close" }, { type: "explain", steps, fromGivens: true });
  assert.equal(explainPosition(fromGivens)!.values[at(1, 3)], 0);
  // Nothing can be entered while explaining; close returns to the game.
  assert.equal(run(g, { type: "input", digit: 9 }).values, g.values);
  assert.equal(run(g, { type: "close" }).explain, null);
});

test("explain shows each step at level 3 and its level can change", () => {
  const g = run(game(), { type: "explain", steps: [step()], fromGivens: true }, { type: "level", level: 1 });
  assert.equal(g.explain?.level, 1);
});

test("marksText sends the player's candidates and all nine elsewhere", () => {
  const g = run(game(), { type: "input", digit: 1, mode: "centre" }, { type: "input", digit: 7, mode: "corner" });
  const marks = marksText(g);
  assert.equal(marks.slice(at(1, 3) * 9, at(1, 3) * 9 + 9), "1........");
  assert.equal(marks.slice(0, 9), "123456789");
});
