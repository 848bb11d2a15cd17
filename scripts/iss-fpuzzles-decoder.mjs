// iss-fpuzzles-decoder.mjs -- f-puzzles JSON to Interactive Sudoku Solver
// (ISS) constraints, for scripts/iss-export.mjs (--verify) and
// scripts/iss-random-check.mjs.
//
// It follows the f-puzzles / SudokuSolver importer semantics as
// docs/variants.md states them, not the ISS's own f-puzzles reader:
// non-consecutive and the negative ratio rule exempt every dotted pair, a
// dot's value other than 1 (white) or 2 (black) is a pair of its own, the
// negative ratio rule forbids the ratios of the black dots (2 if none),
// diagonal+ runs from R<N>C1 to R1C<N>, and disjoint groups on a jigsaw
// grid are the k-th cells of each region. The ISS modules are passed in
// (each script imports them from a checkout at run time); nothing of the
// ISS is copied. A given that contradicts its own odd/even mark throws an
// error with `emptyCandidates` set: the puzzle has no solution.

import { parseFpCell, regionsOfFp, hasRegionKeys, disjointGroupsOf } from './fpuzzles-check.mjs';

// The decoder, given the ISS's SudokuConstraint and CellGeometry.
export const makeFpuzzlesDecoder = ({ SudokuConstraint, CellGeometry }) => {
  return (fp) => {
    const N = fp.size;
    const cs = [];
    const shape = new SudokuConstraint.Shape(`${N}x${N}`);
    cs.push(shape);
    const g = CellGeometry.fromShapeSpec(shape.shapeSpec);
    const id = (name) => g.makeCellId(...parseFpCell(name));
    const idx = (name) => g.parseCellId(id(name)).cellIndex;
    const candidates = new Map();
    const restrict = (cell, values) => {
      const prev = candidates.get(cell);
      candidates.set(cell, prev ? prev.filter(v => values.includes(v)) : values);
    };
    fp.grid.forEach((row, r) => row.forEach((cell, c) => {
      if (cell.value && cell.given) restrict(g.makeCellId(r, c), [cell.value]);
    }));
    const jigsaw = hasRegionKeys(fp);
    const regionOf = regionsOfFp(fp);
    if (jigsaw) {
      cs.push(new SudokuConstraint.NoBoxes());
      const regions = new Map();
      for (let i = 0; i < N * N; i++) {
        if (!regions.has(regionOf[i])) regions.set(regionOf[i], []);
        regions.get(regionOf[i]).push(g.makeCellId(Math.floor(i / N), i % N));
      }
      for (const cells of regions.values()) cs.push(new SudokuConstraint.Jigsaw(g.name, ...cells));
    }
    const all = g.allValues();
    for (const o of fp.odd || []) restrict(id(o.cell), all.filter(v => v % 2 === 1));
    for (const e of fp.even || []) restrict(id(e.cell), all.filter(v => v % 2 === 0));
    for (const [cell, values] of candidates) {
      if (!values.length) throw Object.assign(new Error('empty candidate set at ' + cell), { emptyCandidates: true });
      cs.push(new SudokuConstraint.Given(cell, ...values));
    }
    for (const k of fp.killercage || []) {
      cs.push(new SudokuConstraint.Cage(k.value === undefined || k.value === '' ? 0 : +k.value, ...k.cells.map(id)));
    }
    for (const t of fp.thermometer || []) {
      for (const line of t.lines) cs.push(new SudokuConstraint.Thermo(...line.map(id)));
    }
    for (const a of fp.arrow || []) {
      const circle = a.cells.map(id);
      for (const line of a.lines) {
        const shaft = line.slice(1).map(id);
        if (!shaft.length) continue;
        if (circle.length === 1) cs.push(new SudokuConstraint.Arrow(circle[0], ...shaft));
        else cs.push(new SudokuConstraint.PillArrow(circle.length, ...circle, ...shaft));
      }
    }
    const diag = (f) => Array.from({ length: N }, (_, i) => g.makeCellId(...f(i)));
    if (fp['diagonal+']) cs.push(new SudokuConstraint.AllDifferent(...diag(i => [N - 1 - i, i])));
    if (fp['diagonal-']) cs.push(new SudokuConstraint.AllDifferent(...diag(i => [i, i])));
    for (const r of fp.extraregion || []) cs.push(new SudokuConstraint.AllDifferent(...r.cells.map(id)));
    if (fp.disjointgroups) {
      if (jigsaw) {
        for (const grp of disjointGroupsOf(N, regionOf)) {
          cs.push(new SudokuConstraint.AllDifferent(...grp.map(i => g.makeCellId(Math.floor(i / N), i % N))));
        }
      } else {
        cs.push(new SudokuConstraint.DisjointSets());
      }
    }
    if (fp.antiknight) cs.push(new SudokuConstraint.AntiKnight());
    if (fp.antiking) cs.push(new SudokuConstraint.AntiKing());

    const pairKey = (a, b) => a < b ? `${a},${b}` : `${b},${a}`;
    const dotted = new Set();
    let allDefault = true;
    const pairC = (fn, a, b) => new SudokuConstraint.Pair(SudokuConstraint.Pair.fnToKey(fn, N), '', id(a), id(b));
    for (const d of fp.difference || []) {
      const v = d.value === undefined || d.value === '' ? 1 : +d.value;
      if (v === 1) cs.push(new SudokuConstraint.WhiteDot(...d.cells.map(id)));
      else { allDefault = false; cs.push(pairC((x, y) => Math.abs(x - y) === v, ...d.cells)); }
      dotted.add(pairKey(idx(d.cells[0]), idx(d.cells[1])));
    }
    const ratios = new Set();
    for (const d of fp.ratio || []) {
      const v = d.value === undefined || d.value === '' ? 2 : +d.value;
      ratios.add(v);
      if (v === 2) cs.push(new SudokuConstraint.BlackDot(...d.cells.map(id)));
      else { allDefault = false; cs.push(pairC((x, y) => x === v * y || y === v * x, ...d.cells)); }
      dotted.add(pairKey(idx(d.cells[0]), idx(d.cells[1])));
    }
    if (!ratios.size) ratios.add(2);
    for (const x of fp.xv || []) {
      if (x.value === undefined || x.value === '') continue;
      const cls = /^x$/i.test(x.value) ? SudokuConstraint.X : SudokuConstraint.V;
      cs.push(new cls(...x.cells.map(id)));
    }
    const neg = new Set(fp.negative || []);
    const nonconsec = !!fp.nonconsecutive;
    const negRatio = neg.has('ratio');
    const rlist = [...ratios];
    if (nonconsec && negRatio && allDefault) {
      cs.push(new SudokuConstraint.StrictKropki());
    } else if (nonconsec && !negRatio && dotted.size === 0) {
      cs.push(new SudokuConstraint.AntiConsecutive());
    } else if (nonconsec || negRatio) {
      const fn = (a, b) => (!nonconsec || Math.abs(a - b) !== 1) &&
        (!negRatio || !rlist.some(r => a === r * b || b === r * a));
      const key = SudokuConstraint.Pair.fnToKey(fn, N);
      for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
        for (const [rr, cc] of [[r + 1, c], [r, c + 1]]) {
          if (rr >= N || cc >= N) continue;
          const a = g.cellIndex(r, c), b = g.cellIndex(rr, cc);
          if (dotted.has(pairKey(a, b))) continue;
          cs.push(new SudokuConstraint.Pair(key, '', g.makeCellId(r, c), g.makeCellId(rr, cc)));
        }
      }
    }
    if (neg.has('xv')) cs.push(new SudokuConstraint.StrictXV());
    return new SudokuConstraint.Container(cs);
  };
};
