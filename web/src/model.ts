// The game as one value: the grid, marks, colours, selection, mode, undo
// history, clock, the hint on show and Explain's position. `update` takes a
// state and an action and gives the next state; it never touches the DOM,
// so every rule of play is tested without a browser (tests/unit).

import {
  ALL_MARKS,
  PEERS,
  bit,
  candidateCell,
  candidatesOf,
  cellName,
  cellsText,
  colOf,
  digitsOf,
  rowOf,
  type Candidate,
  type Cell,
} from "./board";

// ---------------------------------------------------------------- steps

/** The parts of the proto's Step the page uses (the generated Step fits). */
export interface UnitData {
  kind: number; // 1 row, 2 column, 3 box
  number: number;
}
export interface LinkData {
  source?: Candidate;
  target?: Candidate;
  kind: number; // 1 strong, 2 weak, 3 inference
  sourceOn: boolean;
  targetOn: boolean;
  /** For a grouped link, the cells of an end that is a group (the digit is
   * in one of them); empty or absent for a single cell. */
  sourceGroup?: Candidate[];
  targetGroup?: Candidate[];
}
export interface BranchData {
  assumption?: Candidate;
  assumedOn: boolean;
  links: LinkData[];
  result?: Candidate;
  resultOn: boolean;
  contradiction: boolean;
  techniques: string[];
}
export interface StepData {
  technique: string;
  rating: number;
  cells: Candidate[];
  placements: Candidate[];
  eliminations: Candidate[];
  explanation: string;
  units: UnitData[];
  witnesses: Candidate[];
  links: LinkData[];
  branches: BranchData[];
}

// ---------------------------------------------------------------- state

/** What a digit does: place it, a candidate (centre mark), a corner mark,
 * or a colour (1-9). */
export type Mode = "normal" | "centre" | "corner" | "colour";
export type HintLevel = 1 | 2 | 3;

/** One cell's change: [cell, before (value, centre, corner, colour,
 * excluded), after (the same five)]. Flat numbers, so that the history is
 * small in localStorage. */
export type Change = number[];

export interface Shown {
  step: StepData;
  level: HintLevel;
  /** The branch on show, for a forcing chain. */
  branch: number;
}

export interface Explaining {
  steps: StepData[];
  index: number;
  level: HintLevel;
  branch: number;
  fromGivens: boolean;
  /** The position the path starts from: digits, and candidates (0 where
   * the cell has none of its own). */
  values: number[];
  marks: number[];
}

export interface Game {
  givens: readonly number[];
  /** 81 digits, or "" when the puzzle has not exactly one solution. */
  solution: string;
  values: number[];
  /** Candidates (centre marks), 9-bit masks. */
  centre: number[];
  corner: number[];
  /** 0 none, 1-9 a colour. */
  colour: number[];
  /** Digits an applied hint crossed out of a cell without candidates:
   * nothing is drawn there, but Hint and Fill know. */
  excluded: number[];
  undo: Change[][];
  redo: Change[][];
  selection: Cell[];
  /** The cell the keyboard is on. */
  cursor: Cell;
  mode: Mode;
  /** The digit highlighted from the pad (0: the cursor's digit). */
  digit: number;
  elapsedMs: number;
  /** The clock's start (in `now` terms) while it runs, else null. */
  runningSince: number | null;
  paused: boolean;
  /** The page is hidden (another tab): the clock stops. */
  away: boolean;
  finished: boolean;
  /** Cells shown as wrong (a mistake found by Check or Hint). */
  wrong: Cell[];
  hint: Shown | null;
  explain: Explaining | null;
  /** A sentence for the player about the last action, or "". */
  note: string;
}

