"""The wheel for this machine, built once per test run and installed into
a fresh venv with pip --no-index (no network), shared by the test modules.

TOOLGRADE_WHEEL=path reuses a built wheel. The venv sees the system's site
packages; when its Python cannot import pytest but the running Python or
Debian's /usr/bin/python3 (python3-pytest) can, that pytest is added to the
venv (a .pth file naming its directory), so that the pytest plugin's tests
run wherever pytest is importable, whichever python3 runs the tests.
"""

import atexit
import glob
import os
import subprocess
import sys
import tempfile
import time
from typing import NamedTuple, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))


def run(args, **kw) -> str:
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)
    if p.returncode != 0:
        raise AssertionError("%s failed (%d):\n%s" % (" ".join(args), p.returncode, p.stdout.decode()))
    return p.stdout.decode()


class Installed(NamedTuple):
    tmp: str  # a scratch directory, removed at exit
    wheel: str
    python: str  # the venv's
    bindir: str  # the venv's scripts: python, pip, toolgrade
    pytest: str  # where the venv's pytest comes from, or why there is none


_installed: Optional[Installed] = None


def installed() -> Installed:
    global _installed
    if _installed is not None:
        return _installed
    tmp = tempfile.TemporaryDirectory(prefix="toolgrade-py-")
    atexit.register(tmp.cleanup)
    wheel = os.environ.get("TOOLGRADE_WHEEL")
    if not wheel:
        start = time.time()
        out = run(["go", "run", "./python/build", "--platform", "host", "--out", tmp.name], cwd=ROOT)
        sys.stderr.write("\n" + out.strip() + " [build %.0fs]\n" % (time.time() - start))
        wheel = glob.glob(os.path.join(tmp.name, "*.whl"))[0]
    venv = os.path.join(tmp.name, "venv")
    run([sys.executable, "-m", "venv", "--system-site-packages", venv])
    bindir = os.path.join(venv, "Scripts" if sys.platform == "win32" else "bin")
    python = os.path.join(bindir, "python")
    run([python, "-m", "pip", "install", "--no-index", "--no-deps", "--disable-pip-version-check", "-q", wheel])
    note = _provide_pytest(python)
    sys.stderr.write("tests run with %s; %s\n" % (sys.executable, note))
    _installed = Installed(tmp.name, wheel, python, bindir, note)
    return _installed


def _pytest_dir(python: str) -> Optional[str]:
    """The directory python imports pytest from, or None."""
    try:
        p = subprocess.run([python, "-c", "import os, pytest; print(os.path.dirname(os.path.dirname(pytest.__file__)))"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        return None
    return p.stdout.decode().strip() if p.returncode == 0 else None


def _provide_pytest(python: str) -> str:
    if _pytest_dir(python):
        return "pytest: the venv's own (system site packages)"
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).strip()
    pth = os.path.join(purelib, "_toolgrade_tests_pytest.pth")
    for candidate in (sys.executable, "/usr/bin/python3"):
        found = _pytest_dir(candidate) if os.path.exists(candidate) else None
        if not found:
            continue
        with open(pth, "w") as f:
            f.write(found + "\n")
        if _pytest_dir(python):
            return "pytest: %s's, from %s" % (candidate, found)
        os.remove(pth)
    return "pytest: not importable (Debian: python3-pytest); the pytest plugin's tests skip"
