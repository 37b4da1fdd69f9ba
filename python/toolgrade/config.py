"""Typed metric configs. Each turns into a metric entry (``to_dict``) with
the option names of docs/config.md and, for peer profiles, the peer's own
option names (docs/profiles.md). Options left as None take the default."""

import os
from dataclasses import dataclass, field, fields
from typing import Any, Dict, List, Optional, Union


class _Entry:
    profile = ""

    def to_dict(self) -> Dict[str, Any]:
        """The metric entry, as a config file would hold it."""
        d: Dict[str, Any] = {}
        if self.profile:
            d["profile"] = self.profile
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if v is None:
                continue
            if f.name == "extra":
                d.update(v)
                continue
            d[f.name] = v
        return d


@dataclass
class Metric(_Entry):
    """toolgrade's native metric (``profile: default``); see docs/metric.md."""
    metric: Optional[str] = None  # tool_correctness (default) or schema
    name: Optional[str] = None
    order: Optional[str] = None  # any | in-order | exact
    args: Optional[str] = None  # ignore | exact | contains | within | fuzzy | partial
    output: Optional[str] = None  # ignore | exact
    pairing: Optional[str] = None  # optimal | greedy
    scoring: Optional[str] = None  # f1 | recall | precision
    threshold: Optional[float] = None
    strict: Optional[bool] = None
    normalize_names: Optional[bool] = None
    fuzzy_threshold: Optional[float] = None
    extra: Dict[str, Any] = field(default_factory=dict)


@dataclass
class DeepEval(_Entry):
    """DeepEval ``ToolCorrectnessMetric`` (profile ``deepeval``)."""
    profile = "deepeval"
    variant: Optional[str] = None  # v4 | v3 | multimodal
    threshold: Optional[float] = 0.5  # None: score only (v4)
    evaluation_params: List[str] = field(default_factory=list)
    should_consider_ordering: bool = False
    should_exact_match: bool = False
    strict_mode: bool = False
    extra: Dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        d = super().to_dict()
        d["threshold"] = self.threshold  # null is meaningful here
        return d


@dataclass
class Axion(_Entry):
    """Axion ``ToolCorrectness`` (profile ``axion``)."""
    profile = "axion"
    check_parameters: bool = False
    strict_order: bool = False
    parameter_matching_strategy: str = "exact"  # exact | subset | fuzzy
    fuzzy_threshold: float = 0.8
    scoring: Optional[str] = None  # recall | precision | f1
    threshold: Optional[float] = None
    extra: Dict[str, Any] = field(default_factory=dict)


@dataclass
class AgentEvals(_Entry):
    """agentevals trajectory match (profile ``agentevals``)."""
    profile = "agentevals"
    trajectory_match_mode: str = "strict"  # strict | unordered | subset | superset
    tool_args_match_mode: str = "exact"  # exact | ignore | subset | superset
    tool_args_match_overrides: Optional[Dict[str, Union[str, List[str]]]] = None
    extra: Dict[str, Any] = field(default_factory=dict)


@dataclass
class OpenEvals(_Entry):
    """openevals trajectory match, agentevals' successor (profile ``openevals``)."""
    profile = "openevals"
    trajectory_match_mode: str = "strict"  # strict | unordered | subset | superset
    tool_args_match_mode: str = "exact"  # exact | ignore | subset | superset
    tool_args_match_overrides: Optional[Dict[str, Union[str, List[str]]]] = None
    extra: Dict[str, Any] = field(default_factory=dict)


@dataclass
class ADK(_Entry):
    """Google ADK ``tool_trajectory_avg_score`` (profile ``adk``)."""
    profile = "adk"
    match_type: Any = "EXACT"  # EXACT | IN_ORDER | ANY_ORDER
    threshold: Optional[float] = None
    extra: Dict[str, Any] = field(default_factory=dict)


@dataclass
class DeepFabric(_Entry):
    """DeepFabric's evaluation (profile ``deepfabric``)."""
    profile = "deepfabric"
    multi_turn: bool = False
    metric_weights: Optional[Dict[str, float]] = None
    extra: Dict[str, Any] = field(default_factory=dict)


@dataclass
class BFCL(_Entry):
    """The BFCL AST checker (profile ``bfcl``)."""
    profile = "bfcl"
    category: Optional[str] = None
    language: Optional[str] = None
    extra: Dict[str, Any] = field(default_factory=dict)


@dataclass
class Ragas(_Entry):
    """Ragas ``ToolCallAccuracy`` / ``ToolCallF1`` (profile ``ragas``)."""
    profile = "ragas"
    ragas_metric: str = "tool_call_accuracy"  # or tool_call_f1
    strict_order: Optional[bool] = None
    threshold: Optional[float] = None
    extra: Dict[str, Any] = field(default_factory=dict)


@dataclass
class Evalite(_Entry):
    """evalite ``toolCallAccuracy`` (profile ``evalite``)."""
    profile = "evalite"
    mode: Optional[str] = None  # exact (default) | flexible
    weights: Optional[Dict[str, float]] = None  # name_only, extra_penalty, wrong_penalty (exact is never read)
    extra: Dict[str, Any] = field(default_factory=dict)


#: What evaluate's config takes; a str or path is a config file's path.
ConfigLike = Union[_Entry, Dict[str, Any], List[Union[_Entry, Dict[str, Any]]], str, "os.PathLike[str]", None]


def to_request_config(config: ConfigLike) -> Any:
    """The config as a serve request carries it: {"metrics": [entries]},
    and the judge's settings ({"model": ..., "base_url": ..., "key_env":
    ...}, as a config file's judge section) when a dict gives "judge"."""
    if config is None:
        return None
    if isinstance(config, (list, tuple)):
        return {"metrics": [_entry(c) for c in config]}
    if isinstance(config, dict) and "metrics" in config:
        # Other keys go along, for the binary to reject a misspelled one.
        out: Dict[str, Any] = dict(config)
        out["metrics"] = [_entry(c) for c in config["metrics"]]
        if out.get("judge") is None:
            out.pop("judge", None)
        else:
            out["judge"] = dict(out["judge"])
        return out
    return {"metrics": [_entry(config)]}


def _entry(c: Any) -> Dict[str, Any]:
    if isinstance(c, _Entry):
        return c.to_dict()
    if isinstance(c, dict):
        return dict(c)
    raise TypeError("a metric config is a toolgrade.config object or a dict, got %s" % type(c).__name__)
