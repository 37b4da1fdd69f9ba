// Builds this machine's npm packages (go run ./npm/build --platform host),
// installs the tarballs into a fresh project with `npm install --offline`,
// and runs the tests in installed/ there with Node's test runner, so that
// they exercise the package exactly as a user gets it:
//
//   node npm/test/run.mjs
//
// TOOLGRADE_NPM_DIST=DIR reuses tarballs built before. TOOLGRADE_NPM_TOOLS=DIR
// names a folder whose node_modules holds vitest, vite, typescript and
// @types/node: the matcher tests then run a Vitest project and tsc checks
// the type declarations; without it they skip.

import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");
const tmp = mkdtempSync(join(tmpdir(), "toolgrade-npm-"));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function step(what, cmd, args, opts) {
  const start = Date.now();
  const out = execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], ...opts });
  console.log(`# ${what} (${((Date.now() - start) / 1000).toFixed(1)}s)${out.trim() ? "\n# " + out.trim().split("\n").join("\n# ") : ""}`);
}

let status = 1;
try {
  let dist = process.env.TOOLGRADE_NPM_DIST;
  if (!dist) {
    dist = join(tmp, "dist");
    step("go run ./npm/build --platform host", "go", ["run", "./npm/build", "--platform", "host", "--out", dist], { cwd: repo });
  }
  const project = join(tmp, "project");
  cpSync(join(here, "installed"), join(project, "test"), { recursive: true });
  cpSync(join(here, "vitest"), join(project, "vitest-project"), { recursive: true });
  cpSync(join(here, "types"), join(project, "types"), { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "toolgrade-npm-test", private: true, type: "module" }, null, 2));
  const tarballs = readdirSync(dist).filter((f) => f.endsWith(".tgz")).map((f) => join(dist, f));
  step("npm install --offline " + tarballs.map((t) => t.slice(dist.length + 1)).join(" "), npm, ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], { cwd: project });
  const tests = readdirSync(join(project, "test")).filter((f) => f.endsWith(".test.mjs")).map((f) => join("test", f));
  const env = { ...process.env, TOOLGRADE_REPO: repo };
  delete env.TOOLGRADE_BINARY;
  status = spawnSync(process.execPath, ["--test", ...tests], { cwd: project, env, stdio: "inherit" }).status ?? 1;
} catch (err) {
  console.error(err.message);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(status);