export type Action =
  | { type: "select"; cell: Cell; extend?: boolean }
  | { type: "drag"; cell: Cell }
  | { type: "move"; rows: number; columns: number; extend?: boolean }
  | { type: "selectNone" }
  | { type: "input"; digit: number; mode?: Mode }
  | { type: "erase" }
  | { type: "mode"; mode: Mode }
  | { type: "highlight"; digit: number }
  | { type: "fill" }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "pause" }
  | { type: "resume" }
  | { type: "visible"; visible: boolean }
  | { type: "restart" }
  | { type: "hint"; step: StepData }
  | { type: "level"; level: HintLevel }
  | { type: "branch"; index: number }
  | { type: "apply" }
  | { type: "close" }
  | { type: "wrong"; cells: Cell[]; note: string }
  | { type: "explain"; steps: StepData[]; fromGivens: boolean }
  | { type: "step"; delta: number };

/** How many undo steps are kept (and saved). */
export const HISTORY_LIMIT = 400;

const zeros = (): number[] => new Array<number>(81).fill(0);

export function newGame(givens: readonly number[], solution = ""): Game {
  const first = givens.findIndex((v) => v === 0);
  const cursor = first < 0 ? 0 : first;
  return {
    givens: givens.slice(),
    solution,
    values: givens.slice(),
    centre: zeros(),
    corner: zeros(),
    colour: zeros(),
    excluded: zeros(),
    undo: [],
    redo: [],
    selection: [cursor],
    cursor,
    mode: "normal",
    digit: 0,
    elapsedMs: 0,
    runningSince: null,
    paused: false,
    away: false,
    finished: false,
    wrong: [],
    hint: null,
    explain: null,
    note: "",
  };
}

// ---------------------------------------------------------------- queries

export const isGiven = (g: Game, cell: Cell): boolean => g.givens[cell] !== 0;

export function isSolved(g: Game): boolean {
  return !!g.solution && cellsText(g.values) === g.solution;
}

export function isFull(g: Game): boolean {
  return g.values.every((v) => v !== 0);
}

/** The time played, at `now`. */
export function elapsed(g: Game, now: number): number {
  return g.elapsedMs + (g.runningSince === null ? 0 : Math.max(0, now - g.runningSince));
}

/** Whether the player has entered anything. */
export function hasProgress(g: Game): boolean {
  return g.undo.length > 0 || g.values.some((v, c) => v !== g.givens[c]) || g.centre.some(Boolean);
}

/** How many of each digit are still to place: index 1-9. */
export function digitsLeft(g: Game): number[] {
  const left = new Array<number>(10).fill(9);
  left[0] = 0;
  for (const v of g.values) if (v) left[v]--;
  return left;
}

/** Whether digits and marks can be entered now. */
export function canEdit(g: Game): boolean {
  return !g.finished && !g.paused && !g.explain;
}

/** The 81-character position: givens plus placements. */
export function progressText(g: Game): string {
  return cellsText(g.values);
}

/** The cell's candidates as the service should see them: the player's
 * candidates, or all nine (the service then uses what the peers leave),
 * less what an applied hint crossed out. */
function sentMarks(g: Game, cell: Cell): number {
  if (g.values[cell]) return ALL_MARKS;
  return (g.centre[cell] || ALL_MARKS) & ~g.excluded[cell];
}

/** The 729-character marks for Hint and Explain, or "" when the player
 * has none and no hint crossed anything out. */
export function marksText(g: Game): string {
  const any = g.values.some((v, cell) => !v && (g.centre[cell] || g.excluded[cell]));
  if (!any) return "";
  let text = "";
  for (let cell = 0; cell < 81; cell++) {
    const mask = sentMarks(g, cell);
    for (let d = 1; d <= 9; d++) text += mask & bit(d) ? String(d) : ".";
  }
  return text;
}

/** The digits and candidates Explain's current step starts from. */
export function explainPosition(g: Game): { values: number[]; marks: number[] } | null {
  const x = g.explain;
  if (!x) return null;
  const values = x.values.slice();
  const crossed = zeros();
  for (const step of x.steps.slice(0, x.index)) {
    for (const e of step.eliminations) if (e.digit) crossed[candidateCell(e)] |= bit(e.digit);
    for (const p of step.placements) if (p.digit) values[candidateCell(p)] = p.digit;
  }
  const marks = values.map((v, cell) =>
    v ? 0 : (x.marks[cell] || candidatesOf(values, cell)) & candidatesOf(values, cell) & ~crossed[cell],
  );
  return { values, marks };
}

