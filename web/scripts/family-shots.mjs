// `node scripts/family-shots.mjs`: one screenshot per technique family,
// against a real server, driven by Playwright (not a test, no timing).
//
// FAMILIES names a file of lines `TECHNIQUE NAME|PUZZLE` (blank lines and
// lines starting with # are skipped). For each line, at 1280x900 and at
// 390x844, the page opens `/?puzzle=PUZZLE`, runs Explain from the givens,
// steps forward to the first step whose technique is exactly TECHNIQUE NAME,
// shows its pattern (hint level 2: cells, witnesses and links drawn) and
// saves what the window shows to test-results/families/<width>-<slug>.png.
// It counts the `[data-link]` paths drawn there, by kind (strong, weak,
// inference), on the first branch as shown, and summed over all branches
// when the step has several. It then walks the rest of the path and counts
// the steps of the same technique, and how many of them draw no link on
// any branch.
//
// Prints one line per technique and width, then a JSON summary to
// test-results/families/summary.json.
// Env: FAMILIES (required), SUDOKU_SERVER_BIN (default
// ../target/release/sudoku-server), SUDOKU_SERVER_ARGS, CHROMIUM_BIN,
// TIMEOUT_MS (60000: per puzzle, for Explain and the walk).
import { chromium } from "@playwright/test";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const familiesFile = process.env.FAMILIES;
if (!familiesFile) {
  console.error("FAMILIES must name a file of `TECHNIQUE NAME|PUZZLE` lines");
  process.exit(2);
}
const bin = resolve(webDir, process.env.SUDOKU_SERVER_BIN ?? "../target/release/sudoku-server");
const extra = (process.env.SUDOKU_SERVER_ARGS ?? "").split(" ").filter(Boolean);
const chromiumBin = process.env.CHROMIUM_BIN ?? "/usr/bin/chromium";
const timeout = Number(process.env.TIMEOUT_MS ?? 60_000);
const outDir = join(webDir, "test-results", "families");
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

const families = readFileSync(familiesFile, "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith("#"))
  .map((line) => {
    const bar = line.lastIndexOf("|");
    return bar < 0 ? { technique: line, puzzle: "" } : { technique: line.slice(0, bar).trim(), puzzle: line.slice(bar + 1).trim() };
  });

const slug = (name) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "unnamed";

const args = ["--listen", "127.0.0.1:0", "--log-format", "json", ...extra];
const server = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"] });
const url = await new Promise((done, fail) => {
  const timer = setTimeout(() => fail(new Error(`${bin} did not say where it listens within 20 s`)), 20_000);
  server.once("error", (error) => (clearTimeout(timer), fail(new Error(`cannot start ${bin}: ${error.message}`))));
  server.once("exit", (code) => (clearTimeout(timer), fail(new Error(`${bin} exited with ${code} before listening`))));
  createInterface({ input: server.stderr }).on("line", (line) => {
    const match = line.includes("sudoku-server listening") && /"address":"([^"]+)"/.exec(line);
    if (match) {
      clearTimeout(timer);
      done(`http://${match[1]}`);
    }
  });
});
server.stderr.resume();

