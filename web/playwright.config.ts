import { defineConfig } from "@playwright/test";

/** Debian's chromium: Playwright cannot download its own browsers here. */
export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "tests",
  // tests/unit is the model's, run by Node (npm run test:unit).
  testIgnore: "unit/**",
  outputDir: "test-results/output",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  // Two cores: the server under test and the browser share them.
  workers: 2,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: chromiumLaunch,
    trace: "off",
  },
  projects: [
    { name: "desktop", use: { viewport: { width: 1280, height: 900 } } },
    { name: "phone", use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: false } },
  ],
});
