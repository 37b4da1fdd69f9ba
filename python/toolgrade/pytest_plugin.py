"""The toolgrade pytest plugin (entry point ``pytest11``).

* ``toolgrade_check(case, metric=...)``: a fixture-free assertion helper
  (also a fixture, ``toolgrade_check``) that fails with the case, metric,
  score, threshold and reason, and the calls that differ.
* ``pytest --toolgrade-cases cases.jsonl [--toolgrade-config FILE.json]``:
  each case of the file is a test item, named by its id.
"""

import json
from typing import Any, Iterator, List, Optional

import pytest

__all__ = ["toolgrade_check", "ToolgradeCheckError"]


class ToolgradeCheckError(AssertionError):
    """A case failed its metric's threshold, or could not be scored."""


def _describe(result: Any) -> str:
    lines = ["case %s failed:" % result.id]
    if result.error:
        lines.append("  could not be read: %s" % result.error)
    for m in result.metrics:
        if m.success is not False and not m.error:
            continue
        head = "  %s (profile %s)" % (m.name, m.profile)
        if m.error:
            lines.append("%s: error: %s" % (head, m.error))
            continue
        lines.append("%s: score %.4g < threshold %s" % (head, m.score or 0, m.threshold))
        if m.reason:
            lines.append("    reason: %s" % m.reason)
        for match in m.matches:
            for d in match.get("diffs") or []:
                lines.append("    expected #%s vs called #%s at %s: expected %s, got %s" % (
                    match.get("expected"), match.get("called"), d.get("path") or "(args)",
                    json.dumps(d.get("expected")), json.dumps(d.get("got"))))
        if m.missing:
            lines.append("    missing expected calls: %s" % m.missing)
        if m.unexpected:
            lines.append("    unexpected calls: %s" % m.unexpected)
    return "\n".join(lines)


def toolgrade_check(case: Any, metric: Any = None) -> Any:
    """Grade one case and fail (AssertionError) unless every metric passed.
    ``metric`` is a toolgrade.config object, a metric entry dict, a list of
    them, or a drop-in metric (anything with a ``toolgrade_config()`` or
    ``config()`` method). Returns the Result."""
    import toolgrade
    if callable(getattr(metric, "toolgrade_config", None)):
        cfg = metric.toolgrade_config()
    elif callable(getattr(metric, "config", None)):
        cfg = metric.config()
    else:
        cfg = metric
    result = toolgrade.evaluate([case], cfg, errors="result")[0]
    if not result.success:
        __tracebackhide__ = True
        raise ToolgradeCheckError(_describe(result))
    return result


@pytest.fixture(name="toolgrade_check")
def _toolgrade_check_fixture() -> Any:
    return toolgrade_check


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("toolgrade")
    group.addoption("--toolgrade-cases", action="append", default=[], metavar="FILE",
                    help="collect each case of this JSON Lines file as a test (repeatable)")
    group.addoption("--toolgrade-config", default=None, metavar="FILE",
                    help="metric config for --toolgrade-cases: JSON, a metric entry, a list, or {\"metrics\": [...]}")


def pytest_collection_modifyitems(session: Any, config: Any, items: List[Any]) -> None:
    files = config.getoption("toolgrade_cases")
    if not files:
        return
    metric = None
    cfg_file = config.getoption("toolgrade_config")
    if cfg_file:
        with open(cfg_file, encoding="utf-8") as f:
            metric = json.load(f)
    for path in files:
        parent = ToolgradeFile.from_parent(session, path=_path(config, path))
        parent.metric = metric
        items.extend(parent.collect())


def _path(config: Any, p: str) -> Any:
    import pathlib
    return pathlib.Path(config.invocation_params.dir, p).resolve()


class ToolgradeFile(pytest.File):
    metric: Any = None

    def collect(self) -> Iterator["ToolgradeItem"]:
        with open(self.path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    case = json.loads(line)
                except ValueError as e:
                    case = {"id": "line-%d" % n, "_invalid": str(e)}
                cid = case.get("id") if isinstance(case, dict) else None
                yield ToolgradeItem.from_parent(self, name=str(cid or "line-%d" % n), case=case,
                                                line=n, metric=self.metric)


class ToolgradeItem(pytest.Item):
    def __init__(self, *, case: Any, line: int, metric: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.line = line
        self.metric = metric

    def runtest(self) -> None:
        if isinstance(self.case, dict) and "_invalid" in self.case:
            raise ToolgradeCheckError("line %d is not valid JSON: %s" % (self.line, self.case["_invalid"]))
        toolgrade_check(self.case, self.metric)

    def repr_failure(self, excinfo: Any, style: Optional[str] = None) -> str:
        if isinstance(excinfo.value, AssertionError):
            return "%s:%d: %s" % (self.path, self.line, excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> Any:
        return self.path, self.line - 1, "toolgrade case %s" % self.name
