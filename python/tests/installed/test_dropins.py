"""Every peer's conformance lines (compat/<peer>/testdata/<peer>.jsonl, the
peers' real outputs) through the drop-in classes give the peers' scores,
verdicts and errors. TOOLGRADE_CONFORMANCE_SAMPLE=N checks every N-th line."""

import http.server
import json
import os
import threading
import unittest
from typing import Any, Dict, Iterator, List

import toolgrade
from toolgrade import agentevals, axion, deepeval, deepfabric

REPO = os.environ.get("TOOLGRADE_REPO", "")
STEP = int(os.environ.get("TOOLGRADE_CONFORMANCE_SAMPLE", "1"))


def _int(text: str) -> Any:
    # JSON's -0 is an integer to Python, which has no negative integer
    # zero; the TypeScript peers read it as the number -0, and some lines
    # depend on it, so it is kept as the float -0.0.
    return -0.0 if text == "-0" else int(text)


def lines(peer: str) -> List[Dict[str, Any]]:
    path = os.path.join(REPO, "compat", peer, "testdata", peer + ".jsonl")
    if not os.path.exists(path):
        raise unittest.SkipTest("no conformance data at %s (set TOOLGRADE_REPO)" % path)
    with open(path, encoding="utf-8") as f:
        return [json.loads(l, parse_int=_int) for i, l in enumerate(f) if l.strip() and i % STEP == 0]


