// The page: a Sudoku to play, with help from the service.

import {
  Board,
  bit,
  candidateCell,
  candidatesOf,
  cellName,
  cellsInError,
  cellsText,
  colOf,
  conflicts,
  digitsOf,
  PEERS,
  parseCells,
  rowOf,
  scanPuzzle,
  type Candidate,
  type Cell,
  type Snapshot,
} from "./board";
import { describeFailure, explain, generate, hint, Level, solve } from "./api";
import { Outcome, type Grade, type Step } from "./gen/sudoku_pb";

// ---------------------------------------------------------------- elements

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing`);
  return el as T;
};

const gridEl = $("grid");
const levelSelect = $<HTMLSelectElement>("level");
const aboutEl = $("about");
const timerEl = $("timer");
const messageEl = $("message");
const alertEl = $("alert");
const alertText = $("alert-text");
const pencilButton = $<HTMLButtonElement>("pencil");
const undoButton = $<HTMLButtonElement>("undo");
const redoButton = $<HTMLButtonElement>("redo");
const stepPanel = $("step-panel");
const stepTitle = $("step-title");
const stepText = $("step-text");
const prevButton = $<HTMLButtonElement>("explain-prev");
const nextButton = $<HTMLButtonElement>("explain-next");
const applyButton = $<HTMLButtonElement>("apply");
const puzzleText = $<HTMLTextAreaElement>("puzzle-text");
const actionButtons = ["new", "load", "hint", "check", "explain"].map((id) => $<HTMLButtonElement>(id));

// ---------------------------------------------------------------- state

const LEVELS: Record<string, Level> = {
  easy: Level.EASY,
  medium: Level.MEDIUM,
  hard: Level.HARD,
  diabolical: Level.DIABOLICAL,
};
const LEVEL_NAMES: Record<number, string> = {
  [Level.EASY]: "Easy",
  [Level.MEDIUM]: "Medium",
  [Level.HARD]: "Hard",
  [Level.DIABOLICAL]: "Diabolical",
};

interface GradeInfo {
  rating: number;
  level: number;
  hardest: string;
}

/** A puzzle being played, as kept in localStorage. */
interface Game {
  /** Identifies the puzzle: `seed:LEVEL:SEED` or `puzzle:GIVENS`. */
  key: string;
  /** The URL query that reproduces it. */
  query: string;
  givens: string;
  /** Empty unless the puzzle has exactly one solution. */
  solution: string;
  outcome: number;
  grade: GradeInfo | null;
  elapsedMs: number;
}

interface Highlights {
  pattern: Candidate[];
  placements: Candidate[];
  eliminations: Candidate[];
  /** Cells marked as wrong (a mistake, or where a puzzle's text is bad). */
  wrong: Cell[];
}

const NO_HIGHLIGHTS: Highlights = { pattern: [], placements: [], eliminations: [], wrong: [] };

/** What the grid shows: the player's board, a step of an explanation, or
 * a pasted puzzle the service refused. */
type Mode =
  | { kind: "play" }
  | { kind: "explain"; steps: Step[]; index: number }
  | { kind: "preview"; cells: number[] };

const STORAGE_KEY = "sudoku-grpc.game";
/** Seeds are uint64 on the wire. */
const MAX_SEED = 2n ** 64n - 1n;

let game: Game | null = null;
let board = new Board(new Array<number>(81).fill(0));
let mode: Mode = { kind: "play" };
let highlights: Highlights = NO_HIGHLIGHTS;
/** The hint on show, which Apply applies. */
let shownHint: Step | null = null;
let selected: Cell = 0;
let pencil = false;
let busy = false;
let retry: (() => void) | null = null;
let clockStart = 0; // performance.now() when the timer last resumed; 0 while stopped

// ---------------------------------------------------------------- grid

const cellEls: HTMLElement[] = [];

function buildGrid(): void {
  const rows: HTMLElement[] = [];
  for (let r = 0; r < 9; r++) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    row.setAttribute("aria-rowindex", String(r + 1));
    for (let c = 0; c < 9; c++) {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.setAttribute("role", "gridcell");
      cell.setAttribute("aria-colindex", String(c + 1));
      cell.dataset.cell = String(r * 9 + c);
      cell.tabIndex = -1;
      row.appendChild(cell);
      cellEls.push(cell);
    }
    rows.push(row);
  }
  gridEl.replaceChildren(...rows);
}

/** The digits and marks the grid shows in the current mode. */
function view(): { values: number[]; marks: number[]; errors: Set<Cell> } {
  if (mode.kind === "explain") {
    const values = board.givens.slice();
    const crossed = new Array<number>(81).fill(0);
    for (const step of mode.steps.slice(0, mode.index)) {
      for (const e of step.eliminations) if (e.digit) crossed[candidateCell(e)] |= bit(e.digit);
      for (const p of step.placements) if (p.digit) values[candidateCell(p)] = p.digit;
    }
    const marks = values.map((v, cell) => (v ? 0 : candidatesOf(values, cell) & ~crossed[cell]));
    return { values, marks, errors: conflicts(values) };
  }
  if (mode.kind === "preview") {
    const values = mode.cells.concat(new Array<number>(81).fill(0)).slice(0, 81);
    return { values, marks: new Array<number>(81).fill(0), errors: conflicts(values) };
  }
  return { values: board.values, marks: board.marks, errors: conflicts(board.values) };
}

function render(): void {
  const { values, marks, errors } = view();
  const givens = mode.kind === "preview" ? values : board.givens;
  const selectedDigit = values[selected];
  const peers = new Set(PEERS[selected]);
  const byCell = (list: Candidate[]) => {
    const map = new Map<Cell, number>(); // cell -> mask of digits (bit 0 of 1<<9 for "whole cell")
    for (const c of list) {
      const cell = candidateCell(c);
      map.set(cell, (map.get(cell) ?? 0) | (c.digit ? bit(c.digit) : 1 << 9));
    }
    return map;
  };
  const pattern = byCell(highlights.pattern);
  const placements = byCell(highlights.placements);
  const eliminations = byCell(highlights.eliminations);
  const wrong = new Set(highlights.wrong);

  for (let cell = 0; cell < 81; cell++) {
    const el = cellEls[cell];
    const value = values[cell];
    const given = givens[cell] !== 0;
    const patternMask = pattern.get(cell) ?? 0;
    const placeMask = placements.get(cell) ?? 0;
    const elimMask = eliminations.get(cell) ?? 0;
    const cls = ["cell"];
    if (given) cls.push("given");
    if (cell === selected) cls.push("selected");
    else if (peers.has(cell)) cls.push("peer");
    if (selectedDigit && value === selectedDigit) cls.push("same");
    if (errors.has(cell)) cls.push("conflict");
    if (wrong.has(cell)) cls.push("wrong");
    if (patternMask) cls.push("pat");
    if (placeMask) cls.push("place");
    if (elimMask) cls.push("elim");
    el.className = cls.join(" ");
    el.tabIndex = cell === selected ? 0 : -1;
    el.setAttribute("aria-selected", String(cell === selected));
    if (given || mode.kind !== "play") el.setAttribute("aria-readonly", "true");
    else el.removeAttribute("aria-readonly");

    let label = `Row ${rowOf(cell) + 1}, column ${colOf(cell) + 1}, `;
    if (value) {
      label += `${value}${given ? ", given" : ""}`;
      el.replaceChildren(textSpan("v", String(value)));
    } else {
      // Digits the hint talks about show even where the player has no mark.
      const shown = marks[cell] | ((patternMask | placeMask | elimMask) & 0x1ff);
      label += "empty";
      if (marks[cell]) label += `, candidates ${digitsOf(marks[cell]).join(" ")}`;
      if (shown) {
        const box = document.createElement("span");
        box.className = "marks";
        for (let d = 1; d <= 9; d++) {
          const slot = document.createElement("span");
          if (shown & bit(d)) {
            slot.textContent = String(d);
            const slotCls: string[] = [];
            if (patternMask & bit(d)) slotCls.push("pat");
            if (placeMask & bit(d)) slotCls.push("place");
            if (elimMask & bit(d)) slotCls.push("elim");
            if (selectedDigit === d) slotCls.push("same");
            if (slotCls.length) slot.className = slotCls.join(" ");
          }
          // Spaces between the digits (which the grid's layout ignores)
          // keep the visible text "1 2 4", as the label says it.
          box.append(slot, " ");
        }
        el.replaceChildren(box);
      } else {
        el.replaceChildren();
      }
    }
    if (errors.has(cell)) label += ", conflict";
    if (wrong.has(cell)) label += ", marked wrong";
    if (placeMask) label += `, hint places ${digitsOf(placeMask).join(" ")}`;
    if (elimMask) label += `, hint removes ${digitsOf(elimMask).join(" ")}`;
    else if (patternMask) label += ", in the hint's pattern";
    el.setAttribute("aria-label", label);
  }

  const solvedNow = isSolved();
  gridEl.classList.toggle("solved", solvedNow && mode.kind === "play");
  gridEl.classList.toggle("explaining", mode.kind === "explain");
  undoButton.disabled = !board.canUndo || mode.kind !== "play";
  redoButton.disabled = !board.canRedo || mode.kind !== "play";
  pencilButton.setAttribute("aria-pressed", String(pencil));
  document.body.classList.toggle("pencil", pencil);
}

function textSpan(cls: string, text: string): HTMLElement {
  const span = document.createElement("span");
  span.className = cls;
  span.textContent = text;
  return span;
}

function select(cell: Cell, focus = true): void {
  selected = Math.max(0, Math.min(80, cell));
  render();
  if (focus) cellEls[selected].focus();
}

// ---------------------------------------------------------------- playing

function isSolved(): boolean {
  return !!game?.solution && board.isFull() && cellsText(board.values) === game.solution;
}

/** After every change to the board: keep it, redraw it, and see if it is
 * finished. */
function changed(): void {
  highlights = NO_HIGHLIGHTS;
  shownHint = null;
  if (mode.kind === "play") stepPanel.hidden = true;
  render();
  if (isSolved()) {
    stopClock();
    say(`Solved in ${formatTime(game?.elapsedMs ?? 0)}. Well done!`);
    messageEl.classList.add("good");
  } else {
    startClock();
    if (board.isFull()) say("Every cell is filled, but something is not right yet.");
    else say("");
  }
  save();
}

function input(digit: number, asMark = pencil): void {
  if (mode.kind !== "play" || !game) return;
  const cell = selected;
  const did = digit === 0 ? board.clear(cell) : asMark ? board.toggleMark(cell, digit) : board.place(cell, digit);
  if (did) changed();
}

function undo(): void {
  if (mode.kind === "play" && board.undo()) changed();
}
function redo(): void {
  if (mode.kind === "play" && board.redo()) changed();
}

function togglePencil(): void {
  pencil = !pencil;
  render();
  say(pencil ? "Pencil-mark mode on: digits toggle marks." : "Pencil-mark mode off: digits place.");
}

function onGridKey(event: KeyboardEvent): void {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const moves: Record<string, number> = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 };
  const move = moves[event.key];
  if (move !== undefined) {
    const row = rowOf(selected);
    const col = colOf(selected);
    if ((move === -1 && col > 0) || (move === 1 && col < 8) || (move === -9 && row > 0) || (move === 9 && row < 8)) {
      select(selected + move);
    }
    event.preventDefault();
    return;
  }
  if (event.key === "Home") return (event.preventDefault(), select(selected - colOf(selected)));
  if (event.key === "End") return (event.preventDefault(), select(selected - colOf(selected) + 8));
  // Digits by physical key too, so that Shift+digit (a pencil mark) works
  // on any layout.
  const fromCode = /^(?:Digit|Numpad)([0-9])$/.exec(event.code);
  const digit = /^[0-9]$/.test(event.key) ? Number(event.key) : fromCode ? Number(fromCode[1]) : -1;
  if (digit >= 1) {
    input(digit, event.shiftKey ? true : pencil);
    event.preventDefault();
  } else if (event.key === "Delete" || event.key === "Backspace" || digit === 0) {
    input(0);
    event.preventDefault();
  }
}

function onDocumentKey(event: KeyboardEvent): void {
  const target = event.target as HTMLElement | null;
  if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
  const key = event.key.toLowerCase();
  if ((event.ctrlKey || event.metaKey) && !event.altKey) {
    if (key === "z" && !event.shiftKey) return (event.preventDefault(), undo());
    if (key === "y" || (key === "z" && event.shiftKey)) return (event.preventDefault(), redo());
    return;
  }
  if (key === "p" && !event.altKey) {
    event.preventDefault();
    togglePencil();
  }
}

// ---------------------------------------------------------------- timer

function elapsed(): number {
  if (!game) return 0;
  return game.elapsedMs + (clockStart ? performance.now() - clockStart : 0);
}

function startClock(): void {
  if (!clockStart && game && !isSolved() && document.visibilityState === "visible") {
    clockStart = performance.now();
  }
}

function stopClock(): void {
  if (game && clockStart) game.elapsedMs = elapsed();
  clockStart = 0;
  tick();
}

function tick(): void {
  timerEl.textContent = formatTime(elapsed());
}

function formatTime(ms: number): string {
  const s = Math.floor(ms / 1000);
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`;
}