const browser = await chromium.launch({
  executablePath: chromiumBin,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

console.log(`server: ${bin} ${args.join(" ")} at ${url}`);
console.log(`browser: ${chromiumBin} ${browser.version()} headless; ${families.length} families from ${familiesFile}`);
mkdirSync(outDir, { recursive: true });

// Runs in the page. Walks Explain's path from the step on show (the panel's
// Next button, synchronous re-renders) and describes each step: its title,
// and the links drawn on each of its branches (Next branch until it is
// disabled, then back to the first). With `stopAt`, stops on the first
// step whose technique is exactly `stopAt` and leaves it on show.
function walk({ stopAt, from }) {
  const $ = (id) => document.getElementById(id);
  const count = () => {
    const kinds = { strong: 0, weak: 0, inference: 0, other: 0 };
    const links = document.querySelectorAll("[data-link]");
    for (const el of links) {
      const kind = el.getAttribute("data-link");
      if (kind in kinds && kind !== "other") kinds[kind]++;
      else kinds.other++;
    }
    return { total: links.length, ...kinds };
  };
  const steps = [];
  let first = true;
  for (;;) {
    if (!first) {
      const next = $("explain-next");
      if (next.hidden || next.disabled) break;
      next.click();
    }
    first = false;
    const title = $("step-title").textContent ?? "";
    const m = /^Step (\d+) of (\d+): (.*) \(([0-9.]+)\)$/.exec(title);
    if (!m) return { steps, error: `unexpected step title: ${JSON.stringify(title)}` };
    const step = { index: Number(m[1]), of: Number(m[2]), technique: m[3], rating: Number(m[4]), branches: [] };
    if (Number(m[1]) < from) continue;
    step.branches.push(count());
    const bar = $("branch-bar");
    if (!bar.hidden) {
      const nextBranch = $("branch-next");
      let guard = 0;
      while (!nextBranch.disabled && guard++ < 200) {
        nextBranch.click();
        step.branches.push(count());
      }
      const prevBranch = $("branch-prev");
      while (!prevBranch.disabled && guard++ < 400) prevBranch.click();
    }
    steps.push(step);
    if (stopAt !== undefined && step.technique === stopAt) return { steps, found: step };
  }
  return { steps };
}

const sum = (branches) =>
  branches.reduce((a, b) => ({
    total: a.total + b.total, strong: a.strong + b.strong, weak: a.weak + b.weak,
    inference: a.inference + b.inference, other: a.other + b.other,
  }), { total: 0, strong: 0, weak: 0, inference: 0, other: 0 });
const kinds = (c) => `${c.total} (strong ${c.strong}, weak ${c.weak}, inference ${c.inference}${c.other ? `, other ${c.other}` : ""})`;

async function runOne(family, viewport) {
  const row = { technique: family.technique, width: viewport.width, found: false };
  if (!/^[0-9.]{81}$/.test(family.puzzle)) {
    return { ...row, reason: `not an 81-cell puzzle (${family.puzzle.length} characters)` };
  }
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  try {
    await page.goto(`${url}/?puzzle=${family.puzzle}`);
    await page.waitForFunction(() => performance.getEntriesByName("puzzle-shown").length > 0);
    const aboutText = (await page.locator("#about").textContent().catch(() => "")) ?? "";
    await page.locator("#explain-givens").check();
    const started = Date.now();
    await page.locator("#explain").click();
    // Explain's answer: the panel on show, or an alert, or a message.
    await page.waitForFunction(() => {
      const title = document.getElementById("step-title")?.textContent ?? "";
      const alert = document.getElementById("alert");
      return /^Step \d+ of \d+: /.test(title) || (alert && !alert.hidden) ||
        /no path|Fix a mistake|cannot be played/.test(document.getElementById("message")?.textContent ?? "");
    });
    row.explainMs = Date.now() - started;
    const title = (await page.locator("#step-title").textContent()) ?? "";
    if (!/^Step \d+ of \d+: /.test(title)) {
      const alert = await page.locator("#alert").textContent().catch(() => "");
      const message = await page.locator("#message").textContent().catch(() => "");
      return { ...row, reason: `Explain gave no path: ${(alert || message || aboutText).trim()}` };
    }
    // Level 2, the pattern: kept as Next moves through the path.
    await page.getByRole("button", { name: "2 The pattern" }).click();
    const head = await page.evaluate(walk, { stopAt: family.technique, from: 1 });
    if (head.error) return { ...row, reason: head.error };
    const seen = [...new Set(head.steps.map((s) => s.technique))];
    row.pathLength = head.steps[0]?.of ?? 0;
    if (!head.found) {
      return { ...row, reason: `not on the path (${row.pathLength} steps: ${seen.join(", ")})` };
    }
    const step = head.found;
    row.found = true;
    row.step = step.index;
    row.rating = step.rating;
    row.branches = step.branches.length;
    row.shown = step.branches[0];
    row.allBranches = sum(step.branches);
    row.links = await page.locator("#step-links li").allTextContents();
    const file = join(outDir, `${viewport.width}-${slug(family.technique)}.png`);
    await page.screenshot({ path: file });
    row.screenshot = relative(webDir, file);
    // The rest of the path: the same technique again, and how often it
    // draws nothing.
    const tail = await page.evaluate(walk, { from: step.index + 1 });
    const same = [step, ...tail.steps.filter((s) => s.technique === family.technique)];
    row.occurrences = same.length;
    row.withoutLinks = same.filter((s) => sum(s.branches).total === 0).map((s) => s.index);
    return row;
  } catch (error) {
    return { ...row, reason: `failed: ${String(error?.message ?? error).split("\n")[0]}` };
  } finally {
    if (errors.length) row.pageErrors = errors;
    await context.close();
  }
}

const rows = [];
try {
  for (const family of families) {
    for (const viewport of VIEWPORTS) {
      const row = await runOne(family, viewport);
      rows.push(row);
      const where = `${row.technique} @${row.width}`;
      if (row.found) {
        const branches = row.branches > 1 ? `; all ${row.branches} branches ${kinds(row.allBranches)}` : "";
        const listed = row.withoutLinks.slice(0, 8).join(", ") + (row.withoutLinks.length > 8 ? ", …" : "");
        const none = row.withoutLinks.length ? `; ${row.withoutLinks.length} without links (steps ${listed})` : "";
        console.log(`${where}: step ${row.step}/${row.pathLength}, links ${kinds(row.shown)}${branches}; ` +
          `${row.occurrences} on the path${none}; ${row.screenshot}`);
      } else {
        console.log(`${where}: NOT FOUND: ${row.reason}`);
      }
      if (row.pageErrors) console.log(`  page errors: ${row.pageErrors.join(" | ")}`);
    }
  }
} finally {
  await browser.close();
  server.kill("SIGKILL");
}
writeFileSync(join(outDir, "summary.json"), JSON.stringify(rows, null, 2) + "\n");
console.log(`summary: ${relative(webDir, join(outDir, "summary.json"))}`);
