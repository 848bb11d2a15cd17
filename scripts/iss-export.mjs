#!/usr/bin/env node
// iss-export.mjs -- export the puzzle data of the Interactive Sudoku Solver
// (ISS, https://github.com/sigh/Interactive-Sudoku-Solver, MIT licence) to
// f-puzzles JSON, and certify each puzzle with ISS's own solver, headless in
// Node.
//
// Written against ISS commit e373f9811c087246b097eb444d838ab492c55f35.
// Nothing of ISS is copied here: every ISS module (parser, constraint model,
// builder, solver engine, puzzle data) is imported at run time from the
// checkout directory given on the command line. Other ISS commits may work,
// but the mapping below was checked against that one.
//
// Usage:
//   node iss-export.mjs <iss-checkout> [out.jsonl] [options]
//
//   <iss-checkout>     an ISS work tree, e.g. made with
//                        git --git-dir=<mirror> archive HEAD | tar -x -C /tmp/iss
//   out.jsonl          write JSONL here instead of stdout (or --out FILE)
//   --only A,B         only these collections (names as in the summary:
//                      DISPLAYED_EXAMPLES, EXAMPLES, TAREK_ALL, MATHEMAGIC_KILLERS,
//                      HS_KILLERS, EXTREME_KILLERS, HARD_THERMOS, ...)
//   --name TEXT        only puzzles whose name contains TEXT (case-insensitive)
//   --limit N          at most N kept puzzles per collection
//   --repeat N         solve each puzzle N times and keep the fastest run
//                      (default 1; as variant_compare's REPEAT does)
//   --no-solve         convert only; the iss_* fields are null
//   --verify           also decode the emitted f-puzzles JSON back into ISS
//                      constraints (own decoder, f-puzzles semantics as in the
//                      f-puzzles/SudokuSolver importer) and solve that with ISS:
//                      adds "roundtrip" to each record (verdict and solution
//                      must equal the original's). Doubles the solve time.
//   --emit-skipped     also write one record per skipped puzzle
//                      ({"collection","name","skipped":[kinds]})
//   --dedupe           solve an input seen in an earlier collection only once
//                      (the later record copies the result, "duplicate_of" set)
//   --explicit-regions always write "region" for every cell (default: only
//                      for irregular/jigsaw regions; see the note on boxes)
//   --no-warmup        skip the untimed warm-up solves
//   -v, --verbose      one progress line per puzzle on stderr
//
// Examples:
//   mkdir -p /tmp/iss && git --git-dir=/work/.mirror/sigh+Interactive-Sudoku-Solver/repo \
//     archive HEAD | tar -x -C /tmp/iss
//   node iss-export.mjs /tmp/iss --only TAREK_ALL -v > tarek.jsonl
//   node iss-export.mjs /tmp/iss all.jsonl            # everything, ~47 s on 2 cores
//   node iss-export.mjs /tmp/iss --no-solve > fp.jsonl  # conversion only, < 1 s
// Node 20, no npm packages. MATHEMAGIC_KILLERS alone takes ~41 s of ISS time.
//
// "kinds" values: size:N, givens, odd, even, jigsaw, extraregion, windoku,
// killer, killer(no sum), thermo, arrow, pill-arrow, diagonal+, diagonal-,
// disjointgroups, antiknight, antiking, nonconsecutive, kropki-white,
// kropki-black, kropki-negative, xv-x, xv-v, xv-negative.
//
// Output: one JSON object per kept puzzle:
//   {"collection","name","kinds":[...],"fpuzzles":{...},
//    "iss_verdict":"unique"|"multiple"|"none","iss_solution":"...",
//    "iss_ms":..., plus iss_build_ms, iss_first_ms, iss_guesses,
//    iss_backtracks, expected_solution_match, notes, duplicate_of, roundtrip}
// and a summary on stderr (kept per kind, skipped per excluding kind, ISS
// time per collection).
//
// Timing: iss_ms = build the ISS solver from the parsed constraints
// (SudokuBuilder.build) + nthSolution(0) + nthSolution(1), measured with
// performance.now(). This is what "count to 2" costs: ISS's e2e tests do the
// same (SimpleSolver.solutions(input, 2)), nthSolution resumes the search
// where the first solution left it. Parsing the text is not included.

