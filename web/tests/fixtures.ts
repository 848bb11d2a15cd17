// Each test gets its own sudoku-server on a free port, killed after it.
import { test as base, expect, type Page, type TestInfo } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface Server {
  /** http://127.0.0.1:PORT */
  url: string;
  process: ChildProcess;
  /** Kills the server and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts the server binary ($SUDOKU_SERVER_BIN, extra args from
 * $SUDOKU_SERVER_ARGS) on port 0 and reads its address from its log. */
export async function startServer(): Promise<Server> {
  const bin = resolve(webDir, process.env.SUDOKU_SERVER_BIN ?? "../target/release/sudoku-server");
  const extra = (process.env.SUDOKU_SERVER_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(bin, ["--listen", "127.0.0.1:0", "--log-format", "json", ...extra], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${bin} did not say where it listens within 20 s`)), 20_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      fail(new Error(`cannot start ${bin}: ${error.message}`));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`${bin} exited with ${code} before listening`));
    });
    const lines = createInterface({ input: child.stderr! });
    lines.on("line", (line) => {
      if (!line.includes("sudoku-server listening")) return;
      const match = /"address":"([^"]+)"/.exec(line);
      if (match) {
        clearTimeout(timer);
        done(`http://${match[1]}`);
      }
    });
  });
  // Keep draining stderr so the server never blocks on a full pipe.
  child.stderr!.resume();
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}

/** Saves a screenshot under test-results/screenshots/: the full page, or
 * with `fullPage` false what the window shows (where a sheet sits over the
 * page, say). */
export async function shot(page: Page, testInfo: TestInfo, name: string, fullPage = true): Promise<void> {
  const dir = join(webDir, "test-results", "screenshots");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${testInfo.project.name}-${name}.png`), fullPage });
}

interface Fixtures {
  server: Server;
  /** Requests the page made to any other origin than the server's. */
  foreignRequests: string[];
  consoleErrors: string[];
}

export const test = base.extend<Fixtures>({
  server: async ({}, use) => {
    const server = await startServer();
    await use(server);
    await server.stop();
  },
  foreignRequests: async ({ page, server }, use) => {
    const foreign: string[] = [];
    const origin = new URL(server.url).origin;
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")) foreign.push(url);
    });
    await use(foreign);
  },
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(String(error)));
    await use(errors);
  },
});

export { expect };
