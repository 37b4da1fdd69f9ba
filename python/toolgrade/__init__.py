"""toolgrade: grade how well LLM agents call tools, and reproduce the
scores of DeepEval, Axion, agentevals, openevals, ADK, DeepFabric, BFCL,
Ragas, Mastra, promptfoo and evalite exactly. The grading runs in the bundled toolgrade binary, one long-lived
process spoken to in JSON Lines.

    import toolgrade
    results = toolgrade.evaluate(cases, config=toolgrade.config.DeepEval())
"""

import json
import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union

from . import config
from ._client import Client, default_client
from ._cases import case_to_json
from ._version import __version__
from .config import ConfigLike, to_request_config
from .errors import CaseError, ConfigError, MetricError, ProcessError, ToolgradeError, metric_error
from .results import Call, MetricResult, Record, Result, Trace

__all__ = [
    "evaluate", "iter_evaluate", "evaluate_one", "extract", "read_config", "version", "config", "Client",
    "Result", "MetricResult", "Call", "Trace", "Record", "ToolgradeError", "CaseError",
    "ConfigError", "MetricError", "ProcessError", "__version__",
]

#: Cases sent to the process per request.
BATCH = 1000

#: The process reads a request line of up to 64 MiB (docs/budgets.md); a
#: batch is cut at BATCH_BYTES of JSON, well before it, and a case that
#: cannot fit in a request alone is an error naming it.
BATCH_BYTES = 16 << 20
MAX_REQUEST = 64 << 20


def _raise_request_error(resp: Any) -> None:
    field = resp.get("field")
    msg = resp.get("error", "")
    if field and (field == "config" or field.startswith("config")):
        raise ConfigError(msg, field=field)
    raise ToolgradeError(msg)


def read_config(path: Union[str, "os.PathLike[str]"], *, datasets: bool = True,
                client: Optional[Client] = None) -> Dict[str, Any]:
    """Read a config file (the YAML or JSON that ``toolgrade init`` writes
    and ``toolgrade eval --config`` reads; docs/config.md) through the
    binary, so that no YAML reader is needed. The dict has a key for each
    section the file holds: ``metrics`` and ``judge`` as ``evaluate``'s
    config takes them, ``datasets`` the case files they name (absolute,
    globs expanded), and ``workers``, ``reports`` and ``tools`` as written.
    With datasets=False the datasets are not read (nor required to name
    files), for cases given otherwise. Raises ConfigError naming the file
    and field."""
    req: Dict[str, Any] = {"op": "config", "path": os.path.abspath(os.fspath(path))}
    if not datasets:
        req["datasets"] = False
    resp = (client or default_client()).request(req)
    if "error" in resp:
        raise ConfigError(resp["error"], field=resp.get("field"))
    return dict(resp["result"])


def _config_from_file(cfg: Dict[str, Any], path: Union[str, "os.PathLike[str]"]) -> Dict[str, Any]:
    """The config evaluate takes from what read_config gave for the file at
    path: its metrics (the default metric when it names none) and judge. A
    tools section changes grades and the serve process does not load it,
    so it raises ConfigError rather than being left out; workers and
    reports are toolgrade eval's and are left out."""
    if "tools" in cfg:
        raise ConfigError("%s: tools: a config's tools are read by toolgrade eval only; give each case its "
                          "available_tools" % os.fspath(path), field="tools")
    out: Dict[str, Any] = {"metrics": cfg.get("metrics") or [{}]}
    if "judge" in cfg:
        out["judge"] = cfg["judge"]
    return out


