#!/usr/bin/env node
// iss-random-check.mjs -- generate random f-puzzles variant puzzles (seeded, reproducible)
// and certify each with the Interactive Sudoku Solver (ISS) headless in Node,
// writing JSON lines for variant_compare.
//
// The f-puzzles -> ISS decoder is iss-fpuzzles-decoder.mjs, shared with
// iss-export.mjs, and the count-to-2 solve is timed as iss-export.mjs times
// it. ISS is imported at run time from the checkout given on the command
// line; nothing of ISS is copied.
//
// Usage: node iss-random-check.mjs <iss-checkout> OUT.jsonl [--count N] [--seed S]
//        [--timeout MS] [--only CLASS] [--seeds S1,S2,...] [-v]
// then: REPEAT=1 target/release/examples/variant_compare OUT.jsonl
//
// --count N puzzles from --seed S (puzzle i has seed S * 1000003 + i), or
// exactly the puzzles of --seeds. A puzzle that ISS takes over --timeout MS
// (5000 unless set) to certify is written to OUT.jsonl.skipped instead.
// Written against ISS commit e373f9811c087246b097eb444d838ab492c55f35.
//
// Classes (each puzzle's class is picked by its own seed):
//   cons   a random full solution grid (own randomized backtracking filler),
//          2-5 constraint kinds consistent with it, 0..~25 givens from it.
//          ISS must say unique (and give that grid) or multiple, never none.
//   corr   as cons, then 1-2 perturbations (sum shifted, parity flipped, X<->V,
//          thermo reversed, a given changed, a global rule added ...).
//   rand   no solution start: 1-3 global rules (anti-knight, anti-king,
//          non-consecutive, disjoint groups, diagonals, negative ratio / xv,
//          windoku) plus a few random local clues and a few random givens.
//   j-cons, j-corr, j-rand: the same on jigsaw regions (6x6, 8x8, 9x9),
//          made by random boundary swaps from the standard boxes.
//   hard   (only with --only hard, as j-hard on jigsaw grids) sparse puzzles
//          consistent with a random grid, with 0-5 givens.
// Every ISS solution is also checked against the f-puzzles rules by an
// independent checker (checkFp, in fpuzzles-check.mjs); a failure is
// recorded as "check_fail" in the record.

