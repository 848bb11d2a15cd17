// Accessibility, measured: axe (WCAG 2.0/2.1 A and AA rules) on the page in
// each state a player meets, asserting no serious or critical violation.
// The counts per state go to test-results/axe-<project>.json.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, shot, test } from "./fixtures";
import { CHAIN_HINT, fakeHint } from "./grpcweb";
import { goTo, openPuzzle, PUZZLE, SOLUTION } from "./helpers";

// axe takes a second or so per state on two cores, several when the VM is
// busy (a run hit 60 s on the screenshot after the last state).
test.describe.configure({ timeout: 120_000 });

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

interface Count {
  state: string;
  violations: number;
  serious: string[];
}

async function axe(page: Page, state: string, counts: Count[]): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  counts.push({ state, violations: result.violations.length, serious });
}

/** Keeps the counts for the report and asserts none is serious. */
function save(testInfo: { project: { name: string } }, part: string, counts: Count[]): void {
  const dir = join(webDir, "test-results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `axe-${testInfo.project.name}-${part}.json`), JSON.stringify(counts, null, 2));
  expect(counts.flatMap((c) => c.serious.map((s) => `${c.state}: ${s}`))).toEqual([]);
}

test("axe finds no serious or critical violation while playing and in each hint level, light and dark", async ({ page, server }, testInfo) => {
  const counts: Count[] = [];
  await openPuzzle(page, server);
  await axe(page, "new game", counts);

  await goTo(page, 1, 3);
  await page.keyboard.press("5"); // a conflict
  await page.getByRole("button", { name: "Fill in all candidates" }).click();
  await page.keyboard.press("c");
  await page.keyboard.press("7");
  await page.keyboard.press("v");
  await page.keyboard.press("2");
  await page.keyboard.press("z");
  await axe(page, "marks, corner marks, colour, conflict", counts);
  await page.keyboard.press("Backspace");

  await fakeHint(page, CHAIN_HINT);
  await page.getByRole("button", { name: "Hint" }).click();
  await expect(page.locator("#step-panel")).toBeVisible();
  await axe(page, "hint level 1", counts);
  await page.getByRole("button", { name: "2 The pattern" }).click();
  await expect(page.locator("[data-link]").first()).toBeAttached();
  await axe(page, "hint level 2 (links)", counts);
  await page.getByRole("button", { name: "3 The result" }).click();
  await axe(page, "hint level 3", counts);
  await page.getByLabel("Theme").selectOption("dark");
  await axe(page, "dark, hint level 3", counts);
  await shot(page, testInfo, "30-axe-dark-hint");
  save(testInfo, "play", counts);
});

test("axe finds no serious or critical violation in Explain, paused, error and finished states", async ({ page, server }, testInfo) => {
  const counts: Count[] = [];
  await openPuzzle(page, server);
  await page.getByRole("button", { name: "Explain" }).click();
  await expect(page.locator("#step-title")).toContainText("Step 1 of");
  await axe(page, "explain", counts);
  await page.getByRole("button", { name: "Close" }).click();

  await page.getByRole("button", { name: "Pause" }).click();
  await axe(page, "paused", counts);
  await page.locator("#resume").click();

  await page.getByRole("button", { name: "Enter a puzzle" }).click();
  await page.getByLabel(/81 cells/).fill("5.5" + PUZZLE.slice(3));
  await page.getByRole("button", { name: "Load puzzle" }).click();
  await expect(page.locator("#grid")).toHaveClass(/refused/);
  await axe(page, "error (refused puzzle)", counts);

  await openPuzzle(page, server, SOLUTION.slice(0, 80) + ".");
  await goTo(page, 9, 9);
  await page.keyboard.press("9");
  await expect(page.locator("#grid")).toHaveClass(/solved/);
  await axe(page, "finished", counts);

  // Nothing wider than the window (no sideways scrolling).
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  save(testInfo, "help", counts);
});

test("axe at 200% zoom: no serious or critical violation, no sideways scrolling", async ({ browser, server }, testInfo) => {
  const viewport = testInfo.project.use.viewport ?? { width: 1280, height: 900 };
  // 200% zoom: half the CSS pixels, but no narrower than WCAG's reflow
  // width of 320 CSS pixels.
  const context = await browser.newContext({
    viewport: { width: Math.max(320, viewport.width / 2), height: viewport.height / 2 },
    deviceScaleFactor: 2,
  });
  const page = await context.newPage();
  await openPuzzle(page, server);
  await page.getByRole("button", { name: "Hint" }).click();
  await expect(page.locator("#step-panel")).toBeVisible();
  const counts: Count[] = [];
  await axe(page, "200% zoom, hint", counts);
  expect(counts[0].serious).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, testInfo, "31-zoom-200");
  await context.close();
});
