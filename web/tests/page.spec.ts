// The page against a real server: each test starts its own (see fixtures.ts).
import type { Page } from "@playwright/test";
import { fileURLToPath } from "node:url";
import { expect, shot, test, type Server } from "./fixtures";

const PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

const cells = (page: Page) => page.locator('[role="gridcell"]');
const cell = (page: Page, row: number, column: number) => cells(page).nth((row - 1) * 9 + column - 1);

/** The digits the grid shows, 81 characters, '.' for an empty cell. */
async function gridText(page: Page): Promise<string> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[role="gridcell"]')]
      .map((el) => el.querySelector(".v")?.textContent || ".")
      .join(""),
  );
}

async function givensText(page: Page): Promise<string> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[role="gridcell"]')]
      .map((el) => (el.classList.contains("given") ? el.textContent : "."))
      .join(""),
  );
}

/** Opens the page on a puzzle given in the URL and waits for it. */
async function openPuzzle(page: Page, server: Server, puzzle = PUZZLE): Promise<void> {
  await page.goto(`${server.url}/?puzzle=${puzzle}`);
  await expect(page.locator(".cell.given")).toHaveCount(puzzle.replace(/[.0]/g, "").length);
}

/** Focuses the grid's selected cell and moves it to a cell by arrows. */
async function goTo(page: Page, row: number, column: number): Promise<void> {
  await page.locator('[role="gridcell"][tabindex="0"]').focus();
  const at = await page.evaluate(() => Number((document.activeElement as HTMLElement).dataset.cell));
  const [r, c] = [Math.floor(at / 9) + 1, (at % 9) + 1];
  for (let i = r; i < row; i++) await page.keyboard.press("ArrowDown");
  for (let i = r; i > row; i--) await page.keyboard.press("ArrowUp");
  for (let i = c; i < column; i++) await page.keyboard.press("ArrowRight");
  for (let i = c; i > column; i--) await page.keyboard.press("ArrowLeft");
  await expect(cell(page, row, column)).toBeFocused();
}

test("loads: 81 gridcells, a puzzle, no console error, nothing from another host", async ({
  page,
  server,
  consoleErrors,
  foreignRequests,
}, testInfo) => {
  const response = await page.goto(server.url + "/");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-security-policy"] ?? "").toContain("default-src 'self'");
  await expect(page.locator('[role="grid"]')).toHaveCount(1);
  await expect(page.locator('[role="row"]')).toHaveCount(9);
  await expect(cells(page)).toHaveCount(81);
  // With nothing saved and no URL, the page makes a puzzle.
  await expect.poll(async () => (await givensText(page)).replace(/\./g, "").length).toBeGreaterThan(16);
  await expect(page).toHaveURL(/[?&]seed=\d+/);
  const label = await cells(page).first().getAttribute("aria-label");
  expect(label).toMatch(/^Row 1, column 1, (\d, given|empty)/);
  const rendered = await page.evaluate(() => performance.getEntriesByName("grid-rendered").length);
  expect(rendered).toBe(1);
  await shot(page, testInfo, "01-load");
  expect(consoleErrors).toEqual([]);
  expect(foreignRequests).toEqual([]);
});

test("a new puzzle by level carries its seed in the URL and comes back the same", async ({
  page,
  server,
  browser,
}, testInfo) => {
  await openPuzzle(page, server);
  await page.getByLabel("Level").selectOption("medium");
  await page.getByRole("button", { name: "New puzzle" }).click();
  await expect(page).toHaveURL(/\?level=medium&seed=\d+$/);
  await expect.poll(() => givensText(page)).not.toBe(PUZZLE);
  await expect(page.locator("#about")).toContainText("Medium");
  const givens = await givensText(page);
  expect(givens.replace(/\./g, "").length).toBeGreaterThan(16);
  const url = page.url();
  await shot(page, testInfo, "02-new-puzzle");

  await page.reload();
  await expect.poll(() => givensText(page)).toBe(givens);

  // A fresh browser with the link alone (nothing saved) makes the same puzzle.
  const other = await browser.newPage();
  await other.goto(url);
  await expect.poll(() => givensText(other)).toBe(givens);
  await expect(other.locator("#about")).toContainText("Medium");
  await other.close();
});

