// Hint levels, link names and drawing, and seeds, without a browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readCells, unitCells } from "../../src/board";
import type { LinkData, StepData } from "../../src/model";
import { branchText, candidatePoint, chainTexts, endPoint, groupBox, groupName, layersOf, linkPath, linkText, whereText } from "../../src/steps";
import { generateSeed, MAX_SEED, parseSeed } from "../../src/seed";

const c = (row: number, column: number, digit: number) => ({ row, column, digit });
const link = (source: ReturnType<typeof c>, target: ReturnType<typeof c>, kind: number): LinkData => ({
  source,
  target,
  kind,
  sourceOn: kind !== 1,
  targetOn: kind === 1,
});

const chainStep: StepData = {
  technique: "X-Chain",
  rating: 6.6,
  cells: [c(9, 3, 7), c(9, 1, 7), c(6, 1, 7), c(6, 5, 7)],
  placements: [],
  eliminations: [c(8, 5, 7)],
  explanation: "(7)r9c3=(7)r9c1-(7)r6c1=(7)r6c5: r8c5 is not 7.",
  units: [{ kind: 1, number: 9 }, { kind: 1, number: 6 }],
  witnesses: [c(2, 2, 7)],
  links: [link(c(9, 3, 7), c(9, 1, 7), 1), link(c(9, 1, 7), c(6, 1, 7), 2), link(c(6, 1, 7), c(6, 5, 7), 1)],
  branches: [],
};

test("links read in Eureka notation, chained where they meet", () => {
  assert.equal(linkText(chainStep.links[0]), "(7)r9c3=(7)r9c1");
  assert.equal(linkText(chainStep.links[1]), "(7)r9c1-(7)r6c1");
  assert.deepEqual(chainTexts(chainStep.links), ["(7)r9c3=(7)r9c1-(7)r6c1=(7)r6c5"]);
  assert.deepEqual(chainTexts([chainStep.links[0], chainStep.links[2]]), ["(7)r9c3=(7)r9c1", "(7)r6c1=(7)r6c5"]);
  assert.equal(linkText(link(c(1, 1, 3), c(2, 2, 4), 3)), "(3)r1c1=>(4)r2c2");
});

test("level 1 shows the units and nothing of the pattern or result", () => {
  const l = layersOf(chainStep, 1, 0);
  assert.deepEqual([...l.units].sort((a, b) => a - b), unitCells(1, 6).concat(unitCells(1, 9)));
  assert.deepEqual([l.pattern, l.links, l.witnesses, l.placements, l.eliminations], [[], [], [], [], []]);
  assert.equal(whereText(chainStep), "Where to look: row 9 and row 6.");
});

test("level 2 adds the pattern, links and witnesses; level 3 the result", () => {
  const two = layersOf(chainStep, 2, 0);
  assert.equal(two.links.length, 3);
  assert.equal(two.pattern.length, 4);
  assert.equal(two.witnesses.length, 1);
  assert.deepEqual(two.eliminations, []);
  const three = layersOf(chainStep, 3, 0);
  assert.deepEqual(three.eliminations, [c(8, 5, 7)]);
});

test("a step without units points at the boxes of its pattern", () => {
  const s = { ...chainStep, units: [], cells: [c(1, 1, 0), c(5, 5, 0)] };
  assert.equal(whereText(s), "Where to look: box 1 and box 5.");
});

test("a forcing chain's branch is drawn one at a time", () => {
  const b1 = { assumption: c(1, 1, 5), assumedOn: true, links: [link(c(1, 1, 5), c(1, 2, 5), 2)], result: c(3, 3, 1), resultOn: true, contradiction: false, techniques: [] };
  const b2 = { ...b1, assumption: c(1, 1, 6), links: [link(c(1, 1, 6), c(2, 1, 6), 2), link(c(2, 1, 6), c(2, 2, 6), 1)], contradiction: true, techniques: ["Hidden Single"] };
  const s = { ...chainStep, links: [], branches: [b1, b2] };
  assert.equal(layersOf(s, 2, 0).links.length, 1);
  assert.equal(layersOf(s, 2, 1).links.length, 2);
  assert.deepEqual(layersOf(s, 2, 1).assumption, c(1, 1, 6));
  assert.deepEqual(layersOf(s, 2, 1).result, { candidate: c(3, 3, 1), contradiction: true });
  assert.equal(layersOf(s, 1, 1).result, null, "nothing of the pattern at level 1");
  assert.equal(branchText(b1), "Suppose (5)r1c1 is true: then (1)r3c3 is true.");
  assert.match(branchText(b2), /contradiction \(using Hidden Single\)\.$/);
});

