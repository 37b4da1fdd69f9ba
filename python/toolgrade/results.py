"""Result objects: the result line contract (docs/results.md) as Python."""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass
class MetricResult:
    """One metric's verdict on a case. ``score`` is None when ``error`` is
    set; ``success`` is None when the metric gives no verdict."""
    name: str
    profile: str
    score: Optional[float]
    success: Optional[bool]
    threshold: Optional[float] = None
    precision: Optional[float] = None
    recall: Optional[float] = None
    f1: Optional[float] = None
    components: Dict[str, Any] = field(default_factory=dict)
    matches: List[Dict[str, Any]] = field(default_factory=list)
    missing: List[int] = field(default_factory=list)
    unexpected: List[int] = field(default_factory=list)
    # Where they apply (docs/trajectory.md): failed and retried calls, the
    # scores of turns, data-flow links, process rules, case-level diffs.
    failed: List[int] = field(default_factory=list)
    retried: List[int] = field(default_factory=list)
    turns: List[Dict[str, Any]] = field(default_factory=list)
    flows: List[Dict[str, Any]] = field(default_factory=list)
    rules: List[Dict[str, Any]] = field(default_factory=list)
    diffs: List[Dict[str, Any]] = field(default_factory=list)
    reason: str = ""
    error: Optional[str] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "MetricResult":
        return cls(name=d.get("name", ""), profile=d.get("profile", ""), score=d.get("score"),
                   success=d.get("success"), threshold=d.get("threshold"),
                   precision=d.get("precision"), recall=d.get("recall"), f1=d.get("f1"),
                   components=d.get("components") or {}, matches=d.get("matches") or [],
                   missing=d.get("missing") or [], unexpected=d.get("unexpected") or [],
                   failed=d.get("failed") or [], retried=d.get("retried") or [],
                   turns=d.get("turns") or [], flows=d.get("flows") or [],
                   rules=d.get("rules") or [], diffs=d.get("diffs") or [],
                   reason=d.get("reason") or "", error=d.get("error"), raw=d)


@dataclass
class Result:
    """Every metric's verdict on one case. ``error`` is set when the case
    itself could not be read."""
    id: str
    success: bool
    metrics: List[MetricResult]
    error: Optional[str] = None
    warnings: List[str] = field(default_factory=list)
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Result":
        return cls(id=d.get("id", ""), success=bool(d.get("success")),
                   metrics=[MetricResult.from_json(m) for m in d.get("metrics") or []],
                   error=d.get("error"), warnings=d.get("warnings") or [], raw=d)

    @property
    def score(self) -> Optional[float]:
        """The first metric's score."""
        return self.metrics[0].score if self.metrics else None

    def metric(self, name: str) -> MetricResult:
        """The result of the metric with this name."""
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(name)


@dataclass
class Call:
    """One tool call read from a trace. ``args_raw`` holds arguments that
    were not valid JSON (``args`` is then None)."""
    name: str
    args: Any = None
    output: Any = None
    id: Optional[str] = None
    args_raw: Optional[str] = None

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Call":
        return cls(name=d.get("name", ""), args=d.get("args"), output=d.get("output"),
                   id=d.get("id"), args_raw=d.get("args_raw"))


@dataclass
class Record:
    """One run of a trace file that holds several (a BFCL result file's
    lines, an ADK EvalSet's eval cases): its id (None when it has none) and
    its calls."""
    id: Optional[str]
    calls: List[Call]


@dataclass
class Trace:
    """The calls of a trace, its detected format, and the items of it the
    reader did not understand. A file of several runs also gives each in
    ``records``; ``calls`` then holds every record's, in order."""
    format: str
    calls: List[Call]
    skipped: List[str] = field(default_factory=list)
    records: List[Record] = field(default_factory=list)
