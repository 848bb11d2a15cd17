// The page against a real server: each test starts its own (see fixtures.ts).
import { expect, shot, test } from "./fixtures";
import { failWithCells } from "./grpcweb";
import { cell, cells, givensText, goTo, gridText, openPuzzle, PUZZLE, SOLUTION } from "./helpers";

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

test("a hint in three levels: where to look, the pattern, the result; Apply", async ({ page, server }, testInfo) => {
  await openPuzzle(page, server);
  const gridBefore = await page.locator("#grid").boundingBox();
  await page.getByRole("button", { name: "Hint" }).click();
  const panel = page.locator("#step-panel");
  await expect(panel).toBeVisible();
  await expect(page.locator("#step-title")).toContainText(/^Hint: .+ \(\d+\.\d\)$/);
  // Level 1: the technique and where to look; nothing of the answer.
  await expect(page.locator("#step-text")).toHaveText(/^Where to look: (row|column|box) \d/);
  await expect(page.locator(".cell.unit")).toHaveCount(9);
  await expect(page.locator(".cell.place, .cell.elim, .cell.pat")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Apply" })).toBeHidden();
  await shot(page, testInfo, "06-hint-level1", false);
  // Level 2: the pattern, still no result.
  await page.getByRole("button", { name: "2 The pattern" }).click();
  await expect(page.locator(".cell.pat").first()).toBeVisible();
  await expect(page.locator(".cell.place, .cell.elim")).toHaveCount(0);
  await shot(page, testInfo, "06-hint-level2", false);
  // Level 3: the placement, large, and the sentence.
  await page.getByRole("button", { name: "3 The result" }).click();
  await expect(page.locator("#step-text")).toContainText(/r\dc\d/);
  const placed = page.locator(".cell.place");
  await expect(placed).toHaveCount(1);
  const ghost = placed.locator(".ghost");
  await expect(ghost).toBeVisible();
  // Readable at 390 px: as tall as a placed digit, not a pencil mark.
  expect((await ghost.boundingBox())!.height).toBeGreaterThanOrEqual(18);
  const label = (await placed.getAttribute("aria-label")) ?? "";
  const [, row, column, digit] = /^Row (\d), column (\d), .*hint places (\d)/.exec(label) ?? [];
  expect(digit).toBeTruthy();
  await shot(page, testInfo, "06-hint-level3", false);
  // The grid did not move while the panel opened and grew (on a phone it
  // is brought to the top, with the panel as a sheet below it).
  const gridNow = (await page.locator("#grid").boundingBox())!;
  if (testInfo.project.name === "desktop") expect(gridNow).toEqual(gridBefore);
  else expect((await panel.boundingBox())!.y).toBeGreaterThanOrEqual(gridNow.y + gridNow.height - 1);
  expect(gridNow.y).toBeGreaterThanOrEqual(0);
  await page.getByRole("button", { name: "Apply" }).click();
  const target = cell(page, Number(row), Number(column));
  await expect(target).toHaveAttribute("aria-label", `Row ${row}, column ${column}, ${digit}`);
  await expect(panel).toBeHidden();
  await expect(page.locator("#message")).toHaveText("Hint applied. Undo takes it back.");
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
  await expect(page.getByRole("button", { name: "Previous", exact: true })).toBeDisabled();
  // Step 1's placement is on the grid only once step 1 is behind.
  const placed = page.locator(".cell.place").first();
  const label = (await placed.getAttribute("aria-label")) ?? "";
  const [, row, column, digit] = /^Row (\d), column (\d), .*hint places (\d)/.exec(label) ?? [];
  const target = cell(page, Number(row), Number(column));
  await expect(target.locator(".v")).toHaveCount(0);
  // Drawn as a hint's third level: the unit, the witnesses, the placement.
  await expect(page.getByRole("button", { name: "3 The result" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator(".cell.unit")).toHaveCount(9);
  await expect(page.locator(".cell.witness").first()).toBeVisible();
  await shot(page, testInfo, "08-explain-step1");
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await expect(title).toContainText(`Step 2 of ${total}: `);
  await expect(target.locator(".v")).toHaveText(digit);
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await expect(title).toContainText(`Step 3 of ${total}: `);
  await shot(page, testInfo, "08-explain-step3");
  await page.getByRole("button", { name: "Previous", exact: true }).click();
  await page.getByRole("button", { name: "Previous", exact: true }).click();
  await expect(title).toContainText(`Step 1 of ${total}: `);
  await expect(target.locator(".v")).toHaveCount(0);
  // Close returns to the player's own grid, untouched.
  await page.getByRole("button", { name: "Close" }).click();
  await expect(page.locator("#step-panel")).toBeHidden();
  expect(await gridText(page)).toBe(PUZZLE);
});

test("a pasted malformed puzzle shows the service's message; the cells come from its CellErrors", async ({
  page,
  server,
}, testInfo) => {
  await openPuzzle(page, server);
  const lines = PUZZLE.match(/.{9}/g)!;
  lines[1] = "6.x195...";
  await page.getByRole("button", { name: "Enter a puzzle" }).click();
  await page.getByLabel(/81 cells/).fill(lines.join("\n"));
  await page.getByRole("button", { name: "Load puzzle" }).click();
  const message = page.locator("#message");
  await expect(message).toContainText("invalid character 'x' at line 2, column 3");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page.locator("#grid")).toHaveClass(/refused/);
  // What was read is shown: row 2 as pasted.
  await expect(cell(page, 2, 4)).toHaveAttribute("aria-label", /^Row 2, column 4, 1, given/);

  // The cells marked are those of the status's CellErrors detail, not read
  // from the message's words.
  await failWithCells(page, "Solve", "digit 5 appears at both r1c1 and r1c3 (told in words only)", "puzzle", [
    [1, 1, 5],
    [2, 9, 5],
  ]);
  await page.getByRole("button", { name: "Enter a puzzle" }).click();
  await page.getByLabel(/81 cells/).fill("535.7" + PUZZLE.slice(5));
  await page.getByRole("button", { name: "Load puzzle" }).click();
  await expect(message).toContainText("told in words only");
  await expect(message).toContainText("(r1c1, r2c9 marked)");
  await expect(page.locator(".cell.wrong")).toHaveCount(2);
  await expect(cell(page, 2, 9)).toHaveClass(/wrong/);
  await expect(cell(page, 1, 3)).not.toHaveClass(/wrong/);
  await shot(page, testInfo, "09-malformed");
  await page.unrouteAll();

  // Several solutions: told so.
  await page.getByRole("button", { name: "Enter a puzzle" }).click();
  await page.getByLabel(/81 cells/).fill("." + PUZZLE.slice(1).replace(/[1-4]/g, "."));
  await page.getByRole("button", { name: "Load puzzle" }).click();
  await expect(message).toContainText("more than one solution");
  await expect(page.locator("#about")).toHaveText("Several solutions");
});

test("the server's CellErrors put a refused puzzle's faults on the grid", async ({ page, server }) => {
  await openPuzzle(page, server);
  const message = page.locator("#message");
  const load = async (text: string) => {
    await page.getByRole("button", { name: "Enter a puzzle" }).click();
    await page.getByLabel(/81 cells/).fill(text);
    await page.getByRole("button", { name: "Load puzzle" }).click();
  };
  // A character that is not a cell, on line 2.
  const lines = PUZZLE.match(/.{9}/g)!;
  lines[1] = "6.x195...";
  await load(lines.join("\n"));
  await expect(message).toContainText("cannot be played");
  await expect(page.locator(".cell.wrong")).toHaveCount(1);
  await expect(cell(page, 2, 3)).toHaveClass(/wrong/);
  // Conflicting givens: both cells.
  await load("535.7" + PUZZLE.slice(5));
  await expect(message).toContainText("(r1c1, r1c3 marked)");
  await expect(page.locator(".cell.wrong")).toHaveCount(2);
  await expect(cell(page, 1, 1)).toHaveClass(/wrong/);
  await expect(cell(page, 1, 3)).toHaveClass(/wrong/);
  // Too short: where the missing cells begin.
  await load(PUZZLE.slice(0, 79));
  await expect(page.locator(".cell.wrong")).toHaveCount(1);
  await expect(cell(page, 9, 8)).toHaveClass(/wrong/);
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
