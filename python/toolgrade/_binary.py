"""Finding the toolgrade binary shipped in the wheel."""

import os
import shutil
import stat
import sys

from .errors import ProcessError


def find_binary() -> str:
    """The path of the toolgrade binary: $TOOLGRADE_BINARY, else the one in
    this package (the wheel's), else ``toolgrade`` on PATH."""
    env = os.environ.get("TOOLGRADE_BINARY")
    if env:
        return env
    name = "toolgrade.exe" if sys.platform == "win32" else "toolgrade"
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", name)
    if os.path.isfile(here):
        if sys.platform != "win32" and not os.access(here, os.X_OK):
            try:
                os.chmod(here, os.stat(here).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
            except OSError:
                pass
        return here
    found = shutil.which("toolgrade")
    if found:
        return found
    raise ProcessError("toolgrade binary not found: install a platform wheel, or set TOOLGRADE_BINARY")