test("played with the keyboard alone to the finished state", async ({ page, server }, testInfo) => {
  await openPuzzle(page, server);
  await goTo(page, 1, 1);
  for (let row = 0; row < 9; row++) {
    for (let column = 0; column < 9; column++) {
      if (PUZZLE[row * 9 + column] === ".") await page.keyboard.press(SOLUTION[row * 9 + column]);
      if (column < 8) await page.keyboard.press("ArrowRight");
    }
    if (row < 8) {
      await page.keyboard.press("ArrowDown");
      for (let column = 0; column < 8; column++) await page.keyboard.press("ArrowLeft");
    }
  }
  expect(await gridText(page)).toBe(SOLUTION);
  await expect(page.locator('[role="grid"]')).toHaveClass(/solved/);
  await expect(page.locator("#message")).toContainText("Solved in");
  await shot(page, testInfo, "03-solved");
  // The finished state survives a reload.
  await page.reload();
  await expect(page.locator('[role="grid"]')).toHaveClass(/solved/);
});

test("pencil marks, fill in all candidates, undo and redo", async ({ page, server }, testInfo) => {
  await openPuzzle(page, server);
  const r1c3 = cell(page, 1, 3);
  await goTo(page, 1, 3);
  await page.keyboard.press("p");
  await expect(page.locator("#pencil")).toHaveAttribute("aria-pressed", "true");
  for (const key of ["1", "3", "7"]) await page.keyboard.press(key);
  await expect(r1c3).toHaveAttribute("aria-label", "Row 1, column 3, empty, candidates 1 3 7");
  await page.keyboard.press("Control+z");
  await expect(r1c3).toHaveAttribute("aria-label", "Row 1, column 3, empty, candidates 1 3");
  await page.keyboard.press("Control+y");
  await expect(r1c3).toHaveAttribute("aria-label", "Row 1, column 3, empty, candidates 1 3 7");
  await page.keyboard.press("Control+z");
  await page.keyboard.press("Control+Shift+z");
  await expect(r1c3).toHaveAttribute("aria-label", "Row 1, column 3, empty, candidates 1 3 7");
  // A digit replaces the marks; undo brings them back.
  await page.keyboard.press("p");
  await page.keyboard.press("4");
  await expect(r1c3).toHaveAttribute("aria-label", "Row 1, column 3, 4");
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(r1c3).toHaveAttribute("aria-label", "Row 1, column 3, empty, candidates 1 3 7");
  await page.getByRole("button", { name: "Redo" }).click();
  await expect(r1c3).toHaveAttribute("aria-label", "Row 1, column 3, 4");
  await page.keyboard.press("Control+z");

  // Fill in all candidates: one action, every empty cell.
  await page.getByRole("button", { name: "Fill in all candidates" }).click();
  await expect(r1c3).toHaveAttribute("aria-label", "Row 1, column 3, empty, candidates 1 2 4");
  await expect(cell(page, 9, 1)).toHaveAttribute("aria-label", "Row 9, column 1, empty, candidates 1 2 3");
  await shot(page, testInfo, "04-candidates");
  await page.keyboard.press("Control+z");
  await expect(r1c3).toHaveAttribute("aria-label", "Row 1, column 3, empty, candidates 1 3 7");
  await expect(cell(page, 9, 1)).toHaveAttribute("aria-label", "Row 9, column 1, empty");

  // Kept across a reload.
  await page.keyboard.press("Control+y");
  await page.reload();
  await expect(r1c3).toHaveAttribute("aria-label", "Row 1, column 3, empty, candidates 1 2 4");
});

test("a conflict is shown", async ({ page, server }, testInfo) => {
  await openPuzzle(page, server);
  await goTo(page, 1, 3);
  await page.keyboard.press("5");
  await expect(cell(page, 1, 3)).toHaveClass(/conflict/);
  await expect(cell(page, 1, 3)).toHaveAttribute("aria-label", "Row 1, column 3, 5, conflict");
  await expect(cell(page, 1, 1)).toHaveClass(/conflict/);
  await expect(cell(page, 5, 5)).not.toHaveClass(/conflict/);
  // The selected digit is highlighted across the grid.
  await expect(cell(page, 2, 6)).toHaveClass(/same/);
  await shot(page, testInfo, "05-conflict");
  await page.keyboard.press("Delete");
  await expect(cell(page, 1, 1)).not.toHaveClass(/conflict/);
});