import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { resolve as resolvePath, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

import { makeFpuzzlesDecoder } from './iss-fpuzzles-decoder.mjs';
import { fpCell, valueChar } from './fpuzzles-check.mjs';

// ---------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------

const usage = () => {
  process.stderr.write(
    'usage: node iss-export.mjs <iss-checkout> [out.jsonl] [--out FILE] ' +
    '[--only A,B] [--name TEXT] [--limit N] [--repeat N] [--no-solve] [--verify] ' +
    '[--emit-skipped] [--dedupe] [--explicit-regions] [--no-warmup] [-v]\n');
  process.exit(2);
};

const opts = {
  root: null, out: null, only: null, name: null, limit: Infinity, repeat: 1,
  solve: true, verify: false, emitSkipped: false, dedupe: false,
  explicitRegions: false, warmup: true, verbose: false,
};
{
  const argv = process.argv.slice(2);
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => { if (i + 1 >= argv.length) usage(); return argv[++i]; };
    switch (a) {
      case '--only': opts.only = new Set(next().split(',').map(s => s.trim()).filter(Boolean)); break;
      case '--name': opts.name = next().toLowerCase(); break;
      case '--limit': opts.limit = +next(); break;
      case '--repeat': opts.repeat = Math.max(1, Math.floor(+next()) || 1); break;
      case '--out': opts.out = next(); break;
      case '--no-solve': opts.solve = false; break;
      case '--verify': opts.verify = true; break;
      case '--emit-skipped': opts.emitSkipped = true; break;
      case '--dedupe': opts.dedupe = true; break;
      case '--explicit-regions': opts.explicitRegions = true; break;
      case '--no-warmup': opts.warmup = false; break;
      case '-v': case '--verbose': opts.verbose = true; break;
      case '-h': case '--help': usage(); break;
      default:
        if (a.startsWith('-')) { process.stderr.write(`unknown option ${a}\n`); usage(); }
        positional.push(a);
    }
  }
  if (positional.length < 1 || positional.length > 2) usage();
  opts.root = resolvePath(positional[0]);
  if (positional[1]) opts.out = positional[1];
  if (!existsSync(join(opts.root, 'js', 'sudoku_parser.js'))) {
    process.stderr.write(`${opts.root} does not look like an ISS checkout (no js/sudoku_parser.js)\n`);
    process.exit(2);
  }
}

// ---------------------------------------------------------------------------
// ISS runtime environment
// ---------------------------------------------------------------------------
// ISS modules are browser/worker ES modules. They only need two globals in
// Node: `self` (the worker global; they read self.VERSION_PARAM, a cache-busting
// suffix appended to every dynamic import) and VERSION_PARAM itself. The solver
// is plain synchronous JS; no Worker is needed when calling SudokuBuilder and
// the engine directly (that is what ISS's own SimpleSolver and Node tests do).
globalThis.self ??= globalThis;
globalThis.VERSION_PARAM ??= '';

const issUrl = (rel) => pathToFileURL(join(opts.root, rel)).href;
const { SudokuParser, toShortSolution } = await import(issUrl('js/sudoku_parser.js'));
const { SudokuConstraint, SudokuConstraintBase } = await import(issUrl('js/sudoku_constraint.js'));
const { SudokuBuilder } = await import(issUrl('js/solver/sudoku_builder.js'));
const { CellGeometry } = await import(issUrl('js/cell_geometry.js'));
const ExamplePuzzles = await import(issUrl('data/example_puzzles.js'));
// collections.js imports example_puzzles.js itself and adds its puzzles to
// PUZZLE_INDEX (entries of several collections are bare puzzle names).
const Collections = await import(issUrl('data/collections.js'));

// ---------------------------------------------------------------------------
// Puzzle enumeration
// ---------------------------------------------------------------------------
// ISS lists puzzles in two files:
//  * data/example_puzzles.js: DISPLAYED_EXAMPLE_GROUPS = [{name, puzzles:[...]}],
//    the UI's example dropdown. Exported here as collection DISPLAYED_EXAMPLES
//    (the group name is kept in the record as "group").
//  * data/collections.js: every exported array is a collection (EXAMPLES, a
//    plain array; TAREK_ALL, MATHEMAGIC_KILLERS, HS_KILLERS, ... which are
//    PuzzleCollection arrays with collection-level defaults, resolved by their
//    configFor()). An entry is a config object {name, input, solution?, ...},
//    a puzzle name looked up in PUZZLE_INDEX, or a raw input string (TAREK_ALL
//    and MATHEMAGIC_KILLERS are short killer-format strings, HS_KILLERS the
//    long "3x3:d:k:..." killer format; SudokuParser.parseText reads all of
//    them). `input` may also be a path "/data/scripts/x.iss" (constraint text
//    in a file) or "/data/scripts/x.js" (a sandbox script producing the
//    constraints); such entries carry a constraintTypes tag list.
// Names: config.name, or "<COLLECTION>#<index>" when the entry has none (the
// name is then the input itself), as ISS's tools/lib/puzzle_runner.js does.

const collectionList = [];
collectionList.push({
  name: 'DISPLAYED_EXAMPLES',
  entries: ExamplePuzzles.DISPLAYED_EXAMPLE_GROUPS.flatMap(
    g => g.puzzles.map(p => ({ cfg: ExamplePuzzles.resolvePuzzleConfig(p), group: g.name }))),
});
for (const [name, value] of Object.entries(Collections)) {
  if (!Array.isArray(value)) continue;
  collectionList.push({
    name,
    entries: value.map(e => ({
      cfg: typeof value.configFor === 'function'
        ? value.configFor(e) : ExamplePuzzles.resolvePuzzleConfig(e),
    })),
  });
}
if (opts.only) {
  const known = new Set(collectionList.map(c => c.name));
  for (const n of opts.only) {
    if (!known.has(n)) {
      process.stderr.write(`unknown collection ${n}; known: ${[...known].join(', ')}\n`);
      process.exit(2);
    }
  }
}

// ---------------------------------------------------------------------------
// Classification and conversion to f-puzzles
// ---------------------------------------------------------------------------

// Grid sizes accepted (square grids, values 1..N, ISS's standard boxes).
// 25 is in the target list but ISS's CellGeometry.MAX_SIZE is 16, so no ISS
// puzzle can have it.
const ALLOWED_SIZES = new Set([4, 6, 8, 9, 10, 12, 15, 16, 25]);

