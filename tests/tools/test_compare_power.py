# SPDX-License-Identifier: Apache-2.0
"""tools/bench/compare-power's plumbing on a fake host-linux (fake_hostlinux.py): it runs both
sides interleaved, compares each pair and counts. The real measurement needs real builds."""
import os
import subprocess

from conftest import HERE, PY, ROOT

SCRIPT = os.path.join(ROOT, "tools", "bench", "compare-power")


def side(tmp_path, name, shift):
    p = tmp_path / name
    p.write_text(f"#!/bin/sh\nexec {PY} {os.path.join(HERE, 'fake_hostlinux.py')} --shift {shift} \"$@\"\n")
    p.chmod(0o755)
    return str(p)


def power(*args):
    return subprocess.run([PY, SCRIPT, *args], capture_output=True, text=True, timeout=300)


def test_same_and_slower(tmp_path):
    a, b = side(tmp_path, "a", 1.0), side(tmp_path, "b", 1.10)
    same = power(a, a, "--pairs", "3", "--runs", "5", "--samples", "100", "--expect", "same")
    # Random runs: a false positive is possible (that is what the script measures), so only
    # the plumbing is asserted here.
    assert same.returncode in (0, 1), same.stdout + same.stderr
    assert "3 pairs of 5 runs per side" in same.stdout and "target (false positives <= 1 in 20)" in same.stdout
    assert "crc32" in same.stdout and "memcpy_4k" in same.stdout
    slow = power(a, b, "--pairs", "3", "--runs", "5", "--samples", "100", "--filter", "crc", "--expect", "slower")
    assert slow.returncode == 0, slow.stdout + slow.stderr
    assert "crc32" in slow.stdout and "memcpy_4k" not in slow.stdout
    assert "3 of 3" in slow.stdout


def test_refuses_missing_executable(tmp_path):
    p = power(str(tmp_path / "nope"), str(tmp_path / "nope"))
    assert p.returncode != 0 and "not an executable" in p.stderr
