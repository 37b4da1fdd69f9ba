"""The Python API over the toolgrade process: results, bad input, and the
process surviving a bad case and coming back after a crash."""

import os
import signal
import sys
import tempfile
import unittest

import toolgrade
from toolgrade import config as tc

CASE = {"id": "w", "tools_called": [{"name": "get_weather", "args": {"city": "Paris"}}],
        "expected_tools": [{"name": "get_weather", "args": {"city": "Paris"}}, {"name": "send_email"}]}


class APITest(unittest.TestCase):
    def test_installed_not_source(self) -> None:
        self.assertIn("site-packages", toolgrade.__file__)

    def test_evaluate(self) -> None:
        [r] = toolgrade.evaluate([CASE])
        self.assertEqual(r.id, "w")
        self.assertEqual(r.metrics[0].recall, 0.5)
        self.assertEqual(r.metrics[0].precision, 1)
        self.assertEqual(r.metrics[0].missing, [1])

    def test_trajectory_fields(self) -> None:
        case = {"id": "t", "turns": [
            {"input": "find W1", "expected_tools": [{"name": "find"}],
             "tools_called": [{"name": "find", "status": "error"}, {"name": "find"}]},
            {"input": "cancel it", "expected_tools": [{"name": "cancel"}], "tools_called": []}],
            "process": [{"never": "cancel"}]}
        [r] = toolgrade.evaluate([case], config=[{"profile": "default"}, {"metric": "tool_process"}])
        tc_, proc = r.metrics
        self.assertEqual((tc_.score, tc_.failed, tc_.retried), (0.5, [0], [0]))
        self.assertEqual([t["score"] for t in tc_.turns], [1, 0])
        self.assertEqual([x["kept"] for x in proc.rules], [True])

    def test_typed_configs(self) -> None:
        tests = [
            (tc.DeepEval(), 0.5),
            (tc.DeepEval(evaluation_params=["input_parameters"], strict_mode=True), 0),
            (tc.Axion(check_parameters=True), 0.5),
            (tc.Metric(scoring="recall"), 0.5),
            ({"profile": "deepeval"}, 0.5),
        ]
        for cfg, want in tests:
            with self.subTest(cfg=cfg):
                self.assertAlmostEqual(toolgrade.evaluate([CASE], config=cfg)[0].score, want)
        r = toolgrade.evaluate([CASE], config=[tc.DeepEval(), tc.Metric(name="native")])[0]
        self.assertEqual([m.profile for m in r.metrics], ["deepeval", "default"])
        self.assertEqual(r.metric("native").profile, "default")

    def test_many_cases_batched(self) -> None:
        cases = [dict(CASE, id="c%d" % i) for i in range(2500)]
        results = list(toolgrade.iter_evaluate(cases, tc.DeepEval()))
        self.assertEqual([r.id for r in results], [c["id"] for c in cases])

    def test_large_cases_batched_by_size(self) -> None:
        # 700 cases of 100 kB: 70 MB together, more than one request line
        # may hold; batches are cut by size as well as by count.
        big = "x" * 100_000
        cases = [dict(CASE, id="b%d" % i, input=big) for i in range(700)]
        results = list(toolgrade.iter_evaluate(cases))
        self.assertEqual([r.id for r in results], [c["id"] for c in cases])
        self.assertTrue(all(r.error is None for r in results))

    def test_case_that_is_not_json(self) -> None:
        nan = dict(CASE, id="nan", tools_called=[{"name": "f", "args": {"x": float("nan")}}])
        with self.assertRaises(toolgrade.CaseError) as cm:
            toolgrade.evaluate([CASE, nan, CASE])
        self.assertEqual((cm.exception.case_id, cm.exception.index), ("nan", 1))
        self.assertIn("not JSON", str(cm.exception))
        rs = toolgrade.evaluate([CASE, nan, CASE], errors="result")
        self.assertEqual([r.error is None for r in rs], [True, False, True])

    def test_case_too_large_for_a_request(self) -> None:
        huge = dict(CASE, id="huge", input="x" * (65 << 20))
        with self.assertRaises(toolgrade.CaseError) as cm:
            toolgrade.evaluate([CASE, huge, CASE])
        self.assertEqual(cm.exception.index, 1)
        self.assertIn("huge", str(cm.exception))
        self.assertIn("64 MiB", str(cm.exception))
        rs = toolgrade.evaluate([CASE, huge, CASE], errors="result")
        self.assertEqual([r.error is None for r in rs], [True, False, True])
        self.assertEqual(rs[1].id, "huge")

    def test_bad_case_names_case_and_field(self) -> None:
        bad = {"id": "bad", "tools_called": [{"name": 3}], "expected_tools": []}
        with self.assertRaises(toolgrade.CaseError) as cm:
            toolgrade.evaluate([CASE, bad])
        e = cm.exception
        self.assertEqual((e.case_id, e.index), ("bad", 1))
        self.assertEqual(e.field, "tools_called[0].name")
        self.assertIn("cases[1]", str(e))
        # errors="result" gives it as a result, and the process goes on.
        rs = toolgrade.evaluate([bad, 42, CASE], errors="result")
        self.assertIsNotNone(rs[0].error)
        self.assertIsNotNone(rs[1].error)
        self.assertIsNone(rs[2].error)
        self.assertEqual(rs[1].id, "case-1")

    def test_arguments_under_other_keys(self) -> None:
        """Expected arguments under Llama's "parameters" are read as Llama
        writes them; under a key no format uses they are an error naming
        it. Neither passes a call with other arguments."""
        def case(expected):
            return {"id": "k", "tools_called": [{"name": "get_weather", "args": {"city": "Paris"}}],
                    "expected_tools": [dict(expected, name="get_weather")]}
        [r] = toolgrade.evaluate([case({"parameters": {"city": "Berlin"}})])
        self.assertEqual(r.score, 0)
        self.assertIsNone(r.error)
        [r] = toolgrade.evaluate([case({"parameters": {"city": "Paris"}})])
        self.assertEqual(r.score, 1)
        for key in ("params", "kwargs", "tool_input", "input_params", "function_args"):
            with self.subTest(key=key):
                with self.assertRaises(toolgrade.CaseError) as cm:
                    toolgrade.evaluate([case({key: {"city": "Berlin"}})])
                self.assertEqual(cm.exception.field, "expected_tools[0]." + key)
        openai_shape = {"id": "k", "tools_called": [{"name": "get_weather", "args": {"city": "Paris"}}],
                        "expected_tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"city": "Berlin"}}}]}
        [r] = toolgrade.evaluate([openai_shape], errors="result")
        self.assertIn("function.parameters", r.error)

    def test_bad_config(self) -> None:
        with self.assertRaises(toolgrade.ConfigError) as cm:
            toolgrade.evaluate([CASE], config={"profile": "nope"})
        self.assertEqual(cm.exception.field, "config.metrics[0].profile")
        with self.assertRaises(toolgrade.ConfigError):
            toolgrade.evaluate([CASE], config=tc.Axion(parameter_matching_strategy="psychic"))
        with self.assertRaises(TypeError):
            toolgrade.evaluate([CASE], config=[3])
        with self.assertRaises(toolgrade.ConfigError) as cm:
            toolgrade.evaluate([CASE], config={"metrics": [{}], "judgee": {"model": "m"}})
        self.assertEqual(cm.exception.field, "config.judgee")

    def test_config_file(self) -> None:
        """A config file's path (YAML, as toolgrade init writes it) is a
        config: its metrics and judge; read_config gives every section."""
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "cases"))
            with open(os.path.join(d, "cases", "a.jsonl"), "w") as f:
                f.write("{}\n")
            path = os.path.join(d, "suite.yaml")
            with open(path, "w") as f:
                f.write("# a suite\ndatasets: [cases/*.jsonl]\nmetrics:\n  - name: loose\n    threshold: 0.5\n"
                        "  - profile: deepeval\n    evaluation_params: [input_parameters]\n"
                        "reports:\n  out: results.jsonl\n")
            cfg = toolgrade.read_config(path)
            [dataset] = cfg["datasets"]
            self.assertTrue(os.path.isabs(dataset) and dataset.endswith(os.path.join("cases", "a.jsonl")), dataset)
            self.assertEqual(cfg["reports"], {"out": "results.jsonl"})
            [r] = toolgrade.evaluate([CASE], config=path)
            self.assertEqual([(m.name, m.profile, m.success) for m in r.metrics],
                             [("loose", "default", True), ("tool_correctness", "deepeval", True)])
            with open(path, "a") as f:
                f.write("tools: tools.json\n")
            with self.assertRaises(toolgrade.ConfigError) as cm:
                toolgrade.evaluate([CASE], config=path)
            self.assertEqual(cm.exception.field, "tools")
        with self.assertRaises(toolgrade.ConfigError) as cm:
            toolgrade.read_config(os.path.join(d, "gone.yaml"))
        self.assertIn("gone.yaml", str(cm.exception))

    def test_judge_access(self) -> None:
        """A config's judge may read its key only from the variables, and be
        sent only to the endpoints, that the client allows."""
        cfg = {"metrics": [{"profile": "deepeval"}], "judge": {"model": "m", "key_env": "HOME"}}
        with self.assertRaises(toolgrade.ConfigError) as cm:
            toolgrade.evaluate([CASE], config=cfg)
        self.assertEqual(cm.exception.field, "config.judge.key_env")
        self.assertIn("--judge-key-env HOME", str(cm.exception))
        cfg = {"metrics": [{"profile": "deepeval"}], "judge": {"model": "m", "base_url": "http://127.0.0.1:9/v1"}}
        with self.assertRaises(toolgrade.ConfigError) as cm:
            toolgrade.evaluate([CASE], config=cfg)
        self.assertEqual(cm.exception.field, "config.judge.base_url")
        # Allowed by the client, the endpoint is asked (and, closed, fails
        # the case, not the request).
        client = toolgrade.Client(judge_base_urls=["http://127.0.0.1:9/v1"])
        case = dict(CASE, available_tools=[{"name": "get_weather"}], input="weather?")
        [r] = toolgrade.evaluate([case], config=dict(cfg, judge=dict(cfg["judge"], no_cache=True, max_retries=0)),
                                 client=client)
        self.assertIn("127.0.0.1:9", r.metrics[0].error or "")
        client.close()

    def test_unserializable_case(self) -> None:
        with self.assertRaises(ValueError):
            toolgrade.evaluate([{"id": "nan", "tools_called": [{"name": "f", "args": {"x": float("nan")}}]}])

    def test_extract(self) -> None:
        trace = [{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                  "function": {"name": "get_weather", "arguments": "{\"city\": \"SF\"}"}}]},
                 {"role": "tool", "tool_call_id": "c1", "content": "sunny"}]
        t = toolgrade.extract(trace)
        self.assertEqual(t.format, "openai-chat" if t.format == "openai-chat" else t.format)
        self.assertEqual([(c.name, c.args, c.output) for c in t.calls], [("get_weather", {"city": "SF"}, "sunny")])
        import json
        self.assertEqual(len(toolgrade.extract(json.dumps(trace)).calls), 1)
        records = toolgrade.extract('{"id": "p0", "result": [{"f": "{}"}]}\n{"id": "p1", "result": [{"g": "{}"}, {"h": "{}"}]}')
        self.assertEqual([(r.id, [c.name for c in r.calls]) for r in records.records], [("p0", ["f"]), ("p1", ["g", "h"])])
        self.assertEqual([c.name for c in records.calls], ["f", "g", "h"])
        with self.assertRaises(toolgrade.ToolgradeError):
            toolgrade.extract({"nothing": "here"})
        with self.assertRaises(toolgrade.ToolgradeError):
            toolgrade.extract(trace, format="no-such-format")

    def test_restart_after_crash(self) -> None:
        client = toolgrade.Client()
        self.assertTrue(client.request({"op": "version"})["result"]["version"])
        pid = client.pid
        assert pid is not None
        if sys.platform == "win32":
            self.skipTest("no SIGKILL")
        os.kill(pid, signal.SIGKILL)
        # The next request finds the process dead and starts a new one.
        import time
        for _ in range(50):
            if client._proc is not None and client._proc.poll() is not None:
                break
            time.sleep(0.02)
        rs = toolgrade.evaluate([CASE], client=client)
        self.assertEqual(rs[0].id, "w")
        self.assertNotEqual(client.pid, pid)
        self.assertEqual(client.restarts, 1)
        client.close()

    def test_crash_during_request_raises_then_recovers(self) -> None:
        client = toolgrade.Client()
        client.request({"op": "version"})
        proc = client._proc
        assert proc is not None and proc.stdout is not None
        proc.stdout.close()  # the answer can no longer be read: as if it died mid-request
        with self.assertRaises(toolgrade.ProcessError):
            client.request({"op": "version"})
        self.assertEqual(toolgrade.evaluate([CASE], client=client)[0].id, "w")
        client.close()


if __name__ == "__main__":
    unittest.main()