// ---------------------------------------------------------------- storage

interface Saved extends Game {
  version: 1;
  board: Snapshot;
}

function save(): void {
  if (!game) return;
  const saved: Saved = { ...game, elapsedMs: elapsed(), version: 1, board: board.snapshot() };
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(saved));
  } catch {
    // storage full or disabled: play on without it
  }
}

function loadSaved(): Saved | null {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as Saved | null;
    if (saved && saved.version === 1 && typeof saved.givens === "string" && saved.givens.length === 81) {
      return saved;
    }
  } catch {
    // unreadable: start afresh
  }
  return null;
}

// ---------------------------------------------------------------- games

function startGame(next: Game, snapshot?: Snapshot): void {
  const first = game === null;
  stopClock();
  gridEl.classList.remove("refused");
  game = next;
  board = new Board(parseCells(next.givens), snapshot);
  mode = { kind: "play" };
  highlights = NO_HIGHLIGHTS;
  shownHint = null;
  stepPanel.hidden = true;
  selected = board.givens.findIndex((v) => v === 0);
  if (selected < 0) selected = 0;
  if (location.search !== next.query) {
    // A new puzzle is a new page in the history; the first one replaces
    // the bare address it was loaded from.
    const url = next.query || location.pathname;
    if (first) history.replaceState(null, "", url);
    else history.pushState(null, "", url);
  }
  const grade = next.grade;
  const parts: string[] = [];
  if (grade) {
    parts.push(LEVEL_NAMES[grade.level] ?? "Unrated");
    parts.push(`rating ${grade.rating.toFixed(1)}`);
    if (grade.hardest) parts.push(`hardest step: ${grade.hardest}`);
  } else if (next.outcome === Outcome.MULTIPLE_SOLUTIONS) {
    parts.push("Several solutions");
  } else if (next.outcome === Outcome.NO_SOLUTION) {
    parts.push("No solution");
  }
  aboutEl.textContent = parts.join(" · ");
  if (grade && LEVEL_NAMES[grade.level]) levelSelect.value = LEVEL_NAMES[grade.level].toLowerCase();
  tick();
  changed();
  if (next.outcome === Outcome.MULTIPLE_SOLUTIONS) {
    say("This puzzle has more than one solution, so there is no single answer to reach, and no hints.");
  } else if (next.outcome === Outcome.NO_SOLUTION) {
    say("This puzzle has no solution: its givens do not conflict, but no way of filling the grid works.");
  }
  performance.mark("puzzle-shown");
}