// The ISS constraint types this exporter understands. Anything else (Whisper,
// Renban, LittleKiller, Or, NFA, RegionSize, DoubleArrow, GreaterThan, ...)
// excludes the puzzle and is counted under its type name. Some supported types
// still exclude a puzzle in particular uses; those are counted under a
// qualified name such as "Given(candidates)" or "Shape(9x9~0-8)".
const SUPPORTED_TYPES = new Set([
  'Shape', 'Given', 'Jigsaw', 'NoBoxes', 'Cage', 'Thermo', 'Arrow', 'PillArrow',
  'Diagonal', 'Windoku', 'DisjointSets', 'AntiKnight', 'AntiKing',
  'AntiConsecutive', 'WhiteDot', 'BlackDot', 'X', 'V', 'StrictKropki',
  'StrictXV', 'AllDifferent',
]);

// f-puzzles cell names (`fpCell`): "R<row>C<col>", 1-based, decimal
// (R10C12). ISS writes rows/columns past 9 in base 17 ("RaCc"), so never
// pass ISS ids through: always go via geometry.parseCellId.
//
// Solution strings in the output (`valueChar`): 1-9 then A=10, B=11, ...
// (ISS's own short form for grids past 9 is A=1..P=16; that one is only
// used to compare with the `solution` field of ISS's data).

class Converter {
  constructor(constraint) {
    this.constraint = constraint;
    this.geometry = constraint.getGeometry();
    this.byType = new Map();
    constraint.forEachTopLevel(c => {
      if (!this.byType.has(c.type)) this.byType.set(c.type, []);
      this.byType.get(c.type).push(c);
    });
    this.excluded = [];   // excluding kinds
    this.kinds = new Set();
    this.notes = [];
  }

  has(type) { return this.byType.has(type); }
  get(type) { return this.byType.get(type) || []; }

  rc(cellId) {
    const { row, col } = this.geometry.parseCellId(cellId);
    if (row === undefined) throw new Error('not a grid cell: ' + cellId);
    return [row, col];
  }
  fp(cellId) { return fpCell(...this.rc(cellId)); }
  fpIndex(index) { return fpCell(...this.geometry.splitCellIndex(index)); }

  // Decide whether the puzzle is kept. Fills this.excluded.
  classify() {
    const g = this.geometry;
    for (const type of this.byType.keys()) {
      if (!SUPPORTED_TYPES.has(type)) this.excluded.push(type);
    }
    // Shape: square Sudoku grid, values 1..N, N in the allowed sizes.
    // (Without a Shape constraint the grid is ISS's 9x9 default.)
    if (g.gridType !== CellGeometry.SUDOKU_GRID_TYPE || !g.isSquare() ||
      !ALLOWED_SIZES.has(g.numRows) || g.numValues !== g.numRows ||
      g.valueOffset !== 0) {
      this.excluded.push(`Shape(${g.name})`);
    }
    // Givens: a single value is a given digit; exactly the odd (even) values
    // of the grid is ISS's way of writing an odd (even) cell -- ISS has no
    // separate parity constraint, see the 'Odd & even' example. Any other
    // candidate list is a pencilmark restriction f-puzzles cannot express.
    for (const c of this.get('Given')) {
      if (this.givenKind(c) === null) {
        this.excluded.push('Given(candidates)');
        break;
      }
    }
    // NoBoxes only together with a full jigsaw: f-puzzles always has regions.
    if (this.has('NoBoxes') && !this.has('Jigsaw')) {
      this.excluded.push('NoBoxes(without Jigsaw)');
    }
    if (this.has('Jigsaw')) {
      // ISS lets one jigsaw region be left out (a piece of a different size is
      // ignored). f-puzzles needs every cell in a region of N cells.
      const covered = new Set();
      for (const j of this.get('Jigsaw')) {
        for (const id of j.cells) covered.add(g.parseCellId(id).cellIndex);
      }
      if (covered.size !== g.numGridCells ||
        this.get('Jigsaw').length !== g.numValues) {
        this.excluded.push('Jigsaw(partial)');
      }
    }
    // DisjointSets: ISS takes the cell's position inside the standard box
    // geometry, even when jigsaw regions are present; f-puzzles' disjoint groups
    // use the k-th cell (reading order) of each region, jigsaw regions
    // included. They only agree without a jigsaw, so exclude the mix (no ISS
    // puzzle in e373f98 has it).
    if (this.has('DisjointSets') && this.has('Jigsaw')) {
      this.excluded.push('DisjointSets(with Jigsaw)');
    }
    // Pill arrows past 9: ISS reads the pill as a decimal number whose
    // non-leading cells hold 1-9; the f-puzzles reading of a multi-cell circle
    // on a 16x16 grid is not settled. Keep pills to grids up to 9.
    if (this.has('PillArrow') && g.numValues > 9) {
      this.excluded.push('PillArrow(size>9)');
    }
    this.excluded = [...new Set(this.excluded)];
    return this.excluded.length === 0;
  }

  givenKind(c) {
    const g = this.geometry;
    const vals = [...new Set(c.values)].sort((a, b) => a - b);
    if (vals.length === 1) return 'given';
    const all = g.allValues();
    const odd = all.filter(v => v % 2 === 1);
    const even = all.filter(v => v % 2 === 0);
    const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
    if (same(vals, odd)) return 'odd';
    if (same(vals, even)) return 'even';
    if (same(vals, all)) return 'any';   // no restriction at all
    return null;
  }