test("a hint is highlighted and applied", async ({ page, server }, testInfo) => {
  await openPuzzle(page, server);
  await page.getByRole("button", { name: "Hint" }).click();
  await expect(page.locator("#step-panel")).toBeVisible();
  await expect(page.locator("#step-title")).toContainText(/^Hint: .+ \(\d+\.\d\)$/);
  await expect(page.locator("#step-text")).toContainText(/r\dc\d/);
  const placed = page.locator(".cell.place");
  await expect(placed.first()).toBeVisible();
  await expect(page.locator(".cell.pat").first()).toBeVisible();
  const label = (await placed.first().getAttribute("aria-label")) ?? "";
  const [, row, column, digit] = /^Row (\d), column (\d), .*hint places (\d)/.exec(label) ?? [];
  expect(digit).toBeTruthy();
  await shot(page, testInfo, "06-hint");
  await page.getByRole("button", { name: "Apply" }).click();
  const target = cell(page, Number(row), Number(column));
  await expect(target).toHaveAttribute("aria-label", `Row ${row}, column ${column}, ${digit}`);
  await expect(page.locator("#step-panel")).toBeHidden();
  expect(SOLUTION[(Number(row) - 1) * 9 + Number(column) - 1]).toBe(digit);
  // One undoable action.
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(target).toHaveAttribute("aria-label", `Row ${row}, column ${column}, empty`);
});

test("check names a planted mistake", async ({ page, server }, testInfo) => {
  await openPuzzle(page, server);
  const check = page.getByRole("button", { name: "Check" });
  await check.click();
  await expect(page.locator("#message")).toHaveText("No mistakes so far.");
  // r1c3 is 4; 1 is a candidate there, so it conflicts with nothing.
  await goTo(page, 1, 3);
  await page.keyboard.press("1");
  await expect(cell(page, 1, 3)).not.toHaveClass(/conflict/);
  await goTo(page, 9, 9);
  await check.click();
  await expect(page.locator("#message")).toHaveText("r1c3: 1 is not right.");
  await expect(cell(page, 1, 3)).toHaveClass(/wrong/);
  await shot(page, testInfo, "07-check");
  // A crossed-out solution digit is a mistake too.
  await page.keyboard.press("Delete");
  await page.keyboard.press("p");
  await page.keyboard.press("1");
  await check.click();
  await expect(page.locator("#message")).toContainText("r1c3: 4 was crossed out");
});

test("explain steps through the path forwards and back", async ({ page, server }, testInfo) => {
  await openPuzzle(page, server);
  await page.getByRole("button", { name: "Explain" }).click();
  const title = page.locator("#step-title");
  await expect(title).toContainText(/^Step 1 of (\d+): /);
  const total = Number(/of (\d+)/.exec((await title.textContent()) ?? "")?.[1]);
  expect(total).toBeGreaterThan(10);
  await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
  // Step 1's placement is on the grid only once step 1 is behind.
  const placed = page.locator(".cell.place").first();
  const label = (await placed.getAttribute("aria-label")) ?? "";
  const [, row, column, digit] = /^Row (\d), column (\d), .*hint places (\d)/.exec(label) ?? [];
  const target = cell(page, Number(row), Number(column));
  await expect(target.locator(".v")).toHaveCount(0);
  await shot(page, testInfo, "08-explain-step1");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(title).toContainText(`Step 2 of ${total}: `);
  await expect(target.locator(".v")).toHaveText(digit);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(title).toContainText(`Step 3 of ${total}: `);
  await shot(page, testInfo, "08-explain-step3");
  await page.getByRole("button", { name: "Previous" }).click();
  await page.getByRole("button", { name: "Previous" }).click();
  await expect(title).toContainText(`Step 1 of ${total}: `);
  await expect(target.locator(".v")).toHaveCount(0);
  // Close returns to the player's own grid, untouched.
  await page.getByRole("button", { name: "Close" }).click();
  await expect(page.locator("#step-panel")).toBeHidden();
  expect(await gridText(page)).toBe(PUZZLE);
});

