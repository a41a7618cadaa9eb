# SPDX-License-Identifier: Apache-2.0
"""A real board through a real pseudo-terminal: QEMU (BM_QEMU_CMD: its command line without
-serial/-nographic/-monitor, shell-quoted) starts paused with `-serial pty`; bm capture opens
the pty and unpauses it with --start (QMP), so nothing is lost; the records must be clean and
the run must pass. Skipped only when BM_QEMU_CMD is not set. BM_QEMU_TIMEOUT_S: seconds (300)."""
import os
import re
import shlex
import subprocess
import threading

import pytest

from conftest import HERE, PY, bm, no_crash

CMD = os.environ.get("BM_QEMU_CMD")
pytestmark = pytest.mark.skipif(not CMD, reason="BM_QEMU_CMD is not set")


def _pty_of(proc, found, done):
    for line in iter(proc.stdout.readline, b""):
        m = re.search(rb"char device redirected to (/dev/pts/\d+)", line)
        if m:
            found.append(m.group(1).decode())
            done.set()
    done.set()


def test_capture_qemu_through_pty(tmp_path):
    sock = tmp_path / "qmp.sock"
    cmd = shlex.split(CMD) + ["-serial", "pty", "-display", "none", "-monitor", "none", "-S",
                              "-qmp", f"unix:{sock},server=on,wait=off"]
    q = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        found, done = [], threading.Event()
        threading.Thread(target=_pty_of, args=(q, found, done), daemon=True).start()
        assert done.wait(30) and found, f"QEMU did not report its pty ({shlex.join(cmd)})"
        out, raw = tmp_path / "records.jsonl", tmp_path / "raw.log"
        timeout = os.environ.get("BM_QEMU_TIMEOUT_S", "300")
        p = bm("capture", "--quiet", "--port", found[0], "-o", out, "--raw", raw, "--timeout", timeout,
               "--start", f"{PY} {os.path.join(HERE, 'qmp_cont.py')} {sock}", timeout=float(timeout) + 60)
        no_crash(p)
        assert p.returncode == 0, p.stderr
        c = bm("check", out)
        assert c.returncode == 0, c.stdout
        assert b'"exit_status":0' in out.read_bytes().splitlines()[-1]
        assert b"PASS" in raw.read_bytes()
        q.wait(timeout=60)               # the guest exits after its end record; the pty closes
    finally:
        if q.poll() is None:
            q.kill()
            q.wait()