  // Build the f-puzzles object. Only call after classify() returned true.
  convert() {
    const g = this.geometry;
    const N = g.numRows;
    // Top-level f-puzzles fields written: size, grid, and only the constraint
    // arrays/flags that the puzzle uses (no title/author/solution fields).
    const fp = { size: N };
    this.kinds.add(`size:${N}`);

    // --- grid, givens, regions -------------------------------------------
    // grid[row][col] is {} for an empty cell, {"value": d, "given": true} for
    // a given digit (d a number, 1..N, also past 9), plus "region" when set.
    const grid = [];
    for (let r = 0; r < N; r++) {
      const row = [];
      for (let c = 0; c < N; c++) row.push({});
      grid.push(row);
    }
    const odd = [], even = [];
    for (const c of this.get('Given')) {
      const [r, col] = this.rc(c.cell);
      const kind = this.givenKind(c);
      if (kind === 'given') {
        grid[r][col].value = c.values[0];
        grid[r][col].given = true;
        this.kinds.add('givens');
      } else if (kind === 'odd') {
        odd.push({ cell: fpCell(r, col) });
        this.kinds.add('odd');
      } else if (kind === 'even') {
        even.push({ cell: fpCell(r, col) });
        this.kinds.add('even');
      } else if (kind === 'any') {
        this.notes.push(`given with every value at ${fpCell(r, col)} dropped (no restriction)`);
      }
    }

    // Regions. ISS: rows, columns and the standard boxes (CellGeometry
    // .boxDimsForSize: box height <= width, e.g. 2x3 on 6x6, 3x4 on 12x12,
    // 3x5 on 15x15) unless NoBoxes; each Jigsaw constraint adds one more
    // all-different region of N cells. f-puzzles: each cell's "region" index
    // (0-based) overrides its default box (region is sparse in f-puzzles: a
    // missing key means "default box", null would mean "no region", so we
    // never write null). The f-puzzles default boxes have box height = the
    // largest integer <= sqrt(N) dividing N (2x3, 2x4, 2x5, 3x4, 3x5, 4x4: see
    // /tmp/research/fpuzzles-spec.md section 3, from SudokuSolver's
    // SolverUtility.cs), which is exactly ISS's boxDimsForSize on a square
    // grid, so standard-box puzzles carry no "region" at all
    // (--explicit-regions writes them anyway). A jigsaw writes every cell.
    const extraregion = [];
    const boxes = SudokuConstraintBase.boxRegions(g);
    if (this.has('Jigsaw')) {
      this.kinds.add('jigsaw');
      // Region index = order of first appearance in reading order.
      const regionOf = new Array(g.numGridCells).fill(-1);
      const pieces = this.get('Jigsaw').map(j => j.cells.map(id => g.parseCellId(id).cellIndex));
      const pieceOf = new Map();
      pieces.forEach((cells, i) => cells.forEach(c => pieceOf.set(c, i)));
      const indexOfPiece = new Map();
      for (let i = 0; i < g.numGridCells; i++) {
        const p = pieceOf.get(i);
        if (!indexOfPiece.has(p)) indexOfPiece.set(p, indexOfPiece.size);
        regionOf[i] = indexOfPiece.get(p);
      }
      for (let i = 0; i < g.numGridCells; i++) {
        const [r, c] = g.splitCellIndex(i);
        grid[r][c].region = regionOf[i];
      }
      if (pieces.some(cells => !this.isConnected(cells))) {
        this.notes.push('jigsaw region(s) not orthogonally connected (kept as is)');
      }
      if (!this.has('NoBoxes')) {
        // A Jigsaw without NoBoxes keeps ISS's standard boxes as well (only
        // NoBoxes removes them; the jigsaw text formats add NoBoxes, a bare
        // .Jigsaw~ does not). f-puzzles regions replace the boxes, so the boxes
        // go into "extraregion" -- except boxes identical to a jigsaw piece.
        const pieceKeys = new Set(pieces.map(p => [...p].sort((a, b) => a - b).join(',')));
        let added = 0;
        for (const box of boxes) {
          if (pieceKeys.has([...box].sort((a, b) => a - b).join(','))) continue;
          extraregion.push({ cells: box.map(i => this.fpIndex(i)) });
          added++;
        }
        if (added) {
          this.kinds.add('extraregion');
          this.notes.push(`jigsaw without NoBoxes: ${added} standard boxes written as extraregion`);
        }
      }
    } else if (opts.explicitRegions) {
      const regionOf = new Array(g.numGridCells).fill(-1);
      boxes.forEach((cells, i) => cells.forEach(c => { regionOf[c] = i; }));
      for (let i = 0; i < g.numGridCells; i++) {
        const [r, c] = g.splitCellIndex(i);
        grid[r][c].region = regionOf[i];
      }
    }
    fp.grid = grid;

    // --- diagonals ------------------------------------------------------
    // ISS Diagonal direction +1 (UI label '╱') puts row r at column N-1-r:
    // the anti-diagonal R1CN..RNC1 = f-puzzles "diagonal+" (drawn from R9C1 up
    // to R1C9). Direction -1 ('╲') is R1C1..RNCN = "diagonal-". (See the
    // 'Diagonal' case in js/solver/sudoku_builder.js.)
    for (const d of this.get('Diagonal')) {
      if (d.direction > 0) { fp['diagonal+'] = true; this.kinds.add('diagonal+'); }
      else { fp['diagonal-'] = true; this.kinds.add('diagonal-'); }
    }

    // --- windoku / extra regions ---------------------------------------
    // ISS Windoku: the regions SudokuConstraint.Windoku.regions(geometry)
    // (4 windows at rows/cols 2-4 and 6-8 on 9x9). f-puzzles has no windoku
    // flag: the windows become "extraregion" entries.
    if (this.has('Windoku')) {
      for (const cells of SudokuConstraint.Windoku.regions(g)) {
        extraregion.push({ cells: cells.map(i => this.fpIndex(i)) });
      }
      this.kinds.add('windoku');
    }
    // ISS AllDifferent~cells: a free all-different set = f-puzzles extra region
    // (digits may not repeat; any size).
    for (const c of this.get('AllDifferent')) {
      extraregion.push({ cells: c.cells.map(id => this.fp(id)) });
      this.kinds.add('extraregion');
    }
    if (extraregion.length) fp.extraregion = extraregion;

    // --- global flags ------------------------------------------------------
    // DisjointSets: the same cell position in every standard box must differ
    // = f-puzzles "disjointgroups" (k-th cell of each region; identical when
    // the regions are the standard boxes -- the jigsaw case is excluded above).
    if (this.has('DisjointSets')) {
      fp.disjointgroups = true; this.kinds.add('disjointgroups');
    }
    // AntiKnight / AntiKing: same as f-puzzles. (ISS adds only the diagonal
    // king neighbours; the orthogonal ones share a row or column anyway.)
    if (this.has('AntiKnight')) { fp.antiknight = true; this.kinds.add('antiknight'); }
    if (this.has('AntiKing')) { fp.antiking = true; this.kinds.add('antiking'); }

    // --- cages --------------------------------------------------------------
    // ISS Cage~sum~cells: all different + sum; sum 0 (or empty) means no sum
    // (builder: "A sum of 0 means any sum is ok"). f-puzzles killercage with
    // "value" as a string, or without "value" for a sumless cage.
    const cages = [];
    for (const c of this.get('Cage')) {
      const entry = { cells: c.cells.map(id => this.fp(id)) };
      if (c.sum !== 0) { entry.value = String(c.sum); this.kinds.add('killer'); }
      else this.kinds.add('killer(no sum)');
      cages.push(entry);
    }
    if (cages.length) {
      fp.killercage = cages;
      const seen = new Set(); let overlap = false;
      for (const cg of cages) for (const id of cg.cells) { if (seen.has(id)) overlap = true; seen.add(id); }
      if (overlap) this.notes.push('overlapping killer cages');
    }

    // --- thermometers -------------------------------------------------------
    // ISS Thermo~bulb~...~tip, strictly increasing from the bulb (handlers.js
    // Thermo). f-puzzles thermometer lines also start at the bulb.
    const thermos = this.get('Thermo').map(t => ({ lines: [t.cells.map(id => this.fp(id))] }));
    if (thermos.length) { fp.thermometer = thermos; this.kinds.add('thermo'); }

    // --- arrows -------------------------------------------------------------
    // ISS Arrow~bulb~line...: bulb = sum of the rest. f-puzzles arrow:
    // cells = [bulb], lines = [[bulb, line...]] (the line starts at the circle).
    // ISS PillArrow~k~pill(k cells)~line...: the k pill cells, sorted into
    // reading order, form a k-digit decimal number equal to the line's sum.
    // f-puzzles arrow with several circle cells: SudokuSolver concatenates the
    // circle digits in the order of "cells" as written in the JSON (it does not
    // sort), so cells = the pill in ISS's reading order; each line's first
    // cell is where it leaves the circle and is not summed, so the line starts
    // at a pill cell (the last pill cell ISS lists, if king-adjacent to the
    // first shaft cell, else one that is).
    const arrows = [];
    for (const a of this.get('Arrow')) {
      const cells = a.cells.map(id => this.fp(id));
      arrows.push({ cells: [cells[0]], lines: [cells] });
      this.kinds.add('arrow');
    }
    for (const a of this.get('PillArrow')) {
      const k = a.pillSize;
      const pillIdx = a.cells.slice(0, k).map(id => g.parseCellId(id).cellIndex);
      const lineIdx = a.cells.slice(k).map(id => g.parseCellId(id).cellIndex);
      const sorted = [...pillIdx].sort((x, y) => x - y);
      const kingAdj = (x, y) => {
        const [r1, c1] = g.splitCellIndex(x), [r2, c2] = g.splitCellIndex(y);
        return Math.max(Math.abs(r1 - r2), Math.abs(c1 - c2)) === 1;
      };
      let start = pillIdx[k - 1];
      if (!kingAdj(start, lineIdx[0])) {
        start = pillIdx.find(p => kingAdj(p, lineIdx[0])) ?? start;
      }
      arrows.push({
        cells: sorted.map(i => this.fpIndex(i)),
        lines: [[start, ...lineIdx].map(i => this.fpIndex(i))],
      });
      this.kinds.add('pill-arrow');
    }
    if (arrows.length) fp.arrow = arrows;

    // --- odd / even ------------------------------------------------------------
    if (odd.length) fp.odd = odd;
    if (even.length) fp.even = even;

    // --- kropki and XV ------------------------------------------------------
    // An ISS dot/letter constraint may list more than two cells: it then
    // applies to every orthogonally adjacent pair among them (its
    // adjacentPairs(), used by the builder). Each pair becomes one f-puzzles
    // entry. WhiteDot = difference (value 1, the default, omitted); BlackDot =
    // ratio (value 2, the default, omitted); X/V = xv with value "X"/"V".
    const pairKey = (a, b) => a < b ? `${a},${b}` : `${b},${a}`;
    const dotted = new Set();   // kropki pairs (white or black)
    const pairsOf = (type) => {
      const out = [], seen = new Set();
      for (const c of this.get(type)) {
        for (const [a, b] of c.adjacentPairs(g)) {
          const key = pairKey(a, b);
          if (seen.has(key)) continue;
          seen.add(key);
          out.push([a, b]);
        }
      }
      return out;
    };
    const white = pairsOf('WhiteDot'), black = pairsOf('BlackDot');
    const xs = pairsOf('X'), vs = pairsOf('V');
    for (const [a, b] of [...white, ...black]) dotted.add(pairKey(a, b));
    if (white.length) {
      fp.difference = white.map(([a, b]) => ({ cells: [this.fpIndex(a), this.fpIndex(b)] }));
      this.kinds.add('kropki-white');
    }
    if (black.length) {
      fp.ratio = black.map(([a, b]) => ({ cells: [this.fpIndex(a), this.fpIndex(b)] }));
      this.kinds.add('kropki-black');
    }
    const xv = [
      ...xs.map(([a, b]) => ({ cells: [this.fpIndex(a), this.fpIndex(b)], value: 'X' })),
      ...vs.map(([a, b]) => ({ cells: [this.fpIndex(a), this.fpIndex(b)], value: 'V' })),
    ];
    if (xs.length) this.kinds.add('xv-x');
    if (vs.length) this.kinds.add('xv-v');
    if (xv.length) fp.xv = xv;

    // --- anti-consecutive and the negative rules --------------------------------
    // ISS AntiConsecutive: every orthogonal pair differs by more than 1, dotted
    // pairs included. f-puzzles "nonconsecutive": the same, except that in the
    // f-puzzles/SudokuSolver importer pairs carrying any kropki dot (white or
    // black) are exempt. Equal when the puzzle has no dots; with dots they
    // differ on a black-dot pair holding {1,2}: ISS forbids it, f-puzzles
    // allows it (see notes; --verify solves the f-puzzles reading).
    //
    // ISS StrictKropki ("only explicitly marked pairs satisfy kropki"): every
    // orthogonal pair that carries no WhiteDot and no BlackDot must be neither
    // consecutive nor in ratio 2 (StrictKropki.fnKey; the exempt pairs are the
    // adjacentPairs of all WhiteDot and BlackDot constraints, builder
    // _strictHandlersForType). f-puzzles: "nonconsecutive": true plus
    // "negative": ["ratio"]; the importer exempts every pair with a difference
    // or ratio dot from both, so this is exact.
    //
    // ISS StrictXV: every orthogonal pair without an X or V must not sum to 5
    // or 10. f-puzzles "negative": ["xv"]: the same (pairs with an X or V are
    // exempt; an X pair sums to 10 so it cannot sum to 5 anyway).
    const negative = [];
    if (this.has('AntiConsecutive') || this.has('StrictKropki')) {
      fp.nonconsecutive = true;
    }
    if (this.has('AntiConsecutive')) {
      this.kinds.add('nonconsecutive');
      if (dotted.size) {
        this.notes.push('ISS anti-consecutive also binds kropki-dotted pairs; ' +
          'f-puzzles nonconsecutive exempts them (differs only for a black dot holding 1-2)');
      }
    }
    if (this.has('StrictKropki')) {
      negative.push('ratio');
      this.kinds.add('kropki-negative');
    }
    if (this.has('StrictXV')) {
      negative.push('xv');
      this.kinds.add('xv-negative');
    }
    if (negative.length) fp.negative = negative;

    return fp;
  }