/** The step on show (the hint's, or Explain's current one), with its level
 * and branch. */
export function shownStep(g: Game): Shown | null {
  if (g.explain) {
    const x = g.explain;
    return { step: x.steps[x.index], level: x.level, branch: x.branch };
  }
  return g.hint;
}

// ---------------------------------------------------------------- clock

/** Starts or stops the clock to match the state: it runs while the game
 * is on, unpaused, unfinished, visible and not being explained. */
function settleClock(g: Game, now: number): Game {
  const run = !g.paused && !g.finished && !g.away && !g.explain;
  if (run && g.runningSince === null) return { ...g, runningSince: now };
  if (!run && g.runningSince !== null) {
    return { ...g, elapsedMs: elapsed(g, now), runningSince: null };
  }
  return g;
}

// ---------------------------------------------------------------- editing

type CellTuple = [number, number, number, number, number];

const tupleOf = (g: Game, cell: Cell): CellTuple => [
  g.values[cell],
  g.centre[cell],
  g.corner[cell],
  g.colour[cell],
  g.excluded[cell],
];

/** An edit in progress: cells are changed on copies, and each change is
 * recorded for the history. */
class Edit {
  readonly values: number[];
  readonly centre: number[];
  readonly corner: number[];
  readonly colour: number[];
  readonly excluded: number[];
  private readonly before = new Map<Cell, CellTuple>();

  constructor(private readonly g: Game) {
    this.values = g.values.slice();
    this.centre = g.centre.slice();
    this.corner = g.corner.slice();
    this.colour = g.colour.slice();
    this.excluded = g.excluded.slice();
  }

  set(cell: Cell, parts: Partial<{ value: number; centre: number; corner: number; colour: number; excluded: number }>): void {
    if (!this.before.has(cell)) this.before.set(cell, tupleOf(this.g, cell));
    if (parts.value !== undefined) this.values[cell] = parts.value;
    if (parts.centre !== undefined) this.centre[cell] = parts.centre;
    if (parts.corner !== undefined) this.corner[cell] = parts.corner;
    if (parts.colour !== undefined) this.colour[cell] = parts.colour;
    if (parts.excluded !== undefined) this.excluded[cell] = parts.excluded;
  }

  /** Places a digit, crossing it out of the peers' marks. */
  place(cell: Cell, digit: number): void {
    this.set(cell, { value: digit });
    for (const peer of PEERS[cell]) {
      if (this.values[peer]) continue;
      if (this.centre[peer] & bit(digit) || this.corner[peer] & bit(digit)) {
        this.set(peer, { centre: this.centre[peer] & ~bit(digit), corner: this.corner[peer] & ~bit(digit) });
      }
    }
  }

  /** The finished edit as the next state (one undo step), or the state
   * unchanged when nothing changed. */
  commit(now: number, note = ""): Game {
    const changes: Change[] = [];
    for (const [cell, before] of this.before) {
      const after: CellTuple = [this.values[cell], this.centre[cell], this.corner[cell], this.colour[cell], this.excluded[cell]];
      if (after.some((v, i) => v !== before[i])) changes.push([cell, ...before, ...after]);
    }
    if (!changes.length) return this.g;
    const undo = this.g.undo.concat([changes]).slice(-HISTORY_LIMIT);
    const next: Game = {
      ...this.g,
      values: this.values,
      centre: this.centre,
      corner: this.corner,
      colour: this.colour,
      excluded: this.excluded,
      undo,
      redo: [],
    };
    return afterChange(next, now, note);
  }
}

/** After the grid changed: the hint and wrong marks go, and the game may
 * be finished. */
function afterChange(g: Game, now: number, note: string): Game {
  let next: Game = { ...g, hint: null, wrong: [], note };
  if (isSolved(next)) {
    next = settleClock({ ...next, finished: true }, now);
    next.note = `Solved in ${formatTime(next.elapsedMs)}. Well done!`;
  } else if (isFull(next)) {
    next.note = "Every cell is filled, but something is not right yet.";
  }
  return next;
}

