// The player's board: givens, placements, pencil marks, and an undo
// history. Pure logic, no DOM, so that every rule lives in one place.

/** A cell index, 0..80, row-major. */
export type Cell = number;

/** Marks are 9-bit masks: bit d-1 set while digit d is pencilled in. */
export const ALL_MARKS = 0x1ff;

export const rowOf = (cell: Cell): number => Math.floor(cell / 9);
export const colOf = (cell: Cell): number => cell % 9;
export const boxOf = (cell: Cell): number =>
  Math.floor(rowOf(cell) / 3) * 3 + Math.floor(colOf(cell) / 3);
export const bit = (digit: number): number => 1 << (digit - 1);
/** "r3c5" for a cell, as the service writes it. */
export const cellName = (cell: Cell): string => `r${rowOf(cell) + 1}c${colOf(cell) + 1}`;

/** The 20 cells that share a row, column or box with each cell. */
export const PEERS: readonly (readonly Cell[])[] = Array.from({ length: 81 }, (_, cell) => {
  const peers: Cell[] = [];
  for (let other = 0; other < 81; other++) {
    if (
      other !== cell &&
      (rowOf(other) === rowOf(cell) || colOf(other) === colOf(cell) || boxOf(other) === boxOf(cell))
    ) {
      peers.push(other);
    }
  }
  return peers;
});

/** The digits of a mask, ascending. */
export function digitsOf(mask: number): number[] {
  const digits: number[] = [];
  for (let d = 1; d <= 9; d++) if (mask & bit(d)) digits.push(d);
  return digits;
}

/** 81 digits (0 = blank) from an 81-character string of digits and '.'. */
export function parseCells(text: string): number[] {
  const cells: number[] = [];
  for (const ch of text) cells.push(ch >= "1" && ch <= "9" ? ch.charCodeAt(0) - 48 : 0);
  return cells;
}

export function cellsText(cells: readonly number[]): string {
  return cells.map((v) => (v ? String(v) : ".")).join("");
}

/** The candidates a cell has from the digits placed in its peers. */
export function candidatesOf(values: readonly number[], cell: Cell): number {
  let mask = ALL_MARKS;
  for (const peer of PEERS[cell]) if (values[peer]) mask &= ~bit(values[peer]);
  return mask;
}

/** Cells whose digit appears again in a row, column or box. */
export function conflicts(values: readonly number[]): Set<Cell> {
  const found = new Set<Cell>();
  for (let cell = 0; cell < 81; cell++) {
    const v = values[cell];
    if (!v) continue;
    for (const peer of PEERS[cell]) {
      if (values[peer] === v) {
        found.add(cell);
        break;
      }
    }
  }
  return found;
}

/**
 * What the service's parser reads from puzzle text, leniently: the cells
 * (up to 81) and where each starts, so that an error the service reports
 * by line and column can be put on a cell. Mirrors src/domain/parse.rs.
 */
export interface Scanned {
  cells: number[];
  /** For each line (0-based) and column (0-based, in characters), the index
   * of the next cell to be read there. */
  cellAt(line: number, column: number): number;
}

/** Layout characters, which the service skips (besides any whitespace). */
const isLayout = (ch: string): boolean => "|-+[],\"'".includes(ch) || /\s/u.test(ch);

export function scanPuzzle(text: string): Scanned {
  const lines = text.split("\n");
  // Where each line's first cell falls; a character that is neither a
  // cell nor layout counts as a blank cell here, so that the cells after
  // it stay where the author meant them.
  const startOfLine: number[] = [];
  const cells: number[] = [];
  const isCell = (ch: string) => !isLayout(ch);
  for (const line of lines) {
    startOfLine.push(cells.length);
    for (const ch of line) {
      if (!isCell(ch)) continue;
      cells.push(ch >= "1" && ch <= "9" ? ch.charCodeAt(0) - 48 : 0);
    }
  }
  return {
    cells: cells.slice(0, 81),
    cellAt(line, column) {
      const chars = [...(lines[line] ?? "")].slice(0, column);
      return (startOfLine[line] ?? cells.length) + chars.filter(isCell).length;
    },
  };
}

