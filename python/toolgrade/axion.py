"""Drop-in replacement for Axion's ``ToolCorrectness`` metric, scored by
toolgrade's ``axion`` profile (the numbers of ax-foundry/axion @ 7ab96dc).

    from toolgrade.axion import ToolCorrectness   # was: from axion.metrics import ToolCorrectness

``execute(item)`` is a coroutine, as in Axion; ``execute_sync(item)`` is the
same without an event loop. An item is Axion's DatasetItem (tools_called,
expected_tools of ToolCall(name, args)) or a dict of the same fields.
"""

import asyncio
from dataclasses import dataclass, field
from typing import Any, Dict, Optional

from . import _score_one

__all__ = ["ToolCorrectness", "MetricEvaluationResult"]


@dataclass
class MetricEvaluationResult:
    """Axion's result shape: score and explanation (plus toolgrade's
    success and full metric result)."""
    score: Optional[float]
    explanation: str = ""
    passed: Optional[bool] = None
    signals: Dict[str, Any] = field(default_factory=dict)


class ToolCorrectness:
    """Axion's ``ToolCorrectness``: same constructor and attributes."""

    name = "Tool Correctness"
    key = "tool_correctness"

    def __init__(self, check_parameters: bool = False, strict_order: bool = False,
                 parameter_matching_strategy: str = "exact", fuzzy_threshold: float = 0.8,
                 **kwargs: Any) -> None:
        self.check_parameters = check_parameters
        self.strict_order = strict_order
        self.parameter_matching_strategy = parameter_matching_strategy
        self.fuzzy_threshold = fuzzy_threshold
        self.threshold = kwargs.pop("threshold", None)
        self.scoring = kwargs.pop("scoring", None)
        self.kwargs = kwargs

    def config(self) -> Dict[str, Any]:
        """The toolgrade metric entry this metric is."""
        d: Dict[str, Any] = {"profile": "axion", "check_parameters": self.check_parameters,
                             "strict_order": self.strict_order,
                             "parameter_matching_strategy": self.parameter_matching_strategy,
                             "fuzzy_threshold": self.fuzzy_threshold}
        if self.scoring is not None:
            d["scoring"] = self.scoring
        if self.threshold is not None:
            d["threshold"] = self.threshold
        return d

    def execute_sync(self, item: Any) -> MetricEvaluationResult:
        m = _score_one(item, self.config())
        return MetricEvaluationResult(score=m.score, explanation=m.reason, passed=m.success,
                                      signals=m.raw)

    async def execute(self, item: Any) -> MetricEvaluationResult:
        loop = asyncio.get_event_loop()
        return await loop.run_in_executor(None, self.execute_sync, item)
