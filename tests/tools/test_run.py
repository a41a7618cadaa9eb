# SPDX-License-Identifier: Apache-2.0
"""bm run against fake emulators (tests/tools/fake_board.py): exit statuses and maps, a command
that hangs after the end record (stopped, status from the end record), one that hangs mid-run
(124, the running benchmark named, the kit's `*** ` line quoted), one that dies (125), --expect,
--runs, --save/--log, and refused option values."""
import time

import pytest

from conftest import FAKE, PY, bm, no_crash


def run(*args, timeout=60):
    p = bm("run", "--quiet", *args, timeout=timeout)
    no_crash(p)
    return p


def test_pass_and_status():
    p = run("--check", "--", PY, FAKE, "--log", "r14")
    assert p.returncode == 0 and "44 records, all valid, guest status 0" in p.stderr
    assert run("--", PY, FAKE, "--log", "r14", "--status", "0").returncode == 0
    assert run("--", PY, FAKE).returncode == 1                                 # guest status passes through


def test_isa_debug_exit_map():
    assert run("--exit-map", "isa-debug-exit", "--check", "--", PY, FAKE, "--log", "r14", "--isa-exit").returncode == 0
    p = run("--exit-map", "isa-debug-exit", "--", PY, FAKE, "--log", "r14", "--status", "4")
    assert p.returncode == 125 and "without the exit device" in p.stderr


def test_expect_statuses():
    ok = run("--expect", "bad_insn=trap", "--expect", "spin=timeout", "--expect", "wrong_answer=fail",
             "--", PY, FAKE)
    assert ok.returncode == 0, ok.stderr
    bad = run("--expect", "bad_insn=timeout", "--", PY, FAKE)
    assert bad.returncode == 125
    assert "benchmark bad_insn: status trap (illegal instruction in samples), expected timeout" in bad.stderr
    assert "benchmark spin: status timeout" in bad.stderr
    plain = run("--check", "--", PY, FAKE)
    assert plain.returncode == 125 and "expected ok" in plain.stderr
    assert run("--check", "--allow-fail", "--expect-status", "1", "--", PY, FAKE).returncode == 0
    assert run("--expect", "nope=trap", "--", PY, FAKE).returncode == 125
    assert bm("run", "--expect", "x=lunch", "--", "true").returncode == 2
    # either of two statuses (a fault whose first symptom the compiler's layout decides)
    assert run("--expect", "bad_insn=fail|trap", "--expect", "spin=timeout", "--expect", "wrong_answer=fail",
               "--", PY, FAKE).returncode == 0
    assert "expected fail|timeout" in run("--expect", "bad_insn=fail|timeout", "--", PY, FAKE).stderr
    assert bm("run", "--expect", "x=trap|lunch", "--", "true").returncode == 2


def test_stops_at_end_record_when_command_keeps_running():
    t0 = time.monotonic()
    p = run("--check", "--timeout", "30", "--", PY, FAKE, "--log", "r14", "--hang-after-end")
    assert p.returncode == 0, p.stderr
    assert time.monotonic() - t0 < 10


def test_hang_mid_run_keeps_what_arrived():
    p = run("--check", "--timeout", "3", "--", PY, FAKE, "--hang-at", "spin")
    assert p.returncode == 124
    assert "timed out after 3 s without a record" in p.stderr
    assert "benchmark spin (4/5) was running" in p.stderr
    assert "*** HANG: spin stopped here" in p.stderr
    assert "3 of 5 results" in p.stderr


def test_a_long_healthy_suite_runs_to_its_end():
    """The timeout is progress: a run whose records keep coming (one every 0.1 s here) runs to its
    end record however long the whole takes (~5 s against --timeout 2), and exits with the
    guest's status; the run that stops sending records is stopped (above)."""
    t0 = time.monotonic()
    p = run("--check", "--timeout", "2", "--", PY, FAKE, "--log", "r14", "--delay", "0.1")
    assert p.returncode == 0, p.stderr
    assert time.monotonic() - t0 > 3 and "44 records, all valid" in p.stderr


def test_crash_keeps_what_arrived():
    p = run("--check", "--", PY, FAKE, "--die-at", "crc32")
    assert p.returncode == 125
    assert "benchmark crc32 (3/5) was running" in p.stderr and "*** DIE" in p.stderr


def test_silent_end_is_broken_even_unchecked():
    """A guest that exits 0 with its console cut (a benchmark broke the UART; exit() on
    host-linux) has not shown a pass: 125 without --check too, naming where the console stopped."""
    p = run("--", PY, FAKE, "--log", "r14", "--quiet-at", "crc32")
    assert p.returncode == 125, p.stderr
    assert "no end record" in p.stderr and "crc32" in p.stderr and "console stopped" in p.stderr