/**
 * The cells an INVALID_ARGUMENT message from the service points at, given
 * the text that was sent: a bad character's cell, both cells of a
 * conflict, or where missing cells begin.
 */
export function cellsInError(message: string, text: string): Cell[] {
  const conflict = /digit \d appears at both r(\d)c(\d) and r(\d)c(\d)/.exec(message);
  if (conflict) {
    const [r1, c1, r2, c2] = conflict.slice(1).map(Number);
    return [(r1 - 1) * 9 + c1 - 1, (r2 - 1) * 9 + c2 - 1];
  }
  // "at column 5" on the first line, "at line 2, column 3" below it.
  const character = /at (?:line (\d+), )?column (\d+)/.exec(message);
  if (character) {
    const line = Number(character[1] ?? 1);
    const cell = scanPuzzle(text).cellAt(line - 1, Number(character[2]) - 1);
    return cell < 81 ? [cell] : [];
  }
  const count = /expected 81 cells .*found (\d+)/.exec(message);
  if (count) {
    const found = Number(count[1]);
    return found < 81 ? [found] : [];
  }
  return [];
}

/** One cell's before and after. */
interface Change {
  cell: Cell;
  value: [number, number];
  marks: [number, number];
}

export interface Snapshot {
  values: number[];
  marks: number[];
}

/** The player's board with undo and redo. */
export class Board {
  readonly givens: readonly number[];
  values: number[];
  marks: number[];
  private undoStack: Change[][] = [];
  private redoStack: Change[][] = [];

  constructor(givens: readonly number[], saved?: Snapshot) {
    this.givens = givens.slice();
    this.values = givens.slice();
    this.marks = new Array<number>(81).fill(0);
    if (saved && saved.values.length === 81 && saved.marks.length === 81) {
      for (let cell = 0; cell < 81; cell++) {
        if (!givens[cell]) {
          this.values[cell] = saved.values[cell] | 0;
          this.marks[cell] = saved.marks[cell] & ALL_MARKS;
        }
      }
    }
  }

  isGiven(cell: Cell): boolean {
    return this.givens[cell] !== 0;
  }

