// What a step shows at each hint level, and how links are named and
// drawn. Pure functions of the step: no DOM.

import { candidateCell, cellName, unitCells, type Candidate, type Cell } from "./board";
import type { BranchData, HintLevel, LinkData, StepData, UnitData } from "./model";

export const LINK_STRONG = 1;
export const LINK_WEAK = 2;
export const LINK_INFERENCE = 3;

export const LEVEL_NAMES: Record<HintLevel, string> = {
  1: "Where to look",
  2: "The pattern",
  3: "The result",
};

const UNIT_WORDS = ["", "row", "column", "box"];

export const unitName = (u: UnitData): string => `${UNIT_WORDS[u.kind] ?? "unit"} ${u.number}`;

/** "(7)r9c3", as Eureka notation writes a candidate. */
export const candidateName = (c: Candidate): string => `${c.digit ? `(${c.digit})` : ""}${cellName(candidateCell(c))}`;

export function linkKindName(kind: number): "strong" | "weak" | "inference" {
  return kind === LINK_STRONG ? "strong" : kind === LINK_INFERENCE ? "inference" : "weak";
}

const SIGNS: Record<string, string> = { strong: "=", weak: "-", inference: "=>" };

/** A group of cells holding one digit, as Eureka writes it: `(7)r5c12`
 * for cells of one row, `(7)r12c5` for one column. */
export function groupName(group: readonly Candidate[]): string {
  if (group.length <= 1) return group.length ? candidateName(group[0]) : "";
  const digit = group[0].digit ? `(${group[0].digit})` : "";
  const rows = [...new Set(group.map((c) => c.row))];
  const columns = [...new Set(group.map((c) => c.column))];
  if (rows.length === 1 || columns.length === 1) return `${digit}r${rows.join("")}c${columns.join("")}`;
  return `${digit}${group.map((c) => `r${c.row}c${c.column}`).join("|")}`;
}

const endName = (one: Candidate, group: readonly Candidate[] | undefined): string =>
  group && group.length > 1 ? groupName(group) : candidateName(one);

/** One link in Eureka notation: `(7)r9c3=(7)r9c1`. */
export function linkText(link: LinkData): string {
  if (!link.source || !link.target) return "";
  return `${endName(link.source, link.sourceGroup)}${SIGNS[linkKindName(link.kind)]}${endName(link.target, link.targetGroup)}`;
}

const same = (a?: Candidate, b?: Candidate): boolean =>
  !!a && !!b && a.row === b.row && a.column === b.column && a.digit === b.digit;

/** Links as chains in Eureka notation: a link that starts where the one
 * before ended continues its chain. */
export function chainTexts(links: readonly LinkData[]): string[] {
  const chains: string[] = [];
  let last: Candidate | undefined;
  for (const link of links) {
    if (!link.source || !link.target) continue;
    const sign = SIGNS[linkKindName(link.kind)];
    if (chains.length && same(last, link.source)) {
      chains[chains.length - 1] += `${sign}${endName(link.target, link.targetGroup)}`;
    } else {
      chains.push(linkText(link));
    }
    last = link.target;
  }
  return chains;
}

/** A branch of a forcing chain, in words. */
export function branchText(b: BranchData): string {
  const start = b.assumption ? `Suppose ${candidateName(b.assumption)} is ${b.assumedOn ? "true" : "false"}` : "Suppose";
  const end = b.result
    ? b.contradiction
      ? `then ${candidateName(b.result)} would be both true and false: a contradiction`
      : `then ${candidateName(b.result)} is ${b.resultOn ? "true" : "false"}`
    : "";
  const via = b.techniques.length ? ` (using ${b.techniques.join(", ")})` : "";
  return `${start}${end ? `: ${end}` : ""}${via}.`;
}

/** The units a step names, or, when it names none, the boxes its pattern
 * (or its result) lies in: the region to look at, nothing more. */
export function regionUnits(step: StepData): UnitData[] {
  if (step.units.length) return step.units;
  const from = step.cells.length ? step.cells : step.placements.concat(step.eliminations);
  const boxes = new Set<number>();
  for (const c of from) {
    const cell = candidateCell(c);
    boxes.add(Math.floor(Math.floor(cell / 9) / 3) * 3 + Math.floor((cell % 9) / 3) + 1);
  }
  return [...boxes].sort((a, b) => a - b).map((number) => ({ kind: 3, number }));
}

