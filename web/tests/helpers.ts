// What the page tests share: the puzzle they play and ways to read the grid.
import type { Page } from "@playwright/test";
import { expect, type Server } from "./fixtures";

export const PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
export const SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

export const cells = (page: Page) => page.locator('[role="gridcell"]');
export const cell = (page: Page, row: number, column: number) => cells(page).nth((row - 1) * 9 + column - 1);

/** The digits the grid shows, 81 characters, '.' for an empty cell. */
export async function gridText(page: Page): Promise<string> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[role="gridcell"]')]
      .map((el) => el.querySelector(".v")?.textContent || ".")
      .join(""),
  );
}

export async function givensText(page: Page): Promise<string> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[role="gridcell"]')]
      .map((el) => (el.classList.contains("given") ? el.querySelector(".v")?.textContent : "."))
      .join(""),
  );
}

/** Opens the page on a puzzle given in the URL and waits for it. */
export async function openPuzzle(page: Page, server: Server, puzzle = PUZZLE): Promise<void> {
  await page.goto(`${server.url}/?puzzle=${puzzle}`);
  await expect(page.locator(".cell.given")).toHaveCount(puzzle.replace(/[.0]/g, "").length);
}

/** Focuses the grid's selected cell and moves it to a cell by arrows. */
export async function goTo(page: Page, row: number, column: number): Promise<void> {
  await page.locator('[role="gridcell"][tabindex="0"]').focus();
  const at = await page.evaluate(() => Number((document.activeElement as HTMLElement).dataset.cell));
  const [r, c] = [Math.floor(at / 9) + 1, (at % 9) + 1];
  for (let i = r; i < row; i++) await page.keyboard.press("ArrowDown");
  for (let i = r; i > row; i--) await page.keyboard.press("ArrowUp");
  for (let i = c; i < column; i++) await page.keyboard.press("ArrowRight");
  for (let i = c; i > column; i--) await page.keyboard.press("ArrowLeft");
  await expect(cell(page, row, column)).toBeFocused();
}

/** The games the page keeps in localStorage, most recent first. */
export async function savedGames(page: Page): Promise<{ meta: { key: string; solution: string; givens: string } }[]> {
  return page.evaluate(() => JSON.parse(localStorage.getItem("sudoku-grpc.games") ?? "[]"));
}

export async function box(page: Page, selector: string) {
  const b = await page.locator(selector).boundingBox();
  if (!b) throw new Error(`${selector} has no box`);
  return b;
}