def iter_evaluate(cases: Iterable[Any], config: ConfigLike = None, *, errors: str = "raise",
                  client: Optional[Client] = None, batch: int = BATCH) -> Iterator[Result]:
    """Grade cases lazily, a batch at a time, yielding one Result per case in
    order. Cases are dicts in toolgrade's case format (docs/cases.md) or
    test case objects (DeepEval's LLMTestCase...). ``config`` is a
    toolgrade.config object, a metric entry dict, a list of them, or the
    path of a config file (its metrics and judge; see read_config) (None:
    the native default metric).

    errors="raise" (default) raises CaseError, naming the case and field,
    for a case that cannot be read; errors="result" returns it as a Result
    with ``error`` set. A metric that cannot score a case (as its peer
    raises) is never an exception here: its MetricResult has ``error``."""
    if errors not in ("raise", "result"):
        raise ValueError("errors must be 'raise' or 'result'")
    c = client or default_client()
    if isinstance(config, (str, os.PathLike)):
        config = _config_from_file(read_config(config, client=c), config)
    req_config = to_request_config(config)
    config_text = "" if req_config is None else json.dumps(req_config, ensure_ascii=False, allow_nan=False)
    chunk: List[str] = []
    chunk_bytes = 0
    offset = 0

    def flush() -> List[Result]:
        # The cases are encoded once, as they come, to measure them; the
        # request is put together from their text.
        text = '{"op":"evaluate","offset":%d,"cases":[%s]' % (offset, ",".join(chunk))
        if config_text:
            text += ',"config":' + config_text
        resp = c.request_text(text + "}")
        if "error" in resp:
            _raise_request_error(resp)
        out = [Result.from_json(r) for r in resp["results"]]
        if errors == "raise":
            for i, r in enumerate(out):
                if r.error:
                    field = None
                    if "field " in r.error:
                        field = r.error.split("field ", 1)[1].split(":", 1)[0]
                    raise CaseError(r.error, case_id=r.id, index=offset + i, field=field)
        return out

    def refuse(cj: Any, why: str) -> Iterator[Result]:
        # A case that cannot go to the process: the cases before it are
        # sent first, and under errors="result" the rest go on.
        nonlocal chunk, chunk_bytes, offset
        if chunk:
            yield from flush()
            offset += len(chunk)
            chunk, chunk_bytes = [], 0
        case_id = cj.get("id") if isinstance(cj, dict) else None
        msg = "cases[%d]%s: %s" % (offset, " (id %s)" % json.dumps(case_id, default=str) if case_id is not None else "", why)
        if errors == "raise":
            raise CaseError(msg, case_id=None if case_id is None else str(case_id), index=offset)
        yield Result.from_json({"id": "" if case_id is None else str(case_id), "success": False, "metrics": [], "error": msg})
        offset += 1

    for case in cases:
        try:
            cj = case_to_json(case)
            text = json.dumps(cj, ensure_ascii=False, allow_nan=False)
        except (ValueError, TypeError, RecursionError) as e:
            # NaN or infinity, a value JSON has no form for, a cycle.
            yield from refuse(case if isinstance(case, dict) else None, "not JSON: %s" % e)
            continue
        size = len(text.encode("utf-8"))
        if size > MAX_REQUEST - len(config_text) - 256:
            # Alone in a request it would still be refused as a whole line.
            yield from refuse(cj, "%.1f MiB of JSON, more than the 64 MiB a request to the toolgrade process may hold: "
                              "split the case" % (size / (1 << 20)))
            continue
        if chunk and (len(chunk) >= batch or chunk_bytes + size > BATCH_BYTES):
            yield from flush()
            offset += len(chunk)
            chunk, chunk_bytes = [], 0
        chunk.append(text)
        chunk_bytes += size
    if chunk:
        yield from flush()


def evaluate(cases: Iterable[Any], config: ConfigLike = None, *, errors: str = "raise",
             client: Optional[Client] = None) -> List[Result]:
    """Grade cases; one Result per case, in order. See iter_evaluate."""
    return list(iter_evaluate(cases, config, errors=errors, client=client))


def evaluate_one(case: Any, config: ConfigLike = None, *, client: Optional[Client] = None) -> Result:
    """Grade one case; raises CaseError when it cannot be read."""
    return evaluate([case], config, client=client)[0]


def extract(trace: Any, format: Optional[str] = None, *, client: Optional[Client] = None) -> Trace:
    """The tool calls in a trace: a decoded trace (a list of messages, a
    dict...) or its text (JSON, JSON Lines, an SSE body, a transcript).
    ``format`` forces a format (see docs/traces.md); by default it is
    detected. Raises ToolgradeError when the trace cannot be read."""
    from ._cases import to_json
    req = {"op": "extract", "trace": trace if isinstance(trace, str) else to_json(trace)}
    if format:
        req["format"] = format
    resp = (client or default_client()).request(req)
    if "error" in resp:
        raise ToolgradeError(resp["error"])
    r = resp["result"]
    records = [Record(id=x.get("id"), calls=[Call.from_json(c) for c in x.get("calls") or []])
               for x in r.get("records") or []]
    calls = [c for rec in records for c in rec.calls] if records else [Call.from_json(x) for x in r.get("calls") or []]
    return Trace(format=r.get("format", ""), calls=calls, skipped=resp.get("skipped") or [], records=records)


def version(*, client: Optional[Client] = None) -> str:
    """The version of the toolgrade binary."""
    return str((client or default_client()).request({"op": "version"})["result"]["version"])


def _score_one(case: Any, entry: Any) -> MetricResult:
    """Grade one case with one metric entry for the drop-in classes: config
    errors raise ConfigError, unreadable cases CaseError, and a metric error
    the peer's exception (see errors.metric_error)."""
    r = evaluate_one(case, entry if isinstance(entry, dict) and "metrics" in entry else [entry])
    m = r.metrics[0]
    if m.error:
        raise metric_error(m.error, r.id)
    return m
