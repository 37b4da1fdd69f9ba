"""Builds the wheel for this machine, installs it into a fresh venv with
pip --no-index (no network), and runs the tests in installed/ with the
venv's Python, so they exercise the package exactly as a user gets it.

    python3 -m unittest discover -s python/tests -v

TOOLGRADE_WHEEL=path reuses a built wheel. The venv sees the system's site
packages, so Debian's python3-pytest (when installed) runs the plugin's
tests; without pytest they skip.
"""

import glob
import os
import subprocess
import sys
import tempfile
import time
import unittest
import zipfile
import hashlib
import base64

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))


def run(args, **kw):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)
    if p.returncode != 0:
        raise AssertionError("%s failed (%d):\n%s" % (" ".join(args), p.returncode, p.stdout.decode()))
    return p.stdout.decode()


class WheelTest(unittest.TestCase):
    tmp: tempfile.TemporaryDirectory
    wheel: str
    python: str

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory(prefix="toolgrade-py-")
        wheel = os.environ.get("TOOLGRADE_WHEEL")
        if not wheel:
            start = time.time()
            out = run(["go", "run", "./python/build", "--platform", "host", "--out", cls.tmp.name], cwd=ROOT)
            sys.stderr.write("\n" + out.strip() + " [build %.0fs]\n" % (time.time() - start))
            wheel = glob.glob(os.path.join(cls.tmp.name, "*.whl"))[0]
        cls.wheel = wheel
        venv = os.path.join(cls.tmp.name, "venv")
        run([sys.executable, "-m", "venv", "--system-site-packages", venv])
        bindir = "Scripts" if sys.platform == "win32" else "bin"
        cls.python = os.path.join(venv, bindir, "python")
        run([cls.python, "-m", "pip", "install", "--no-index", "--no-deps", "--disable-pip-version-check",
             "-q", wheel])

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_record_hashes(self) -> None:
        with zipfile.ZipFile(self.wheel) as z:
            names = z.namelist()
            record = [n for n in names if n.endswith(".dist-info/RECORD")][0]
            rows = z.read(record).decode().splitlines()
            self.assertEqual(len(rows), len(names))
            for row in rows:
                name, digest, size = row.rsplit(",", 2)
                if name == record:
                    continue
                data = z.read(name)
                want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual(digest, want, name)
                self.assertEqual(int(size), len(data), name)
            wheel_meta = z.read(record.replace("RECORD", "WHEEL")).decode()
            self.assertIn("Root-Is-Purelib: false", wheel_meta)
            self.assertIn("Requires-Python: >=3.9", z.read(record.replace("RECORD", "METADATA")).decode())

    def test_installed(self) -> None:
        env = dict(os.environ, TOOLGRADE_REPO=ROOT)
        env.pop("TOOLGRADE_BINARY", None)
        env.pop("PYTHONPATH", None)
        p = subprocess.run([self.python, "-m", "unittest", "discover", "-s", os.path.join(HERE, "installed"),
                            "-t", os.path.join(HERE, "installed"), "-v"],
                           cwd=self.tmp.name, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = p.stdout.decode()
        sys.stderr.write("\n" + out)
        self.assertEqual(p.returncode, 0, "tests of the installed package failed")

    def test_linux_wheel_size(self) -> None:
        """The issue's bound: the Linux wheel stays under 10 MB."""
        if "linux" not in os.path.basename(self.wheel):
            self.skipTest("not a Linux wheel")
        size = os.path.getsize(self.wheel)
        self.assertLess(size, 10_000_000, "the Linux wheel is %.1f MB; see python/README.md#size" % (size / 1e6))

    def test_console_script(self) -> None:
        script = os.path.join(os.path.dirname(self.python), "toolgrade")
        out = run([script, "version"])
        self.assertIn("toolgrade v", out)


if __name__ == "__main__":
    unittest.main()
