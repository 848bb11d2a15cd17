// The page: renders the game (src/model.ts) and wires events to its
// actions, and talks to the service.

import {
  bit,
  candidateCell,
  cellName,
  cellsText,
  colOf,
  conflicts,
  digitsOf,
  PEERS,
  parseCells,
  readCells,
  rowOf,
  type Candidate,
  type Cell,
} from "./board";
import {
  canEdit,
  digitsLeft,
  elapsed,
  explainPosition,
  formatTime,
  hasProgress,
  marksText,
  newGame,
  progressText,
  restoreGame,
  saveBoard,
  shownStep,
  update,
  type Action,
  type Game,
  type HintLevel,
  type Mode,
  type SavedBoard,
} from "./model";
import {
  branchText,
  candidateName,
  chainTexts,
  candidatePoint,
  groupBox,
  groupName,
  emptyLayers,
  layersOf,
  LEVEL_NAMES,
  linkKindName,
  linkPath,
  whereText,
  type Layers,
} from "./steps";
import { generateSeed, parseSeed, randomSeed, MAX_SEED } from "./seed";
import { describeFailure, explain, generate, hint, Level, solve } from "./api";
import { Outcome, type Grade } from "./gen/sudoku_pb";

// ---------------------------------------------------------------- elements

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing`);
  return el as T;
};

const gridEl = $("grid");
const linksLayer = document.getElementById("links-layer") as unknown as SVGGElement;
const levelSelect = $<HTMLSelectElement>("level");
const themeSelect = $<HTMLSelectElement>("theme");
const showRating = $<HTMLInputElement>("show-rating");
const aboutEl = $("about");
const timerEl = $("timer");
const pauseButton = $<HTMLButtonElement>("pause");
const pausedEl = $("paused");
const messageEl = $("message");
const alertEl = $("alert");
const alertText = $("alert-text");
const undoButton = $<HTMLButtonElement>("undo");
const redoButton = $<HTMLButtonElement>("redo");
const fillButton = $<HTMLButtonElement>("fill");
const restartButton = $<HTMLButtonElement>("restart");
const stepPanel = $("step-panel");
const stepTitle = $("step-title");
const stepText = $("step-text");
const stepLinks = $("step-links");
const legendEl = $("legend");
const branchBar = $("branch-bar");
const branchName = $("branch-name");
const branchTextEl = $("branch-text");
const prevButton = $<HTMLButtonElement>("explain-prev");
const nextButton = $<HTMLButtonElement>("explain-next");
const applyButton = $<HTMLButtonElement>("apply");
const explainGivens = $<HTMLInputElement>("explain-givens");
const puzzleText = $<HTMLTextAreaElement>("puzzle-text");
const enterDialog = $<HTMLDialogElement>("enter-dialog");
const confirmDialog = $<HTMLDialogElement>("confirm");
const helpButtons = ["hint", "check", "explain"].map((id) => $<HTMLButtonElement>(id));
const callButtons = ["new", "load", ...["hint", "check", "explain"]].map((id) => $<HTMLButtonElement>(id));
const padButtons = [...document.querySelectorAll<HTMLButtonElement>("#pad [data-digit]")];
const modeButtons = [...document.querySelectorAll<HTMLButtonElement>("#modes [data-mode]")];
const levelButtons = [...document.querySelectorAll<HTMLButtonElement>("#step-panel [data-level]")];

// ---------------------------------------------------------------- state

const LEVELS: Record<string, Level> = {
  easy: Level.EASY,
  medium: Level.MEDIUM,
  hard: Level.HARD,
  diabolical: Level.DIABOLICAL,
  extreme: Level.EXTREME,
};
const LEVEL_LABELS: Record<number, string> = {
  [Level.EASY]: "Easy",
  [Level.MEDIUM]: "Medium",
  [Level.HARD]: "Hard",
  [Level.DIABOLICAL]: "Diabolical",
  [Level.EXTREME]: "Extreme",
};

interface GradeInfo {
  rating: number;
  level: number;
  hardest: string;
}

/** A puzzle, as kept in localStorage beside its board. */
interface Meta {
  /** Identifies the puzzle: `seed:LEVEL:SEED` or `puzzle:GIVENS`. */
  key: string;
  /** The URL query that reproduces it. */
  query: string;
  givens: string;
  /** Empty unless the puzzle has exactly one solution. */
  solution: string;
  outcome: number;
  grade: GradeInfo | null;
}

interface SavedGame {
  meta: Meta;
  board: SavedBoard;
}

/** Pasted text the service refused: what it shows, and the cells at fault. */
interface Refused {
  cells: number[];
  wrong: Cell[];
}

const GAMES_KEY = "sudoku-grpc.games";
const OLD_KEY = "sudoku-grpc.game";
const THEME_KEY = "sudoku-grpc.theme";
const RATING_KEY = "sudoku-grpc.show-rating";
/** How many games are kept, most recent first. */
const KEPT_GAMES = 8;

let meta: Meta | null = null;
let state: Game = newGame(new Array<number>(81).fill(0));
let refused: Refused | null = null;
let busy = false;
let retry: (() => void) | null = null;

const now = (): number => performance.now();

function dispatch(action: Action): void {
  if (refused || !meta) return;
  const before = state;
  state = update(state, action, now());
  if (state === before) return;
  if (state.note !== before.note || state.values !== before.values) say(state.note);
  render();
  if (state.values !== before.values || state.centre !== before.centre || state.colour !== before.colour ||
      state.corner !== before.corner || state.finished !== before.finished || state.paused !== before.paused) {
    save();
  }
}

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

/** Digits per cell of a list of candidates: a 9-bit mask, bit 9 for "the
 * whole cell". */
function byCell(list: readonly Candidate[]): Map<Cell, number> {
  const map = new Map<Cell, number>();
  for (const c of list) {
    const cell = candidateCell(c);
    map.set(cell, (map.get(cell) ?? 0) | (c.digit ? bit(c.digit) : 1 << 9));
  }
  return map;
}

const NO_LAYERS: Layers = emptyLayers();

function render(): void {
  // The clock's text follows every change at once: a game that has just
  // stopped its clock (finished, paused) shows the time it stopped at,
  // not what the last second's tick showed.
  tick();
  const shown = refused ? null : shownStep(state);
  const layers = shown ? layersOf(shown.step, shown.level, shown.branch) : NO_LAYERS;
  const position = explainPosition(state);
  const values = refused
    ? refused.cells.concat(new Array<number>(81).fill(0)).slice(0, 81)
    : position?.values ?? state.values;
  const marks = refused ? new Array<number>(81).fill(0) : position?.marks ?? state.centre;
  const givens = refused ? values : state.givens;
  const errors = conflicts(values);
  const wrong = new Set(refused ? refused.wrong : state.wrong);
  const selection = new Set(refused ? [] : state.selection);
  const cursor = state.cursor;
  const single = selection.size <= 1;
  // The cursor's digit is lit across the grid, except under a step, which
  // has its own highlights (a digit lit from the pad stays).
  const highlight = state.digit || (shown ? 0 : values[cursor]);
  // A step on show keeps the grid for its own highlights: no peers.
  const peers = new Set(single && !refused && !shown ? PEERS[cursor] : []);
  const pattern = byCell(layers.pattern);
  const witnesses = byCell(layers.witnesses);
  const placements = byCell(layers.placements);
  const eliminations = byCell(layers.eliminations);
  const linked = byCell(
    layers.links
      .flatMap((l) => [l.source, l.target, ...(l.sourceGroup ?? []), ...(l.targetGroup ?? [])])
      .filter((c): c is Candidate => !!c),
  );
  const readOnly = refused || !canEdit(state);

  for (let cell = 0; cell < 81; cell++) {
    const el = cellEls[cell];
    const value = values[cell];
    const given = givens[cell] !== 0;
    const patternMask = (pattern.get(cell) ?? 0) | (linked.get(cell) ?? 0);
    const placeMask = placements.get(cell) ?? 0;
    const elimMask = eliminations.get(cell) ?? 0;
    const colour = refused || position ? 0 : state.colour[cell];
    const cls = ["cell"];
    if (given) cls.push("given");
    if (selection.has(cell)) cls.push("selected");
    else if (peers.has(cell)) cls.push("peer");
    if (highlight && value === highlight) cls.push("same");
    if (colour) cls.push(`col${colour}`);
    if (layers.units.has(cell)) cls.push("unit");
    if (errors.has(cell)) cls.push("conflict");
    if (wrong.has(cell)) cls.push("wrong");
    if (patternMask) cls.push("pat");
    if (witnesses.has(cell)) cls.push("witness");
    if (placeMask) cls.push("place");
    if (elimMask) cls.push("elim");
    el.className = cls.join(" ");
    el.tabIndex = cell === cursor ? 0 : -1;
    el.setAttribute("aria-selected", String(selection.has(cell)));
    if (given || readOnly) el.setAttribute("aria-readonly", "true");
    else el.removeAttribute("aria-readonly");

    let label = `Row ${rowOf(cell) + 1}, column ${colOf(cell) + 1}, `;
    const parts: Node[] = [];
    if (value) {
      label += `${value}${given ? ", given" : ""}`;
      parts.push(textSpan("v", String(value)));
    } else {
      label += "empty";
      if (marks[cell]) label += `, candidates ${digitsOf(marks[cell]).join(" ")}`;
      const placeDigit = digitsOf(placeMask & 0x1ff)[0];
      if (placeDigit) {
        // A placement shows as the digit itself, large, so that it reads
        // on a phone.
        parts.push(textSpan("ghost", String(placeDigit)));
      } else {
        const show = marks[cell] | ((patternMask | elimMask) & 0x1ff);
        if (show) parts.push(marksBox(show, patternMask, elimMask, highlight));
      }
      const corner = refused || position ? 0 : state.corner[cell];
      if (corner) {
        label += `, corner marks ${digitsOf(corner).join(" ")}`;
        parts.push(textSpan("corner", digitsOf(corner).join("")));
      }
    }
    if (colour) label += `, colour ${colour}`;
    if (errors.has(cell)) label += ", conflict";
    if (wrong.has(cell)) label += ", marked wrong";
    if (placeMask) label += `, hint places ${digitsOf(placeMask).join(" ")}`;
    if (elimMask) label += `, hint removes ${digitsOf(elimMask).join(" ")}`;
    else if (patternMask) label += ", in the hint's pattern";
    if (witnesses.has(cell)) label += ", a witness";
    el.replaceChildren(...parts);
    el.setAttribute("aria-label", label);
  }
  drawLinks(layers);

  const playing = !!meta && !refused;
  gridEl.classList.toggle("solved", playing && state.finished);
  gridEl.classList.toggle("explaining", !!state.explain);
  gridEl.classList.toggle("refused", !!refused);
  gridEl.classList.toggle("paused", playing && state.paused);
  pausedEl.hidden = !(playing && state.paused);
  pauseButton.disabled = !playing || state.finished;
  pauseButton.textContent = state.paused ? "Resume" : "Pause";
  pauseButton.setAttribute("aria-pressed", String(state.paused));
  const editing = playing && canEdit(state);
  undoButton.disabled = !editing || !state.undo.length;
  redoButton.disabled = !editing || !state.redo.length;
  fillButton.disabled = !editing;
  restartButton.disabled = !playing || !hasProgress(state);
  for (const b of helpButtons) {
    b.disabled = busy || !playing || state.finished || state.paused || meta?.outcome !== Outcome.SOLVED;
  }
  for (const b of modeButtons) b.setAttribute("aria-pressed", String(b.dataset.mode === state.mode));
  document.body.classList.toggle("pencil", state.mode === "centre");
  const left = digitsLeft(state);
  for (const b of padButtons) {
    const digit = Number(b.dataset.digit);
    if (!digit) continue;
    const count = b.querySelector(".count");
    if (count) count.textContent = playing ? String(left[digit]) : "";
    const spoken = b.querySelector(".left");
    if (spoken) spoken.textContent = playing ? ` (${left[digit]} left)` : "";
    b.classList.toggle("done", playing && left[digit] === 0);
    b.classList.toggle("lit", playing && state.digit === digit);
  }
  renderPanel();
  renderAbout();
}

function marksBox(show: number, patternMask: number, elimMask: number, highlight: number): HTMLElement {
  const box = document.createElement("span");
  box.className = "marks";
  for (let d = 1; d <= 9; d++) {
    const slot = document.createElement("span");
    if (show & bit(d)) {
      slot.textContent = String(d);
      const slotCls: string[] = [];
      if (patternMask & bit(d)) slotCls.push("pat");
      if (elimMask & bit(d)) slotCls.push("elim");
      if (highlight === d) slotCls.push("same");
      if (slotCls.length) slot.className = slotCls.join(" ");
    }
    // Spaces between the digits (which the grid's layout ignores) keep the
    // visible text "1 2 4", as the label says it.
    box.append(slot, " ");
  }
  return box;
}

function textSpan(cls: string, text: string): HTMLElement {
  const span = document.createElement("span");
  span.className = cls;
  span.textContent = text;
  return span;
}

const SVG = "http://www.w3.org/2000/svg";

/** The step's links over the grid, candidate to candidate: solid for a
 * strong link, dashed for a weak one, dotted for an inference. */
function drawLinks(layers: Layers): void {
  const nodes: SVGElement[] = [];
  for (const link of layers.links) {
    const d = linkPath(link);
    if (!d) continue;
    const path = document.createElementNS(SVG, "path");
    const kind = linkKindName(link.kind);
    path.setAttribute("d", d);
    path.setAttribute("class", `link ${kind}`);
    path.setAttribute("data-link", kind);
    path.setAttribute("marker-end", "url(#arrow)");
    nodes.push(path);
    for (const group of [link.sourceGroup, link.targetGroup]) {
      if (!group || group.length < 2) continue;
      // A grouped end: a box round its candidates.
      const [x, y, width, height] = groupBox(group);
      const rect = document.createElementNS(SVG, "rect");
      for (const [name, value] of Object.entries({ x, y, width, height, rx: 12 })) rect.setAttribute(name, String(value));
      rect.setAttribute("class", "group");
      rect.setAttribute("data-group", groupName(group));
      nodes.push(rect);
    }
  }
  if (layers.assumption) {
    const [x, y] = candidatePoint(layers.assumption);
    const ring = document.createElementNS(SVG, "circle");
    ring.setAttribute("cx", String(x));
    ring.setAttribute("cy", String(y));
    ring.setAttribute("r", "15");
    ring.setAttribute("class", "assumption");
    ring.setAttribute("data-assumption", candidateName(layers.assumption));
    nodes.push(ring);
  }
  if (layers.result) {
    // Where the branch ends: a square, red for a contradiction.
    const [x, y] = candidatePoint(layers.result.candidate);
    const square = document.createElementNS(SVG, "rect");
    for (const [name, value] of Object.entries({ x: x - 15, y: y - 15, width: 30, height: 30, rx: 4 })) {
      square.setAttribute(name, String(value));
    }
    square.setAttribute("class", layers.result.contradiction ? "result contradiction" : "result");
    square.setAttribute("data-result", candidateName(layers.result.candidate));
    nodes.push(square);
  }
  for (const e of layers.eliminations) {
    if (!e.digit) continue;
    // A ring and a stroke over each eliminated candidate, readable at any
    // width.
    const [x, y] = candidatePoint(e);
    const ring = document.createElementNS(SVG, "circle");
    ring.setAttribute("cx", String(x));
    ring.setAttribute("cy", String(y));
    ring.setAttribute("r", "17");
    ring.setAttribute("class", "elim-ring");
    const cross = document.createElementNS(SVG, "path");
    // One stroke, so that the digit under it stays readable.
    cross.setAttribute("d", `M${x - 12} ${y + 12}L${x + 12} ${y - 12}`);
    cross.setAttribute("class", "cross");
    nodes.push(ring, cross);
  }
  linksLayer.replaceChildren(...nodes);
}

// ---------------------------------------------------------------- panel

function renderPanel(): void {
  const shown = refused ? null : shownStep(state);
  stepPanel.hidden = !shown;
  document.body.classList.toggle("sheet-open", !!shown);
  if (!shown) return;
  const { step, level, branch } = shown;
  const x = state.explain;
  const head = x ? `Step ${x.index + 1} of ${x.steps.length}: ` : "Hint: ";
  stepTitle.textContent = `${head}${step.technique} (${step.rating.toFixed(1)})`;
  for (const b of levelButtons) b.setAttribute("aria-pressed", String(Number(b.dataset.level) === level));
  const layers = layersOf(step, level, branch);
  let text = whereText(step);
  if (level === 2) {
    text += ` The pattern is drawn on the grid; ${LEVEL_NAMES[3].toLowerCase()} comes next.`;
  } else if (level === 3) {
    text = step.explanation || text;
  }
  stepText.textContent = text;
  const chains = level >= 2 ? chainTexts(layers.links) : [];
  stepLinks.replaceChildren(...chains.map((chain) => {
    const li = document.createElement("li");
    li.textContent = chain;
    return li;
  }));
  stepLinks.hidden = !chains.length;
  const branches = step.branches;
  branchBar.hidden = !(level >= 2 && branches.length);
  if (!branchBar.hidden) {
    branchName.textContent = `Branch ${branch + 1} of ${branches.length}`;
    branchTextEl.textContent = branchText(branches[branch]);
    $<HTMLButtonElement>("branch-prev").disabled = branch === 0;
    $<HTMLButtonElement>("branch-next").disabled = branch === branches.length - 1;
  }
  const legend: [string, string][] = [["sw-unit", "where to look"]];
  if (level >= 2) {
    legend.push(["sw-pat", "pattern"]);
    if (layers.witnesses.length) legend.push(["sw-witness", "witness"]);
    const kinds = new Set(layers.links.map((l) => linkKindName(l.kind)));
    if (kinds.has("strong")) legend.push(["sw-strong", "strong link (solid)"]);
    if (kinds.has("weak")) legend.push(["sw-weak", "weak link (dashed)"]);
    if (kinds.has("inference")) legend.push(["sw-inference", "inference (dotted)"]);
  }
  if (level >= 3 && layers.placements.length) legend.push(["sw-place", "placement"]);
  if (level >= 3 && layers.eliminations.length) legend.push(["sw-elim", "elimination"]);
  legendEl.replaceChildren(...legend.map(([cls, text]) => textSpan(`sw ${cls}`, text)));
  prevButton.hidden = nextButton.hidden = !x;
  if (x) {
    prevButton.disabled = x.index === 0;
    nextButton.disabled = x.index === x.steps.length - 1;
  }
  applyButton.hidden = !!x || level < 3;
}

function renderAbout(): void {
  if (refused) {
    aboutEl.textContent = "Not a playable puzzle";
    return;
  }
  if (!meta) return;
  const parts: string[] = [];
  const grade = meta.grade;
  if (grade) {
    parts.push(LEVEL_LABELS[grade.level] ?? "Unrated");
    if (showRating.checked) {
      parts.push(`rating ${grade.rating.toFixed(1)}`);
      if (grade.hardest) parts.push(`hardest step: ${grade.hardest}`);
    }
  } else if (meta.outcome === Outcome.MULTIPLE_SOLUTIONS) {
    parts.push("Several solutions");
  } else if (meta.outcome === Outcome.NO_SOLUTION) {
    parts.push("No solution");
  }
  aboutEl.textContent = parts.join(" · ");
  aboutEl.title = parts.join(" · ");
}

// ---------------------------------------------------------------- input

function focusGrid(): void {
  cellEls[state.cursor]?.focus();
}

/** Keys that play: digits, arrows, erase, modes, undo. Returns true when
 * the key was used. */
function playKey(event: KeyboardEvent): boolean {
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && !event.altKey) {
    const lower = key.toLowerCase();
    if (lower === "z" && !event.shiftKey) return dispatch({ type: "undo" }), true;
    if (lower === "y" || (lower === "z" && event.shiftKey)) return dispatch({ type: "redo" }), true;
    return false;
  }
  if (event.altKey) return false;
  const moves: Record<string, [number, number]> = {
    ArrowUp: [-1, 0],
    ArrowDown: [1, 0],
    ArrowLeft: [0, -1],
    ArrowRight: [0, 1],
  };
  if (moves[key]) {
    const [rows, columns] = moves[key];
    dispatch({ type: "move", rows, columns, extend: event.shiftKey });
    return true;
  }
  if (key === "Home") return dispatch({ type: "move", rows: 0, columns: -8 }), true;
  if (key === "End") return dispatch({ type: "move", rows: 0, columns: 8 }), true;
  if (key === "Escape") return dispatch({ type: "selectNone" }), true;
  // Digits by physical key too, so that Shift+digit (a candidate) works on
  // any layout.
  const fromCode = /^(?:Digit|Numpad)([0-9])$/.exec(event.code);
  const digit = /^[0-9]$/.test(key) ? Number(key) : fromCode ? Number(fromCode[1]) : -1;
  if (digit >= 1) {
    dispatch({ type: "input", digit, mode: event.shiftKey ? "centre" : undefined });
    return true;
  }
  if (key === "Delete" || key === "Backspace" || digit === 0) return dispatch({ type: "erase" }), true;
  const modes: Record<string, Mode> = { z: "normal", x: "centre", c: "corner", v: "colour" };
  const lower = key.toLowerCase();
  if (modes[lower]) return setMode(modes[lower]), true;
  if (lower === "p") return setMode(state.mode === "centre" ? "normal" : "centre"), true;
  return false;
}

function setMode(mode: Mode): void {
  dispatch({ type: "mode", mode });
  const names: Record<Mode, string> = {
    normal: "Digits place.",
    centre: "Candidate mode: digits toggle candidates.",
    corner: "Corner mode: digits toggle corner marks.",
    colour: "Colour mode: digits 1 to 9 colour the cells.",
  };
  say(names[mode]);
}

function onKey(event: KeyboardEvent): void {
  const target = event.target as HTMLElement | null;
  if (target?.closest("dialog")) return;
  if (target && (/^(TEXTAREA|SELECT)$/.test(target.tagName) ||
      (target.tagName === "INPUT" && !/^(checkbox|radio|button)$/.test((target as HTMLInputElement).type)))) {
    return;
  }
  // Space and Enter keep working on buttons; everything else plays, with
  // the focus sent back to the grid so the next keys work too.
  if (event.key === " " || event.key === "Enter" || event.key === "Tab") return;
  const inGrid = !!target && gridEl.contains(target);
  if (playKey(event)) {
    event.preventDefault();
    if (inGrid || event.key.startsWith("Arrow") || /^\d$/.test(event.key) || event.key === "Backspace" || event.key === "Delete") {
      focusGrid();
    }
  }
}

/** A button clicked with a pointer gives the focus back to the grid, so
 * that digits and arrows work straight after. */
function afterClick(event: MouseEvent): void {
  if (event.detail > 0) focusGrid();
}

let dragging = false;

function cellAt(x: number, y: number): Cell | null {
  const el = document.elementFromPoint(x, y)?.closest<HTMLElement>("[data-cell]");
  return el && gridEl.contains(el) ? Number(el.dataset.cell) : null;
}

// ---------------------------------------------------------------- timer

function tick(): void {
  timerEl.textContent = formatTime(meta && !refused ? elapsed(state, now()) : 0);
}

// ---------------------------------------------------------------- storage

function readGames(): SavedGame[] {
  try {
    const list = JSON.parse(localStorage.getItem(GAMES_KEY) ?? "[]") as SavedGame[];
    if (Array.isArray(list)) {
      return list.filter((g) => g && g.meta && typeof g.meta.key === "string" && typeof g.meta.givens === "string" && g.meta.givens.length === 81);
    }
  } catch {
    // unreadable: start afresh
  }
  return [];
}

/** The games kept, most recent first; an older page's single game joins
 * them. */
function loadGames(): SavedGame[] {
  const games = readGames();
  try {
    const old = JSON.parse(localStorage.getItem(OLD_KEY) ?? "null");
    if (old && old.version === 1 && typeof old.givens === "string" && old.givens.length === 81 && old.board) {
      if (!games.some((g) => g.meta.key === old.key)) {
        games.push({
          meta: { key: old.key, query: old.query, givens: old.givens, solution: old.solution, outcome: old.outcome, grade: old.grade },
          board: { ...saveBoard(newGame(parseCells(old.givens)), 0), values: old.board.values, centre: old.board.marks, elapsedMs: old.elapsedMs },
        });
      }
      localStorage.removeItem(OLD_KEY);
    }
  } catch {
    // nothing to carry over
  }
  return games;
}

function save(): void {
  if (!meta || refused) return;
  const board = saveBoard(state, now());
  const others = loadGames().filter((g) => g.meta.key !== meta!.key);
  // When storage is full, older games go first, then this game's history.
  const tries: SavedGame[][] = [
    [{ meta, board }, ...others.slice(0, KEPT_GAMES - 1)],
    [{ meta, board }],
    [{ meta, board: { ...board, undo: [], redo: [] } }],
  ];
  for (const games of tries) {
    try {
      localStorage.setItem(GAMES_KEY, JSON.stringify(games));
      return;
    } catch {
      // full (or disabled): try with less
    }
  }
}

const savedGame = (key: string): SavedGame | undefined => loadGames().find((g) => g.meta.key === key);

// ---------------------------------------------------------------- games

function startGame(next: Meta, board?: SavedBoard, pushUrl = true): void {
  const first = meta === null && !refused;
  if (meta && !refused) save();
  refused = null;
  meta = next;
  state = update(restoreGame(parseCells(next.givens), next.solution, board), { type: "visible", visible: document.visibilityState === "visible" }, now());
  if (pushUrl && location.search !== next.query) {
    // A new puzzle is a new page in the history; the first one replaces
    // the bare address it was loaded from.
    const url = next.query || location.pathname;
    if (first) history.replaceState(null, "", url);
    else history.pushState(null, "", url);
  }
  if (next.grade && LEVEL_LABELS[next.grade.level]) levelSelect.value = LEVEL_LABELS[next.grade.level].toLowerCase();
  say(state.note);
  if (next.outcome === Outcome.MULTIPLE_SOLUTIONS) {
    say("This puzzle has more than one solution, so there is no single answer to reach, and no hints.");
  } else if (next.outcome === Outcome.NO_SOLUTION) {
    say("This puzzle has no solution: its givens do not conflict, but no way of filling the grid works.");
  }
  render();
  tick();
  save();
  performance.mark("puzzle-shown");
}

function gradeInfo(grade: Grade | undefined): GradeInfo | null {
  return grade ? { rating: grade.rating, level: grade.level, hardest: grade.hardestTechnique } : null;
}

/** A generated puzzle from a link seed: the same seed and level always
 * give the same puzzle, and each level its own. */
async function newPuzzle(levelName: string, seed: bigint, note = ""): Promise<void> {
  const level = Object.hasOwn(LEVELS, levelName) ? LEVELS[levelName] : Level.UNSPECIFIED;
  const query = level === Level.UNSPECIFIED ? `?seed=${seed}` : `?level=${levelName}&seed=${seed}`;
  const key = `seed:${level}:${seed}`;
  const saved = savedGame(key);
  if (saved) {
    startGame(saved.meta, saved.board);
    if (note) say(note);
    return;
  }
  await call(`Making ${levelName ? `a ${levelName}` : "a"} puzzle…`, async () => {
    const made = await generate(level, generateSeed(seed, level));
    startGame({
      key,
      query,
      givens: made.puzzle.replace(/0/g, "."),
      solution: made.solution,
      outcome: Outcome.SOLVED,
      grade: gradeInfo(made.grade),
    });
    if (note) say(note);
  }, () => void newPuzzle(levelName, seed, note));
}

/** A puzzle from its text, judged by the service. */
async function enterPuzzle(text: string, fromUrl = false): Promise<void> {
  const read = readCells(text);
  const givens = cellsText(read.slice(0, 81));
  const key = `puzzle:${givens}`;
  const saved = read.length === 81 ? savedGame(key) : undefined;
  if (fromUrl && saved) return startGame(saved.meta, saved.board);
  await call("Checking the puzzle…", async () => {
    try {
      const solved = await solve(text);
      startGame({
        key,
        query: `?puzzle=${givens}`,
        givens,
        solution: solved.outcome === Outcome.SOLVED ? solved.solution : "",
        outcome: solved.outcome,
        grade: solved.outcome === Outcome.SOLVED ? gradeInfo(solved.grade) : null,
      }, saved?.board);
      if (enterDialog.open) enterDialog.close();
    } catch (reason) {
      const failure = describeFailure(reason);
      if (!failure.invalid) throw reason;
      showRefused(text, failure.message, failure.cells, fromUrl);
    }
  }, () => void enterPuzzle(text, fromUrl));
}

/** Pasted text the service refused: the game in progress is kept (saved)
 * but set aside, the grid shows the text with the cells at fault, help is
 * off, and the URL is the text's, so that Back returns to the game. */
function showRefused(text: string, message: string, wrong: Cell[], fromUrl: boolean): void {
  if (meta && !refused) {
    state = update(state, { type: "visible", visible: false }, now());
    save();
  }
  refused = { cells: readCells(text), wrong };
  const query = `?puzzle=${encodeURIComponent(text.trim())}`;
  if (location.search !== query) {
    if (fromUrl) history.replaceState(null, "", query);
    else history.pushState(null, "", query);
  }
  if (enterDialog.open) enterDialog.close();
  render();
  tick();
  const where = wrong.length ? ` (${wrong.map(cellName).join(", ")} marked)` : "";
  say(`That puzzle cannot be played: ${message}${where}. Fix it and load it again, or make a new puzzle.`);
}

/** Runs a call to the service with the buttons disabled, showing what
 * fails; `again` is what Retry does. */
async function call(doing: string, work: () => Promise<void>, again: () => void): Promise<void> {
  if (busy) return;
  busy = true;
  for (const b of callButtons) b.disabled = true;
  gridEl.setAttribute("aria-busy", "true");
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
    for (const b of callButtons) b.disabled = false;
    gridEl.removeAttribute("aria-busy");
    render();
  }
}

function showAlert(text: string, again: () => void): void {
  alertText.textContent = text;
  retry = again;
  alertEl.hidden = false;
  // Below the grid on a phone: brought into view.
  if (alertEl.getBoundingClientRect().bottom > window.innerHeight) alertEl.scrollIntoView({ block: "nearest" });
}

function hideAlert(): void {
  alertEl.hidden = true;
  retry = null;
}

function say(text: string): void {
  messageEl.textContent = text;
  messageEl.classList.toggle("good", !!meta && !refused && state.finished && text === state.note);
}

/** Asks before a new game replaces one in progress. */
function confirmAction(question: string, yes: string): Promise<boolean> {
  $("confirm-text").textContent = question;
  $("confirm-yes").textContent = yes;
  confirmDialog.returnValue = "";
  confirmDialog.showModal();
  return new Promise((done) => {
    confirmDialog.addEventListener("close", () => done(confirmDialog.returnValue === "yes"), { once: true });
  });
}

// ---------------------------------------------------------------- help

function describeMistake(values: readonly number[], cell: Cell, digit: number): string {
  if (values[cell] === digit) return `${cellName(cell)}: ${digit} is not right`;
  return `${cellName(cell)}: ${digit} was crossed out, but the solution needs it there`;
}

function helpAllowed(): boolean {
  if (!meta || refused) {
    say("Make or enter a puzzle first.");
    return false;
  }
  if (meta.outcome !== Outcome.SOLVED) {
    say("Help needs a puzzle with exactly one solution.");
    return false;
  }
  return true;
}

async function askHint(): Promise<void> {
  if (!helpAllowed()) return;
  dispatch({ type: "close" });
  const m = meta!;
  await call("Looking for the next step…", async () => {
    const start = performance.now();
    const answer = await hint(m.givens, progressText(state), marksText(state));
    // The round trip, for `npm run measure`.
    performance.measure("hint-rpc", { start, end: performance.now() });
    if (meta !== m || refused) return;
    if (answer.mistake) {
      const cell = candidateCell(answer.mistake);
      dispatch({ type: "wrong", cells: [cell], note: `Fix a mistake first: ${describeMistake(state.values, cell, answer.mistake.digit)}.` });
    } else if (answer.step) {
      dispatch({ type: "hint", step: answer.step });
      say("");
      showSheet();
    } else if (answer.positionSolved) {
      say("The grid is already solved.");
    } else if (answer.stalledReason) {
      say(`No hint: ${answer.stalledReason}.`);
    } else {
      say("No hint for this puzzle.");
    }
  }, () => void askHint());
}

async function check(): Promise<void> {
  if (!helpAllowed()) return;
  dispatch({ type: "close" });
  const m = meta!;
  await call("Checking…", async () => {
    const answer = await hint(m.givens, progressText(state), marksText(state));
    if (meta !== m || refused) return;
    if (answer.mistake) {
      const cell = candidateCell(answer.mistake);
      dispatch({ type: "wrong", cells: [cell], note: `${describeMistake(state.values, cell, answer.mistake.digit)}.` });
      dispatch({ type: "select", cell });
      focusGrid();
    } else {
      say("No mistakes so far.");
    }
  }, () => void check());
}

async function startExplain(): Promise<void> {
  if (!helpAllowed()) return;
  dispatch({ type: "close" });
  const m = meta!;
  const fromGivens = explainGivens.checked || !hasProgress(state);
  await call(fromGivens ? "Working out the whole path from the givens…" : "Working out the path from your position…", async () => {
    const answer = fromGivens ? await explain(m.givens, "", "") : await explain(m.givens, progressText(state), marksText(state));
    if (meta !== m || refused) return;
    if (answer.mistake) {
      const cell = candidateCell(answer.mistake);
      dispatch({ type: "wrong", cells: [cell], note: `Fix a mistake first: ${describeMistake(state.values, cell, answer.mistake.digit)}.` });
      return;
    }
    if (!answer.steps.length) {
      say("There is no path to explain.");
      return;
    }
    dispatch({ type: "explain", steps: answer.steps, fromGivens });
    say(fromGivens
      ? "The path from the givens; the grid shows the position before each step. Close returns to your game."
      : "The path from your position; the grid shows the position before each step. Close returns to your game.");
    showSheet();
  }, () => void startExplain());
}

/** On a narrow screen the step panel is a sheet over the lower part of
 * the screen: the grid is brought to the top so that the sheet does not
 * cover it. */
function showSheet(): void {
  if (!window.matchMedia("(max-width: 40rem)").matches) return;
  const top = gridEl.getBoundingClientRect().top;
  if (Math.abs(top) > 2) window.scrollBy({ top: top - 4, behavior: "instant" });
}

function closePanel(): void {
  dispatch({ type: "close" });
  say("");
  focusGrid();
}

// ---------------------------------------------------------------- start

async function loadFromUrl(): Promise<void> {
  if (enterDialog.open) enterDialog.close();
  const params = new URLSearchParams(location.search);
  const seedText = params.get("seed");
  const levelText = params.get("level");
  const levelName = (levelText ?? "").toLowerCase();
  const puzzle = params.get("puzzle");
  let note = "";
  if (levelText !== null && !Object.hasOwn(LEVELS, levelName)) {
    note = `The link's level "${levelText}" is not one of easy, medium, hard, diabolical or extreme. `;
  }
  if (seedText !== null) {
    const seed = parseSeed(seedText);
    if (seed !== null) return newPuzzle(note ? "" : levelName, seed, note);
    note += `The link's seed "${seedText}" is not a whole number from 0 to ${MAX_SEED}. `;
  }
  if (puzzle !== null && seedText === null) {
    puzzleText.value = puzzle;
    return enterPuzzle(puzzle, true);
  }
  if (levelText !== null || seedText !== null) {
    // A link that asks for a level (or a bad seed): a new puzzle, never
    // the saved game in its place.
    const name = Object.hasOwn(LEVELS, levelName) ? levelName : levelSelect.value;
    return newPuzzle(name, randomSeed(), note ? `${note}Here is a new ${name} puzzle instead.` : "");
  }
  const saved = loadGames()[0];
  if (saved) return startGame(saved.meta, saved.board);
  return newPuzzle(levelSelect.value, randomSeed());
}