  isConnected(cells) {
    const g = this.geometry;
    const set = new Set(cells);
    const seen = new Set([cells[0]]);
    const stack = [cells[0]];
    while (stack.length) {
      const x = stack.pop();
      const [r, c] = g.splitCellIndex(x);
      for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const rr = r + dr, cc = c + dc;
        if (rr < 0 || cc < 0 || rr >= g.numRows || cc >= g.numCols) continue;
        const y = g.cellIndex(rr, cc);
        if (set.has(y) && !seen.has(y)) { seen.add(y); stack.push(y); }
      }
    }
    return seen.size === set.size;
  }
}

// ---------------------------------------------------------------------------
// f-puzzles -> ISS (for --verify)
// ---------------------------------------------------------------------------
// iss-fpuzzles-decoder.mjs reads the f-puzzles JSON written above as the
// f-puzzles / SudokuSolver importer does (not as ISS does), so that ISS can
// solve "the f-puzzles puzzle" and the verdicts can be compared.
const decodeFpuzzles = makeFpuzzlesDecoder({ SudokuConstraint, CellGeometry });

// ---------------------------------------------------------------------------
// Solving with ISS
// ---------------------------------------------------------------------------

const solveWithIss = (constraint) => {
  const resolved = SudokuBuilder.resolveConstraint(constraint);
  const t0 = performance.now();
  const solver = SudokuBuilder.build(resolved);
  const t1 = performance.now();
  const first = solver.nthSolution(0);
  const t2 = performance.now();
  const second = first ? solver.nthSolution(1) : null;
  const t3 = performance.now();
  const geometry = solver.geometry();
  const counters = solver.state().counters;
  const n = geometry.numGridCells;
  return {
    verdict: !first ? 'none' : second ? 'multiple' : 'unique',
    solution: first ? Array.from(first.slice(0, n), v => valueChar(v)).join('') : null,
    issShort: first ? toShortSolution(first, geometry) : null,
    ms: t3 - t0,
    buildMs: t1 - t0,
    firstMs: t2 - t1,
    guesses: counters.guesses,
    backtracks: counters.backtracks,
  };
};

