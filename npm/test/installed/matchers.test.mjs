// The matcher in a real Vitest project (vitest-project/): a right call
// passes, a wrong one fails with the reason's text; and the type
// declarations, compiled by tsc. TOOLGRADE_NPM_TOOLS names a folder whose
// node_modules holds vitest, vite, typescript and @types/node (.ci/run
// installs them from the npm registry); without it the tests skip.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";

const tools = process.env.TOOLGRADE_NPM_TOOLS && join(process.env.TOOLGRADE_NPM_TOOLS, "node_modules");
const vitest = tools && join(tools, "vitest");
const tsc = tools && join(tools, "typescript", "bin", "tsc");
const skip = (file) => (!tools || !existsSync(file) ? `${file ?? "the tools"} not installed (set TOOLGRADE_NPM_TOOLS)` : false);

// link makes a tool a dependency of the project, so that the project and
// toolgrade resolve one and the same copy of it.
function link(name) {
  const to = resolve("node_modules", name);
  mkdirSync(resolve(to, ".."), { recursive: true });
  if (!existsSync(to)) symlinkSync(resolve(tools, name), to, "junction");
}

test("a Vitest project: toCallTools passes a right call and fails a wrong one with the reason", { skip: skip(vitest && join(vitest, "vitest.mjs")) }, (t) => {
  link("vitest");
  const dir = mkdtempSync(join(tmpdir(), "toolgrade-vitest-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const report = join(dir, "report.json");
  const r = spawnSync(process.execPath, [join(vitest, "vitest.mjs"), "run", "--root", "vitest-project", "--reporter=json", `--outputFile=${report}`],
    { encoding: "utf8", env: { ...process.env, CI: "true" } });
  assert.ok(existsSync(report), `vitest wrote no report (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  assert.equal(r.status, 1, "vitest fails: one test fails on purpose");
  const tests = JSON.parse(readFileSync(report, "utf8")).testResults.flatMap((f) => f.assertionResults);
  const status = Object.fromEntries(tests.map((t) => [t.title, t.status]));
  assert.deepEqual(status, {
    "a right call passes": "passed",
    "a wrong call fails": "failed",
    "options are toolgrade's metric options": "passed",
    ".not passes when the calls differ": "passed",
    "the AI SDK's tool calls": "passed",
  });
  const failure = tests.find((t) => t.title === "a wrong call fails").failureMessages.join("\n");
  assert.match(failure, /expected the run to call the tools as expected/);
  assert.match(failure, /city expected "Lyon", got "Paris"/);
});

test("the type declarations compile as the API is used", { skip: skip(tsc) }, () => {
  link("vitest");
  link("@types/node");
  const r = spawnSync(process.execPath, [tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
    "--types", "node", "types/check.ts"], { encoding: "utf8" });
  assert.equal(r.status, 0, `tsc:\n${r.stdout}${r.stderr}`);
});