/** The cells of the selection a digit or erase may change. */
const editable = (g: Game): Cell[] => g.selection.filter((cell) => !isGiven(g, cell));

function input(g: Game, digit: number, mode: Mode, now: number): Game {
  const edit = new Edit(g);
  if (mode === "colour") {
    // Givens may be coloured too.
    const all = g.selection.every((c) => g.colour[c] === digit);
    for (const c of g.selection) edit.set(c, { colour: all ? 0 : digit });
    return edit.commit(now);
  }
  const cells = editable(g);
  if (!cells.length) return g;
  if (mode === "normal") {
    // Typing the digit a cell already has clears it.
    const all = cells.every((c) => g.values[c] === digit);
    for (const c of cells) {
      if (all) edit.set(c, { value: 0 });
      else if (g.values[c] !== digit) edit.place(c, digit);
    }
    return edit.commit(now);
  }
  const empty = cells.filter((c) => !g.values[c]);
  if (!empty.length) return g;
  const marks = mode === "centre" ? g.centre : g.corner;
  const all = empty.every((c) => marks[c] & bit(digit));
  for (const c of empty) {
    const mask = all ? marks[c] & ~bit(digit) : marks[c] | bit(digit);
    if (mode === "centre") {
      // A candidate the player writes back is theirs again.
      edit.set(c, { centre: mask, excluded: all ? g.excluded[c] : g.excluded[c] & ~bit(digit) });
    } else {
      edit.set(c, { corner: mask });
    }
  }
  return edit.commit(now);
}

/** Clears the selection: a digit first, else the marks, else the colour. */
function erase(g: Game, now: number): Game {
  const cells = editable(g);
  const edit = new Edit(g);
  if (cells.some((c) => g.values[c])) {
    for (const c of cells) if (g.values[c]) edit.set(c, { value: 0 });
  } else if (cells.some((c) => g.centre[c] || g.corner[c])) {
    for (const c of cells) edit.set(c, { centre: 0, corner: 0 });
  } else {
    // Colours are on givens too.
    for (const c of g.selection) edit.set(c, { colour: 0 });
  }
  return edit.commit(now);
}

function fill(g: Game, now: number): Game {
  const edit = new Edit(g);
  for (let cell = 0; cell < 81; cell++) {
    if (!g.values[cell]) edit.set(cell, { centre: candidatesOf(g.values, cell) & ~g.excluded[cell] });
  }
  return edit.commit(now);
}

/** Applies the shown step: placements placed, eliminations crossed out of
 * the cells' candidates. A cell without candidates gets none written: the
 * digit is only remembered as excluded. */
function apply(g: Game, now: number): Game {
  const shown = g.hint;
  if (!shown) return g;
  const edit = new Edit(g);
  const unmarked: string[] = [];
  for (const e of shown.step.eliminations) {
    const cell = candidateCell(e);
    if (!e.digit || g.values[cell] || isGiven(g, cell)) continue;
    if (g.centre[cell]) edit.set(cell, { centre: g.centre[cell] & ~bit(e.digit) });
    else if (!unmarked.includes(cellName(cell))) unmarked.push(cellName(cell));
    edit.set(cell, { excluded: edit.excluded[cell] | bit(e.digit) });
  }
  for (const p of shown.step.placements) {
    const cell = candidateCell(p);
    if (p.digit && !isGiven(g, cell)) edit.place(cell, p.digit);
  }
  let note = "Hint applied. Undo takes it back.";
  if (unmarked.length) {
    note += ` ${unmarked.join(", ")} had no candidates written, so none were added; Hint and Fill in all candidates leave out what it crossed out.`;
  }
  const next = edit.commit(now, note);
  return next === g ? { ...g, hint: null, note: "Nothing to apply: the grid already has it." } : next;
}