function gradeInfo(grade: Grade | undefined): GradeInfo | null {
  return grade ? { rating: grade.rating, level: grade.level, hardest: grade.hardestTechnique } : null;
}

/** A generated puzzle; `seed` 0 asks for a fresh one. */
async function newPuzzle(levelName: string, seed: bigint): Promise<void> {
  const level = Object.hasOwn(LEVELS, levelName) ? LEVELS[levelName] : Level.UNSPECIFIED;
  const query = (s: bigint) =>
    level === Level.UNSPECIFIED ? `?seed=${s}` : `?level=${levelName}&seed=${s}`;
  if (seed !== 0n) {
    const saved = loadSaved();
    const key = `seed:${level}:${seed}`;
    if (saved && saved.key === key) return startGame(saved, saved.board);
  }
  await call(`Making ${levelName ? `a ${levelName}` : "a"} puzzle…`, async () => {
    const made = await generate(level, seed);
    startGame({
      key: `seed:${level}:${made.seed}`,
      query: query(made.seed),
      givens: made.puzzle.replace(/0/g, "."),
      solution: made.solution,
      outcome: Outcome.SOLVED,
      grade: gradeInfo(made.grade),
      elapsedMs: 0,
    });
  }, () => void newPuzzle(levelName, seed));
}

/** A puzzle from its text, judged by the service. */
async function enterPuzzle(text: string, fromUrl = false): Promise<void> {
  const scanned = scanPuzzle(text);
  const givens = cellsText(scanned.cells);
  const saved = loadSaved();
  if (fromUrl && saved && saved.key === `puzzle:${givens}` && scanned.cells.length === 81) {
    return startGame(saved, saved.board);
  }
  await call("Checking the puzzle…", async () => {
    try {
      const solved = await solve(text);
      startGame({
        key: `puzzle:${givens}`,
        query: `?puzzle=${givens}`,
        givens,
        solution: solved.outcome === Outcome.SOLVED ? solved.solution : "",
        outcome: solved.outcome,
        grade: solved.outcome === Outcome.SOLVED ? gradeInfo(solved.grade) : null,
        elapsedMs: 0,
      });
      ($<HTMLDetailsElement>("enter")).open = false;
    } catch (reason) {
      const failure = describeFailure(reason);
      if (!failure.invalid) throw reason;
      // Show what was read, with the cells the message points at.
      stopClock();
      mode = { kind: "preview", cells: scanned.cells };
      highlights = { ...NO_HIGHLIGHTS, wrong: cellsInError(failure.message, text) };
      stepPanel.hidden = true;
      render();
      const where = highlights.wrong.length ? ` (${highlights.wrong.map(cellName).join(", ")} marked)` : "";
      say(`That puzzle cannot be played: ${failure.message}${where}. Fix it and load it again, or make a new puzzle.`);
      gridEl.classList.add("refused");
    }
  }, () => void enterPuzzle(text, fromUrl));
}