function applyTheme(theme: string): void {
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  themeSelect.value = theme === "light" || theme === "dark" ? theme : "system";
}

function wire(): void {
  document.addEventListener("keydown", onKey);
  gridEl.addEventListener("pointerdown", (event) => {
    const cell = cellAt(event.clientX, event.clientY);
    if (cell === null) return;
    dragging = true;
    dispatch({ type: "select", cell, extend: event.ctrlKey || event.metaKey || event.shiftKey });
    focusGrid();
    event.preventDefault();
  });
  gridEl.addEventListener("pointermove", (event) => {
    if (!dragging || !event.buttons) return;
    const cell = cellAt(event.clientX, event.clientY);
    if (cell !== null && cell !== state.cursor) dispatch({ type: "drag", cell });
  });
  window.addEventListener("pointerup", () => (dragging = false));
  gridEl.addEventListener("focusin", (event) => {
    const el = (event.target as HTMLElement).closest<HTMLElement>("[data-cell]");
    if (el && Number(el.dataset.cell) !== state.cursor) dispatch({ type: "select", cell: Number(el.dataset.cell) });
  });
  $("pad").addEventListener("click", (event) => {
    const button = (event.target as HTMLElement).closest<HTMLElement>("[data-digit]");
    if (!button) return;
    const digit = Number(button.dataset.digit);
    if (digit === 0) dispatch({ type: "erase" });
    else {
      // The pad's digit is entered in the selection and lit across the grid.
      dispatch({ type: "input", digit });
      if (state.digit !== digit && state.mode !== "colour") dispatch({ type: "highlight", digit });
    }
    afterClick(event);
  });
  $("modes").addEventListener("click", (event) => {
    const button = (event.target as HTMLElement).closest<HTMLElement>("[data-mode]");
    if (button) setMode(button.dataset.mode as Mode);
    afterClick(event);
  });
  const on = (id: string, handler: (event: MouseEvent) => void) => $(id).addEventListener("click", handler);
  on("undo", (e) => (dispatch({ type: "undo" }), afterClick(e)));
  on("redo", (e) => (dispatch({ type: "redo" }), afterClick(e)));
  on("fill", (e) => (dispatch({ type: "fill" }), afterClick(e)));
  on("pause", (e) => {
    dispatch({ type: state.paused ? "resume" : "pause" });
    if (state.paused) $("resume").focus();
    else afterClick(e);
  });
  on("resume", () => (dispatch({ type: "resume" }), focusGrid()));
  on("restart", async () => {
    if (await confirmAction("Restart this puzzle? Your digits, marks and colours are cleared and the clock goes back to zero.", "Restart")) {
      dispatch({ type: "restart" });
    }
    focusGrid();
  });
  $("new-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (meta && !refused && hasProgress(state) && !state.finished) {
      const ok = await confirmAction(
        "Start a new puzzle? This game is kept: Back, or its link, brings it back with your progress.",
        "New puzzle",
      );
      if (!ok) return focusGrid();
    }
    void newPuzzle(levelSelect.value, randomSeed());
  });
  on("enter-open", () => {
    enterDialog.showModal();
    puzzleText.focus();
  });
  on("enter-cancel", () => enterDialog.close());
  $("enter-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = puzzleText.value;
    if (text.trim()) void enterPuzzle(text);
  });
  on("hint", (e) => void askHint().then(() => afterClick(e)));
  on("check", () => void check());
  on("explain", (e) => void startExplain().then(() => afterClick(e)));
  for (const b of levelButtons) {
    b.addEventListener("click", () => dispatch({ type: "level", level: Number(b.dataset.level) as HintLevel }));
  }
  on("branch-prev", () => {
    const shown = shownStep(state);
    if (shown) dispatch({ type: "branch", index: shown.branch - 1 });
  });
  on("branch-next", () => {
    const shown = shownStep(state);
    if (shown) dispatch({ type: "branch", index: shown.branch + 1 });
  });
  on("apply", (e) => (dispatch({ type: "apply" }), afterClick(e)));
  on("explain-prev", () => dispatch({ type: "step", delta: -1 }));
  on("explain-next", () => dispatch({ type: "step", delta: 1 }));
  on("panel-close", closePanel);
  on("retry", () => {
    const again = retry;
    hideAlert();
    again?.();
  });
  showRating.addEventListener("change", () => {
    localStorage.setItem(RATING_KEY, showRating.checked ? "1" : "0");
    renderAbout();
  });
  themeSelect.addEventListener("change", () => {
    localStorage.setItem(THEME_KEY, themeSelect.value);
    applyTheme(themeSelect.value);
  });
  window.addEventListener("popstate", () => void loadFromUrl());
  document.addEventListener("visibilitychange", () => {
    if (!meta || refused) return;
    state = update(state, { type: "visible", visible: document.visibilityState === "visible" }, now());
    save();
  });
  window.addEventListener("pagehide", save);
  setInterval(tick, 1000);
  setInterval(() => state.runningSince !== null && save(), 5000);
}

try {
  applyTheme(localStorage.getItem(THEME_KEY) ?? "system");
  showRating.checked = localStorage.getItem(RATING_KEY) === "1";
} catch {
  // storage disabled: the defaults
}
buildGrid();
render();
performance.mark("grid-rendered");
wire();
void loadFromUrl();