  snapshot(): Snapshot {
    return { values: this.values.slice(), marks: this.marks.slice() };
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }
  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }

  /**
   * Runs `edit` with a setter, recording every cell it changes as one
   * undoable action. Returns true when anything changed.
   */
  transact(edit: (set: (cell: Cell, value: number, marks: number) => void) => void): boolean {
    const changes = new Map<Cell, Change>();
    edit((cell, value, marks) => {
      if (this.isGiven(cell)) return;
      let change = changes.get(cell);
      if (!change) {
        change = { cell, value: [this.values[cell], 0], marks: [this.marks[cell], 0] };
        changes.set(cell, change);
      }
      this.values[cell] = value;
      this.marks[cell] = marks;
      change.value[1] = value;
      change.marks[1] = marks;
    });
    const real = [...changes.values()].filter(
      (c) => c.value[0] !== c.value[1] || c.marks[0] !== c.marks[1],
    );
    if (real.length === 0) return false;
    this.undoStack.push(real);
    this.redoStack = [];
    return true;
  }

  /** Places a digit (0 clears), crossing it out of the peers' marks. */
  place(cell: Cell, digit: number): boolean {
    if (this.isGiven(cell)) return false;
    return this.transact((set) => {
      set(cell, digit, digit ? 0 : this.marks[cell]);
      if (digit) {
        for (const peer of PEERS[cell]) {
          if (!this.values[peer] && this.marks[peer] & bit(digit)) {
            set(peer, 0, this.marks[peer] & ~bit(digit));
          }
        }
      }
    });
  }

  /** Clears a cell: its digit if it has one, else its marks. */
  clear(cell: Cell): boolean {
    if (this.isGiven(cell)) return false;
    return this.transact((set) => set(cell, 0, this.values[cell] ? this.marks[cell] : 0));
  }

  /** Toggles a pencil mark in an empty cell. */
  toggleMark(cell: Cell, digit: number): boolean {
    if (this.isGiven(cell) || this.values[cell]) return false;
    return this.transact((set) => set(cell, 0, this.marks[cell] ^ bit(digit)));
  }

  /** Pencils in every candidate of every empty cell. */
  fillCandidates(): boolean {
    return this.transact((set) => {
      for (let cell = 0; cell < 81; cell++) {
        if (!this.values[cell]) set(cell, 0, candidatesOf(this.values, cell));
      }
    });
  }

  /** The marks of a cell as the hint sees them: the player's, or, for an
   * unmarked cell, the candidates its peers leave. */
  effectiveMarks(cell: Cell): number {
    return this.marks[cell] || candidatesOf(this.values, cell);
  }

  /** Applies a step's placements and eliminations as one action. */
  applyStep(placements: Candidate[], eliminations: Candidate[]): boolean {
    return this.transact((set) => {
      for (const e of eliminations) {
        const cell = (e.row - 1) * 9 + e.column - 1;
        if (this.values[cell] || !e.digit) continue;
        set(cell, 0, this.effectiveMarks(cell) & ~bit(e.digit));
      }
      for (const p of placements) {
        const cell = (p.row - 1) * 9 + p.column - 1;
        if (!p.digit) continue;
        set(cell, p.digit, 0);
        for (const peer of PEERS[cell]) {
          if (!this.values[peer] && this.marks[peer] & bit(p.digit)) {
            set(peer, 0, this.marks[peer] & ~bit(p.digit));
          }
        }
      }
    });
  }

  undo(): boolean {
    const action = this.undoStack.pop();
    if (!action) return false;
    for (const c of action) {
      this.values[c.cell] = c.value[0];
      this.marks[c.cell] = c.marks[0];
    }
    this.redoStack.push(action);
    return true;
  }

  redo(): boolean {
    const action = this.redoStack.pop();
    if (!action) return false;
    for (const c of action) {
      this.values[c.cell] = c.value[1];
      this.marks[c.cell] = c.marks[1];
    }
    this.undoStack.push(action);
    return true;
  }

  /** The 81-character position: givens plus placements. */
  progressText(): string {
    return cellsText(this.values);
  }

  /** The 729-character marks for Hint, or "" when the player has none.
   * A cell without marks (or with a digit) is sent as "123456789": no
   * digit crossed out, so the service uses the candidates its peers
   * leave there, as it does with no marks at all. */
  marksText(): string {
    if (!this.marks.some((m, cell) => m && !this.values[cell])) return "";
    let text = "";
    for (let cell = 0; cell < 81; cell++) {
      const mask = this.values[cell] || !this.marks[cell] ? ALL_MARKS : this.marks[cell];
      for (let d = 1; d <= 9; d++) text += mask & bit(d) ? String(d) : ".";
    }
    return text;
  }

  isFull(): boolean {
    return this.values.every((v) => v !== 0);
  }
}

/** A 1-based row, column and digit, as in the proto's Candidate. */
export interface Candidate {
  row: number;
  column: number;
  digit: number;
}

export const candidateCell = (c: Candidate): Cell => (c.row - 1) * 9 + c.column - 1;

/** The cells of a unit: kind 1 row, 2 column, 3 box; number 1-9. */
export function unitCells(kind: number, number: number): Cell[] {
  const n = number - 1;
  const out: Cell[] = [];
  for (let i = 0; i < 9; i++) {
    if (kind === 1) out.push(n * 9 + i);
    else if (kind === 2) out.push(i * 9 + n);
    else if (kind === 3) out.push((Math.floor(n / 3) * 3 + Math.floor(i / 3)) * 9 + (n % 3) * 3 + (i % 3));
  }
  return out;
}

/**
 * The cells pasted text shows, for drawing a puzzle the service refused:
 * every character that is not whitespace or one of the service's layout
 * characters fills the next cell, a digit 1-9 as a given. Only a picture
 * of the text; what is wrong with it comes from the service.
 */
export function readCells(text: string): number[] {
  const cells: number[] = [];
  for (const ch of text) {
    if (/\s/u.test(ch) || "|-+[],\"'".includes(ch)) continue;
    cells.push(ch >= "1" && ch <= "9" ? ch.charCodeAt(0) - 48 : 0);
  }
  return cells;
}
