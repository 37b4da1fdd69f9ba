"""``toolgrade`` on the command line: runs the bundled binary."""

import os
import subprocess
import sys

from ._binary import find_binary


def main() -> None:
    binary = find_binary()
    args = [binary] + sys.argv[1:]
    if sys.platform == "win32":
        sys.exit(subprocess.call(args))
    os.execv(binary, args)


if __name__ == "__main__":
    main()
