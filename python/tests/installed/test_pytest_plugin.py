"""The pytest plugin: --toolgrade-cases collects cases as tests, read with
--toolgrade-config's metrics (toolgrade.yaml as toolgrade init writes it),
bad options are usage errors, and toolgrade_check fails with a readable
message. Skipped without pytest, unless TOOLGRADE_REQUIRE_PYTEST is set
(as CI sets it), when a missing pytest fails."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

try:
    import pytest  # noqa: F401
    HAVE_PYTEST = True
except ImportError:
    HAVE_PYTEST = False

PASS = {"id": "weather-ok", "tools_called": [{"name": "get_weather", "args": {"city": "Paris"}}],
        "expected_tools": [{"name": "get_weather", "args": {"city": "Paris"}}]}
FAIL = {"id": "weather-wrong-city", "tools_called": [{"name": "get_weather", "args": {"city": "Berlin"}}],
        "expected_tools": [{"name": "get_weather", "args": {"city": "Rome"}}]}

TEST_FILE = '''
import pytest
from toolgrade.pytest_plugin import toolgrade_check
from toolgrade.deepeval import ToolCorrectnessMetric

PASS = %r
FAIL = %r

def test_pass():
    r = toolgrade_check(PASS)
    assert r.success

def test_fail_native():
    toolgrade_check(FAIL)

def test_fixture_and_dropin(toolgrade_check):
    toolgrade_check(FAIL, metric=ToolCorrectnessMetric(evaluation_params=["input_parameters"]))
''' % (PASS, FAIL)


class PytestAvailableTest(unittest.TestCase):
    def test_pytest_importable(self) -> None:
        if not HAVE_PYTEST and os.environ.get("TOOLGRADE_REQUIRE_PYTEST"):
            self.fail("TOOLGRADE_REQUIRE_PYTEST is set but pytest cannot be imported by %s" % sys.executable)


@unittest.skipUnless(HAVE_PYTEST, "pytest is not installed (Debian: python3-pytest)")
class PytestPluginTest(unittest.TestCase):
    def pytest_status(self, *args: str, files: "dict[str, str] | None" = None) -> "tuple[int, str]":
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "cases.jsonl"), "w") as f:
                f.write(json.dumps(PASS) + "\n" + json.dumps(FAIL) + "\n")
            with open(os.path.join(d, "test_agent.py"), "w") as f:
                f.write(TEST_FILE)
            if files and "init" in files:
                subprocess.run([sys.executable, "-m", "toolgrade", "init"], cwd=d, check=True,
                               stdout=subprocess.DEVNULL)
            for name, text in (files or {}).items():
                if name != "init":
                    with open(os.path.join(d, name), "w") as f:
                        f.write(text)
            p = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"] + list(args),
                               cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            return p.returncode, p.stdout.decode()

    def pytest(self, *args: str, files: "dict[str, str] | None" = None) -> str:
        return self.pytest_status(*args, files=files)[1]

    def test_config_yaml_from_init(self) -> None:
        """toolgrade init's toolgrade.yaml: its metrics grade the cases, and
        without --toolgrade-cases its datasets are the cases."""
        files = {"init": ""}
        out = self.pytest("--toolgrade-config", "toolgrade.yaml", "--ignore", "test_agent.py", "-rf", files=files)
        self.assertIn("1 failed, 2 passed", out, out)
        self.assertIn("weather-then-email", out, out)
        self.assertIn("sample.jsonl:3", out, out)
        out = self.pytest("--toolgrade-cases", "cases.jsonl", "--toolgrade-config", "toolgrade.yaml",
                          "-k", "weather", "-rf", files=files)
        self.assertIn("1 failed, 1 passed", out, out)
        self.assertIn("tool_order", out, out)  # the config's second metric
        self.assertNotIn("INTERNALERROR", out, out)

    def test_config_json_entries(self) -> None:
        files = {"metric.json": json.dumps({"profile": "deepeval", "evaluation_params": ["input_parameters"]})}
        out = self.pytest("--toolgrade-cases", "cases.jsonl", "--toolgrade-config", "metric.json",
                          "-k", "weather", "-rf", files=files)
        self.assertIn("1 failed, 1 passed", out, out)
        self.assertIn("profile deepeval", out, out)

    def test_usage_errors(self) -> None:
        """A bad option's file is a usage error (exit 4, one line on what is
        wrong), never a traceback or an INTERNALERROR."""
        tests = [
            (["--toolgrade-cases", "nope.jsonl"], {}, "--toolgrade-cases nope.jsonl: no such file"),
            (["--toolgrade-cases", "cases.jsonl", "--toolgrade-config", "nope.yaml"], {}, "nope.yaml"),
            (["--toolgrade-cases", "cases.jsonl", "--toolgrade-config", "typo.yaml"],
             {"typo.yaml": "metric:\n  - order: any\n"}, "metric: unknown key"),
            (["--toolgrade-config", "tools.yaml"], {"tools.yaml": "datasets: [cases.jsonl]\ntools: tools.json\n"},
             "tools"),
            (["--toolgrade-config", "nodata.yaml"], {"nodata.yaml": "metrics: [{order: any}]\n"},
             "names no datasets"),
            (["--toolgrade-cases", "cases.json"], {"cases.json": "[]"}, "JSON Lines"),
        ]
        for args, files, want in tests:
            with self.subTest(args=args):
                code, out = self.pytest_status(*args, files=files)
                self.assertEqual(code, 4, out)  # pytest's usage error
                self.assertIn(want, out, out)
                self.assertNotIn("Traceback", out, out)
                self.assertNotIn("INTERNALERROR", out, out)

    def test_cases_replace_the_configs_datasets(self) -> None:
        """Case files given replace the config's datasets, as on eval's
        command line, so a datasets pattern that names no file here is
        not read (and without case files it is a usage error)."""
        files = {"suite.yaml": "datasets: [elsewhere/*.jsonl]\nmetrics: [{order: any}]\n"}
        code, out = self.pytest_status("--toolgrade-cases", "cases.jsonl", "--toolgrade-config", "suite.yaml",
                                       "-k", "weather", files=files)
        self.assertEqual(code, 1, out)
        self.assertIn("1 failed, 1 passed", out, out)
        code, out = self.pytest_status("--toolgrade-config", "suite.yaml", files=files)
        self.assertEqual(code, 4, out)
        self.assertIn("no file matches", out, out)

    def test_collects_cases(self) -> None:
        out = self.pytest("--toolgrade-cases", "cases.jsonl", "-k", "weather", "-rf")
        self.assertIn("1 failed, 1 passed", out, out)
        self.assertIn("weather-wrong-city", out, out)
        self.assertIn("cases.jsonl:2", out, out)
        self.assertIn('expected "Rome", got "Berlin"', out, out)

    def test_toolgrade_check(self) -> None:
        out = self.pytest("test_agent.py")
        self.assertIn("2 failed, 1 passed", out, out)
        self.assertIn("case weather-wrong-city failed", out, out)
        self.assertIn("profile deepeval", out, out)
        self.assertIn("score 0 < threshold 0.5", out, out)


if __name__ == "__main__":
    unittest.main()
