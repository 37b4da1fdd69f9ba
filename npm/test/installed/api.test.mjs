// The installed package: its manifests, the API over the serve process,
// bad input, restarts, the command, and the Jest setup file.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  CaseError,
  Client,
  ConfigError,
  ProcessError,
  ToolgradeError,
  VERSION,
  evaluate,
  evaluateOne,
  evaluateStream,
  extract,
  version,
} from "toolgrade";

const require = createRequire(import.meta.url);
const platformPkg = `@toolgrade/${process.platform}-${process.arch}`;
const repo = process.env.TOOLGRADE_REPO;

const weather = (city) => ({ name: "get_weather", args: { city } });
const chat = (...calls) => [
  { role: "user", content: "Weather?" },
  { role: "assistant", content: null, tool_calls: calls.map((c, i) => ({ id: `call_${i}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args) } })) },
];

describe("package", () => {
  test("manifests: version from VERSION, ESM, Node >= 20, platform packages as optional dependencies", () => {
    const main = JSON.parse(readFileSync(require.resolve("toolgrade/package.json"), "utf8"));
    if (repo) assert.equal(main.version, readFileSync(join(repo, "VERSION"), "utf8").trim());
    assert.equal(main.version, VERSION);
    assert.equal(main.type, "module");
    assert.equal(main.engines.node, ">=20");
    assert.deepEqual(Object.keys(main.optionalDependencies), [
      "@toolgrade/linux-x64", "@toolgrade/linux-arm64", "@toolgrade/darwin-x64", "@toolgrade/darwin-arm64", "@toolgrade/win32-x64",
    ]);
    assert.ok(Object.values(main.optionalDependencies).every((v) => v === VERSION));
    assert.equal(main.dependencies, undefined, "no runtime dependencies");
    const plat = JSON.parse(readFileSync(require.resolve(`${platformPkg}/package.json`), "utf8"));
    assert.equal(plat.version, VERSION);
    assert.deepEqual([plat.os, plat.cpu], [[process.platform], [process.arch]]);
  });

  test("the binary prints the package's version", async () => {
    assert.equal(await version(), `v${VERSION}`);
  });

  test("the toolgrade command runs the binary", () => {
    const r = spawnSync(process.execPath, [require.resolve("toolgrade/package.json").replace("package.json", "bin/toolgrade.js"), "version"], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^toolgrade v${VERSION.replaceAll(".", "\\.")} `));
  });
});

describe("evaluate", () => {
  test("grades cases in order with the default metric", async () => {
    const results = await evaluate([
      { id: "right", tools_called: [weather("Paris")], expected_tools: [weather("Paris")] },
      { id: "wrong", trajectory: chat(weather("Lyon")), expected_tools: [weather("Paris")] },
    ]);
    assert.deepEqual(results.map((r) => [r.id, r.success, r.metrics[0].score]), [["right", true, 1], ["wrong", false, 0]]);
    assert.match(results[1].metrics[0].reason, /city expected "Paris", got "Lyon"/);
  });

  test("a config entry, a list, and {metrics}", async () => {
    const kase = { tools_called: [weather("Paris"), weather("Rome")], expected_tools: [weather("Paris")] };
    const [a] = await evaluate([kase], { scoring: "recall" });
    const [b] = await evaluate([kase], [{ scoring: "recall" }, { scoring: "precision", name: "p" }]);
    const [c] = await evaluate([kase], { metrics: [{ scoring: "precision" }] });
    assert.equal(a.metrics[0].score, 1);
    assert.deepEqual(b.metrics.map((m) => m.score), [1, 0.5]);
    assert.equal(c.metrics[0].score, 0.5);
  });

  test("ids across batches, from an async iterable", async () => {
    async function* cases() {
      for (let i = 0; i < 5; i++) yield { tools_called: [], expected_tools: [weather("Paris")] };
    }
    const ids = [];
    for await (const r of evaluateStream(cases(), undefined, { batch: 2 })) ids.push(r.id);
    assert.deepEqual(ids, ["case-0", "case-1", "case-2", "case-3", "case-4"]);
  });

  test("concurrent requests share one process and keep their answers apart", async () => {
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      evaluateOne({ id: `c${i}`, tools_called: [weather(i % 2 ? "Paris" : "Rome")], expected_tools: [weather("Paris")] })));
    assert.deepEqual(all.map((r) => [r.id, r.success]), all.map((_, i) => [`c${i}`, i % 2 === 1]));
  });

  test("extract reads a trace, detecting its format", async () => {
    const t = await extract({ role: "assistant", content: [{ type: "tool_use", id: "t1", name: "search", input: { q: "x" } }] });
    assert.equal(t.format, "anthropic_messages");
    assert.deepEqual(t.calls.map((c) => [c.name, c.args]), [["search", { q: "x" }]]);
    const forced = await extract(JSON.stringify(chat(weather("Oslo"))), { format: "openai_chat" });
    assert.equal(forced.calls[0].args.city, "Oslo");
    await assert.rejects(extract({ nothing: 1 }), (err) => err instanceof ToolgradeError && /unrecognized trace/.test(err.message));
  });
});