/** Runs a call to the service with the buttons disabled, showing what
 * fails; `again` is what Retry does. */
async function call(doing: string, work: () => Promise<void>, again: () => void): Promise<void> {
  if (busy) return;
  busy = true;
  for (const b of actionButtons) b.disabled = true;
  gridEl.setAttribute("aria-busy", "true");
  gridEl.classList.remove("refused");
  hideAlert();
  if (doing) say(doing);
  try {
    await work();
  } catch (reason) {
    const failure = describeFailure(reason);
    say("");
    showAlert(failure.message, again);
  } finally {
    busy = false;
    for (const b of actionButtons) b.disabled = false;
    gridEl.removeAttribute("aria-busy");
  }
}

function showAlert(text: string, again: () => void): void {
  alertText.textContent = text;
  retry = again;
  alertEl.hidden = false;
  reveal(alertEl);
}

function hideAlert(): void {
  alertEl.hidden = true;
  retry = null;
}

function say(text: string): void {
  messageEl.textContent = text;
  messageEl.classList.remove("good");
}

/** Brings a panel into view on a small screen, where it sits below the grid. */
function reveal(el: HTMLElement): void {
  if (el.getBoundingClientRect().bottom > window.innerHeight) el.scrollIntoView({ block: "nearest" });
}

// ---------------------------------------------------------------- help

