"""The code blocks of README.md and python/README.md run as written, so
that the docs stay true: sh blocks with the wheel's toolgrade command (and
its venv's python and pip) first on PATH, Python blocks with the venv's
Python, in a scratch directory per file that holds a copy of examples/,
block after block (the walkthrough's files carry over).

A block runs unless the HTML comments right before it, which a reader
of the rendered page does not see, say otherwise:

    <!-- doctest: skip REASON -->       not run (network, an API key, a
                                        recursion); the reason is required
    <!-- doctest: file NAME -->         written to NAME instead of run
    <!-- doctest: pytest -->            a Python block that is a test
                                        file, run with python -m pytest
    <!-- doctest: exit 0 1 -->          each command's exit status, in
                                        order (default: every one 0)
    <!-- doctest: expect TEXT -->       TEXT is in the block's output
                                        (stdout and stderr); repeatable

Each line of an sh block (joined at a trailing backslash; comments and
blank lines aside) is one command. Output is checked only by its key
lines (expect), never whole, so that the wording around them may change.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from typing import Dict, List, NamedTuple

from wheelenv import ROOT, installed

DOCS = ["README.md", "python/README.md"]
RUN_LANGS = {"sh", "bash", "shell", "python", "py"}
DIRECTIVE = re.compile(r"^<!--\s*doctest:\s*(\w+)\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(```+|~~~+)\s*([\w+-]*)")


class Block(NamedTuple):
    file: str
    line: int  # of the opening fence
    lang: str
    code: str
    directives: Dict[str, List[str]]


def blocks(path: str) -> List[Block]:
    """The fenced code blocks of a Markdown file with the doctest
    directives before each. A directive not followed by a block, or
    unknown, is an error: it would otherwise be ignored."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    out: List[Block] = []
    pending: Dict[str, List[str]] = {}
    pending_line = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        m = DIRECTIVE.match(line.strip())
        if m:
            word, arg = m.group(1), m.group(2)
            if word not in ("skip", "file", "pytest", "exit", "expect"):
                raise AssertionError("%s:%d: unknown doctest directive %r" % (path, i + 1, word))
            if word in ("skip", "file", "expect") and not arg:
                raise AssertionError("%s:%d: doctest %s needs an argument" % (path, i + 1, word))
            pending.setdefault(word, []).append(arg)
            pending_line = pending_line or i + 1
            i += 1
            continue
        f = FENCE.match(line)
        if f:
            fence, lang = f.group(1), f.group(2).lower()
            body = []
            start = i + 1
            i += 1
            while i < len(lines) and not lines[i].startswith(fence):
                body.append(lines[i])
                i += 1
            out.append(Block(path, start, lang, "\n".join(body) + "\n", pending))
            pending, pending_line = {}, 0
            i += 1
            continue
        if pending and line.strip():
            raise AssertionError("%s:%d: doctest directives not right before a code block" % (path, pending_line))
        i += 1
    if pending:
        raise AssertionError("%s:%d: doctest directives at the end of the file" % (path, pending_line))
    return out


def commands(code: str) -> List[str]:
    """An sh block's commands: its lines, joined at trailing backslashes,
    less blank lines and comments."""
    cmds: List[str] = []
    cur = ""
    for line in code.split("\n"):
        if cur:
            line = line.lstrip()
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1].rstrip() + " "
            continue
        cur += line
        if cur.strip() and not cur.strip().startswith("#"):
            cmds.append(cur.strip())
        cur = ""
    return cmds


class DocsTest(unittest.TestCase):
    def test_blocks_run_as_written(self) -> None:
        env = installed()
        have_pytest = "not importable" not in env.pytest
        run_env = dict(os.environ, PATH=env.bindir + os.pathsep + os.environ.get("PATH", ""),
                       VIRTUAL_ENV=os.path.dirname(env.bindir))
        for k in ("GITHUB_STEP_SUMMARY", "TOOLGRADE_BINARY", "PYTHONPATH", "PYTHONHOME"):
            run_env.pop(k, None)  # a CI's step summary is not the walkthrough's to write
        ran = 0
        for doc in DOCS:
            scratch = tempfile.mkdtemp(prefix="doc-", dir=env.tmp)
            shutil.copytree(os.path.join(ROOT, "examples"), os.path.join(scratch, "examples"))
            for b in blocks(doc):
                where = "%s:%d" % (b.file, b.line)
                if "file" in b.directives:
                    with open(os.path.join(scratch, b.directives["file"][0]), "w", encoding="utf-8") as f:
                        f.write(b.code)
                    continue
                if b.lang not in RUN_LANGS or "skip" in b.directives:
                    continue
                with self.subTest(block=where):
                    if "pytest" in b.directives and not have_pytest:
                        self.skipTest("pytest is not importable: " + env.pytest)
                    ran += 1
                    self.run_block(b, where, scratch, run_env, env.python)
        self.assertGreaterEqual(ran, 7, "ran only %d blocks: the block finder misses blocks" % ran)

    def run_block(self, b: Block, where: str, cwd: str, run_env: Dict[str, str], python: str) -> None:
        if b.lang in ("python", "py"):
            # Kept out of cwd, where a later pytest block would collect it.
            name = os.path.join(tempfile.mkdtemp(dir=os.path.dirname(cwd)),
                                "test_doc_block.py" if "pytest" in b.directives else "doc_block.py")
            with open(name, "w", encoding="utf-8") as f:
                f.write(b.code)
            argv = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", name] if "pytest" in b.directives \
                else [python, name]
            cmds = [argv]
        else:
            cmds = [["bash", "-c", c] for c in commands(b.code)]
        want_exit = [int(x) for x in " ".join(b.directives.get("exit", [])).split()] or [0] * len(cmds)
        self.assertEqual(len(want_exit), len(cmds), "%s: doctest exit gives %d statuses for %d commands"
                         % (where, len(want_exit), len(cmds)))
        output = ""
        for argv, want in zip(cmds, want_exit):
            p = subprocess.run(argv, cwd=cwd, env=run_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=600)
            out = p.stdout.decode("utf-8", "replace")
            output += out
            self.assertEqual(p.returncode, want, "%s: %s exited %d, want %d:\n%s"
                             % (where, argv[-1], p.returncode, want, out[-4000:]))
        for text in b.directives.get("expect", []):
            self.assertIn(text, output, "%s: the output lacks %r:\n%s" % (where, text, output[-4000:]))


class BlocksTest(unittest.TestCase):
    """The block reader itself: directives attach to the next block, and a
    stray or unknown one is an error."""

    def parse(self, text: str) -> List[Block]:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "doc.md")  # absolute: blocks reads it as it is
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            return blocks(path)

    def test_directives(self) -> None:
        [a, b] = self.parse("x\n<!-- doctest: exit 0 1 -->\n<!-- doctest: expect a b -->\n```sh\nA \\\n  B\n# c\nC\n```\n"
                            "```json\n{}\n```\n")
        self.assertEqual((a.lang, a.directives), ("sh", {"exit": ["0 1"], "expect": ["a b"]}))
        self.assertEqual(commands(a.code), ["A B", "C"])
        self.assertEqual((b.lang, b.directives), ("json", {}))

    def test_bad_directives(self) -> None:
        for text in ("<!-- doctest: skipp x -->\n```sh\nA\n```\n", "<!-- doctest: skip x -->\ntext\n```sh\nA\n```\n",
                     "<!-- doctest: skip -->\n```sh\nA\n```\n", "<!-- doctest: skip x -->\n"):
            with self.subTest(text=text), self.assertRaises(AssertionError):
                self.parse(text)


if __name__ == "__main__":
    unittest.main()