import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { writeFileSync, appendFileSync } from 'node:fs';
import { resolve as resolvePath, join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

import { makeFpuzzlesDecoder } from './iss-fpuzzles-decoder.mjs';
import { valueChar, fpCell, parseFpCell, boxDims, standardRegions, checkFp } from './fpuzzles-check.mjs';

// ===========================================================================
// Worker: ISS decode + solve
// ===========================================================================
if (!isMainThread) {
  globalThis.self ??= globalThis;
  globalThis.VERSION_PARAM ??= '';
  const root = workerData.root;
  const issUrl = (rel) => pathToFileURL(join(root, rel)).href;
  await import(issUrl('js/sudoku_parser.js'));
  const { SudokuConstraint } = await import(issUrl('js/sudoku_constraint.js'));
  const { SudokuBuilder } = await import(issUrl('js/solver/sudoku_builder.js'));
  const { CellGeometry } = await import(issUrl('js/cell_geometry.js'));

  // f-puzzles semantics as docs/variants.md states them (shared with
  // iss-export.mjs's --verify).
  const decodeFpuzzles = makeFpuzzlesDecoder({ SudokuConstraint, CellGeometry });

  const solveWithIss = (constraint) => {
    const resolved = SudokuBuilder.resolveConstraint(constraint);
    const t0 = performance.now();
    const solver = SudokuBuilder.build(resolved);
    const first = solver.nthSolution(0);
    const second = first ? solver.nthSolution(1) : null;
    const t3 = performance.now();
    const n = solver.geometry().numGridCells;
    const counters = solver.state().counters;
    return {
      verdict: !first ? 'none' : second ? 'multiple' : 'unique',
      solution: first ? Array.from(first.slice(0, n), v => valueChar(v)).join('') : null,
      solution2: second ? Array.from(second.slice(0, n), v => valueChar(v)).join('') : null,
      ms: t3 - t0,
      guesses: counters.guesses,
      backtracks: counters.backtracks,
    };
  };

  parentPort.on('message', ({ id, fp }) => {
    try {
      parentPort.postMessage({ id, res: solveWithIss(decodeFpuzzles(fp)) });
    } catch (e) {
      if (e && e.emptyCandidates) {
        // A given contradicting its own odd/even mark: no solution, trivially.
        parentPort.postMessage({ id, res: { verdict: 'none', solution: null, solution2: null, ms: 0, guesses: 0, backtracks: 0, trivial: String(e.message) } });
        return;
      }
      parentPort.postMessage({ id, error: String(e && e.stack || e) });
    }
  });
  parentPort.postMessage({ ready: true });
}

// ===========================================================================
// Main thread: generator, checker, driver
// ===========================================================================

// ---- PRNG ------------------------------------------------------------------
function mulberry32(a) {
  return function () {
    a |= 0; a = a + 0x6D2B79F5 | 0;
    let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
function makeRng(seed) {
  const f = mulberry32(seed);
  for (let i = 0; i < 8; i++) f();
  const R = {
    f,
    int: (n) => Math.floor(f() * n),
    range: (lo, hi) => lo + Math.floor(f() * (hi - lo + 1)),
    chance: (p) => f() < p,
    pick: (arr) => arr[Math.floor(f() * arr.length)],
    shuffle: (arr) => { for (let i = arr.length - 1; i > 0; i--) { const j = Math.floor(f() * (i + 1)); [arr[i], arr[j]] = [arr[j], arr[i]]; } return arr; },
    weighted: (pairs) => { const tot = pairs.reduce((s, p) => s + p[1], 0); let x = f() * tot; for (const [k, w] of pairs) { x -= w; if (x < 0) return k; } return pairs[pairs.length - 1][0]; },
  };
  return R;
}

// ---- geometry helpers --------------------------------------------------------
const ORTH = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const KING = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];
const nbrs = (N, i, dirs) => {
  const r = Math.floor(i / N), c = i % N, out = [];
  for (const [dr, dc] of dirs) {
    const rr = r + dr, cc = c + dc;
    if (rr >= 0 && cc >= 0 && rr < N && cc < N) out.push(rr * N + cc);
  }
  return out;
};
const nm = (N, i) => fpCell(Math.floor(i / N), i % N);
const orthPairs = (N) => {
  const out = [];
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
    if (r + 1 < N) out.push([r * N + c, (r + 1) * N + c]);
    if (c + 1 < N) out.push([r * N + c, r * N + c + 1]);
  }
  return out;
};

function connected(N, cells) {
  const set = new Set(cells);
  const seen = new Set([cells[0]]);
  const stack = [cells[0]];
  while (stack.length) {
    const x = stack.pop();
    for (const y of nbrs(N, x, ORTH)) if (set.has(y) && !seen.has(y)) { seen.add(y); stack.push(y); }
  }
  return seen.size === set.size;
}

// Jigsaw regions: random boundary swaps from the standard boxes, keeping every
// region connected and of N cells.
function makeJigsaw(N, R) {
  const reg = standardRegions(N);
  const target = N * N * 3;
  let done = 0;
  for (let tries = 0; tries < target * 20 && done < target; tries++) {
    const a = R.int(N * N);
    const bs = nbrs(N, a, ORTH).filter(b => reg[b] !== reg[a]);
    if (!bs.length) continue;
    const b = R.pick(bs);
    const ra = reg[a], rb = reg[b];
    reg[a] = rb; reg[b] = ra;
    const cellsA = [], cellsB = [];
    for (let i = 0; i < N * N; i++) { if (reg[i] === ra) cellsA.push(i); else if (reg[i] === rb) cellsB.push(i); }
    if (connected(N, cellsA) && connected(N, cellsB)) done++;
    else { reg[a] = ra; reg[b] = rb; }
  }
  // Renumber regions in order of first appearance (as f-puzzles would).
  const map = new Map();
  return reg.map(x => { if (!map.has(x)) map.set(x, map.size); return map.get(x); });
}

// Random full grid for the given regions: randomized MRV backtracking with a
// node limit. Returns null if the limit is hit.
function fillGrid(N, regionOf, R, nodeLimit = 200000) {
  const full = (1 << N) - 1;
  const rowM = new Array(N).fill(0), colM = new Array(N).fill(0), regM = new Array(N).fill(0);
  const v = new Array(N * N).fill(0);
  let nodes = 0;
  const popcnt = (x) => { let n = 0; while (x) { x &= x - 1; n++; } return n; };
  const rec = (left) => {
    if (left === 0) return true;
    if (++nodes > nodeLimit) return false;
    let best = -1, bestCnt = 99, bestMask = 0;
    const start = R.int(N * N);
    for (let k = 0; k < N * N; k++) {
      const i = (start + k) % (N * N);
      if (v[i]) continue;
      const r = Math.floor(i / N), c = i % N;
      const m = full & ~(rowM[r] | colM[c] | regM[regionOf[i]]);
      const cnt = popcnt(m);
      if (cnt < bestCnt) { best = i; bestCnt = cnt; bestMask = m; if (cnt <= 1) break; }
    }
    if (bestCnt === 0) return false;
    const vals = [];
    for (let d = 0; d < N; d++) if (bestMask & (1 << d)) vals.push(d + 1);
    R.shuffle(vals);
    const r = Math.floor(best / N), c = best % N, g = regionOf[best];
    for (const d of vals) {
      const bit = 1 << (d - 1);
      v[best] = d; rowM[r] |= bit; colM[c] |= bit; regM[g] |= bit;
      if (rec(left - 1)) return true;
      v[best] = 0; rowM[r] &= ~bit; colM[c] &= ~bit; regM[g] &= ~bit;
      if (nodes > nodeLimit) return false;
    }
    return false;
  };
  return rec(N * N) ? v : null;
}

// Pattern grid, shuffled (standard boxes only): fallback for the filler.
function patternGrid(N, R) {
  const [h, w] = boxDims(N);
  const digits = R.shuffle([...Array(N).keys()].map(x => x + 1));
  const rows = [], cols = [];
  for (const band of R.shuffle([...Array(N / h).keys()])) for (const r of R.shuffle([...Array(h).keys()])) rows.push(band * h + r);
  for (const stack of R.shuffle([...Array(N / w).keys()])) for (const c of R.shuffle([...Array(w).keys()])) cols.push(stack * w + c);
  const v = new Array(N * N);
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
    const rr = rows[r], cc = cols[c];
    v[r * N + c] = digits[(w * (rr % h) + Math.floor(rr / h) + cc) % N];
  }
  return v;
}