/** What a puzzle without exactly one solution can't have. */
function needsUnique(): boolean {
  if (!game) {
    say("Make or enter a puzzle first.");
    return true;
  }
  if (game.outcome !== Outcome.SOLVED) {
    say("Help needs a puzzle with exactly one solution.");
    return true;
  }
  return false;
}

function leaveSpecialModes(): void {
  if (mode.kind !== "play") {
    mode = { kind: "play" };
    gridEl.classList.remove("refused");
  }
}

function describeMistake(cell: Cell, digit: number): string {
  if (board.values[cell] === digit) return `${cellName(cell)}: ${digit} is not right`;
  return `${cellName(cell)}: ${digit} was crossed out, but the solution needs it there`;
}

async function askHint(): Promise<void> {
  leaveSpecialModes();
  if (needsUnique() || !game) return;
  const g = game;
  await call("Looking for the next step…", async () => {
    const start = performance.now();
    const answer = await hint(g.givens, board.progressText(), board.marksText());
    // The round trip, for `npm run measure`.
    performance.measure("hint-rpc", { start, end: performance.now() });
    if (game !== g) return;
    if (answer.mistake) {
      const cell = candidateCell(answer.mistake);
      showStep(null);
      highlights = { ...NO_HIGHLIGHTS, wrong: [cell] };
      render();
      say(`Fix a mistake first: ${describeMistake(cell, answer.mistake.digit)}.`);
    } else if (answer.step) {
      showStep(answer.step);
    } else if (answer.positionSolved) {
      say("The grid is already solved.");
    } else if (answer.stalledReason) {
      say(`No hint: ${answer.stalledReason}.`);
    } else {
      say("No hint for this puzzle.");
    }
  }, () => void askHint());
}

