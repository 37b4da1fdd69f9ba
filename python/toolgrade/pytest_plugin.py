"""The toolgrade pytest plugin (entry point ``pytest11``).

* ``toolgrade_check(case, metric=...)``: a fixture-free assertion helper
  (also a fixture, ``toolgrade_check``) that fails with the case, metric,
  score, threshold and reason, and the calls that differ.
* ``pytest --toolgrade-cases cases.jsonl [--toolgrade-config FILE]``:
  each case of the file is a test item, named by its id. FILE is a config
  file (``toolgrade.yaml`` as ``toolgrade init`` writes it, YAML or JSON),
  or JSON metric entries; without --toolgrade-cases, the config's datasets
  are the cases. A file that cannot be read is a usage error.
"""

import json
import pathlib
from typing import Any, Iterator, List, Optional, Tuple

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
                    help="metric config for the cases: a config file (toolgrade.yaml, YAML or JSON; its "
                         "datasets are the cases when --toolgrade-cases is not given), or JSON metric entries")


def pytest_configure(config: Any) -> None:
    """Reads the options' files before collection, so that a missing or
    unreadable one is a usage error (pytest prints it and exits 4), never
    a traceback in the middle of the run."""
    files = config.getoption("toolgrade_cases")
    cfg_file = config.getoption("toolgrade_config")
    if not files and not cfg_file:
        return
    metric, datasets = None, []  # type: Any, List[pathlib.Path]
    if cfg_file:
        # Case files given replace the config's datasets, as on eval's
        # command line: they are then not read.
        metric, datasets = _read_config(_path(config, cfg_file), datasets=not files)
    paths = [_path(config, p) for p in files]
    for p, given in zip(paths, files):
        if not p.is_file():
            raise pytest.UsageError("--toolgrade-cases %s: no such file" % given)
    if not paths:
        if not datasets:
            raise pytest.UsageError("--toolgrade-config %s names no datasets: give --toolgrade-cases FILE" % cfg_file)
        paths = datasets
    for p in paths:
        if p.suffix.lower() in (".json", ".yaml", ".yml"):
            raise pytest.UsageError("%s: the pytest plugin reads JSON Lines case files (.jsonl), one case a line; "
                                    "toolgrade eval reads this one" % p)
    # An attribute rather than config.stash, which pytest < 7 lacks.
    config._toolgrade_suite = (paths, metric)


def _read_config(path: pathlib.Path, datasets: bool = True) -> Tuple[Any, List[pathlib.Path]]:
    """The metric config and the datasets of --toolgrade-config's file.
    JSON metric entries (a list, or one entry: an object without
    "metrics") are the metric config; anything else is a config file, read
    by the toolgrade binary as toolgrade eval --config reads it."""
    import toolgrade
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise pytest.UsageError("--toolgrade-config %s: %s" % (path, e.strerror or e))
    try:
        data = json.loads(text)
    except ValueError:
        data = None  # YAML, or JSON the binary reports on
    if isinstance(data, list) or (isinstance(data, dict) and "metrics" not in data and "datasets" not in data):
        return data, []
    try:
        cfg = toolgrade.read_config(path, datasets=datasets)
        metric = toolgrade._config_from_file(cfg, path)
    except toolgrade.ToolgradeError as e:
        raise pytest.UsageError("--toolgrade-config: %s" % e)
    return metric, [pathlib.Path(p) for p in cfg.get("datasets") or []]


def pytest_collection_modifyitems(session: Any, config: Any, items: List[Any]) -> None:
    suite = getattr(config, "_toolgrade_suite", None)
    if suite is None:
        return
    paths, metric = suite
    for path in paths:
        parent = ToolgradeFile.from_parent(session, path=path)
        parent.metric = metric
        items.extend(parent.collect())


def _path(config: Any, p: str) -> pathlib.Path:
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