function travel(g: Game, now: number, back: boolean): Game {
  const from = back ? g.undo : g.redo;
  const action = from[from.length - 1];
  if (!action) return g;
  const values = g.values.slice();
  const centre = g.centre.slice();
  const corner = g.corner.slice();
  const colour = g.colour.slice();
  const excluded = g.excluded.slice();
  for (const change of action) {
    const [cell] = change;
    const at = back ? 1 : 6;
    values[cell] = change[at];
    centre[cell] = change[at + 1];
    corner[cell] = change[at + 2];
    colour[cell] = change[at + 3];
    excluded[cell] = change[at + 4];
  }
  const rest = from.slice(0, -1);
  const other = (back ? g.redo : g.undo).concat([action]);
  const next: Game = {
    ...g,
    values,
    centre,
    corner,
    colour,
    excluded,
    undo: back ? rest : other,
    redo: back ? other : rest,
  };
  return afterChange(next, now, "");
}

// ---------------------------------------------------------------- update

const clampCell = (cell: number): Cell => Math.max(0, Math.min(80, Math.trunc(cell)));

export function update(g: Game, action: Action, now: number): Game {
  switch (action.type) {
    case "select": {
      const cell = clampCell(action.cell);
      if (action.extend) {
        const has = g.selection.includes(cell);
        const selection = has && g.selection.length > 1 ? g.selection.filter((c) => c !== cell) : has ? g.selection : g.selection.concat(cell);
        return { ...g, selection, cursor: cell, digit: 0 };
      }
      return { ...g, selection: [cell], cursor: cell, digit: 0 };
    }
    case "drag": {
      const cell = clampCell(action.cell);
      if (g.selection.includes(cell)) return g.cursor === cell ? g : { ...g, cursor: cell };
      return { ...g, selection: g.selection.concat(cell), cursor: cell };
    }
    case "move": {
      const row = Math.max(0, Math.min(8, rowOf(g.cursor) + action.rows));
      const column = Math.max(0, Math.min(8, colOf(g.cursor) + action.columns));
      const cell = row * 9 + column;
      const selection = action.extend ? (g.selection.includes(cell) ? g.selection : g.selection.concat(cell)) : [cell];
      return { ...g, cursor: cell, selection, digit: 0 };
    }
    case "selectNone":
      return { ...g, selection: [] };
    case "input":
      if (!canEdit(g) || action.digit < 1 || action.digit > 9) return g;
      return input(g, action.digit, action.mode ?? g.mode, now);
    case "erase":
      return canEdit(g) ? erase(g, now) : g;
    case "mode":
      return { ...g, mode: action.mode };
    case "highlight":
      return { ...g, digit: action.digit === g.digit ? 0 : action.digit };
    case "fill":
      return canEdit(g) ? fill(g, now) : g;
    case "undo":
    case "redo":
      return canEdit(g) ? travel(g, now, action.type === "undo") : g;
    case "pause":
      if (g.finished || g.paused) return g;
      return settleClock({ ...g, paused: true, note: "" }, now);
    case "resume":
      return g.paused ? settleClock({ ...g, paused: false }, now) : g;
    case "visible":
      return settleClock({ ...g, away: !action.visible }, now);
    case "restart": {
      const fresh = newGame(g.givens, g.solution);
      return settleClock({ ...fresh, mode: g.mode, away: g.away, note: "Restarted: the givens only, the clock at zero." }, now);
    }
    case "hint":
      if (g.finished) return g;
      return settleClock({ ...g, hint: { step: action.step, level: 1, branch: 0 }, explain: null, wrong: [], note: "" }, now);
    case "level":
      if (g.explain) return { ...g, explain: { ...g.explain, level: action.level } };
      return g.hint ? { ...g, hint: { ...g.hint, level: action.level } } : g;
    case "branch": {
      const shown = shownStep(g);
      if (!shown) return g;
      const count = shown.step.branches.length;
      const branch = Math.max(0, Math.min(count - 1, action.index));
      if (g.explain) return { ...g, explain: { ...g.explain, branch } };
      return { ...g, hint: { ...shown, branch } };
    }
    case "apply":
      return canEdit(g) && g.hint ? apply(g, now) : g;
    case "close":
      return settleClock({ ...g, hint: null, explain: null, note: "" }, now);
    case "wrong":
      return { ...g, wrong: action.cells.slice(), hint: null, note: action.note };
    case "explain": {
      if (!action.steps.length) return g;
      const fromGivens = action.fromGivens;
      const values = fromGivens ? g.givens.slice() : g.values.slice();
      const marks = fromGivens ? zeros() : g.values.map((v, cell) => (v ? 0 : g.centre[cell] & ~g.excluded[cell]));
      const explain: Explaining = { steps: action.steps, index: 0, level: 3, branch: 0, fromGivens, values, marks };
      return settleClock({ ...g, explain, hint: null, wrong: [], note: "" }, now);
    }
    case "step": {
      const x = g.explain;
      if (!x) return g;
      const index = Math.max(0, Math.min(x.steps.length - 1, x.index + action.delta));
      return index === x.index ? g : { ...g, explain: { ...x, index, branch: 0 } };
    }
  }
}