test("a candidate's point is its place in the cell's 3x3 layout", () => {
  assert.deepEqual(candidatePoint(c(1, 1, 1)).map(Math.round), [17, 17]);
  assert.deepEqual(candidatePoint(c(1, 1, 9)).map(Math.round), [83, 83]);
  assert.deepEqual(candidatePoint(c(9, 9, 5)).map(Math.round), [850, 850]);
  assert.deepEqual(candidatePoint(c(2, 3, 0)), [250, 150]);
  assert.match(linkPath(chainStep.links[0]), /^M[\d.]+ [\d.]+Q[\d.]+ [\d.]+ [\d.]+ [\d.]+$/);
});

test("a link between two candidates of one cell bows out of the cell, so it is seen", () => {
  const link = {
    source: c(7, 2, 4),
    target: c(7, 2, 5),
    kind: 1,
    sourceOn: false,
    targetOn: true,
    sourceGroup: [],
    targetGroup: [],
  } as unknown as Parameters<typeof linkPath>[0];
  const numbers = linkPath(link).match(/[\d.]+/g)!.map(Number);
  const [sx, , cx, cy, ex] = numbers;
  const [, y] = candidatePoint(c(7, 2, 4));
  // The curve's control point is well away from the two candidates' row
  // of marks, and the line is longer than an arrowhead.
  assert.ok(Math.abs(cy - y) >= 20, `control point ${cx},${cy} too close to the marks at y ${y}`);
  assert.ok(ex - sx >= 20, `drawn over ${ex - sx} units only`);
});

test("issue 39 #9: each level gets its own Generate seed from one link seed", () => {
  const seeds = [0, 1, 2, 3, 4].map((level) => generateSeed(42n, level));
  assert.equal(new Set(seeds).size, 5);
  assert.equal(generateSeed(42n, 1), generateSeed(42n, 1), "the same link, the same puzzle");
  assert.notEqual(generateSeed(43n, 1), generateSeed(42n, 1));
  for (const s of seeds) assert.ok(s > 0n && s <= MAX_SEED);
  assert.ok(generateSeed(MAX_SEED, 4) <= MAX_SEED);
});

test("issue 39 #6: a seed from a link is a whole number up to 2^64-1", () => {
  assert.equal(parseSeed("42"), 42n);
  assert.equal(parseSeed("0"), 0n);
  assert.equal(parseSeed("18446744073709551615"), MAX_SEED);
  assert.equal(parseSeed("18446744073709551616"), null);
  assert.equal(parseSeed("abc"), null);
  assert.equal(parseSeed(""), null);
  assert.equal(parseSeed(null), null);
});

test("readCells draws pasted text: layout skipped, any other character a cell", () => {
  assert.deepEqual(readCells("1.3|x5\n[\"6\",\".\"]"), [1, 0, 3, 0, 5, 6, 0]);
});

test("a grouped link names its group as Eureka does and draws from its middle", () => {
  const group = [c(5, 1, 7), c(5, 2, 7)];
  const grouped: LinkData = { ...link(c(5, 1, 7), c(5, 9, 7), 1), sourceGroup: group, targetGroup: [] };
  assert.equal(groupName(group), "(7)r5c12");
  assert.equal(groupName([c(1, 4, 3), c(2, 4, 3), c(3, 4, 3)]), "(3)r123c4");
  assert.equal(linkText(grouped), "(7)r5c12=(7)r5c9");
  assert.deepEqual(chainTexts([grouped, link(c(5, 9, 7), c(8, 9, 7), 2)]), ["(7)r5c12=(7)r5c9-(7)r8c9"]);
  const [x] = endPoint(c(5, 1, 7), group);
  assert.equal(Math.round(x), 67, "between the two cells' 7s (17 and 117)");
  const [bx, , width] = groupBox(group);
  assert.ok(bx < candidatePoint(group[0])[0] && bx + width > candidatePoint(group[1])[0]);
  assert.ok(linkPath(grouped).startsWith("M"));
});
