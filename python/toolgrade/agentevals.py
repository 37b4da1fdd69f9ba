"""Drop-in replacements for agentevals' trajectory match evaluators, scored
by toolgrade's ``agentevals`` profile (the verdicts of agentevals 0.0.7).

    from toolgrade.agentevals import create_trajectory_match_evaluator

    evaluator = create_trajectory_match_evaluator(trajectory_match_mode="superset")
    result = evaluator(outputs=messages, reference_outputs=reference)
    result["score"]  # True or False

Trajectories are lists of OpenAI chat messages (dicts), or a dict holding
them under "messages". Overrides are a mode or a list of dotted key paths
per tool; functions cannot cross into the binary and raise TypeError.

agentevals accepts and drops any other keyword, both when creating the
evaluator and when calling it; here an unknown keyword raises TypeError,
so that a misspelt option cannot silently change the verdict. The one
exception is ``inputs=`` on the call, which trajectory match does not use
in agentevals either. The result's ``comment`` is toolgrade's reason (in
agentevals it is None).
"""

import asyncio
from typing import Any, Awaitable, Callable, Dict, List, Literal, Optional, Union

from . import _score_one

__all__ = ["create_trajectory_match_evaluator", "create_async_trajectory_match_evaluator",
           "TrajectoryMatchMode"]

TrajectoryMatchMode = Literal["strict", "unordered", "subset", "superset"]

_MODES = ("strict", "unordered", "subset", "superset")

# What LangSmith's evaluate() may pass an evaluator besides outputs and
# reference_outputs: accepted and not used, as agentevals does.
_CALL_ARGS = ("inputs", "run", "example", "attachments")

EvaluatorResult = Dict[str, Any]


def _no_extra(where: str, kwargs: Dict[str, Any], allowed: tuple = ()) -> None:
    extra = sorted(k for k in kwargs if k not in allowed)
    if extra:
        raise TypeError("%s got unexpected keyword argument(s) %s (agentevals would ignore them; "
                        "toolgrade refuses so that a misspelt option is not silently dropped)"
                        % (where, ", ".join(repr(k) for k in extra)))


def _config(trajectory_match_mode: str, tool_args_match_mode: str,
            tool_args_match_overrides: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    if trajectory_match_mode not in _MODES:
        raise ValueError("Invalid trajectory match type: %s" % trajectory_match_mode)
    d: Dict[str, Any] = {"profile": "agentevals", "trajectory_match_mode": trajectory_match_mode,
                         "tool_args_match_mode": tool_args_match_mode}
    if tool_args_match_overrides is not None:
        for k, v in tool_args_match_overrides.items():
            if callable(v):
                raise TypeError("tool_args_match_overrides[%r]: a function cannot be used with "
                                "toolgrade; give a mode or a list of key paths" % k)
        d["tool_args_match_overrides"] = tool_args_match_overrides
    return d


def create_trajectory_match_evaluator(
        *, trajectory_match_mode: TrajectoryMatchMode = "strict", tool_args_match_mode: str = "exact",
        tool_args_match_overrides: Optional[Dict[str, Union[str, List[str]]]] = None,
        **kwargs: Any) -> Callable[..., EvaluatorResult]:
    """agentevals' ``create_trajectory_match_evaluator``: returns
    ``evaluator(*, outputs, reference_outputs)`` giving
    ``{"key": "trajectory_<mode>_match", "score": bool, "comment": reason}``."""
    entry = _config(trajectory_match_mode, tool_args_match_mode, tool_args_match_overrides)
    _no_extra("create_trajectory_match_evaluator()", kwargs)
    key = "trajectory_%s_match" % trajectory_match_mode

    def _evaluator(*, outputs: Any, reference_outputs: Any, **kw: Any) -> EvaluatorResult:
        _no_extra("trajectory match evaluator", kw, _CALL_ARGS)
        m = _score_one({"trajectory": outputs, "expected_trajectory": reference_outputs}, entry)
        return {"key": key, "score": bool(m.score == 1), "comment": m.reason or None,
                "metadata": None}

    return _evaluator


def create_async_trajectory_match_evaluator(
        *, trajectory_match_mode: TrajectoryMatchMode = "strict", tool_args_match_mode: str = "exact",
        tool_args_match_overrides: Optional[Dict[str, Union[str, List[str]]]] = None,
        **kwargs: Any) -> Callable[..., Awaitable[EvaluatorResult]]:
    """The async form of create_trajectory_match_evaluator: ``await
    evaluator(*, outputs, reference_outputs)``."""
    _no_extra("create_async_trajectory_match_evaluator()", kwargs)
    sync = create_trajectory_match_evaluator(trajectory_match_mode=trajectory_match_mode,
                                             tool_args_match_mode=tool_args_match_mode,
                                             tool_args_match_overrides=tool_args_match_overrides)

    async def _evaluator(*, outputs: Any, reference_outputs: Any, **kw: Any) -> EvaluatorResult:
        _no_extra("trajectory match evaluator", kw, _CALL_ARGS)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None, lambda: sync(outputs=outputs, reference_outputs=reference_outputs))

    return _evaluator
