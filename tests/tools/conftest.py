# SPDX-License-Identifier: Apache-2.0
"""Shared helpers for the tools tests: import paths for bmlib and the corpus writer, and a
way to run tools/bm as a user would (Debian's python3, a subprocess, exit status and output)."""
import os
import subprocess
import sys

import pytest

# Nothing may be written into the source tree, not even bytecode (here and in tools/bm runs).
sys.dont_write_bytecode = True
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BM = os.path.join(ROOT, "tools", "bm")
FAKE = os.path.join(HERE, "fake_board.py")
PY = "/usr/bin/python3"
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, HERE)


def bm(*args, timeout=120, **kw):
    """Run tools/bm; returns CompletedProcess with text stdout/stderr."""
    return subprocess.run([PY, BM] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=timeout, **kw)


def no_crash(p):
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr, p.stderr


@pytest.fixture
def write(tmp_path):
    """write(name, lines or bytes) -> path of a file in tmp_path."""
    def _w(name, content):
        import corpus
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else corpus.text(content))
        return str(path)
    return _w
