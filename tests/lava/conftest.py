# SPDX-License-Identifier: Apache-2.0
"""Shared helpers for the LAVA tests: run tools/bm as a user would, read a LAVA job log on its own
(PyYAML, not bmlib, so the tests check bm's reader instead of repeating it), and the kit's
records of a console with their CRCs checked."""
import json
import os
import re
import subprocess
import sys
import zlib

import pytest

sys.dont_write_bytecode = True
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BM = os.path.join(ROOT, "tools", "bm")
PY = "/usr/bin/python3"
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))   # corpus.py: format-2 consoles


def bm(*args, timeout=300, **kw):
    """Run tools/bm; returns CompletedProcess with text stdout/stderr."""
    return subprocess.run([PY, BM] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=timeout, **kw)


def no_crash(p):
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr, p.stderr


def env_path(name):
    """A file ctest names in the environment; its absence is a failure, never a skip."""
    v = os.environ.get(name)
    if not v:
        pytest.fail(f"{name} is not set (ctest sets it: tests/lava/CMakeLists.txt)")
    if not os.path.exists(v):
        pytest.fail(f"{name}={v} does not exist (build the board's images first)")
    return v


def require_lava():
    """LAVA's libraries: tools/setup --lava installs them; missing is a failure."""
    try:
        import lava_common.schemas  # noqa: F401
        import lava_dispatcher  # noqa: F401
    except ImportError as e:
        pytest.fail(f"LAVA is not installed ({e}): run tools/setup --lava")


def read_lava_log(path):
    """(console lines, baremark cases, lava job result) of a LAVA job log, read line by line with
    PyYAML: target and feedback lines with LAVA's quote escaping undone."""
    import yaml
    console, cases, job = [], [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("- "):
                line = line[2:]
            if not line:
                continue
            d = yaml.load(line, Loader=yaml.CSafeLoader)
            if d["lvl"] in ("target", "feedback"):
                console.append(d["msg"].replace('\\"', '"'))
            elif d["lvl"] == "results":
                m = d["msg"]
                if m["definition"] == "baremark":
                    cases.append(m)
                elif m["definition"] == "lava" and m["case"] == "job":
                    job = m["result"]
    return console, cases, job


def crc_ok(line):
    i = line.rfind('"crc":"')
    return i > 0 and line.endswith('"}') and "%08x" % (zlib.crc32(line[:i].encode()) & 0xFFFFFFFF) == line[i + 7:i + 15]


def result_records(lines):
    """(name, status, p50 text or None, unit or None) of every CRC-valid result record."""
    out = []
    for line in lines:
        line = line.rstrip("\r")
        if line.startswith('{"type":"result"') and crc_ok(line):
            d = json.loads(line)
            p50 = re.search(r',"p50":([0-9]+\.[0-9]{3}),', line)
            out.append((d["name"], d["status"], p50.group(1) if p50 else None, d.get("unit")))
    return out


def check_cases(records, cases):
    """Every result record is a LAVA case, in order: same name, pass for ok and fail otherwise,
    measurement the p50 text exactly, units the unit (empty for a failed one)."""
    assert len(cases) == len(records), (len(cases), len(records), [c["case"] for c in cases])
    for (name, status, p50, unit), c in zip(records, cases):
        assert c["extra"]["test_case_id"] == name
        assert c["result"] == ("pass" if status == "ok" else "fail"), (name, status, c)
        if status == "ok":
            assert c["measurement"] == p50 and c["units"] == unit, (name, p50, unit, c)
        else:
            assert c["measurement"] is None and c["units"] == "", (name, c)
