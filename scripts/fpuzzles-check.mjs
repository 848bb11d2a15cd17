// fpuzzles-check.mjs -- f-puzzles helpers and a rule checker written apart from
// both solvers (docs/variants.md semantics), for scripts/iss-random-check.mjs.
export const valueChar = (v) => v <= 9 ? String(v) : String.fromCharCode(55 + v);
export const fpCell = (r, c) => `R${r + 1}C${c + 1}`;
export const parseFpCell = (name) => {
  const m = /^R(\d+)C(\d+)$/i.exec(name);
  if (!m) throw new Error('bad f-puzzles cell ' + name);
  return [+m[1] - 1, +m[2] - 1];
};
// f-puzzles default boxes: height = largest divisor of N that is <= sqrt(N).
export const boxDims = (N) => {
  let h = 1;
  for (let d = 1; d * d <= N; d++) if (N % d === 0) h = d;
  return [h, N / h];
};
export const standardRegions = (N) => {
  const [h, w] = boxDims(N);
  const out = new Array(N * N);
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
    out[r * N + c] = Math.floor(r / h) * h + Math.floor(c / w);
  }
  return out;
};
// Each cell's region index by f-puzzles semantics: the "region" key if
// present, else its default box.
export const regionsOfFp = (fp) => {
  const N = fp.size;
  const std = standardRegions(N);
  const out = std.slice();
  fp.grid.forEach((row, r) => row.forEach((cell, c) => {
    if (cell.region !== undefined && cell.region !== null) out[r * N + c] = cell.region;
  }));
  return out;
};
export const hasRegionKeys = (fp) => fp.grid.some(row => row.some(cell => cell.region !== undefined && cell.region !== null));
// Disjoint groups: the k-th cell (reading order) of every region.
export const disjointGroupsOf = (N, regionOf) => {
  const seen = new Array(N).fill(0);
  const groups = Array.from({ length: N }, () => []);
  for (let i = 0; i < N * N; i++) groups[seen[regionOf[i]]++].push(i);
  return groups;
};

// ---- independent f-puzzles rule checker (from docs/variants.md) ----------
export function checkFp(fp, sol) {
  const N = fp.size;
  const v = Array.from(sol, ch => /[0-9]/.test(ch) ? +ch : ch.charCodeAt(0) - 55);
  if (v.length !== N * N) return 'length';
  const at = (name) => { const [r, c] = parseFpCell(name); return r * N + c; };
  const val = (name) => v[at(name)];
  const distinct = (cells, what) => {
    const s = new Set(cells.map(i => v[i]));
    return s.size === cells.length ? null : what;
  };
  for (const x of v) if (!(x >= 1 && x <= N)) return 'range';
  const regionOf = regionsOfFp(fp);
  for (let i = 0; i < N; i++) {
    let e = distinct(Array.from({ length: N }, (_, c) => i * N + c), 'row ' + i)
      || distinct(Array.from({ length: N }, (_, r) => r * N + i), 'col ' + i)
      || distinct([...Array(N * N).keys()].filter(k => regionOf[k] === i), 'region ' + i);
    if (e) return e;
  }
  let err = null;
  fp.grid.forEach((row, r) => row.forEach((cell, c) => {
    if (cell.given && cell.value && v[r * N + c] !== +cell.value) err = err || `given ${fpCell(r, c)}`;
  }));
  if (err) return err;
  for (const k of fp.killercage || []) {
    const cells = k.cells.map(at);
    if (distinct(cells, 'x')) return 'cage distinct ' + k.cells;
    if (k.value !== undefined && k.value !== '' && cells.reduce((s, i) => s + v[i], 0) !== +k.value) return 'cage sum ' + k.cells;
  }
  for (const t of fp.thermometer || []) for (const line of t.lines) {
    for (let i = 1; i < line.length; i++) if (!(val(line[i]) > val(line[i - 1]))) return 'thermo ' + line;
  }
  for (const a of fp.arrow || []) {
    const num = +a.cells.map(c => String(val(c))).join('');
    for (const line of a.lines) {
      const s = line.slice(1).reduce((s, c) => s + val(c), 0);
      if (s !== num) return 'arrow ' + a.cells + ' ' + line;
    }
  }
  const diag = (f) => Array.from({ length: N }, (_, i) => { const [r, c] = f(i); return r * N + c; });
  if (fp['diagonal+'] && distinct(diag(i => [N - 1 - i, i]), 'x')) return 'diagonal+';
  if (fp['diagonal-'] && distinct(diag(i => [i, i]), 'x')) return 'diagonal-';
  for (const r of fp.extraregion || []) if (distinct(r.cells.map(at), 'x')) return 'extraregion';
  if (fp.disjointgroups) for (const grp of disjointGroupsOf(N, regionOf)) if (distinct(grp, 'x')) return 'disjoint';
  const moves = [];
  if (fp.antiknight) moves.push([1, 2], [2, 1], [1, -2], [2, -1]);
  if (fp.antiking) moves.push([1, 1], [1, -1]);
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) for (const [dr, dc] of moves) {
    const rr = r + dr, cc = c + dc;
    if (rr < 0 || cc < 0 || rr >= N || cc >= N) continue;
    if (v[r * N + c] === v[rr * N + cc]) return 'chess ' + fpCell(r, c);
  }
  for (const o of fp.odd || []) if (val(o.cell) % 2 !== 1) return 'odd';
  for (const o of fp.even || []) if (val(o.cell) % 2 !== 0) return 'even';
  const pk = (a, b) => a < b ? `${a},${b}` : `${b},${a}`;
  const kropki = new Set(), xvm = new Set();
  const ratios = new Set();
  for (const d of fp.difference || []) {
    const k = d.value === undefined || d.value === '' ? 1 : +d.value;
    const [a, b] = d.cells.map(at);
    if (Math.abs(v[a] - v[b]) !== k) return 'white ' + d.cells;
    kropki.add(pk(a, b));
  }
  for (const d of fp.ratio || []) {
    const k = d.value === undefined || d.value === '' ? 2 : +d.value;
    const [a, b] = d.cells.map(at);
    if (!(v[a] === k * v[b] || v[b] === k * v[a])) return 'black ' + d.cells;
    kropki.add(pk(a, b));
    ratios.add(k);
  }
  if (!ratios.size) ratios.add(2);
  for (const x of fp.xv || []) {
    if (x.value === undefined || x.value === '') continue;
    const [a, b] = x.cells.map(at);
    const s = /^x$/i.test(x.value) ? 10 : 5;
    if (v[a] + v[b] !== s) return 'xv ' + x.cells;
    xvm.add(pk(a, b));
  }
  const neg = new Set(fp.negative || []);
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) for (const [rr, cc] of [[r + 1, c], [r, c + 1]]) {
    if (rr >= N || cc >= N) continue;
    const a = r * N + c, b = rr * N + cc, x = v[a], y = v[b];
    if (fp.nonconsecutive && !kropki.has(pk(a, b)) && Math.abs(x - y) === 1) return 'nonconsec ' + fpCell(r, c);
    if (neg.has('ratio') && !kropki.has(pk(a, b)) && [...ratios].some(k => x === k * y || y === k * x)) return 'negratio ' + fpCell(r, c);
    if (neg.has('xv') && !xvm.has(pk(a, b)) && (x + y === 5 || x + y === 10)) return 'negxv ' + fpCell(r, c);
  }
  return null;
}