function showStep(step: Step | null): void {
  shownHint = step;
  if (!step) {
    stepPanel.hidden = true;
    return;
  }
  highlights = { pattern: step.cells, placements: step.placements, eliminations: step.eliminations, wrong: [] };
  stepTitle.textContent = `Hint: ${step.technique} (${step.rating.toFixed(1)})`;
  stepText.textContent = step.explanation;
  prevButton.hidden = nextButton.hidden = true;
  applyButton.hidden = false;
  stepPanel.hidden = false;
  say("");
  render();
  reveal(stepPanel);
}

function applyHint(): void {
  if (!shownHint || mode.kind !== "play") return;
  if (board.applyStep(shownHint.placements, shownHint.eliminations)) {
    changed();
    say("Hint applied. Undo takes it back.");
  } else {
    changed();
  }
}

async function check(): Promise<void> {
  leaveSpecialModes();
  if (needsUnique() || !game) return;
  const g = game;
  await call("Checking…", async () => {
    const answer = await hint(g.givens, board.progressText(), board.marksText());
    if (game !== g) return;
    showStep(null);
    if (answer.mistake) {
      const cell = candidateCell(answer.mistake);
      highlights = { ...NO_HIGHLIGHTS, wrong: [cell] };
      select(cell);
      say(`${describeMistake(cell, answer.mistake.digit)}.`);
    } else {
      highlights = NO_HIGHLIGHTS;
      render();
      say(isSolved() ? "Solved, with no mistakes." : "No mistakes so far.");
    }
  }, () => void check());
}

async function startExplain(): Promise<void> {
  leaveSpecialModes();
  if (needsUnique() || !game) return;
  const g = game;
  await call("Working out the whole path…", async () => {
    const answer = await explain(g.givens);
    if (game !== g) return;
    if (!answer.steps.length) {
      say("There is no path to explain.");
      return;
    }
    stopClock();
    mode = { kind: "explain", steps: answer.steps, index: 0 };
    showExplainStep();
  }, () => void startExplain());
}