def test_runs_identical_and_differing(tmp_path):
    assert run("--runs", "2", "--", PY, FAKE, "--log", "r14").returncode == 0
    save = tmp_path / "console.log"
    p = run("--check", "--save", save, "--expect-text", "PASS", "--zero", "empty", "--exact",
            "--require", "known_loop", "--", PY, FAKE, "--log", "r14")
    assert p.returncode == 0, p.stderr
    assert run("--log", save, "--zero", "empty").returncode == 0
    assert run("--log", save, "--zero", "crc32").returncode == 125
    assert run("--log", save, "--require", "nope").returncode == 125
    assert run("--log", save, "--expect-text", "not there").returncode == 125
    assert run("--log", save, "--reject-text", "not there").returncode == 0
    p = run("--log", save, "--reject-text", "PASS")
    assert p.returncode == 125 and "console has the text 'PASS'" in p.stderr
    for opt in ("--expect-text", "--reject-text"):  # "" is on every console: refused, not judged
        p = run("--log", save, opt, "")
        assert p.returncode == 2 and "empty text" in p.stderr


def test_reset_during_run_is_broken():
    p = run("--check", "--", PY, FAKE, "--log", "r14", "--reset")
    assert p.returncode == 125 and "board reset after record 5" in p.stderr


@pytest.mark.parametrize("value", ["nan", "-1", "0", "inf", "soon"])
def test_bad_timeout_refused(value):
    p = bm("run", "--timeout", value, "--", "true")
    assert p.returncode == 2 and "positive number of seconds" in p.stderr


def test_usage_messages(tmp_path):
    log = tmp_path / "x.log"
    log.write_text("hello\n")
    p = bm("run", "--check", log)
    assert p.returncode == 2 and "bm check" in p.stderr
    p = bm("run", "--package", "qemu-system-misc", "--", "qemu-system-nothing")
    assert p.returncode == 2 and "qemu-system-misc" in p.stderr
    assert bm("run").returncode == 2
    assert bm("run", "--runs", "0", "--", "true").returncode == 2
    h = bm("run", "--help")
    assert h.returncode == 0 and "--expect NAME=STATUS" in h.stdout


def _pty_board(args, hold=0.2):
    """A pseudo-terminal in raw mode, as QEMU's -serial pty makes it, fed the fake board's
    console and then closed (QEMU exiting): the path of its reading end."""
    import os
    import subprocess
    import threading
    import tty
    master, slave = os.openpty()
    tty.setraw(slave)
    data = subprocess.run([PY, FAKE, "--out", "/dev/stdout"] + args, stdout=subprocess.PIPE).stdout

    def feed():
        time.sleep(0.5)              # (cat has opened it: the data waits in the pty until read)
        for i in range(0, len(data), 97):
            os.write(master, data[i:i + 97])
        time.sleep(hold)
        os.close(master)
    threading.Thread(target=feed, daemon=True).start()
    path = os.ttyname(slave)
    os.close(slave)
    return path


def test_reader_killed_by_sighup_after_the_end_record():
    """`cat /dev/pts/N` gets SIGHUP when the QEMU behind the pty exits: once the end record has
    arrived the run is judged by its records, with the end record's status (it said status -1,
    a crash, and 125)."""
    p = run("--check", "--timeout", "30", "--", "cat", _pty_board(["--log", "r14"]))
    assert p.returncode == 0, p.stderr
    assert "ended by signal SIGHUP after the end record" in p.stderr and "guest status 0" in p.stderr
    q = run("--timeout", "30", "--", "cat", _pty_board([]))
    assert q.returncode == 1 and "crash" not in q.stderr, q.stderr      # (the end record's status 1)
    # before the end record, a signal is still a crash
    c = run("--check", "--timeout", "30", "--", "cat", _pty_board(["--die-at", "crc32"]))
    assert c.returncode == 125 and "status -1 (SIGHUP) without the exit device" in c.stderr, c.stderr
    assert "benchmark crc32 (3/5) was running" in c.stderr


def test_state_dependent_is_not_a_pass(write):
    """An undeclared state-dependent result (ok?) fails --check, naming what to do; --expect
    NAME=state_dependent accepts it (the run's status is then 1)."""
    import test_check
    _, good = test_check.flagged14()
    log = write("flagged.log", good)
    p = run("--log", log, "--check")
    assert p.returncode == 125, p.stderr
    assert "benchmark crc32: status state_dependent (ok?: " in p.stderr and ".carries_state = 1" in p.stderr
    assert "guest exit status 1, expected 0" in p.stderr
    p = run("--log", log, "--expect", "crc32=state_dependent")
    assert p.returncode == 0, p.stderr
