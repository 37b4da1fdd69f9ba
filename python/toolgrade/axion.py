"""Drop-in replacement for Axion's ``ToolCorrectness`` metric, scored by
toolgrade's ``axion`` profile (the numbers of ax-foundry/axion @ 7ab96dc).

    from toolgrade.axion import ToolCorrectness   # was: from axion.metrics import ToolCorrectness

    result = await ToolCorrectness(check_parameters=True).execute(item)
    result.score, result.explanation

``execute(item)`` is a coroutine, as in Axion; ``execute_sync(item)`` is the
same without an event loop. An item is Axion's DatasetItem (tools_called,
expected_tools of ToolCall(name, args)) or a dict of the same fields.

ToolCorrectness uses no LLM, so the LLM and embedding arguments of Axion's
BaseMetric (``llm``, ``model_name``, ``llm_provider``, ``embed_model``,
``embed_model_name``), its field remapping (``required_fields``,
``optional_fields``, ``field_mapping``), ``callbacks`` and other keywords
meant for Axion's handler raise TypeError instead of being dropped.
"""

import asyncio
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from . import _score_one

__all__ = ["ToolCorrectness", "MetricEvaluationResult", "MetricConfig"]

DEFAULT_EXPLANATION = "Check signals for additional details"


@dataclass
class MetricEvaluationResult:
    """Axion's result: ``score``, ``explanation``, ``metadata``, ``signals``
    (here toolgrade's full metric result), plus toolgrade's ``passed``
    (score >= the metric's threshold, as Axion's runner decides)."""
    score: Optional[float]
    explanation: Optional[str] = DEFAULT_EXPLANATION
    metadata: Dict[str, Any] = field(default_factory=dict)
    signals: Optional[Any] = None
    passed: Optional[bool] = None


@dataclass
class MetricConfig:
    """Axion's registration metadata of a metric (``metric.config``)."""
    key: str
    name: str
    description: str
    default_threshold: float = 0.5
    score_range: Tuple[float, float] = (0, 1)
    required_fields: List[str] = field(default_factory=list)
    optional_fields: List[str] = field(default_factory=list)
    tags: List[str] = field(default_factory=list)


_UNSUPPORTED = ("model_name", "llm", "embed_model_name", "embed_model", "llm_provider",
                "required_fields", "optional_fields", "field_mapping")


class ToolCorrectness:
    """Axion's ``ToolCorrectness``: same constructor and attributes
    (``check_parameters``, ``strict_order``, ``parameter_matching_strategy``,
    ``fuzzy_threshold``; ``threshold``, ``name``, ``description`` and
    ``config`` as Axion's BaseMetric gives them). ``scoring`` is
    ``"recall"`` (Axion's score), ``"precision"`` or ``"f1"``."""

    config = MetricConfig(key="tool_correctness", name="Tool Correctness",
                          description="Evaluates whether the expected tools were correctly called by the agent.",
                          default_threshold=0.5, score_range=(0, 1),
                          required_fields=["tools_called", "expected_tools"], optional_fields=[],
                          tags=["agent", "tool"])

    def __init__(self, check_parameters: bool = False, strict_order: bool = False,
                 parameter_matching_strategy: str = "exact", fuzzy_threshold: float = 0.8,
                 *, scoring: str = "recall", threshold: Optional[float] = None,
                 metric_name: Optional[str] = None, metric_description: Optional[str] = None,
                 name: Optional[str] = None, **kwargs: Any) -> None:
        given = sorted(k for k in kwargs if k in _UNSUPPORTED and kwargs[k] is not None)
        if given:
            raise TypeError("ToolCorrectness: %s not supported by toolgrade (ToolCorrectness uses no "
                            "LLM or embedding model, and toolgrade reads tools_called and "
                            "expected_tools as they are)" % ", ".join(given))
        other = sorted(k for k in kwargs if k not in _UNSUPPORTED)
        if other:
            raise TypeError("ToolCorrectness got unexpected keyword argument(s) %s"
                            % ", ".join(repr(k) for k in other))
        self.check_parameters = check_parameters
        self.strict_order = strict_order
        self.parameter_matching_strategy = parameter_matching_strategy
        self.fuzzy_threshold = fuzzy_threshold
        self.scoring = scoring
        self._threshold = threshold
        self._metric_name = name or metric_name
        self._metric_description = metric_description
        self.model_name = None
        self.llm_provider = None
        self.embed_model = None
        self.embed_model_name = None

    @property
    def threshold(self) -> float:
        """The pass mark: the one given, else (also for 0, as in Axion) 0.5."""
        return self._threshold or self.config.default_threshold

    @property
    def name(self) -> str:
        return self._metric_name or self.config.name

    @property
    def description(self) -> str:
        return self._metric_description or self.config.description

    @property
    def required_fields(self) -> List[str]:
        return list(self.config.required_fields)

    @property
    def optional_fields(self) -> List[str]:
        return list(self.config.optional_fields)

    def toolgrade_config(self) -> Dict[str, Any]:
        """The toolgrade metric entry this metric is."""
        d: Dict[str, Any] = {"profile": "axion", "check_parameters": self.check_parameters,
                             "strict_order": self.strict_order,
                             "parameter_matching_strategy": self.parameter_matching_strategy,
                             "fuzzy_threshold": self.fuzzy_threshold, "scoring": self.scoring}
        if self._threshold is not None:
            d["threshold"] = self._threshold
        return d

    def execute_sync(self, item: Any, callbacks: Any = None, **kwargs: Any) -> MetricEvaluationResult:
        if callbacks is not None or kwargs:
            raise TypeError("ToolCorrectness.execute: callbacks and extra keywords are not supported "
                            "by toolgrade")
        m = _score_one(item, self.toolgrade_config())
        return MetricEvaluationResult(score=m.score, explanation=m.reason, passed=m.success,
                                      signals=m.raw)

    async def execute(self, item: Any, callbacks: Any = None, **kwargs: Any) -> MetricEvaluationResult:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, lambda: self.execute_sync(item, callbacks, **kwargs))
