"""Drop-in replacements for DeepFabric's evaluation API
(``deepfabric.evaluation``, DeepFabric 4.12.0), scored by toolgrade's
``deepfabric`` profile: the numbers of its ``Evaluator`` with the
``tool_calling`` evaluator and ``compute_metrics``.

    from toolgrade.deepfabric import Evaluator, EvaluatorConfig   # was: from deepfabric.evaluation import ...

    result = Evaluator(EvaluatorConfig(multi_turn=False)).evaluate(dataset=samples)
    result.metrics.overall_score, result.metrics.tool_selection_accuracy
    result.predictions[0].tool_selection_correct

toolgrade runs no model: instead of an ``inference_config``, each sample
holds the calls the model made. A sample is a toolgrade case (a dict with
``expected_tools``, ``tools_called``, ``available_tools`` in DeepFabric's
own tool form or as JSON Schema, and ``final_response``, read in
multi-turn mode). ``ToolCallingEvaluator().evaluate(ground_truth,
prediction, context)`` and ``compute_metrics(evaluations, weights)`` keep
DeepFabric's signatures.
"""

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Union

from . import _score_one, evaluate as _evaluate
from ._cases import case_to_json, to_json
from .errors import MetricError

__all__ = ["Evaluator", "EvaluatorConfig", "EvaluationResult", "EvaluationMetrics",
           "SampleEvaluation", "ToolCallingEvaluator", "EvaluationContext", "EvaluatorResult",
           "compute_metrics", "compute_overall_score", "DEFAULT_WEIGHTS"]

#: compute_overall_score's weights when none are given.
DEFAULT_WEIGHTS: Dict[str, float] = {"tool_selection": 0.40, "parameter_accuracy": 0.35,
                                     "execution_success": 0.25, "response_quality": 0.00}


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


@dataclass
class EvaluationMetrics:
    """DeepFabric's ``EvaluationMetrics``: each rate a mean over the samples
    (processing errors count 0), ``overall_score`` their weighted sum."""
    tool_selection_accuracy: float
    parameter_accuracy: float
    execution_success_rate: float
    response_quality: float
    overall_score: float
    samples_evaluated: int
    samples_processed: int
    processing_errors: int

    def model_dump(self) -> Dict[str, Any]:
        return asdict(self)


@dataclass
class SampleEvaluation:
    """DeepFabric's ``SampleEvaluation``: one sample's verdicts."""
    sample_id: int
    query: str
    tool_selection_correct: bool
    parameters_correct: bool
    execution_valid: bool
    response_score: float
    available_tools: List[str] = field(default_factory=list)
    expected_tool: Optional[str] = None
    predicted_tool: Optional[str] = None
    expected_parameters: Dict[str, Any] = field(default_factory=dict)
    predicted_parameters: Dict[str, Any] = field(default_factory=dict)
    expected_answer: Optional[str] = None
    predicted_answer: Optional[str] = None
    error: Optional[str] = None

    def model_dump(self) -> Dict[str, Any]:
        return asdict(self)


def compute_overall_score(tool_accuracy: float, param_accuracy: float, exec_success: float,
                          response_quality: float, weights: Optional[Dict[str, float]] = None) -> float:
    """DeepFabric's weighted sum, added left to right; a ``weights`` map
    replaces the defaults entirely (a part it leaves out weighs 0)."""
    if weights is None:
        weights = DEFAULT_WEIGHTS
    return (tool_accuracy * weights.get("tool_selection", 0.0)
            + param_accuracy * weights.get("parameter_accuracy", 0.0)
            + exec_success * weights.get("execution_success", 0.0)
            + response_quality * weights.get("response_quality", 0.0))


def compute_metrics(evaluations: List[Any], weights: Optional[Dict[str, float]] = None) -> EvaluationMetrics:
    """DeepFabric's ``compute_metrics``: the metrics of a list of
    SampleEvaluation (this module's, DeepFabric's, or dicts of their fields)."""
    n = len(evaluations)
    if n == 0:
        return EvaluationMetrics(0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0)
    tool = sum(1 for e in evaluations if _get(e, "tool_selection_correct")) / n
    param = sum(1 for e in evaluations if _get(e, "parameters_correct")) / n
    exe = sum(1 for e in evaluations if _get(e, "execution_valid")) / n
    resp = sum(_get(e, "response_score") for e in evaluations) / n
    processed = sum(1 for e in evaluations if _get(e, "error") is None)
    return EvaluationMetrics(
        tool_selection_accuracy=tool, parameter_accuracy=param, execution_success_rate=exe,
        response_quality=resp, overall_score=compute_overall_score(tool, param, exe, resp, weights),
        samples_evaluated=n, samples_processed=processed, processing_errors=n - processed)


@dataclass
class EvaluationContext:
    """DeepFabric's ``EvaluationContext``: ``tools`` are the available tools
    (DeepFabric ToolDefinition objects, or dicts in its form or JSON Schema)."""
    messages: List[Dict[str, Any]]
    sample_id: int
    tools: Optional[List[Any]] = None
    metadata: Dict[str, Any] = field(default_factory=dict)


