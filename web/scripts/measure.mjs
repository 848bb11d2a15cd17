// `npm run measure`: figures for the page against a real server, driven
// by Playwright (not a test). Prints the command and conditions, then:
//  - first render: navigation start to the grid's 81 cells in the DOM
//    (the app's performance mark "grid-rendered"), and to the puzzle on
//    show ("puzzle-shown"), over LOADS fresh loads;
//  - Hint round trip: performance.now() around the Hint call in the page
//    (the app's performance measure "hint-rpc"), over HINTS hints, as
//    p50, p99, min and max. Every hint is asked from the same position, the
//    givens, so each one is the puzzle's first step (named in the output).
// Env: SUDOKU_SERVER_BIN (default ../target/release/sudoku-server),
// SUDOKU_SERVER_ARGS, LOADS (20), HINTS (200), CHROMIUM_BIN, PUZZLE (81
// cells, digits and . or 0; default an easy classic), TIMEOUT_MS (60000,
// per load and per hint).
import { chromium } from "@playwright/test";
import { spawn } from "node:child_process";
import { cpus } from "node:os";
import { dirname, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = resolve(webDir, process.env.SUDOKU_SERVER_BIN ?? "../target/release/sudoku-server");
const extra = (process.env.SUDOKU_SERVER_ARGS ?? "").split(" ").filter(Boolean);
const loads = Number(process.env.LOADS ?? 20);
const hints = Number(process.env.HINTS ?? 200);
const chromiumBin = process.env.CHROMIUM_BIN ?? "/usr/bin/chromium";
const DEFAULT_PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const PUZZLE = (process.env.PUZZLE ?? DEFAULT_PUZZLE).trim();
if (!/^[0-9.]{81}$/.test(PUZZLE)) {
  console.error(`PUZZLE must be 81 cells of digits and . or 0 (got ${PUZZLE.length} characters)`);
  process.exit(2);
}
const timeout = Number(process.env.TIMEOUT_MS ?? 60_000);

const args = ["--listen", "127.0.0.1:0", "--log-format", "json", ...extra];
const server = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"] });
const url = await new Promise((done, fail) => {
  server.once("error", fail);
  server.once("exit", (code) => fail(new Error(`server exited with ${code}`)));
  createInterface({ input: server.stderr }).on("line", (line) => {
    const match = line.includes("sudoku-server listening") && /"address":"([^"]+)"/.exec(line);
    if (match) done(`http://${match[1]}`);
  });
});
server.stderr.resume();

const browser = await chromium.launch({
  executablePath: chromiumBin,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const fmt = (values) =>
  `p50 ${pct(values, 50).toFixed(1)} ms, p99 ${pct(values, 99).toFixed(1)} ms, ` +
  `min ${Math.min(...values).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (n=${values.length})`;

const puzzleEnv = PUZZLE === DEFAULT_PUZZLE ? "" : `PUZZLE=${PUZZLE} `;
console.log(`command: SUDOKU_SERVER_BIN=${bin} SUDOKU_SERVER_ARGS="${extra.join(" ")}" LOADS=${loads} HINTS=${hints} ${puzzleEnv}node scripts/measure.mjs`);
console.log(`puzzle: ${PUZZLE}${PUZZLE === DEFAULT_PUZZLE ? " (the default)" : ""}`);
console.log(`server: ${bin} ${args.join(" ")} at ${url}`);
console.log(`browser: ${chromiumBin} ${browser.version()} headless, viewport 1280x900, loopback`);
console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, node ${process.version}`);

try {
  const grid = [];
  const shown = [];
  for (let i = 0; i < loads; i++) {
    // A fresh context each time: no cache, no saved game.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(timeout);
    await page.goto(`${url}/?puzzle=${PUZZLE}`);
    await page.waitForFunction(() => performance.getEntriesByName("puzzle-shown").length > 0);
    const [g, s] = await page.evaluate(() => [
      performance.getEntriesByName("grid-rendered")[0].startTime,
      performance.getEntriesByName("puzzle-shown")[0].startTime,
    ]);
    grid.push(g);
    shown.push(s);
    await context.close();
  }
  console.log(`first render (navigation start to 81 cells in the DOM), ${loads} cold loads: ${fmt(grid)}`);
  console.log(`puzzle on show (incl. the Solve call), ${loads} cold loads: ${fmt(shown)}`);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  await page.goto(`${url}/?puzzle=${PUZZLE}`);
  await page.waitForFunction(() => performance.getEntriesByName("puzzle-shown").length > 0);
  const hintButton = page.getByRole("button", { name: "Hint" });
  for (let i = 0; i < hints; i++) {
    await hintButton.click();
    await page.waitForFunction((n) => performance.getEntriesByName("hint-rpc").length >= n, i + 1);
  }
  const rtt = await page.evaluate(() => performance.getEntriesByName("hint-rpc").map((e) => e.duration));
  // What the hint was (the step on show), or what the page said instead.
  const answer = (await page.locator("#step-panel").isVisible())
    ? await page.locator("#step-title").textContent()
    : `no step: ${await page.locator("#message").textContent()}`;
  console.log(`hint given: ${answer?.trim()}`);
  console.log(`Hint round trip (in the browser, around the gRPC-Web call), ${hints} hints: ${fmt(rtt)}`);
  await context.close();
} finally {
  await browser.close();
  server.kill("SIGKILL");
}