// ---- puzzle builder --------------------------------------------------------
class Puz {
  constructor(N, regionOf, jigsaw) {
    this.N = N; this.regionOf = regionOf; this.jigsaw = jigsaw;
    this.givens = new Array(N * N).fill(0);
    this.fp = { size: N };
    this.kinds = new Set();
    this.caged = new Set();
    this.kropkiPairs = new Set();
    this.xvPairs = new Set();
  }
  push(key, entry) { (this.fp[key] ??= []).push(entry); }
  toJson() {
    const N = this.N;
    const grid = [];
    for (let r = 0; r < N; r++) {
      const row = [];
      for (let c = 0; c < N; c++) {
        const cell = {};
        const g = this.givens[r * N + c];
        if (g) { cell.value = g; cell.given = true; }
        if (this.jigsaw) cell.region = this.regionOf[r * N + c];
        row.push(cell);
      }
      grid.push(row);
    }
    const out = { size: N, grid };
    for (const [k, val] of Object.entries(this.fp)) if (k !== 'size') out[k] = val;
    return out;
  }
}
const pk = (a, b) => a < b ? `${a},${b}` : `${b},${a}`;

// Constraint generators consistent with solution S (1-based digits).
const GEN = {
  killer(P, S, R, sumless = 0.2) {
    const N = P.N;
    const want = R.range(2, Math.min(5, N));
    for (let attempt = 0; attempt < 30; attempt++) {
      const s = R.int(N * N);
      if (P.caged.has(s)) continue;
      const cells = [s], digits = new Set([S[s]]);
      while (cells.length < want) {
        const cand = [];
        for (const x of cells) for (const y of nbrs(N, x, ORTH)) {
          if (!P.caged.has(y) && !cells.includes(y) && !digits.has(S[y])) cand.push(y);
        }
        if (!cand.length) break;
        const y = R.pick(cand); cells.push(y); digits.add(S[y]);
      }
      if (cells.length < 2) continue;
      cells.forEach(x => P.caged.add(x));
      const entry = { cells: cells.map(i => nm(N, i)) };
      if (R.chance(sumless)) { if (R.chance(0.3)) entry.value = ''; P.kinds.add('killer(no sum)'); }
      else { entry.value = String(cells.reduce((t, i) => t + S[i], 0)); P.kinds.add('killer'); }
      P.push('killercage', entry);
      return true;
    }
    return false;
  },
  thermo(P, S, R) {
    const N = P.N;
    const maxLen = R.range(2, Math.min(N, 7));
    const path = (start) => {
      const p = [start];
      while (p.length < maxLen) {
        const cand = nbrs(N, p[p.length - 1], KING).filter(y => !p.includes(y) && S[y] > S[p[p.length - 1]]);
        if (!cand.length) break;
        p.push(R.pick(cand));
      }
      return p;
    };
    for (let attempt = 0; attempt < 30; attempt++) {
      const s = R.int(N * N);
      const p = path(s);
      if (p.length < 2) continue;
      const lines = [p.map(i => nm(N, i))];
      if (R.chance(0.15)) {
        const q = path(s);
        if (q.length >= 2 && q.join() !== p.join()) lines.push(q.map(i => nm(N, i)));
      }
      P.push('thermometer', { lines });
      P.kinds.add('thermo');
      return true;
    }
    return false;
  },
  // A line from `start` (a bulb cell, not summed) through king steps, summing
  // to `target`, avoiding `forbid`. Budget-limited randomized DFS.
  _sumPath(N, S, R, start, target, forbid, maxLen) {
    let budget = 4000;
    const p = [];
    const rec = (from, sum) => {
      if (--budget < 0) return false;
      if (sum === target && p.length) return true;
      if (p.length >= maxLen) return false;
      for (const y of R.shuffle(nbrs(N, from, KING))) {
        if (forbid.has(y) || p.includes(y) || sum + S[y] > target) continue;
        p.push(y);
        if (rec(y, sum + S[y])) return true;
        p.pop();
      }
      return false;
    };
    return rec(start, 0) ? p.slice() : null;
  },
  arrow(P, S, R) {
    const N = P.N;
    for (let attempt = 0; attempt < 40; attempt++) {
      const b = R.int(N * N);
      if (S[b] < 2) continue;
      const lines = [];
      const nLines = R.chance(0.15) ? 2 : 1;
      for (let k = 0; k < nLines; k++) {
        const line = GEN._sumPath(N, S, R, b, S[b], new Set([b]), N);
        if (line) lines.push([nm(N, b), ...line.map(i => nm(N, i))]);
      }
      if (!lines.length) continue;
      P.push('arrow', { cells: [nm(N, b)], lines });
      P.kinds.add('arrow');
      return true;
    }
    return false;
  },
  pill(P, S, R) {
    const N = P.N;
    if (N > 9) return GEN.arrow(P, S, R);
    for (let attempt = 0; attempt < 40; attempt++) {
      const a = R.int(N * N);
      const bs = nbrs(N, a, [[0, 1], [1, 0]]);
      if (!bs.length) continue;
      const b = R.pick(bs);
      const num = 10 * S[a] + S[b];
      if (num > 45) continue;
      const start = R.pick([a, b]);
      const line = GEN._sumPath(N, S, R, start, num, new Set([a, b]), 12);
      if (!line) continue;
      P.push('arrow', { cells: [nm(N, a), nm(N, b)], lines: [[nm(N, start), ...line.map(i => nm(N, i))]] });
      P.kinds.add('pill-arrow');
      return true;
    }
    return false;
  },
  _dot(P, S, R, key, test, mark, value) {
    const N = P.N;
    const pairs = R.shuffle(orthPairs(N)).filter(([a, b]) => !mark.has(pk(a, b)) && test(S[a], S[b]));
    if (!pairs.length) return false;
    const [a, b] = pairs[0];
    const entry = { cells: R.chance(0.5) ? [nm(N, a), nm(N, b)] : [nm(N, b), nm(N, a)] };
    if (value !== undefined) entry.value = value;
    P.push(key, entry);
    mark.add(pk(a, b));
    return true;
  },
  white(P, S, R) {
    const N = P.N;
    if (R.chance(0.2)) {
      const k = R.range(2, Math.max(2, Math.min(4, N - 1)));
      if (GEN._dot(P, S, R, 'difference', (x, y) => Math.abs(x - y) === k, P.kropkiPairs, String(k))) { P.kinds.add('kropki-white-labelled'); return true; }
    }
    const ok = GEN._dot(P, S, R, 'difference', (x, y) => Math.abs(x - y) === 1, P.kropkiPairs, R.chance(0.1) ? '1' : undefined);
    if (ok) P.kinds.add('kropki-white');
    return ok;
  },
  black(P, S, R) {
    if (R.chance(0.15)) {
      if (GEN._dot(P, S, R, 'ratio', (x, y) => x === 3 * y || y === 3 * x, P.kropkiPairs, '3')) { P.kinds.add('kropki-black-labelled'); return true; }
    }
    const ok = GEN._dot(P, S, R, 'ratio', (x, y) => x === 2 * y || y === 2 * x, P.kropkiPairs, R.chance(0.1) ? '2' : undefined);
    if (ok) P.kinds.add('kropki-black');
    return ok;
  },
  xv(P, S, R) {
    const x = R.chance(0.5);
    let ok = GEN._dot(P, S, R, 'xv', x ? (a, b) => a + b === 10 : (a, b) => a + b === 5, P.xvPairs, x ? 'X' : 'V');
    if (!ok) ok = GEN._dot(P, S, R, 'xv', !x ? (a, b) => a + b === 10 : (a, b) => a + b === 5, P.xvPairs, !x ? 'X' : 'V');
    if (ok) P.kinds.add('xv');
    return ok;
  },
  parity(P, S, R) {
    const N = P.N;
    const i = R.int(N * N);
    if (S[i] % 2) { P.push('odd', { cell: nm(N, i) }); P.kinds.add('odd'); }
    else { P.push('even', { cell: nm(N, i) }); P.kinds.add('even'); }
    return true;
  },
  extraregion(P, S, R) {
    const N = P.N;
    const want = R.range(3, N);
    const s = R.int(N * N);
    const cells = [s], digits = new Set([S[s]]);
    while (cells.length < want) {
      const cand = [];
      for (const x of cells) for (const y of nbrs(N, x, ORTH)) if (!cells.includes(y) && !digits.has(S[y])) cand.push(y);
      if (!cand.length) break;
      const y = R.pick(cand); cells.push(y); digits.add(S[y]);
    }
    if (cells.length < 2) return false;
    P.push('extraregion', { cells: cells.map(i => nm(N, i)) });
    P.kinds.add('extraregion');
    return true;
  },
};