@dataclass
class EvaluatorResult:
    """DeepFabric's ``EvaluatorResult``."""
    evaluator_name: str
    metrics: Dict[str, float]
    details: Dict[str, Any] = field(default_factory=dict)
    error: Optional[str] = None


def _entry(multi_turn: bool, weights: Optional[Dict[str, float]]) -> Dict[str, Any]:
    d: Dict[str, Any] = {"profile": "deepfabric", "multi_turn": bool(multi_turn)}
    if weights is not None:
        d["metric_weights"] = weights
    return d


class ToolCallingEvaluator:
    """DeepFabric's ``tool_calling`` evaluator: the first expected call
    (``ground_truth.expected_tool`` / ``expected_parameters``) against the
    model's first call (``prediction.tool_call``: ``{"name", "arguments"}``),
    with ``context.tools`` for the schema check. The arguments may be
    DeepFabric's own GroundTruth / ModelResponse / EvaluationContext objects
    or dicts of their fields. ``config`` is kept as DeepFabric keeps it
    (this evaluator reads nothing from it)."""

    def __init__(self, config: Optional[Dict[str, Any]] = None) -> None:
        self.config = config or {}

    def get_name(self) -> str:
        return "tool_calling"

    def get_metrics(self) -> List[str]:
        return ["tool_selection_accuracy", "parameter_accuracy", "execution_valid"]

    def applicable_to(self, ground_truth: Any) -> bool:
        return _get(ground_truth, "expected_tool") is not None

    def toolgrade_config(self) -> Dict[str, Any]:
        """The toolgrade metric entry this evaluator is."""
        return _entry(False, None)

    def evaluate(self, ground_truth: Any, prediction: Any, context: Any) -> Optional[EvaluatorResult]:
        """The sample's metrics (1.0 or 0.0 each), or None when no call was
        expected (DeepFabric skips the sample). Raises toolgrade.MetricError
        where DeepFabric's evaluator raises."""
        if not self.applicable_to(ground_truth):
            return None
        expected_tool = _get(ground_truth, "expected_tool")
        expected_params = _get(ground_truth, "expected_parameters") or {}
        call = _get(prediction, "tool_call")
        predicted_tool = call.get("name") if call else None
        predicted_params = call.get("arguments", {}) if call else {}
        case: Dict[str, Any] = {"expected_tools": [{"name": expected_tool, "args": to_json(expected_params)}],
                                "tools_called": [] if predicted_tool is None else
                                [{"name": predicted_tool, "args": to_json(predicted_params)}]}
        tools = _get(context, "tools")
        if tools:
            case["available_tools"] = to_json(list(tools))
        m = _score_one(case, self.toolgrade_config())
        c = m.components
        if c.get("processing_errors"):
            raise MetricError(m.reason)
        tool_ok, params_ok = float(c.get("tool_selection", 0)), float(c.get("parameter_accuracy", 0))
        return EvaluatorResult(
            evaluator_name=self.get_name(),
            metrics={"tool_selection_accuracy": tool_ok, "parameter_accuracy": params_ok,
                     "execution_valid": float(c.get("execution_success", 0))},
            details={"expected_tool": expected_tool, "predicted_tool": predicted_tool,
                     "expected_parameters": expected_params, "predicted_parameters": predicted_params,
                     "tool_match": tool_ok == 1.0, "params_match": params_ok == 1.0})


@dataclass
class EvaluatorConfig:
    """DeepFabric's ``EvaluatorConfig``, same fields and defaults, except
    that toolgrade runs no model: ``inference_config`` and ``model`` must
    stay None (each sample gives the calls the model made), only the
    ``tool_calling`` evaluator and the ``file`` reporter exist, and
    ``max_turns`` must stay 10 (recorded calls are not replayed turn by
    turn). Anything else raises ValueError."""
    dataset_path: Optional[str] = None
    output_path: Optional[str] = None
    model: Optional[str] = None
    inference_config: Any = None
    batch_size: int = 1
    max_samples: Optional[int] = None
    save_predictions: bool = True
    metric_weights: Optional[Dict[str, float]] = None
    evaluators: Union[List[str], Dict[str, Dict[str, Any]]] = field(default_factory=lambda: ["tool_calling"])
    reporters: Union[List[str], Dict[str, Dict[str, Any]]] = field(default_factory=lambda: ["file"])
    cloud_api_key: Optional[str] = None
    multi_turn: bool = False
    max_turns: int = 10

    def __post_init__(self) -> None:
        if self.inference_config is not None or self.model is not None:
            raise ValueError("inference_config / model: toolgrade runs no model; give each sample the "
                             "calls the model made (tools_called) and leave them None")
        if list(self.evaluators) != ["tool_calling"]:
            raise ValueError("evaluators: toolgrade has only DeepFabric's 'tool_calling' evaluator, got %r"
                             % (self.evaluators,))
        if list(self.reporters) not in (["file"], []):
            raise ValueError("reporters: toolgrade writes only the 'file' report (output_path), got %r"
                             % (self.reporters,))
        if self.cloud_api_key is not None:
            raise ValueError("cloud_api_key: toolgrade does not report to DeepFabric's cloud")
        if self.max_turns != 10:
            raise ValueError("max_turns: recorded calls are scored as made; toolgrade does not replay "
                             "a conversation turn by turn, so max_turns cannot be changed")
        if self.batch_size < 1:
            raise ValueError("batch_size must be at least 1")


