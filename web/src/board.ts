// Sudoku geometry and rules shared by the model and the page: cells,
// peers, candidates, conflicts. Pure logic, no DOM.

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
