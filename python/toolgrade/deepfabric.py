"""DeepFabric's evaluation metrics, scored by toolgrade's ``deepfabric``
profile (the numbers of DeepFabric 4.12.0's ``Evaluator`` with its
``tool_calling`` evaluator and ``compute_metrics``), without running a
model: give the calls the model made.

    from toolgrade.deepfabric import ToolCallingEvaluator, compute_metrics

    m = compute_metrics(samples)                # a dataset
    m.overall_score, m.tool_selection_accuracy, m.parameter_accuracy

A sample is a dict with ``expected_tools``, ``tools_called`` and, for the
schema check, ``available_tools`` (DeepFabric's own tool form or JSON
Schema); ``final_response`` is read in multi-turn mode.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Optional

from . import _score_one
from ._cases import case_to_json

__all__ = ["EvaluationMetrics", "ToolCallingEvaluator", "compute_metrics", "DEFAULT_WEIGHTS"]

DEFAULT_WEIGHTS: Dict[str, float] = {"tool_selection": 0.40, "parameter_accuracy": 0.35,
                                     "execution_success": 0.25, "response_quality": 0.0}


@dataclass
class EvaluationMetrics:
    """DeepFabric's metrics for a sample or a dataset (each part a mean over
    the samples; ``overall_score`` their weighted sum)."""
    tool_selection_accuracy: float
    parameter_accuracy: float
    execution_success_rate: float
    response_quality_score: float
    overall_score: float
    samples_evaluated: int = 0
    processing_errors: int = 0
    reason: str = ""
    components: Dict[str, Any] = field(default_factory=dict)


class ToolCallingEvaluator:
    """Scores samples as DeepFabric's evaluation does."""

    def __init__(self, multi_turn: bool = False, metric_weights: Optional[Dict[str, float]] = None) -> None:
        self.multi_turn = multi_turn
        self.metric_weights = metric_weights

    def config(self) -> Dict[str, Any]:
        """The toolgrade metric entry this evaluator is."""
        d: Dict[str, Any] = {"profile": "deepfabric", "multi_turn": self.multi_turn}
        if self.metric_weights is not None:
            d["metric_weights"] = self.metric_weights
        return d

    def evaluate(self, sample: Any) -> EvaluationMetrics:
        """The metrics of one sample (or of a dataset: a dict with "samples")."""
        m = _score_one(sample, self.config())
        c = m.components
        return EvaluationMetrics(
            tool_selection_accuracy=float(c.get("tool_selection", 0)),
            parameter_accuracy=float(c.get("parameter_accuracy", 0)),
            execution_success_rate=float(c.get("execution_success", 0)),
            response_quality_score=float(c.get("response_quality", 0)),
            overall_score=float(m.score or 0), samples_evaluated=int(c.get("samples_evaluated", 0)),
            processing_errors=int(c.get("processing_errors", 0)), reason=m.reason, components=c)


def compute_metrics(samples: Iterable[Any], multi_turn: bool = False,
                    metric_weights: Optional[Dict[str, float]] = None) -> EvaluationMetrics:
    """DeepFabric's ``compute_metrics`` over a dataset of samples."""
    return ToolCallingEvaluator(multi_turn, metric_weights).evaluate(
        {"samples": [case_to_json(s) for s in samples]})