// Negative rules made consistent by marking every violating pair.
function completeNegatives(P, S, R, which) {
  const N = P.N;
  const pairs = orthPairs(N);
  if (which.has('ratio')) {
    const ratios = new Set((P.fp.ratio || []).map(d => d.value === undefined ? 2 : +d.value));
    if (!ratios.size) ratios.add(2);
    for (const [a, b] of pairs) {
      if (P.kropkiPairs.has(pk(a, b))) continue;
      const r = [...ratios].find(k => S[a] === k * S[b] || S[b] === k * S[a]);
      if (r === undefined) continue;
      const entry = { cells: [nm(N, a), nm(N, b)] };
      if (r !== 2) entry.value = String(r);
      P.push('ratio', entry); P.kropkiPairs.add(pk(a, b));
    }
    (P.fp.negative ??= []).push('ratio');
    P.kinds.add('negative-ratio');
  }
  if (which.has('nonconsecutive')) {
    for (const [a, b] of pairs) {
      if (P.kropkiPairs.has(pk(a, b)) || Math.abs(S[a] - S[b]) !== 1) continue;
      P.push('difference', { cells: [nm(N, a), nm(N, b)] }); P.kropkiPairs.add(pk(a, b));
    }
    P.fp.nonconsecutive = true;
    P.kinds.add('nonconsecutive');
  }
  if (which.has('xv')) {
    for (const [a, b] of pairs) {
      if (P.xvPairs.has(pk(a, b))) continue;
      const s = S[a] + S[b];
      if (s !== 5 && s !== 10) continue;
      P.push('xv', { cells: [nm(N, a), nm(N, b)], value: s === 10 ? 'X' : 'V' }); P.xvPairs.add(pk(a, b));
    }
    (P.fp.negative ??= []).push('xv');
    P.kinds.add('negative-xv');
  }
}