// The fastest of `times` solves, each built afresh: the verdict, solution
// and counters are the same every time, only the clock differs.
const solveBestOf = (constraint, times) => {
  let best = solveWithIss(constraint);
  for (let i = 1; i < times; i++) {
    const again = solveWithIss(constraint);
    if (again.ms < best.ms) best = again;
  }
  return best;
};

const round = (x) => x === null || x === undefined ? x : Math.round(x * 1000) / 1000;

// ---------------------------------------------------------------------------
// Main loop
// ---------------------------------------------------------------------------

const outLines = [];
const emit = (obj) => {
  const line = JSON.stringify(obj);
  if (opts.out) outLines.push(line);
  else process.stdout.write(line + '\n');
};
const log = (s) => process.stderr.write(s + '\n');

const summary = {
  keptPerKind: new Map(),
  skippedPerKind: new Map(),
  perCollection: [],
};
const inc = (map, key, by = 1) => map.set(key, (map.get(key) || 0) + by);

// Warm-up: V8 compiles the solver's hot paths on first use; without this the
// first timed puzzle pays for it. Untimed solves of a classic and a killer.
if (opts.solve && opts.warmup) {
  const idx = ExamplePuzzles.PUZZLE_INDEX;
  for (const name of ['Classic sudoku', 'Killer', 'Classic sudoku, hard']) {
    const p = idx.get(name);
    if (p && typeof p.input === 'string' && !p.input.startsWith('/')) {
      for (let i = 0; i < 3; i++) solveWithIss(SudokuParser.parseText(p.input));
    }
  }
}

