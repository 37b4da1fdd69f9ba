"""Exceptions raised by toolgrade."""

from typing import Dict, Optional, Type


class ToolgradeError(Exception):
    """Base class of every toolgrade error."""


class ConfigError(ToolgradeError, ValueError):
    """A metric config was rejected; ``field`` names the option at fault."""

    def __init__(self, message: str, field: Optional[str] = None) -> None:
        super().__init__(message)
        self.field = field


class CaseError(ToolgradeError, ValueError):
    """A case could not be read. ``case_id``, ``index`` (its position in the
    input) and ``field`` (e.g. ``expected_tools[1].name``) say where."""

    def __init__(self, message: str, case_id: Optional[str] = None, index: Optional[int] = None,
                 field: Optional[str] = None) -> None:
        super().__init__(message)
        self.case_id = case_id
        self.index = index
        self.field = field


class MetricError(ToolgradeError):
    """A metric could not score a case, as the peer it reproduces raises.
    Where the peer raises a Python built-in (``AttributeError``,
    ``TypeError``...), the exception is an instance of that type too."""

    def __init__(self, message: str, case_id: Optional[str] = None) -> None:
        super().__init__(message)
        self.case_id = case_id


class ProcessError(ToolgradeError, RuntimeError):
    """The toolgrade process could not be started, or died while serving a
    request (it is restarted for the next one)."""


_BUILTINS = ("AttributeError", "TypeError", "ZeroDivisionError", "ValueError", "KeyError",
             "AssertionError", "SyntaxError", "IndexError", "RecursionError")
_peer_classes: Dict[str, Type[MetricError]] = {}


def metric_error(message: str, case_id: Optional[str] = None) -> MetricError:
    """The exception for a metric's error message: an instance of the peer's
    built-in exception type when the message names one."""
    name = ""
    for token in message.replace(":", " ").split():
        if token in _BUILTINS or token.endswith("Error"):
            name = token
            break
    if name not in _peer_classes:
        base = getattr(__import__("builtins"), name, None) if name in _BUILTINS else None
        if isinstance(base, type) and issubclass(base, Exception):
            _peer_classes[name] = type(name, (MetricError, base), {})
        else:
            _peer_classes[name] = type(name or "MetricError", (MetricError,), {})
    cls = _peer_classes[name]
    err = cls.__new__(cls)
    MetricError.__init__(err, message, case_id)
    return err