// How many of each kind to place (scaled to the grid).
const KIND_COUNT = {
  killer: [1, 10], thermo: [1, 6], arrow: [1, 5], pill: [1, 2], white: [1, 10],
  black: [1, 8], xv: [1, 8], parity: [1, 10], extraregion: [1, 2],
};
const LOCAL_KINDS = ['killer', 'thermo', 'arrow', 'pill', 'white', 'black', 'xv', 'parity', 'extraregion'];
const NEG_KINDS = ['neg-ratio', 'neg-xv', 'nonconsecutive'];

function addGivens(P, S, R, max) {
  const N = P.N;
  const scale = (N * N) / 81;
  const k = Math.min(N * N, Math.round(R.range(0, max) * scale));
  const cells = R.shuffle([...Array(N * N).keys()]).slice(0, k);
  for (const i of cells) P.givens[i] = S[i];
}

function buildConsistent(N, regionOf, jigsaw, S, R, maxGivens = null) {
  const P = new Puz(N, regionOf, jigsaw);
  const nk = R.range(2, 5);
  const pool = [...LOCAL_KINDS, ...LOCAL_KINDS, ...NEG_KINDS];
  const chosen = new Set();
  while (chosen.size < nk) chosen.add(R.pick(pool));
  const scale = Math.max(0.5, (N * N) / 81);
  const neg = new Set();
  for (const k of chosen) {
    if (k === 'neg-ratio') { neg.add('ratio'); continue; }
    if (k === 'neg-xv') { neg.add('xv'); continue; }
    if (k === 'nonconsecutive') { neg.add('nonconsecutive'); continue; }
    const [lo, hi] = KIND_COUNT[k];
    const n = Math.max(1, Math.round(R.range(lo, hi) * (k === 'pill' || k === 'extraregion' ? 1 : scale)));
    for (let i = 0; i < n; i++) GEN[k](P, S, R);
  }
  completeNegatives(P, S, R, neg);
  // Fewer givens when the clues are many.
  addGivens(P, S, R, maxGivens ?? (neg.size ? 12 : 25));
  return P;
}