const seenInputs = new Map();   // input text -> {ref, result}
const tStart = performance.now();

for (const coll of collectionList) {
  if (opts.only && !opts.only.has(coll.name)) continue;
  const stats = {
    name: coll.name, total: coll.entries.length, kept: 0, skipped: 0,
    issMs: 0, solved: 0, verdicts: { unique: 0, multiple: 0, none: 0 },
    expectedMismatch: 0, roundtripMismatch: 0,
  };
  summary.perCollection.push(stats);

  for (let i = 0; i < coll.entries.length; i++) {
    const { cfg, group } = coll.entries[i];
    const name = (!cfg.name || cfg.name === cfg.input) ? `${coll.name}#${i}` : cfg.name;
    if (opts.name && !name.toLowerCase().includes(opts.name)) continue;
    if (stats.kept >= opts.limit) break;

    const skip = (kinds, detail) => {
      stats.skipped++;
      for (const k of kinds) inc(summary.skippedPerKind, k);
      if (opts.emitSkipped) emit({ collection: coll.name, name, skipped: kinds, ...(detail ? { detail } : {}) });
      if (opts.verbose) log(`  skip ${coll.name} / ${name}: ${kinds.join(', ')}`);
    };

    // Resolve the input text.
    let input = cfg.input;
    if (typeof input !== 'string') { skip(['NoInput']); continue; }
    if (input.startsWith('/')) {
      // Path inputs: decide from the declared constraintTypes tags first, so
      // that sandbox scripts (all of them NFA/Var/... puzzles in this commit)
      // are not executed just to be rejected. Tags are type names, 'NFA: x'
      // for named NFAs, 'RxC' for shapes, 'a-b' for value ranges.
      const tags = cfg.constraintTypes || [];
      const bad = [];
      for (const t of tags) {
        const base = t.split(':')[0].trim();
        if (/\bRaw\b/.test(base)) bad.push(`Shape(${base})`);
        else if (/^\d+x\d+$/.test(base)) {
          const [r, c] = base.split('x').map(Number);
          if (r !== c || !ALLOWED_SIZES.has(r)) bad.push(`Shape(${base})`);
        } else if (/^\d+-\d+$/.test(base)) bad.push(`Shape(values ${base})`);
        else if (!SUPPORTED_TYPES.has(base)) bad.push(base);
      }
      if (bad.length) { skip([...new Set(bad)], `path input ${input}`); continue; }
      try {
        const text = readFileSync(join(opts.root, input), 'utf8');
        if (input.endsWith('.js')) {
          const { runSandboxToConstraint } = await import(issUrl('tools/lib/sandbox_runner.js'));
          input = await runSandboxToConstraint(text);
        } else {
          input = text;
        }
        input += cfg.extraConstraints ?? '';
      } catch (e) {
        skip(['LoadError'], String(e.message || e));
        continue;
      }
    }

    // Parse with ISS's own parser (all of ISS's text formats).
    let constraint;
    try {
      constraint = SudokuParser.parseText(input);
    } catch (e) {
      skip(['ParseError'], String(e.message || e));
      continue;
    }

    const conv = new Converter(constraint);
    if (!conv.classify()) { skip(conv.excluded); continue; }
    let fpuzzles;
    try {
      fpuzzles = conv.convert();
    } catch (e) {
      skip(['ConvertError'], String(e.message || e));
      continue;
    }
    const kinds = [...conv.kinds];
    stats.kept++;
    for (const k of kinds) inc(summary.keptPerKind, k);

    const record = {
      collection: coll.name,
      name,
      ...(group ? { group } : {}),
      kinds,
      fpuzzles,
      iss_verdict: null,
      iss_solution: null,
      iss_ms: null,
    };

    if (opts.solve) {
      const prev = seenInputs.get(input);
      let res, dup = null;
      if (prev) dup = prev.ref;
      if (prev && opts.dedupe) {
        res = prev.result;
      } else {
        try {
          res = solveBestOf(constraint, opts.repeat);
        } catch (e) {
          res = { verdict: 'error', error: String(e.message || e) };
        }
        if (res.ms !== undefined) { stats.issMs += res.ms; stats.solved++; }
        if (!prev) seenInputs.set(input, { ref: `${coll.name}/${name}`, result: res });
      }
      if (stats.verdicts[res.verdict] !== undefined) stats.verdicts[res.verdict]++;
      record.iss_verdict = res.verdict;
      record.iss_solution = res.solution ?? null;
      record.iss_ms = round(res.ms ?? null);
      record.iss_build_ms = round(res.buildMs ?? null);
      record.iss_first_ms = round(res.firstMs ?? null);
      record.iss_guesses = res.guesses ?? null;
      record.iss_backtracks = res.backtracks ?? null;
      if (res.error) record.iss_error = res.error;
      // The puzzle's own `solution` field (ISS short form; A=1..P=16 past 9).
      if (typeof cfg.solution === 'string') {
        record.expected_solution_match = res.issShort === cfg.solution;
        if (!record.expected_solution_match) stats.expectedMismatch++;
      } else {
        record.expected_solution_match = null;
      }
      if (dup) record.duplicate_of = dup;

      if (opts.verify) {
        let rt;
        try {
          rt = solveWithIss(decodeFpuzzles(fpuzzles));
          record.roundtrip = {
            verdict: rt.verdict,
            same: rt.verdict === res.verdict && rt.solution === res.solution,
            ms: round(rt.ms),
          };
        } catch (e) {
          record.roundtrip = { verdict: 'error', same: false, error: String(e.message || e) };
        }
        if (!record.roundtrip.same) stats.roundtripMismatch++;
      }
    }
    if (conv.notes.length) record.notes = conv.notes;
    emit(record);
    if (opts.verbose) {
      log(`  ${coll.name} / ${name}: ${kinds.join(' ')} -> ${record.iss_verdict} ` +
        `${record.iss_ms === null ? '' : record.iss_ms.toFixed(1) + ' ms'}` +
        (record.roundtrip ? ` roundtrip ${record.roundtrip.same ? 'ok' : 'MISMATCH ' + record.roundtrip.verdict}` : ''));
    }
  }
}