@dataclass
class EvaluationResult:
    """DeepFabric's ``EvaluationResult``."""
    metrics: EvaluationMetrics
    predictions: List[SampleEvaluation]
    config: EvaluatorConfig

    def model_dump(self) -> Dict[str, Any]:
        return asdict(self)


def _sample_evaluation(i: int, case: Dict[str, Any], m: Any, multi_turn: bool) -> SampleEvaluation:
    c = m.components
    exp = case.get("expected_tools") or []
    got = case.get("tools_called") or []
    first = lambda calls, k: (calls[0].get(k) if calls and isinstance(calls[0], dict) else None)  # noqa: E731
    pred_params = first(got, "args") or first(got, "arguments") or {}
    processing_error = bool(c.get("processing_errors"))
    tools = case.get("available_tools") or []
    return SampleEvaluation(
        sample_id=i, query=str(case.get("input") or ""),
        available_tools=[str(_get(t, "name") or _get(_get(t, "function") or {}, "name") or "") for t in tools
                         if isinstance(t, dict)],
        expected_tool=first(exp, "name"), predicted_tool=first(got, "name"),
        expected_parameters=first(exp, "args") or {},
        predicted_parameters=pred_params if isinstance(pred_params, dict) else {},
        predicted_answer=(case.get("final_response") if multi_turn else None),
        tool_selection_correct=float(c.get("tool_selection", 0)) == 1.0,
        parameters_correct=float(c.get("parameter_accuracy", 0)) == 1.0,
        execution_valid=float(c.get("execution_success", 0)) == 1.0,
        response_score=float(c.get("response_quality", 0)),
        error=(m.reason or "processing error") if processing_error else None)


class Evaluator:
    """DeepFabric's ``Evaluator``: ``evaluate(dataset=None)`` scores every
    sample (the list given, or the JSON Lines file at
    ``config.dataset_path``) and returns an EvaluationResult whose metrics
    are DeepFabric's ``compute_metrics`` of the per-sample verdicts. With
    ``output_path`` and ``save_predictions``, the result is also written
    there as JSON."""

    def __init__(self, config: EvaluatorConfig) -> None:
        if not isinstance(config, EvaluatorConfig):
            raise TypeError("config must be a toolgrade.deepfabric.EvaluatorConfig, got %s"
                            % type(config).__name__)
        self.config = config

    def load_dataset(self, dataset: Optional[Iterable[Any]] = None) -> List[Dict[str, Any]]:
        if dataset is not None:
            samples = [case_to_json(s) if not isinstance(s, dict) else dict(s) for s in dataset]
        elif self.config.dataset_path is not None:
            samples = []
            with open(self.config.dataset_path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    try:
                        samples.append(json.loads(line.strip()))
                    except json.JSONDecodeError as e:
                        raise ValueError("Invalid JSON on line %d: %s" % (n, e)) from e
        else:
            raise ValueError("No dataset provided. Either pass a dataset to evaluate() or set "
                             "dataset_path in config.")
        if self.config.max_samples is not None:
            samples = samples[: self.config.max_samples]
        return samples

    def toolgrade_config(self) -> Dict[str, Any]:
        """The toolgrade metric entry this evaluator is."""
        return _entry(self.config.multi_turn, self.config.metric_weights)

    def evaluate(self, dataset: Optional[Iterable[Any]] = None) -> EvaluationResult:
        samples = self.load_dataset(dataset)
        results = _evaluate(samples, [self.toolgrade_config()]) if samples else []
        predictions = []
        for i, (case, r) in enumerate(zip(samples, results)):
            m = r.metrics[0]
            if m.error:
                raise MetricError(m.error)
            predictions.append(_sample_evaluation(i, case, m, self.config.multi_turn))
        result = EvaluationResult(metrics=compute_metrics(predictions, self.config.metric_weights),
                                  predictions=predictions, config=self.config)
        if self.config.save_predictions and self.config.output_path:
            with open(self.config.output_path, "w", encoding="utf-8") as f:
                json.dump(result.model_dump(), f, indent=2, default=str)
        return result

    def print_summary(self, metrics: EvaluationMetrics) -> None:
        print("Evaluation Summary")
        print("Samples Evaluated: %d" % metrics.samples_evaluated)
        print("Processed Successfully: %d" % metrics.samples_processed)
        print("Processing Errors: %d" % metrics.processing_errors)
        print("Tool Selection Accuracy: %.2f%%" % (metrics.tool_selection_accuracy * 100))
        print("Parameter Accuracy: %.2f%%" % (metrics.parameter_accuracy * 100))
        print("Execution Success Rate: %.2f%%" % (metrics.execution_success_rate * 100))
        print("Overall Score: %.2f%%" % (metrics.overall_score * 100))

    def cleanup(self) -> None:
        """Nothing to release: toolgrade loads no model."""