test("a pasted malformed puzzle shows the service's message and marks the cell", async ({
  page,
  server,
}, testInfo) => {
  await openPuzzle(page, server);
  const lines = PUZZLE.match(/.{9}/g)!;
  lines[1] = "6.x195...";
  await page.getByText("Enter a puzzle").click();
  await page.getByLabel(/81 cells/).fill(lines.join("\n"));
  await page.getByRole("button", { name: "Load puzzle" }).click();
  const message = page.locator("#message");
  await expect(message).toContainText("invalid character 'x' at line 2, column 3");
  await expect(cell(page, 2, 3)).toHaveClass(/wrong/);
  await expect(page.locator(".cell.wrong")).toHaveCount(1);
  await shot(page, testInfo, "09-malformed");

  // On one line, the message gives the column alone.
  await page.getByLabel(/81 cells/).fill(PUZZLE.slice(0, 4) + "x" + PUZZLE.slice(5));
  await page.getByRole("button", { name: "Load puzzle" }).click();
  await expect(message).toContainText("invalid character 'x' at column 5");
  await expect(cell(page, 1, 5)).toHaveClass(/wrong/);
  await expect(page.locator(".cell.wrong")).toHaveCount(1);

  // Conflicting givens: both cells are marked.
  await page.getByLabel(/81 cells/).fill("535.7" + PUZZLE.slice(5));
  await page.getByRole("button", { name: "Load puzzle" }).click();
  await expect(message).toContainText("digit 5 appears at both r1c1 and r1c3");
  await expect(page.locator(".cell.wrong")).toHaveCount(2);
  await expect(cell(page, 1, 3)).toHaveClass(/wrong/);

  // Several solutions: told so.
  await page.getByLabel(/81 cells/).fill("." + PUZZLE.slice(1).replace(/[1-4]/g, "."));
  await page.getByRole("button", { name: "Load puzzle" }).click();
  await expect(message).toContainText("more than one solution");
});

test("the server gone: a clear message and a Retry", async ({ page, server }, testInfo) => {
  await openPuzzle(page, server);
  await server.stop();
  await page.getByRole("button", { name: "Hint" }).click();
  const alert = page.getByRole("alert");
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("cannot be reached");
  const retry = alert.getByRole("button", { name: "Retry" });
  await expect(retry).toBeVisible();
  // The page is still there and playable.
  await expect(cells(page)).toHaveCount(81);
  await shot(page, testInfo, "10-server-gone");
  await retry.click();
  await expect(alert).toContainText("cannot be reached");
});

test("no WCAG 2 A/AA violations (axe), light and dark, at 200% zoom too", async ({
  browser,
  server,
}, testInfo) => {
  const axePath = fileURLToPath(import.meta.resolve("axe-core/axe.min.js"));
  const viewport = testInfo.project.use.viewport ?? { width: 1280, height: 900 };
  const variants = [
    { colorScheme: "light" as const, viewport, deviceScaleFactor: 1 },
    { colorScheme: "dark" as const, viewport, deviceScaleFactor: 1 },
    // 200% zoom: half the CSS pixels, but no narrower than WCAG's reflow
    // width of 320 CSS pixels (the phone at 200% would be 195).
    {
      colorScheme: "light" as const,
      viewport: { width: Math.max(320, viewport.width / 2), height: viewport.height / 2 },
      deviceScaleFactor: 2,
    },
  ];
  for (const [index, variant] of variants.entries()) {
    // axe is injected as a script, which the page's CSP would refuse.
    const context = await browser.newContext({ ...variant, bypassCSP: true });
    const page = await context.newPage();
    await openPuzzle(page, server);
    await goTo(page, 1, 3);
    await page.keyboard.press("5"); // a conflict
    await page.getByRole("button", { name: "Fill in all candidates" }).click();
    await page.getByRole("button", { name: "Hint" }).click();
    await expect(page.locator(".cell.wrong")).toHaveCount(1); // the hint names the mistake
    await page.addScriptTag({ path: axePath });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
      const result = await axe.run(document, { runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    });
    expect(violations).toEqual([]);
    // Nothing wider than the window (no sideways scrolling).
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, testInfo, `11-axe-${index}-${variant.colorScheme}-${variant.viewport.width}`);
    await context.close();
  }
});