// ---- perturbations (corr) ------------------------------------------------------
function perturb(P, S, R) {
  const N = P.N;
  const fp = P.fp;
  const opts = [];
  if (fp.killercage?.some(k => k.value)) opts.push('cage-sum');
  if (P.givens.some(x => x)) opts.push('given-change', 'given-remove');
  opts.push('given-wrong');
  if (fp.odd || fp.even) opts.push('parity-flip');
  if (fp.xv?.length) opts.push('xv-swap');
  if (fp.thermometer) opts.push('thermo-reverse');
  if (fp.arrow) opts.push('arrow-shorten');
  if (fp.difference || fp.ratio) opts.push('dot-move', 'dot-color');
  opts.push('global', 'global');
  const which = R.pick(opts);
  const note = [which];
  const housesConflict = (i, d) => {
    const r = Math.floor(i / N), c = i % N;
    for (let j = 0; j < N * N; j++) {
      if (j === i || P.givens[j] !== d) continue;
      if (Math.floor(j / N) === r || j % N === c || P.regionOf[j] === P.regionOf[i]) return true;
    }
    return false;
  };
  switch (which) {
    case 'cage-sum': {
      const k = R.pick(fp.killercage.filter(k => k.value));
      const n = k.cells.length, lo = n * (n + 1) / 2, hi = n * N - n * (n - 1) / 2;
      let s = +k.value + R.pick([-3, -2, -1, 1, 2, 3]);
      s = Math.max(lo, Math.min(hi, s));
      k.value = String(s);
      break;
    }
    case 'given-change': case 'given-wrong': {
      let cells = [...Array(N * N).keys()];
      cells = which === 'given-change' ? cells.filter(i => P.givens[i]) : cells.filter(i => !P.givens[i]);
      for (let t = 0; t < 20; t++) {
        const i = R.pick(cells);
        const d = R.range(1, N);
        if (d === S[i] || housesConflict(i, d)) continue;
        P.givens[i] = d; break;
      }
      break;
    }
    case 'given-remove': {
      const cells = [...Array(N * N).keys()].filter(i => P.givens[i]);
      P.givens[R.pick(cells)] = 0;
      break;
    }
    case 'parity-flip': {
      const all = [...(fp.odd || []).map(o => ['odd', o]), ...(fp.even || []).map(o => ['even', o])];
      const [k, o] = R.pick(all);
      fp[k] = fp[k].filter(x => x !== o);
      if (!fp[k].length) delete fp[k];
      const other = k === 'odd' ? 'even' : 'odd';
      // keep the flipped cell's given, if any, compatible: drop the given
      const [r, c] = parseFpCell(o.cell);
      P.givens[r * N + c] = 0;
      (fp[other] ??= []).push(o);
      break;
    }
    case 'xv-swap': {
      const x = R.pick(fp.xv);
      x.value = x.value === 'X' ? 'V' : 'X';
      break;
    }
    case 'thermo-reverse': {
      const t = R.pick(fp.thermometer);
      t.lines[0] = t.lines[0].slice().reverse();
      break;
    }
    case 'arrow-shorten': {
      const a = R.pick(fp.arrow);
      const l = a.lines[0];
      if (l.length > 2) l.pop(); else a.lines[0] = [l[0], ...l.slice(1)].concat([]);
      break;
    }
    case 'dot-move': {
      const key = fp.difference && (!fp.ratio || R.chance(0.5)) ? 'difference' : 'ratio';
      const d = R.pick(fp[key]);
      const [p, q] = R.pick(orthPairs(N));
      d.cells = [nm(N, p), nm(N, q)];
      break;
    }
    case 'dot-color': {
      const key = fp.difference && (!fp.ratio || R.chance(0.5)) ? 'difference' : 'ratio';
      const other = key === 'difference' ? 'ratio' : 'difference';
      const d = R.pick(fp[key]);
      fp[key] = fp[key].filter(x => x !== d);
      if (!fp[key].length) delete fp[key];
      (fp[other] ??= []).push({ cells: d.cells });
      break;
    }
    case 'global': {
      const g = R.pick(['diagonal+', 'diagonal-', 'antiknight', 'antiking', 'disjointgroups', 'nonconsecutive', 'negative-ratio', 'negative-xv']);
      if (g.startsWith('negative-')) {
        const w = g.slice(9);
        if (!(fp.negative || []).includes(w)) (fp.negative ??= []).push(w);
      } else fp[g] = true;
      P.kinds.add(g);
      note.push(g);
      break;
    }
  }
  return note.join(':');
}