// ---------------------------------------------------------------- saving

/** What is kept of a game between visits (with the puzzle's own record). */
export interface SavedBoard {
  values: number[];
  centre: number[];
  corner: number[];
  colour: number[];
  excluded: number[];
  undo: Change[][];
  redo: Change[][];
  elapsedMs: number;
  mode: Mode;
}

export function saveBoard(g: Game, now: number): SavedBoard {
  return {
    values: g.values,
    centre: g.centre,
    corner: g.corner,
    colour: g.colour,
    excluded: g.excluded,
    undo: g.undo,
    redo: g.redo,
    elapsedMs: Math.round(elapsed(g, now)),
    mode: g.mode,
  };
}

const isCells = (a: unknown): a is number[] =>
  Array.isArray(a) && a.length === 81 && a.every((n) => Number.isInteger(n) && n >= 0 && n <= ALL_MARKS);
const isHistory = (a: unknown): a is Change[][] =>
  Array.isArray(a) &&
  a.every((step) => Array.isArray(step) && step.every((c) => Array.isArray(c) && c.length === 11 && c.every(Number.isInteger)));

/** A game from what was saved; anything unreadable is left out. */
export function restoreGame(givens: readonly number[], solution: string, saved: Partial<SavedBoard> | null | undefined): Game {
  const g = newGame(givens, solution);
  if (!saved) return g;
  // Given cells keep their digit and have no marks; any cell may be coloured.
  const keep = (a: unknown, max: number, onGiven: (cell: Cell) => number): number[] | null =>
    isCells(a) ? a.map((n, cell) => (givens[cell] ? onGiven(cell) : Math.min(n, max))) : null;
  g.values = keep(saved.values, 9, (cell) => givens[cell]) ?? g.values;
  g.centre = keep(saved.centre, ALL_MARKS, () => 0) ?? g.centre;
  g.corner = keep(saved.corner, ALL_MARKS, () => 0) ?? g.corner;
  g.colour = isCells(saved.colour) ? saved.colour.map((n) => Math.min(n, 9)) : g.colour;
  g.excluded = keep(saved.excluded, ALL_MARKS, () => 0) ?? g.excluded;
  if (isHistory(saved.undo) && isHistory(saved.redo)) {
    g.undo = saved.undo;
    g.redo = saved.redo;
  }
  g.elapsedMs = typeof saved.elapsedMs === "number" && saved.elapsedMs >= 0 ? saved.elapsedMs : 0;
  if (saved.mode === "normal" || saved.mode === "centre" || saved.mode === "corner" || saved.mode === "colour") g.mode = saved.mode;
  g.finished = isSolved(g);
  if (g.finished) g.note = `Solved in ${formatTime(g.elapsedMs)}. Well done!`;
  return g;
}

// ---------------------------------------------------------------- words

export function formatTime(ms: number): string {
  const s = Math.floor(ms / 1000);
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`;
}

export { digitsOf };