describe("bad input", () => {
  test("an unreadable case is a CaseError naming the case, its index and field", async () => {
    await assert.rejects(
      evaluate([{ id: "ok", tools_called: [], expected_tools: [] }, { id: "bad", tools_called: [{ name: 7 }], expected_tools: [] }]),
      (err) => err instanceof CaseError && err.caseId === "bad" && err.index === 1 && err.field === "tools_called[0].name" && /want a string/.test(err.message),
    );
  });

  test("errors: result keeps the others graded", async () => {
    const rs = await evaluate([{ tools_called: [{ name: 7 }] }, { tools_called: [weather("Paris")], expected_tools: [weather("Paris")] }], undefined, { errors: "result" });
    assert.match(rs[0].error, /cases\[0\]/);
    assert.equal(rs[1].success, true);
  });

  test("a misspelt field is an error naming it", async () => {
    await assert.rejects(evaluate([{ id: "typo", tools_caled: [], expected_tools: [] }]), (err) => err instanceof CaseError && /tools_caled/.test(err.message));
  });

  test("values JSON cannot hold are refused, naming the case and path", async () => {
    await assert.rejects(evaluate([{ id: "nan", tools_called: [{ name: "f", args: { n: NaN } }], expected_tools: [] }]),
      (err) => err instanceof CaseError && err.index === 0 && /cases\[0\] \(id "nan"\)\.tools_called\[0\]\.args\.n: NaN is not a JSON number/.test(err.message));
    await assert.rejects(evaluate([{ tools_called: [{ name: "f", args: new Map() }] }]), /a Map is not a JSON value/);
    const cyclic = { tools_called: [] };
    cyclic.self = cyclic;
    await assert.rejects(evaluate([cyclic]), /cycle/);
    await assert.rejects(evaluate("cases"), TypeError);
  });

  test("cases whose JSON adds up to more than a request may hold are sent in smaller batches", async () => {
    // 700 cases of 100 kB: 70 MB, more than the 64 MiB line the process reads.
    const blob = "x".repeat(100_000);
    const cases = Array.from({ length: 700 }, (_, i) => ({ id: `big-${i}`, tools_called: [weather(blob)], expected_tools: [weather(blob)] }));
    const rs = await evaluate(cases);
    assert.equal(rs.length, 700);
    assert.ok(rs.every((r, i) => r.id === `big-${i}` && r.success));
  });

  test("a case larger than a request may hold is a CaseError naming it, before anything is sent", async () => {
    const huge = { id: "huge", tools_called: [weather("y".repeat(65 << 20))], expected_tools: [] };
    const small = { id: "small", tools_called: [weather("Paris")], expected_tools: [weather("Paris")] };
    await assert.rejects(evaluate([small, huge]),
      (err) => err instanceof CaseError && err.caseId === "huge" && err.index === 1 && /cases\[1\] \(id "huge"\): 65\.0 MiB of JSON, more than the 64 MiB/.test(err.message));
    const rs = await evaluate([small, huge, small], undefined, { errors: "result" });
    assert.deepEqual(rs.map((r) => [r.id, r.success, Boolean(r.error)]), [["small", true, false], ["huge", false, true], ["small", true, false]]);
    await assert.rejects(extract({ messages: [{ role: "user", content: "z".repeat(65 << 20) }] }),
      (err) => err instanceof ToolgradeError && /^trace: 65\.0 MiB of JSON, more than the 64 MiB/.test(err.message));
  });

  test("a bad config is a ConfigError naming the option", async () => {
    await assert.rejects(evaluate([{ tools_called: [] }], { profile: "nope" }), (err) => err instanceof ConfigError && err.field === "config.metrics[0].profile");
    await assert.rejects(evaluate([{ tools_called: [] }], { order: "sideways" }), (err) => err instanceof ConfigError && err.field.startsWith("config.metrics[0]") && /order: unknown value "sideways"/.test(err.message));
    await assert.rejects(evaluate([{ tools_called: [] }], 3), TypeError);
  });
});