// ---- random class (no solution start) ------------------------------------
function buildRandom(N, regionOf, jigsaw, R) {
  const P = new Puz(N, regionOf, jigsaw);
  const globals = ['antiknight', 'antiking', 'nonconsecutive', 'disjointgroups', 'diagonal+', 'diagonal-', 'negative-ratio', 'negative-xv', 'windoku'];
  const ng = R.weighted([[1, 5], [2, 4], [3, 2]]);
  const gs = new Set();
  while (gs.size < ng) gs.add(R.pick(globals));
  for (const g of gs) {
    if (g === 'windoku') {
      if (N !== 9 || jigsaw) { P.fp['diagonal-'] = true; P.kinds.add('diagonal-'); continue; }
      for (const [r0, c0] of [[1, 1], [1, 5], [5, 1], [5, 5]]) {
        const cells = [];
        for (let r = r0; r < r0 + 3; r++) for (let c = c0; c < c0 + 3; c++) cells.push(fpCell(r, c));
        P.push('extraregion', { cells });
      }
      P.kinds.add('windoku');
    } else if (g.startsWith('negative-')) {
      (P.fp.negative ??= []).push(g.slice(9)); P.kinds.add(g);
    } else { P.fp[g] = true; P.kinds.add(g); }
  }
  // A random valid grid to take givens and "plausible" clues from; clues are
  // then scrambled a little so they do not all fit it.
  const T = fillGrid(N, regionOf, R, 50000) || (jigsaw ? null : patternGrid(N, R));
  const nl = R.range(0, 3);
  const S = T || new Array(N * N).fill(1).map(() => R.range(1, N));
  for (let k = 0; k < nl; k++) {
    const kind = R.pick(LOCAL_KINDS);
    const n = R.range(1, 4);
    for (let i = 0; i < n; i++) GEN[kind](P, S, R);
  }
  if (T) addGivens(P, T, R, 10);
  return P;
}

// ---- one puzzle from a seed ---------------------------------------------------
function generate(seed, onlyClass) {
  const R = makeRng(seed);
  if (onlyClass === 'hard') {
    // Sparse consistent puzzles (0-5 givens), to make both searches work.
    const size = R.pick([9, 9, 9, 9, 8, 6]);
    const jigsaw = R.chance(0.25);
    const regionOf = jigsaw ? makeJigsaw(size, R) : standardRegions(size);
    const S = fillGrid(size, regionOf, R, 200000) || (jigsaw ? null : patternGrid(size, R));
    if (!S) return generate(seed + 500000000, onlyClass);
    const P = buildConsistent(size, regionOf, jigsaw, S, R, 5);
    const cls = (jigsaw ? 'j-' : '') + 'hard';
    return { fp: P.toJson(), cls, size, kinds: [...P.kinds].sort(), label: `${cls}${size}`, S, note: null };
  }
  const N = R.weighted([[9, 46], [6, 16], [8, 10], [4, 12], [12, 8], [16, 6], [10, 2], [15, 2]]);
  let cls = onlyClass || R.weighted([['cons', 38], ['corr', 25], ['rand', 22], ['jig', 15]]);
  let jigsaw = false;
  let size = N;
  if (cls === 'jig') {
    jigsaw = true;
    size = R.pick([6, 6, 8, 9, 9, 9]);
    cls = R.weighted([['cons', 4], ['corr', 3], ['rand', 3]]);
  }
  const regionOf = jigsaw ? makeJigsaw(size, R) : standardRegions(size);
  let P, S = null, note = null;
  if (cls !== 'rand') {
    S = fillGrid(size, regionOf, R, size >= 12 ? 30000 : 200000);
    if (!S && !jigsaw) S = patternGrid(size, R);
    if (!S) cls = 'rand';
  }
  if (cls === 'rand') P = buildRandom(size, regionOf, jigsaw, R);
  else {
    P = buildConsistent(size, regionOf, jigsaw, S, R);
    if (cls === 'corr') {
      const np = R.range(1, 2);
      const notes = [];
      for (let i = 0; i < np; i++) notes.push(perturb(P, S, R));
      note = notes.join(',');
    }
  }
  // An odd/even mark on a given of the other parity is kept: the decoder
  // throws `emptyCandidates` and the worker records the puzzle as having
  // no solution without asking ISS.
  const fp = P.toJson();
  const label = `${jigsaw ? 'j-' : ''}${cls}${size}`;
  const kinds = [...P.kinds].sort();
  return { fp, cls: (jigsaw ? 'j-' : '') + cls, size, kinds, label, S, note };
}

