// `npm run test:unit`: the model's unit tests, without a browser. Node 20
// cannot run TypeScript, so esbuild bundles each tests/unit/*.test.ts into
// a temporary directory, and Node's own test runner runs the bundles.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const unitDir = join(root, "tests", "unit");
const out = mkdtempSync(join(tmpdir(), "sudoku-web-unit-"));
try {
  const entries = readdirSync(unitDir)
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => join(unitDir, name));
  await build({
    entryPoints: entries,
    outdir: out,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "inline",
    logLevel: "warning",
  });
  const files = readdirSync(out).filter((n) => n.endsWith(".mjs")).map((n) => join(out, n));
  const run = spawnSync(process.execPath, ["--enable-source-maps", "--test", ...files], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
