// `npm run build`: bundles the page into dist/, exactly the files the
// server embeds and serves (flat: index.html, app.js, app.css, favicon.svg).
// Minified, no source map, and deterministic: the same sources give the
// same bytes, so CI can check that the committed dist/ is current.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, "dist");

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);

const common = {
  bundle: true,
  minify: true,
  sourcemap: false,
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
  absWorkingDir: root,
};

await build({
  ...common,
  entryPoints: ["src/main.ts"],
  outfile: join(dist, "app.js"),
  format: "esm",
  target: ["es2022", "chrome100", "firefox100", "safari15"],
});

await build({
  ...common,
  entryPoints: ["src/app.css"],
  outfile: join(dist, "app.css"),
  target: ["chrome100", "firefox100", "safari15"],
});

for (const name of readdirSync(join(root, "static"))) {
  copyFileSync(join(root, "static", name), join(dist, name));
}

console.log(`built ${readdirSync(dist).sort().join(", ")} in dist/`);
