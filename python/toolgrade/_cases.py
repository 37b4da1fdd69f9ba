"""Turning Python objects (dicts, dataclasses, pydantic models such as
DeepEval's LLMTestCase and ToolCall, enums) into JSON case values."""

import dataclasses
import enum
import math
from typing import Any, Dict, Iterable, List

_CASE_FIELDS = ("id", "name", "input", "actual_output", "expected_output", "tools_called",
                "expected_tools", "trajectory", "expected_trajectory", "available_tools")


def to_json(v: Any) -> Any:
    """A JSON-ready copy of v. Objects that are not dicts become dicts of
    their public fields, without the fields that are None."""
    if v is None or isinstance(v, (str, bool, int)):
        return v
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise ValueError("%r is not a JSON number" % v)
        return v
    if isinstance(v, enum.Enum):
        return to_json(v.value)
    if isinstance(v, dict):
        return {str(k): to_json(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [to_json(x) for x in v]
    return {k: to_json(x) for k, x in object_fields(v).items() if x is not None}


def object_fields(v: Any) -> Dict[str, Any]:
    """The public fields of an object: pydantic models, dataclasses, plain
    objects."""
    if hasattr(v, "model_dump") and callable(v.model_dump):
        try:
            return dict(v.model_dump())
        except TypeError:
            pass
    if hasattr(v, "dict") and callable(v.dict) and hasattr(v, "__fields__"):
        return dict(v.dict())
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: getattr(v, f.name) for f in dataclasses.fields(v)}
    if hasattr(v, "__dict__"):
        return {k: x for k, x in vars(v).items() if not k.startswith("_")}
    raise TypeError("cannot turn %s into JSON" % type(v).__name__)


def call_to_json(c: Any) -> Any:
    """A tool call: a dict as it is, or an object (DeepEval's or Axion's
    ToolCall: name, input_parameters or args, output)."""
    if isinstance(c, dict) or c is None:
        return to_json(c)
    return to_json(object_fields(c))


def case_to_json(case: Any) -> Any:
    """A case: a dict as it is (see docs/cases.md), or a test case object
    (DeepEval's LLMTestCase, Axion's DatasetItem...) read by its fields.
    Its tools_called / expected_tools keep None as null, which the peers
    treat as missing."""
    if isinstance(case, dict):
        return to_json(case)
    if isinstance(case, (str, bytes, int, float, list, tuple)) or case is None:
        return to_json(case)  # the process reports what is wrong with it
    fields = object_fields(case)
    out: Dict[str, Any] = {}
    for k in _CASE_FIELDS:
        if k not in fields:
            continue
        v = fields[k]
        if k in ("tools_called", "expected_tools"):
            out[k] = None if v is None else [call_to_json(c) for c in v]
        elif v is not None:
            if k == "name":
                out["id"] = str(v)
            else:
                out[k] = to_json(v)
    if isinstance(fields.get("input"), (list, tuple)):
        out["input"] = [_part(p) for p in fields["input"]]
    return out


def _part(p: Any) -> Any:
    """A multimodal input part: text, or an image (DeepEval's MLLMImage)."""
    if isinstance(p, str):
        return {"type": "text", "text": p}
    if isinstance(p, dict):
        return to_json(p)
    url = getattr(p, "url", None)
    if url:
        return {"type": "image_url", "image_url": {"url": str(url)}}
    return {"type": "text", "text": str(p)}


def cases_to_json(cases: Iterable[Any]) -> List[Any]:
    return [case_to_json(c) for c in cases]