/** Level 1's sentence: the technique and where to look. */
export function whereText(step: StepData): string {
  const units = regionUnits(step);
  const names = units.map(unitName);
  const list = names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return list ? `Where to look: ${list}.` : "Where to look: the whole grid.";
}

/** What the grid shows of a step at a level. */
export interface Layers {
  units: Set<Cell>;
  pattern: Candidate[];
  witnesses: Candidate[];
  links: LinkData[];
  /** The branch's assumption, drawn as where it starts, and where it ends
   * (a contradiction, or the result all branches share). */
  assumption: Candidate | null;
  result: { candidate: Candidate; contradiction: boolean } | null;
  placements: Candidate[];
  eliminations: Candidate[];
}

/** Nothing to draw: no step on show. */
export function emptyLayers(units: Set<Cell> = new Set()): Layers {
  return {
    units,
    pattern: [],
    witnesses: [],
    links: [],
    assumption: null,
    result: null,
    placements: [],
    eliminations: [],
  };
}

export function layersOf(step: StepData, level: HintLevel, branch: number): Layers {
  const units = new Set<Cell>();
  for (const u of regionUnits(step)) for (const cell of unitCells(u.kind, u.number)) units.add(cell);
  const layers = emptyLayers(units);
  if (level >= 2) {
    layers.pattern = step.cells;
    layers.witnesses = step.witnesses;
    const b = step.branches[branch];
    layers.links = b ? step.links.concat(b.links) : step.links;
    layers.assumption = b?.assumption ?? null;
    layers.result = b?.result ? { candidate: b.result, contradiction: b.contradiction } : null;
  }
  if (level >= 3) {
    layers.placements = step.placements;
    layers.eliminations = step.eliminations;
  }
  return layers;
}

/** Where a candidate sits in the grid, in a 900-unit square: its cell's
 * 3x3 mark layout (a digit 0 means the cell's centre). */
export function candidatePoint(c: Candidate): [number, number] {
  const x0 = (c.column - 1) * 100;
  const y0 = (c.row - 1) * 100;
  if (!c.digit) return [x0 + 50, y0 + 50];
  const d = c.digit - 1;
  return [x0 + ((d % 3) + 0.5) * (100 / 3), y0 + (Math.floor(d / 3) + 0.5) * (100 / 3)];
}

/** Where a link's end is drawn: its candidate, or the middle of its
 * group. */
export function endPoint(one: Candidate, group: readonly Candidate[] | undefined): [number, number] {
  if (!group || group.length <= 1) return candidatePoint(one);
  const points = group.map(candidatePoint);
  return [points.reduce((a, p) => a + p[0], 0) / points.length, points.reduce((a, p) => a + p[1], 0) / points.length];
}

/** The box drawn round a group's candidates: [x, y, width, height]. */
export function groupBox(group: readonly Candidate[]): [number, number, number, number] {
  const points = group.map(candidatePoint);
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const pad = 14;
  const x = Math.min(...xs) - pad;
  const y = Math.min(...ys) - pad;
  return [x, y, Math.max(...xs) + pad - x, Math.max(...ys) + pad - y];
}

/** An SVG path for a link: a gentle curve from source to target that
 * stops short of both candidates, so the digits stay readable. */
export function linkPath(link: LinkData): string {
  if (!link.source || !link.target) return "";
  const [x1, y1] = endPoint(link.source, link.sourceGroup);
  const [x2, y2] = endPoint(link.target, link.targetGroup);
  const dx = x2 - x1;
  const dy = y2 - y1;
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length;
  const uy = dy / length;
  // Two candidates of one cell are a third of a cell apart: such a link
  // bows well out of the cell, or it would be an arrowhead alone.
  const inCell = length < 45;
  const inset = inCell ? 6 : Math.min(14, length / 3);
  const sx = x1 + ux * inset;
  const sy = y1 + uy * inset;
  const ex = x2 - ux * inset;
  const ey = y2 - uy * inset;
  // Bend to one side by a tenth of the length, so that links along a row
  // do not run through the candidates between their ends.
  const bend = inCell ? 26 : Math.min(40, length / 6);
  const cx = (sx + ex) / 2 - uy * bend;
  const cy = (sy + ey) / 2 + ux * bend;
  const r = (n: number) => Math.round(n * 10) / 10;
  return `M${r(sx)} ${r(sy)}Q${r(cx)} ${r(cy)} ${r(ex)} ${r(ey)}`;
}
