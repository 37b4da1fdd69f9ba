"""The pytest plugin: --toolgrade-cases collects cases as tests, and
toolgrade_check fails with a readable message. Skipped without pytest."""

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


@unittest.skipUnless(HAVE_PYTEST, "pytest is not installed (Debian: python3-pytest)")
class PytestPluginTest(unittest.TestCase):
    def pytest(self, *args: str) -> str:
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "cases.jsonl"), "w") as f:
                f.write(json.dumps(PASS) + "\n" + json.dumps(FAIL) + "\n")
            with open(os.path.join(d, "test_agent.py"), "w") as f:
                f.write(TEST_FILE)
            p = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"] + list(args),
                               cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            return p.stdout.decode()

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