describe("process", () => {
  test("a killed process fails its request and is started again", async () => {
    const client = new Client();
    try {
      assert.equal((await evaluateOne({ tools_called: [], expected_tools: [] }, undefined, { client })).success, true);
      const first = client.pid;
      process.kill(first, "SIGKILL");
      // The request may be written before the death is seen: it fails
      // with a ProcessError, or goes to the new process.
      await evaluateOne({ tools_called: [], expected_tools: [] }, undefined, { client }).catch((err) => assert.ok(err instanceof ProcessError, err));
      const r = await evaluateOne({ tools_called: [weather("Paris")], expected_tools: [weather("Paris")] }, undefined, { client });
      assert.equal(r.success, true);
      assert.notEqual(client.pid, first);
      assert.equal(client.restarts, 1);
    } finally {
      await client.close();
    }
  });

  test("a request in flight when the process dies is a ProcessError with its stderr", async () => {
    // A binary that reads a line and exits: the request is answered by nothing.
    const client = new Client({ binary: process.execPath, workers: 0 });
    // `node serve` fails: there is no module named serve.
    await assert.rejects(client.request({ op: "version" }), (err) => err instanceof ProcessError && /died while serving a request/.test(err.message) && /serve/.test(err.message));
    await client.close();
  });

  test("a binary that cannot start is a ProcessError", async () => {
    const client = new Client({ binary: "/nonexistent/toolgrade" });
    await assert.rejects(client.request({ op: "version" }),
      (err) => err instanceof ProcessError && /^cannot start the toolgrade binary \/nonexistent\/toolgrade: no such file/.test(err.message));
  });

  test("close ends the process; the client starts a new one when used again", async () => {
    const client = new Client({ workers: 1 });
    await client.request({ op: "version" });
    const pid = client.pid;
    await client.close();
    assert.equal(client.pid, undefined);
    assert.throws(() => process.kill(pid, 0));
    await client.request({ op: "version" });
    assert.equal(client.restarts, 1);
    await client.close();
  });
});

describe("jest setup file", () => {
  test("registers toCallTools on Jest's global expect", async () => {
    let registered;
    globalThis.expect = { extend: (m) => { registered = m; } };
    try {
      await import("toolgrade/jest");
    } finally {
      delete globalThis.expect;
    }
    assert.deepEqual(Object.keys(registered), ["toCallTools"]);
    const ok = await registered.toCallTools.call({ isNot: false }, chat(weather("Paris")), [weather("Paris")]);
    assert.equal(ok.pass, true);
    const bad = await registered.toCallTools.call({ isNot: false }, chat(weather("Lyon")), [weather("Paris")]);
    assert.equal(bad.pass, false);
    assert.match(bad.message(), /city expected "Paris", got "Lyon"/);
  });
});