if (opts.out) writeFileSync(opts.out, outLines.join('\n') + (outLines.length ? '\n' : ''));

// ---------------------------------------------------------------------------
// Summary (stderr)
// ---------------------------------------------------------------------------
const wall = performance.now() - tStart;
const sortDesc = (m) => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
const lines = [];
lines.push('== iss-export summary ==');
let totKept = 0, totSkipped = 0, totMs = 0;
lines.push('collection            total  kept skipped  unique multi none  iss_total_ms' +
  (opts.verify ? '  rt_mismatch' : '') + '  expected_mismatch');
for (const s of summary.perCollection) {
  totKept += s.kept; totSkipped += s.skipped; totMs += s.issMs;
  lines.push(
    `${s.name.padEnd(20)} ${String(s.total).padStart(6)} ${String(s.kept).padStart(5)} ${String(s.skipped).padStart(7)}` +
    `  ${String(s.verdicts.unique).padStart(6)} ${String(s.verdicts.multiple).padStart(5)} ${String(s.verdicts.none).padStart(4)}` +
    `  ${s.issMs.toFixed(1).padStart(12)}` +
    (opts.verify ? `  ${String(s.roundtripMismatch).padStart(11)}` : '') +
    `  ${String(s.expectedMismatch).padStart(17)}`);
}
lines.push(`total: kept ${totKept}, skipped ${totSkipped}, ISS solve time ${(totMs / 1000).toFixed(2)} s, wall ${(wall / 1000).toFixed(2)} s`);
lines.push('kept puzzles per kind:');
for (const [k, n] of sortDesc(summary.keptPerKind)) lines.push(`  ${k.padEnd(24)} ${n}`);
lines.push('skipped puzzles per excluding kind (a puzzle counts once under each kind that excluded it):');
for (const [k, n] of sortDesc(summary.skippedPerKind)) lines.push(`  ${k.padEnd(24)} ${n}`);
log(lines.join('\n'));