// ---- driver ------------------------------------------------------------------------
if (isMainThread) {
  const argv = process.argv.slice(2);
  const pos = [];
  const opt = { count: 100, seed: 1, timeout: 5000, only: null, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--count') opt.count = +argv[++i];
    else if (a === '--seed') opt.seed = +argv[++i];
    else if (a === '--timeout') opt.timeout = +argv[++i];
    else if (a === '--only') opt.only = argv[++i];
    else if (a === '-v') opt.verbose = true;
    else if (a === '--seeds') opt.seeds = argv[++i].split(',').map(Number);
    else pos.push(a);
  }
  if (pos.length !== 2) { console.error('usage: node iss-random-check.mjs <iss-checkout> OUT.jsonl [--count N] [--seed S] [--timeout MS] [--only cons|corr|rand|hard] [--seeds S1,S2,...] [-v]'); process.exit(2); }
  const root = resolvePath(pos[0]);
  const out = pos[1];
  writeFileSync(out, '');
  const self = fileURLToPath(import.meta.url);

  let worker = null, ready = null, pending = null;
  const spawn = () => {
    worker = new Worker(self, { workerData: { root } });
    ready = new Promise((res, rej) => {
      worker.once('message', (m) => m.ready ? res() : rej(new Error('bad hello')));
      worker.once('error', rej);
    });
    worker.on('message', (m) => { if (m.id !== undefined && pending && pending.id === m.id) { const p = pending; pending = null; p.resolve(m); } });
    worker.on('error', (e) => { if (pending) { const p = pending; pending = null; p.resolve({ error: String(e && e.stack || e) }); } });
  };
  spawn();
  await ready;
  let nextId = 0;
  const solve = async (fp) => {
    const id = nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(async () => {
        if (pending && pending.id === id) {
          pending = null;
          await worker.terminate();
          spawn();
          await ready;
          resolve({ timeout: true });
        }
      }, opt.timeout);
      pending = { id, resolve: (m) => { clearTimeout(timer); resolve(m); } };
      worker.postMessage({ id, fp });
    });
  };

  // Warm-up (untimed).
  for (let s = 0; s < 5; s++) await solve(generate(opt.seed * 1000003 + 999999 - s, 'cons').fp);

  const stats = new Map();
  const inc = (k) => stats.set(k, (stats.get(k) || 0) + 1);
  const problems = [];
  const t0 = performance.now();
  const seeds = opt.seeds || Array.from({ length: opt.count }, (_, i) => opt.seed * 1000003 + i);
  writeFileSync(out + '.skipped', '');
  for (const seed of seeds) {
    const g = generate(seed, opt.only);
    const name = `seed${seed}`;
    if (g.S) {
      const e = checkFp(g.fp, g.S.map(valueChar).join(''));
      if (e && (g.cls.endsWith('cons') || g.cls.endsWith('hard'))) problems.push(`${name}: generator solution fails own checker: ${e}`);
    }
    const m = await solve(g.fp);
    if (m.timeout) { inc(`${g.cls}:skipped(timeout)`); appendFileSync(out + '.skipped', JSON.stringify({ name, class: g.cls, label: g.label, kinds: g.kinds, fpuzzles: g.fp }) + '\n'); if (opt.verbose) console.error(`${name} ${g.label} skipped (timeout)`); continue; }
    if (m.error) { inc(`${g.cls}:iss-error`); problems.push(`${name}: ISS error ${m.error.split('\n')[0]}`); appendFileSync(out + '.errors', JSON.stringify({ name, fpuzzles: g.fp, error: m.error }) + '\n'); continue; }
    const res = m.res;
    inc(`${g.cls}:${res.verdict}`);
    inc(`size${g.size}:${res.verdict}`);
    const record = {
      collection: `${g.label}/${g.kinds.join('+') || 'plain'}`,
      name, class: g.cls, kinds: g.kinds, note: g.note,
      fpuzzles: g.fp,
      iss_verdict: res.verdict, iss_solution: res.solution,
      iss_ms: Math.round(res.ms * 1000) / 1000,
      iss_guesses: res.guesses, iss_backtracks: res.backtracks,
    };
    if (res.solution2) record.iss_solution2 = res.solution2;
    if (res.trivial) { record.iss_trivial = res.trivial; inc('trivial-none(parity vs given)'); }
    if (g.S) record.generated_solution = g.S.map(valueChar).join('');
    for (const [k, s] of [['solution', res.solution], ['solution2', res.solution2]]) {
      if (!s) continue;
      const e = checkFp(g.fp, s);
      if (e) { record.check_fail = `${k}: ${e}`; problems.push(`${name}: ISS ${k} fails checker: ${e}`); }
    }
    if ((g.cls.endsWith('cons') || g.cls.endsWith('hard'))) {
      if (res.verdict === 'none') problems.push(`${name}: consistent puzzle but ISS says none`);
      if (res.verdict === 'unique' && res.solution !== record.generated_solution) problems.push(`${name}: consistent+unique but ISS solution differs from generated`);
    }
    appendFileSync(out, JSON.stringify(record) + '\n');
    if (opt.verbose) console.error(`${name} ${record.collection} -> ${res.verdict} ${res.ms.toFixed(1)} ms`);
  }
  await worker.terminate();
  const wall = (performance.now() - t0) / 1000;
  console.error(`== iss-random-check: ${seeds.length} puzzles in ${wall.toFixed(1)} s ==`);
  for (const [k, n] of [...stats].sort()) console.error(`  ${k.padEnd(28)} ${n}`);
  console.error(`problems: ${problems.length}`);
  for (const p of problems) console.error('  ' + p);
}
