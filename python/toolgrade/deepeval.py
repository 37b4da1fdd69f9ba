"""Drop-in replacements for DeepEval's tool correctness metrics, scored by
toolgrade's ``deepeval`` profile (the same numbers as DeepEval 4.1.10; the
``variant`` keyword selects 3.8.3 or the multimodal metric of 3.7.4).

    from toolgrade.deepeval import ToolCorrectnessMetric   # was: from deepeval.metrics import ...

They accept DeepEval's LLMTestCase / MLLMTestCase / ToolCall objects when
DeepEval is installed, and plain dicts (or this module's stand-ins) when
not. With ``available_tools`` and a ``model`` (a model name), DeepEval's
LLM tool-selection judge runs too, through toolgrade's judge: an
OpenAI-compatible server at $TOOLGRADE_JUDGE_BASE_URL (default OpenAI's),
with the key in $OPENAI_API_KEY (or the variable $TOOLGRADE_JUDGE_KEY_ENV
names); replies are cached unless $TOOLGRADE_JUDGE_NO_CACHE is set. Without a model the score is DeepEval's deterministic part, and
the reason says so.
"""

import os

import asyncio
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Dict, List, Optional

from . import _score_one
from .errors import MetricError

try:  # DeepEval's own types, when it is installed
    from deepeval.test_case import LLMTestCase, ToolCall, ToolCallParams  # type: ignore
except Exception:  # pragma: no cover - depends on the environment
    class ToolCallParams(Enum):  # type: ignore[no-redef]
        """Stand-in for deepeval.test_case.ToolCallParams."""
        INPUT_PARAMETERS = "input_parameters"
        OUTPUT = "output"

    @dataclass
    class ToolCall:  # type: ignore[no-redef]
        """Stand-in for deepeval.test_case.ToolCall."""
        name: str
        description: Optional[str] = None
        reasoning: Optional[str] = None
        output: Any = None
        input_parameters: Optional[Dict[str, Any]] = None

    @dataclass
    class LLMTestCase:  # type: ignore[no-redef]
        """Stand-in for deepeval.test_case.LLMTestCase."""
        input: Any = ""
        actual_output: Optional[str] = None
        expected_output: Optional[str] = None
        tools_called: Optional[List[Any]] = None
        expected_tools: Optional[List[Any]] = None
        name: Optional[str] = None

try:
    from deepeval.test_case import MLLMTestCase  # type: ignore
except Exception:  # pragma: no cover
    @dataclass
    class MLLMTestCase:  # type: ignore[no-redef]
        """Stand-in for deepeval.test_case.MLLMTestCase."""
        input: List[Any] = field(default_factory=list)
        actual_output: List[Any] = field(default_factory=list)
        tools_called: Optional[List[Any]] = None
        expected_tools: Optional[List[Any]] = None
        name: Optional[str] = None

__all__ = ["ToolCorrectnessMetric", "MultimodalToolCorrectnessMetric", "ToolCall",
           "ToolCallParams", "LLMTestCase", "MLLMTestCase"]


def _param(p: Any) -> str:
    v = getattr(p, "value", p)
    return str(v)


class ToolCorrectnessMetric:
    """DeepEval's ``ToolCorrectnessMetric``, same constructor and attributes:
    ``measure(test_case)`` sets and returns ``score``, and sets ``reason``
    and ``success``. Where DeepEval raises (``AttributeError``,
    ``MissingTestCaseParamsError``...), measure raises an exception of that
    name (a toolgrade.MetricError, and the built-in type where there is one)."""

    _variant = "v4"

    def __init__(self, threshold: Optional[float] = 0.5, evaluation_params: Optional[List[Any]] = None,
                 include_reason: bool = True, strict_mode: bool = False,
                 should_consider_ordering: bool = False, should_exact_match: bool = False,
                 available_tools: Optional[List[Any]] = None, model: Any = None,
                 async_mode: bool = True, verbose_mode: bool = False, *,
                 variant: Optional[str] = None) -> None:
        self.raw_threshold = threshold
        self.threshold = 1 if strict_mode else threshold
        self.evaluation_params = list(evaluation_params or [])
        self.include_reason = include_reason
        self.strict_mode = strict_mode
        self.should_consider_ordering = should_consider_ordering
        self.should_exact_match = should_exact_match
        self.available_tools = available_tools
        self.model = model
        self.async_mode = async_mode
        self.verbose_mode = verbose_mode
        self.variant = variant or self._variant
        self.score: Optional[float] = None
        self.reason: Optional[str] = None
        self.success: Optional[bool] = None
        self.error: Optional[str] = None
        self.evaluation_cost: Optional[float] = None
        self.verbose_logs: Optional[str] = None
        self.result: Any = None

    @property
    def __name__(self) -> str:
        return "Tool Correctness"

    def config(self) -> Dict[str, Any]:
        """The toolgrade metric entry this metric is; with a model, the
        request config {"metrics": [entry], "judge": settings}."""
        entry = {"profile": "deepeval", "variant": self.variant,
                 "evaluation_params": [_param(p) for p in self.evaluation_params],
                 "should_consider_ordering": self.should_consider_ordering,
                 "should_exact_match": self.should_exact_match,
                 "strict_mode": self.strict_mode, "threshold": self.raw_threshold}
        if self.model is None:
            return entry
        if not isinstance(self.model, str):
            raise TypeError("model: toolgrade's judge takes a model name (an OpenAI-compatible server's "
                            "model, e.g. 'gpt-4.1-mini'), got %s" % type(self.model).__name__)
        judge: Dict[str, Any] = {"model": self.model}
        if os.environ.get("TOOLGRADE_JUDGE_BASE_URL"):
            judge["base_url"] = os.environ["TOOLGRADE_JUDGE_BASE_URL"]
        if os.environ.get("TOOLGRADE_JUDGE_KEY_ENV"):
            judge["key_env"] = os.environ["TOOLGRADE_JUDGE_KEY_ENV"]
        if os.environ.get("TOOLGRADE_JUDGE_NO_CACHE"):
            judge["no_cache"] = True
        return {"metrics": [entry], "judge": judge}

    def toolgrade_config(self) -> Dict[str, Any]:
        """The same as config()."""
        return self.config()

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.score = self.reason = self.success = self.error = None
        try:
            m = _score_one(test_case, self.config())
        except MetricError as e:
            self.error = str(e)
            self.success = False
            raise
        self.result = m
        self.score = m.score
        self.reason = m.reason if self.include_reason else None
        self.success = m.success
        return m.score  # type: ignore[return-value]

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        loop = asyncio.get_event_loop()
        return await loop.run_in_executor(None, self.measure, test_case)

    def is_successful(self) -> bool:
        if self.error is not None:
            self.success = False
        return bool(self.success)


class MultimodalToolCorrectnessMetric(ToolCorrectnessMetric):
    """DeepEval's ``MultimodalToolCorrectnessMetric`` (3.7.4), taking an
    MLLMTestCase (or a dict whose ``input`` is a list of parts)."""

    _variant = "multimodal"

    def __init__(self, threshold: Optional[float] = 0.5, evaluation_params: Optional[List[Any]] = None,
                 include_reason: bool = True, strict_mode: bool = False, verbose_mode: bool = False,
                 should_consider_ordering: bool = False, should_exact_match: bool = False) -> None:
        super().__init__(threshold=threshold, evaluation_params=evaluation_params,
                         include_reason=include_reason, strict_mode=strict_mode,
                         should_consider_ordering=should_consider_ordering,
                         should_exact_match=should_exact_match, verbose_mode=verbose_mode)

    @property
    def __name__(self) -> str:
        return "Multimodal Tool Correctness"