class DropInTest(unittest.TestCase):
    def check(self, peer: str, measure: Any) -> None:
        """measure(line) returns (score, success) or raises as the peer does."""
        checked = 0
        for line in lines(peer):
            want = line["expect"]
            if "judge_score" in line["case"]:
                continue  # needs DeepEval's LLM judge, which the drop-in does not run
            with self.subTest(id=line["id"]):
                if want.get("error") is not None or want.get("score") is None:
                    with self.assertRaises((toolgrade.ToolgradeError, ValueError, TypeError)):
                        measure(line)
                    continue
                score, success = measure(line)
                self.assertAlmostEqual(score, want["score"], delta=1e-9)
                if "success" in want:
                    self.assertEqual(success, want["success"])
                checked += 1
        self.assertGreater(checked, 0)

    def test_deepeval(self) -> None:
        def measure(line: Dict[str, Any]) -> Any:
            c = line["config"]
            kw = dict(threshold=c.get("threshold"), evaluation_params=c.get("evaluation_params"),
                      strict_mode=c.get("strict_mode", False),
                      should_consider_ordering=c.get("should_consider_ordering", False),
                      should_exact_match=c.get("should_exact_match", False))
            if c.get("variant") == "multimodal":
                m: deepeval.ToolCorrectnessMetric = deepeval.MultimodalToolCorrectnessMetric(**kw)
            else:
                m = deepeval.ToolCorrectnessMetric(variant=c.get("variant"), **kw)
            m.measure(line["case"])
            return m.score, m.success
        self.check("deepeval", measure)

    def test_deepeval_judged(self) -> None:
        """Lines whose case records DeepEval's judge score, through a local
        fake OpenAI server that answers with that score: the drop-in with a
        model runs toolgrade's judge and gives DeepEval's score."""
        reply: Dict[str, float] = {}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                verdict = json.dumps({"score": reply["score"], "reason": "as recorded"})
                body = json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": "judge",
                                   "choices": [{"index": 0, "finish_reason": "stop",
                                                "message": {"role": "assistant", "content": verdict}}],
                                   "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        self.addCleanup(srv.shutdown)
        env = {"TOOLGRADE_JUDGE_BASE_URL": "http://127.0.0.1:%d/v1" % srv.server_address[1],
               "TOOLGRADE_JUDGE_NO_CACHE": "1"}
        old = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        self.addCleanup(lambda: [os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)
                                 for k, v in old.items()])
        n = 0
        for line in lines("deepeval"):
            case, c, want = line["case"], line["config"], line["expect"]
            if "judge_score" not in case or want.get("score") is None:
                continue
            reply["score"] = case["judge_score"]
            m = deepeval.ToolCorrectnessMetric(threshold=c.get("threshold"), variant=c.get("variant"),
                                               evaluation_params=c.get("evaluation_params"),
                                               strict_mode=c.get("strict_mode", False),
                                               should_consider_ordering=c.get("should_consider_ordering", False),
                                               should_exact_match=c.get("should_exact_match", False),
                                               model="judge")
            with self.subTest(id=line["id"]):
                self.assertAlmostEqual(m.measure(case), want["score"], delta=1e-9)
                n += 1
        if n == 0:
            self.skipTest("the sample holds no judged lines")

    def test_deepeval_objects(self) -> None:
        """DeepEval's LLMTestCase / ToolCall objects (or the stand-ins) give
        the same scores as the dicts."""
        n = 0
        for line in lines("deepeval"):
            case, c = line["case"], line["config"]
            if "judge_score" in case:
                continue
            calls = (case.get("tools_called") or []) + (case.get("expected_tools") or [])
            if line["expect"].get("error") or c.get("variant") == "multimodal" or not calls or any(
                    set(k) - {"name", "args", "output"} or not isinstance(k.get("args", {}), dict) for k in calls):
                continue
            if case.get("tools_called") is None or case.get("expected_tools") is None:
                continue

            def obj(k: Dict[str, Any]) -> Any:
                return deepeval.ToolCall(name=k["name"], input_parameters=k.get("args"), output=k.get("output"))
            try:
                tc = deepeval.LLMTestCase(input=str(case.get("input", "")), actual_output="",
                                          tools_called=[obj(k) for k in case["tools_called"]],
                                          expected_tools=[obj(k) for k in case["expected_tools"]])
            except Exception:  # DeepEval's own models may refuse odd values
                continue
            m = deepeval.ToolCorrectnessMetric(threshold=c.get("threshold"), variant=c.get("variant"),
                                               evaluation_params=[deepeval.ToolCallParams(p) for p in c.get("evaluation_params", [])],
                                               strict_mode=c.get("strict_mode", False),
                                               should_consider_ordering=c.get("should_consider_ordering", False),
                                               should_exact_match=c.get("should_exact_match", False))
            with self.subTest(id=line["id"]):
                self.assertAlmostEqual(m.measure(tc), line["expect"]["score"], delta=1e-9)
                n += 1
        self.assertGreater(n, 10)

    def test_axion(self) -> None:
        def measure(line: Dict[str, Any]) -> Any:
            c = dict(line["config"])
            c.pop("profile")
            r = axion.ToolCorrectness(**c).execute_sync(line["case"])
            return r.score, r.passed
        self.check("axion", measure)

    def test_agentevals(self) -> None:
        def measure(line: Dict[str, Any]) -> Any:
            c = dict(line["config"])
            c.pop("profile")
            ev = agentevals.create_trajectory_match_evaluator(**c)
            case = line["case"]
            r = ev(outputs=case.get("trajectory"), reference_outputs=case.get("expected_trajectory"))
            self.assertEqual(r["key"], "trajectory_%s_match" % c["trajectory_match_mode"])
            return (1.0 if r["score"] else 0.0), r["score"]
        self.check("agentevals", measure)

    def test_deepfabric(self) -> None:
        """DeepFabric's Evaluator over each line's sample (or dataset of
        samples): compute_metrics of the per-sample verdicts gives the
        line's overall score and parts."""
        def measure(line: Dict[str, Any]) -> Any:
            c = line["config"]
            cfg = deepfabric.EvaluatorConfig(multi_turn=c.get("multi_turn", False),
                                             metric_weights=c.get("metric_weights"))
            case = line["case"]
            r = deepfabric.Evaluator(cfg).evaluate(dataset=case.get("samples", [case]))
            m, want = r.metrics, line["expect"]
            self.assertEqual(m.samples_evaluated, len(r.predictions))
            for part, attr in (("tool_selection", "tool_selection_accuracy"),
                               ("parameter_accuracy", "parameter_accuracy"),
                               ("execution_success", "execution_success_rate"),
                               ("response_quality", "response_quality")):
                if want.get(part) is not None:
                    self.assertAlmostEqual(getattr(m, attr), want[part], delta=1e-9)
            if want.get("processing_errors") is not None:
                self.assertEqual(m.processing_errors, want["processing_errors"])
            if "processing_error" in want:
                self.assertEqual(r.predictions[0].error is not None, want["processing_error"] is not None)
            return m.overall_score, None
        self.check("deepfabric", measure)

    def test_deepfabric_tool_calling_evaluator(self) -> None:
        """DeepFabric's ToolCallingEvaluator.evaluate(ground_truth,
        prediction, context) on the single-turn lines gives their parts."""
        n = 0
        for line in lines("deepfabric"):
            case, want = line["case"], line["expect"]
            if line["config"].get("multi_turn") or "samples" in case or want.get("processing_error"):
                continue
            exp, got = case.get("expected_tools") or [], case.get("tools_called") or []
            gt = {"expected_tool": exp[0]["name"] if exp else None,
                  "expected_parameters": exp[0].get("args", {}) if exp else {}}
            pred = {"tool_call": {"name": got[0]["name"], "arguments": got[0].get("args", {})} if got else None}
            ctx = deepfabric.EvaluationContext(messages=[], sample_id=0, tools=case.get("available_tools"))
            with self.subTest(id=line["id"]):
                r = deepfabric.ToolCallingEvaluator().evaluate(gt, pred, ctx)
                if not exp:
                    self.assertIsNone(r)
                    continue
                self.assertEqual(r.evaluator_name, "tool_calling")
                self.assertEqual(r.metrics["tool_selection_accuracy"], want["tool_selection"])
                self.assertEqual(r.metrics["parameter_accuracy"], want["parameter_accuracy"])
                self.assertEqual(r.metrics["execution_valid"], want["execution_success"])
                n += 1
        self.assertGreater(n, 10)

    def test_deepfabric_compute_metrics(self) -> None:
        evs = [deepfabric.SampleEvaluation(sample_id=0, query="q", tool_selection_correct=True,
                                           parameters_correct=False, execution_valid=False, response_score=0.0),
               deepfabric.SampleEvaluation(sample_id=1, query="q", tool_selection_correct=True,
                                           parameters_correct=True, execution_valid=True, response_score=0.0,
                                           error=None)]
        m = deepfabric.compute_metrics(evs)
        self.assertEqual((m.tool_selection_accuracy, m.parameter_accuracy, m.execution_success_rate),
                         (1.0, 0.5, 0.5))
        self.assertAlmostEqual(m.overall_score, 0.4 + 0.35 * 0.5 + 0.25 * 0.5, delta=1e-12)
        self.assertEqual(deepfabric.compute_metrics(evs, weights={}).overall_score, 0.0)
        self.assertEqual((m.samples_evaluated, m.samples_processed, m.processing_errors), (2, 2, 0))

    def test_unsupported_arguments_raise(self) -> None:
        with self.assertRaises(ValueError):
            deepfabric.EvaluatorConfig(inference_config={"model": "m"})
        with self.assertRaises(TypeError):
            axion.ToolCorrectness(llm=object())
        with self.assertRaises(TypeError):
            axion.ToolCorrectness(check_paramters=True)
        with self.assertRaises(TypeError):
            agentevals.create_trajectory_match_evaluator(trajectory_match="unordered")
        ev = agentevals.create_trajectory_match_evaluator()
        with self.assertRaises(TypeError):
            ev(outputs=[], reference_outputs=[], tool_args_match_mode="ignore")
        # What LangSmith's evaluate() passes besides the outputs is accepted.
        r = ev(outputs=[], reference_outputs=[], inputs={"q": 1}, run=None, example=None, attachments={})
        self.assertEqual(r["key"], "trajectory_strict_match")
        m = axion.ToolCorrectness(name="tc", threshold=0)
        self.assertEqual((m.name, m.threshold, m.config.key), ("tc", 0.5, "tool_correctness"))

    def test_profiles_through_evaluate(self) -> None:
        """ADK, Ragas, BFCL, openevals, evalite, Mastra and promptfoo (no
        drop-in class) through toolgrade.evaluate with the line's config, a
        request per config."""
        for peer in ("adk", "ragas", "bfcl", "openevals", "evalite", "mastra", "promptfoo"):
            def measure(line: Dict[str, Any]) -> Any:
                r = toolgrade.evaluate([line["case"]], config=line["config"])[0]
                m = r.metrics[0]
                if m.error:
                    raise toolgrade.MetricError(m.error)
                return m.score, m.success
            with self.subTest(peer=peer):
                self.check(peer, measure)


if __name__ == "__main__":
    unittest.main()
