"""The long-lived ``toolgrade serve`` process, spoken to in JSON Lines."""

import atexit
import json
import os
import subprocess
import threading
from typing import Any, Dict, List, Optional

from ._binary import find_binary
from .errors import ProcessError


class Client:
    """One ``toolgrade serve`` process. Requests are answered in order, one
    at a time (the process grades the cases of a request in parallel). A
    process that dies is started again on the next request. Thread-safe.

    A request's judge may use only the endpoints and the key variables the
    process is started with: ``judge_base_urls`` and ``judge_key_envs``,
    else $TOOLGRADE_JUDGE_BASE_URL and $TOOLGRADE_JUDGE_KEY_ENV when set
    (read at each request: the process is started again when they change),
    else OpenAI's API and $OPENAI_API_KEY. A config passed to a request is
    data and cannot widen them."""

    def __init__(self, binary: Optional[str] = None, workers: int = 0,
                 judge_base_urls: Optional[List[str]] = None,
                 judge_key_envs: Optional[List[str]] = None) -> None:
        self._binary = binary
        self._workers = workers
        self._judge_base_urls = judge_base_urls
        self._judge_key_envs = judge_key_envs
        self._proc: Optional["subprocess.Popen[bytes]"] = None
        self._args: List[str] = []
        self._lock = threading.Lock()
        self.restarts = 0

    def _command(self) -> List[str]:
        args = [self._binary or find_binary(), "serve"]
        if self._workers:
            args += ["--workers", str(self._workers)]
        bases = self._judge_base_urls
        if bases is None:
            bases = [os.environ["TOOLGRADE_JUDGE_BASE_URL"]] if os.environ.get("TOOLGRADE_JUDGE_BASE_URL") else []
        for b in bases:
            args += ["--judge-base-url", b]
        keys = self._judge_key_envs
        if keys is None:
            keys = [os.environ["TOOLGRADE_JUDGE_KEY_ENV"]] if os.environ.get("TOOLGRADE_JUDGE_KEY_ENV") else []
        for k in keys:
            args += ["--judge-key-env", k]
        return args

    def _start(self, args: List[str]) -> "subprocess.Popen[bytes]":
        try:
            proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE)
        except OSError as e:
            raise ProcessError("cannot start %s: %s" % (args[0], e)) from e
        return proc

    def request(self, req: Dict[str, Any]) -> Dict[str, Any]:
        """Send one request and return its response. If the process is dead
        it is restarted first; if it dies while answering, ProcessError."""
        return self.request_text(json.dumps(req, ensure_ascii=False, allow_nan=False))

    def request_text(self, text: str) -> Dict[str, Any]:
        """request, with the request already encoded as one line of JSON."""
        line = (text + "\n").encode("utf-8")
        with self._lock:
            proc = self._proc
            args = self._command()
            if proc is not None and proc.poll() is None and args != self._args:
                _reap(proc)  # the judge's allowances changed
                proc = self._proc = None
            if proc is None or proc.poll() is not None:
                if proc is not None:
                    self.restarts += 1
                    _reap(proc)
                proc = self._proc = self._start(args)
                self._args = args
            assert proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write(line)
                proc.stdin.flush()
                out = proc.stdout.readline()
            except (OSError, ValueError) as e:
                out = b""
                cause: Optional[BaseException] = e
            else:
                cause = None
            if not out:
                self._proc = None
                detail = _reap(proc)
                raise ProcessError("the toolgrade process died while serving a request"
                                   + (": " + detail if detail else "")) from cause
        return json.loads(out.decode("utf-8"))

    def close(self) -> None:
        """End the process (it is started again if used)."""
        with self._lock:
            if self._proc is not None:
                _reap(self._proc)
                self._proc = None

    @property
    def pid(self) -> Optional[int]:
        """The process id of the running process, if any."""
        return self._proc.pid if self._proc is not None else None


def _reap(proc: "subprocess.Popen[bytes]") -> str:
    """Close a process's pipes, wait for it, and return the end of its
    stderr."""
    err = b""
    try:
        if proc.stdin:
            proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stderr:
        try:
            err = proc.stderr.read()[-2000:]
        except (OSError, ValueError):
            pass
        proc.stderr.close()
    if proc.stdout:
        proc.stdout.close()
    return err.decode("utf-8", "replace").strip()


_default: Optional[Client] = None
_default_lock = threading.Lock()


def default_client() -> Client:
    """The process shared by the module-level functions."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Client()
            atexit.register(_default.close)
        return _default


def batches(items: List[Any], size: int) -> List[List[Any]]:
    return [items[i:i + size] for i in range(0, len(items), size)]