function showExplainStep(): void {
  if (mode.kind !== "explain") return;
  const step = mode.steps[mode.index];
  highlights = { pattern: step.cells, placements: step.placements, eliminations: step.eliminations, wrong: [] };
  stepTitle.textContent = `Step ${mode.index + 1} of ${mode.steps.length}: ${step.technique} (${step.rating.toFixed(1)})`;
  stepText.textContent = step.explanation;
  prevButton.hidden = nextButton.hidden = false;
  prevButton.disabled = mode.index === 0;
  nextButton.disabled = mode.index === mode.steps.length - 1;
  applyButton.hidden = true;
  stepPanel.hidden = false;
  say("The grid shows the position before this step. Close returns to your game.");
  render();
  reveal(stepPanel);
}

function moveExplain(delta: number): void {
  if (mode.kind !== "explain") return;
  const index = mode.index + delta;
  if (index < 0 || index >= mode.steps.length) return;
  mode.index = index;
  showExplainStep();
}

function closePanel(): void {
  const wasExplaining = mode.kind === "explain";
  mode = { kind: "play" };
  highlights = NO_HIGHLIGHTS;
  shownHint = null;
  stepPanel.hidden = true;
  render();
  if (wasExplaining) startClock();
  say("");
  cellEls[selected].focus();
}

// ---------------------------------------------------------------- start

function loadFromUrl(): void {
  const params = new URLSearchParams(location.search);
  const seed = params.get("seed");
  const levelName = (params.get("level") ?? "").toLowerCase();
  const puzzle = params.get("puzzle");
  if (seed && /^\d{1,20}$/.test(seed) && BigInt(seed) <= MAX_SEED) {
    void newPuzzle(Object.hasOwn(LEVELS, levelName) ? levelName : "", BigInt(seed));
    return;
  }
  if (puzzle) {
    puzzleText.value = puzzle;
    void enterPuzzle(puzzle, true);
    return;
  }
  const saved = loadSaved();
  if (saved) {
    startGame(saved, saved.board);
    return;
  }
  void newPuzzle(levelSelect.value, 0n);
}

function wire(): void {
  gridEl.addEventListener("keydown", onGridKey);
  document.addEventListener("keydown", onDocumentKey);
  gridEl.addEventListener("pointerdown", (event) => {
    const el = (event.target as HTMLElement).closest<HTMLElement>("[data-cell]");
    if (el) select(Number(el.dataset.cell));
  });
  gridEl.addEventListener("focusin", (event) => {
    const el = (event.target as HTMLElement).closest<HTMLElement>("[data-cell]");
    if (el && Number(el.dataset.cell) !== selected) select(Number(el.dataset.cell), false);
  });
  $("pad").addEventListener("click", (event) => {
    const button = (event.target as HTMLElement).closest<HTMLElement>("[data-digit]");
    if (button) input(Number(button.dataset.digit));
  });
  pencilButton.addEventListener("click", togglePencil);
  undoButton.addEventListener("click", undo);
  redoButton.addEventListener("click", redo);
  $("fill").addEventListener("click", () => {
    if (mode.kind === "play" && game && board.fillCandidates()) changed();
  });
  $("new-form").addEventListener("submit", (event) => {
    event.preventDefault();
    void newPuzzle(levelSelect.value, 0n);
  });
  $("enter-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = puzzleText.value;
    if (text.trim()) void enterPuzzle(text);
  });
  $("hint").addEventListener("click", () => void askHint());
  $("check").addEventListener("click", () => void check());
  $("explain").addEventListener("click", () => void startExplain());
  applyButton.addEventListener("click", applyHint);
  prevButton.addEventListener("click", () => moveExplain(-1));
  nextButton.addEventListener("click", () => moveExplain(1));
  $("panel-close").addEventListener("click", closePanel);
  $("retry").addEventListener("click", () => {
    const again = retry;
    hideAlert();
    again?.();
  });
  window.addEventListener("popstate", loadFromUrl);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      if (mode.kind === "play") startClock();
    } else {
      stopClock();
      save();
    }
  });
  window.addEventListener("pagehide", save);
  setInterval(tick, 1000);
  setInterval(() => clockStart && save(), 5000);
}

buildGrid();
render();
performance.mark("grid-rendered");
wire();
loadFromUrl();
