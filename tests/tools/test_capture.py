# SPDX-License-Identifier: Apache-2.0
"""bm capture against a fake board: a command printing slowly with a reset, CR LF and ANSI
noise; a real pseudo-terminal (os.openpty) fed by a writer thread, started through --start;
a far end that goes away mid-run; and a timeout."""
import os
import subprocess
import threading
import time

from conftest import FAKE, PY, bm, no_crash


def test_capture_command_with_reset_crlf_ansi(tmp_path):
    out, raw = tmp_path / "rec.jsonl", tmp_path / "raw.log"
    p = bm("capture", "--quiet", "-o", out, "--raw", raw, "--",
           PY, FAKE, "--log", "r14", "--delay", "0.002", "--reset", "--crlf", "--ansi", "--hang-after-end")
    no_crash(p)
    assert p.returncode == 0, p.stderr
    assert "board reset after record 5" in p.stderr and "boot 2: complete, 44 records" in p.stderr
    assert bm("check", out).returncode == 0
    assert out.read_bytes().count(b"\n") == 44 and b"\x1b" not in out.read_bytes()
    assert b"\r\n" in raw.read_bytes() and b"PASS" in raw.read_bytes()


def test_capture_to_stdout_echo_to_stderr():
    p = bm("capture", "--", PY, FAKE)
    assert p.returncode == 0
    assert p.stdout.count("\n") == 14 and all(l.startswith("{") for l in p.stdout.splitlines())
    assert "*** TRAP" in p.stderr


def _pty_writer(master, flag, args, close_after=3.0):
    while not os.path.exists(flag):
        time.sleep(0.01)
    data = subprocess.run([PY, FAKE, "--out", "/dev/stdout"] + args, stdout=subprocess.PIPE).stdout
    for i in range(0, len(data), 97):          # in small pieces, as a UART delivers it
        os.write(master, data[i:i + 97])
        time.sleep(0.0005)
    time.sleep(close_after)
    os.close(master)


def test_capture_port_on_a_real_pty(tmp_path):
    master, slave = os.openpty()
    flag = tmp_path / "reader-ready"
    t = threading.Thread(target=_pty_writer, args=(master, str(flag), ["--log", "r14", "--crlf", "--ansi", "--reset"]),
                         daemon=True)
    t.start()
    out = tmp_path / "rec.jsonl"
    p = bm("capture", "--quiet", "--port", os.ttyname(slave), "-o", out, "--start", f"touch {flag}",
           "--timeout", "60")
    os.close(slave)
    no_crash(p)
    assert p.returncode == 0, p.stderr
    assert bm("check", out).returncode == 0


def test_capture_pty_closes_mid_run(tmp_path):
    master, slave = os.openpty()
    path = os.ttyname(slave)
    flag = tmp_path / "ready"

    def feed():
        while not os.path.exists(flag):
            time.sleep(0.01)
        data = subprocess.run([PY, FAKE, "--out", "/dev/stdout"], stdout=subprocess.PIPE).stdout
        os.write(master, data[:len(data) // 2])
        time.sleep(0.5)
        os.close(master)
    t = threading.Thread(target=feed, daemon=True)
    t.start()
    os.close(slave)
    out = tmp_path / "partial.jsonl"
    p = bm("capture", "--quiet", "--port", path, "-o", out, "--start", f"touch {flag}", "--timeout", "30")
    no_crash(p)
    assert p.returncode == 1, p.stderr
    assert "INCOMPLETE" in p.stderr and "console closed" in p.stderr
    assert out.read_bytes().startswith(b'{"type":"meta"')


def test_capture_timeout_and_usage(tmp_path):
    p = bm("capture", "--quiet", "--timeout", "2", "--", PY, FAKE, "--hang-at", "spin")
    assert p.returncode == 124 and "timed out" in p.stderr
    assert bm("capture").returncode == 2
    assert bm("capture", "--port", "/dev/ttyS0", "--", "true").returncode == 2
    q = bm("capture", "--port", str(tmp_path / "nope"))
    assert q.returncode == 2 and "cannot open" in q.stderr
    assert bm("capture", "--port", "x", "--baud", "fast").returncode == 2


def test_capture_checks_its_outputs_before_reading(tmp_path):
    """An output that cannot be written is refused before the board's console is read (it is
    gone once it has passed), and an existing file is not touched by the refusal."""
    started = tmp_path / "started"
    keep = tmp_path / "keep.jsonl"
    keep.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(keep)          # -o through a symlink to --raw: still one file
    for args in (["--raw", str(tmp_path / "no" / "raw.log")], ["-o", str(tmp_path / "no" / "r.jsonl")],
                 ["-o", str(tmp_path)], ["-o", str(keep), "--raw", str(keep)], ["-o", str(link), "--raw", str(keep)]):
        p = bm("capture", "--quiet", *args, "--", "sh", "-c", f"touch {started}; cat /dev/null")
        no_crash(p)
        assert p.returncode == 2 and not started.exists(), (args, p.stderr)
    assert keep.read_text() == "old\n"
    # The one failure left (full disk): the records go to stdout, exit 2.
    p = bm("capture", "--quiet", "-o", "/dev/full", "--", PY, FAKE)
    assert p.returncode == 2 and "cannot write /dev/full" in p.stderr
    assert p.stdout.count("\n") == 14 and "saved to stdout" in p.stderr


def test_capture_stopped_keeps_what_arrived(tmp_path):
    """Ctrl-C and SIGTERM (a CI job's timeout) stop the read like --timeout: the console so far
    goes to --raw, the cut boot to -o (which check refuses), exit 130."""
    import signal
    for sig in (signal.SIGINT, signal.SIGTERM):
        out, raw = tmp_path / f"r{sig}.jsonl", tmp_path / f"r{sig}.raw"
        p = subprocess.Popen([PY, os.path.join(os.path.dirname(FAKE), "..", "..", "tools", "bm"), "capture",
                              "--quiet", "-o", str(out), "--raw", str(raw), "--", PY, FAKE, "--hang-at", "spin"],
                             stderr=subprocess.PIPE, text=True)
        for _ in range(200):
            time.sleep(0.05)
            if b"*** HANG" in (raw.read_bytes() if raw.exists() else b"") or _ > 40:
                break
        p.send_signal(sig)
        err = p.communicate(timeout=30)[1]
        assert p.returncode == 130 and "interrupted before the end record" in err, (sig, err)
        assert b"*** HANG: spin" in raw.read_bytes() and out.read_bytes().startswith(b'{"type":"meta"')
        c = bm("check", out)
        assert c.returncode == 1 and "no end record" in c.stdout


def test_capture_start_failed_and_no_boot(tmp_path):
    """A --start command that fails before any boot ends the wait at once (not at the timeout),
    naming it; an -o left from an earlier run is emptied when no boot arrived, never kept."""
    out = tmp_path / "rec.jsonl"
    assert bm("capture", "--quiet", "-o", out, "--", PY, FAKE, "--log", "r14").returncode == 0
    assert bm("check", out).returncode == 0
    t0 = time.monotonic()
    p = bm("capture", "--quiet", "-o", out, "--start", "exit 3", "--timeout", "60", "--", "sleep", "60")
    assert p.returncode == 2 and "--start command exited with status 3" in p.stderr, p.stderr
    assert time.monotonic() - t0 < 30 and out.read_bytes() == b""
    q = bm("capture", "--quiet", "-o", out, "--timeout", "1", "--", "sleep", "5")
    assert q.returncode == 124 and out.read_bytes() == b""


def test_capture_end_record_without_newline(tmp_path):
    """A board that halts right after its end record's last byte (no newline) ends the read."""
    data = subprocess.run([PY, FAKE, "--log", "r14", "--out", "/dev/stdout"], stdout=subprocess.PIPE).stdout
    cut = data[:data.index(b"}", data.index(b'"crc"', data.index(b'{"type":"end"'))) + 1]
    src = tmp_path / "console"
    src.write_bytes(cut)
    t0 = time.monotonic()
    p = bm("capture", "--quiet", "--timeout", "60", "--", "sh", "-c", f"cat {src}; sleep 60")
    assert p.returncode == 0 and "complete" in p.stderr and time.monotonic() - t0 < 30, p.stderr


def _boot(log="r14"):
    return subprocess.run([PY, FAKE, "--log", log, "--out", "/dev/stdout"], stdout=subprocess.PIPE).stdout


def _noisy_result(data):
    """data with one byte of one result line changed (line noise: its CRC no longer matches)."""
    i = data.index(b'{"type":"result"', data.index(b'{"type":"result"') + 1)
    j = data.index(b'"p50":', i) + 6
    return data[:j] + (b"7" if data[j:j + 1] != b"7" else b"8") + data[j + 1:]


def test_capture_keeps_the_newest_complete_boot(tmp_path):
    """A clean boot, then a newer complete boot with one byte of noise in a result line: the
    newer one is kept (-o), the older one is named as dropped, and the damage makes exit 1."""
    first, second = _boot("fail"), _noisy_result(_boot("r14"))
    src = tmp_path / "console"
    src.write_bytes(first + second)
    out = tmp_path / "rec.jsonl"
    p = bm("capture", "--quiet", "-o", out, "--", "cat", src)
    no_crash(p)
    assert p.returncode == 1, p.stderr
    assert "dropped boot 1 (lines 5-32, complete): boot 2 is newer and complete" in p.stderr, p.stderr
    assert "the newest complete boot, boot 2 (lines" in p.stderr and "is damaged: 1 problem" in p.stderr
    assert "CRC mismatch" in p.stderr
    kept = out.read_bytes()
    assert kept.startswith(b'{"type":"meta"') and b'"name":"known_loop"' in kept and b"bad_insn" not in kept
    # the newest boot clean and an older one damaged: the newer is kept, exit 0
    src.write_bytes(_noisy_result(_boot("r14")) + first)
    p = bm("capture", "--quiet", "-o", out, "--", "cat", src)
    assert p.returncode == 0 and "dropped boot 1" in p.stderr and b"bad_insn" in out.read_bytes(), p.stderr


def test_capture_later_boot_cut_short(tmp_path):
    """A complete boot, then a newer one the console lost mid-run (closed, or --timeout): the
    complete one is kept, the cut one named, and the exit status says the newest did not end."""
    first, second = _boot("r14"), _boot("fail")
    src = tmp_path / "console"
    src.write_bytes(first + second[:len(second) // 2])
    out = tmp_path / "rec.jsonl"
    p = bm("capture", "--quiet", "-o", out, "--", "cat", src)
    no_crash(p)
    assert p.returncode == 1 and "it did not complete" in p.stderr and "dropped boot 2" in p.stderr, p.stderr
    assert bm("check", out).returncode == 0 and b"known_loop" in out.read_bytes()
    q = bm("capture", "--quiet", "-o", out, "--timeout", "3", "--", "sh", "-c", f"cat {src}; sleep 60")
    assert q.returncode == 124 and "timed out after 3 s without a record, before boot 2's end record" in q.stderr, q.stderr
    assert bm("check", out).returncode == 0


def _stalling_pty(tmp_path, second_records=6):
    """A pty fed a complete boot, then the first records of a second boot, then nothing while
    held open (a board that reset and hung): (path, flag file to start it, master fd)."""
    master, slave = os.openpty()
    flag = tmp_path / "go"
    first, second = _boot("r14"), _boot("fail")
    recs = [k for k in range(len(second)) if second.startswith(b'{"type":', k)]
    data = first + second[:recs[second_records]]

    def feed():
        while not os.path.exists(flag):
            time.sleep(0.01)
        for i in range(0, len(data), 97):
            os.write(master, data[i:i + 97])
            time.sleep(0.0005)
    threading.Thread(target=feed, daemon=True).start()
    path = os.ttyname(slave)
    os.close(slave)
    return path, flag, master


def test_capture_stops_when_a_later_boot_stalls(tmp_path):
    """After a complete boot a new one starts and stops printing (the port stays open): the
    capture stops after --stall seconds without a record, keeps the complete boot, exit 1."""
    path, flag, master = _stalling_pty(tmp_path)
    out = tmp_path / "rec.jsonl"
    t0 = time.monotonic()
    p = bm("capture", "--quiet", "--port", path, "-o", out, "--start", f"touch {flag}", "--stall", "2")
    took = time.monotonic() - t0
    os.close(master)
    no_crash(p)
    assert p.returncode == 1 and took < 30, (took, p.stderr)
    assert "dropped boot 2" in p.stderr and "INCOMPLETE" in p.stderr and "it did not complete" in p.stderr
    assert "boot 2 printed no record for 2 s after boot 1 completed: stopped" in p.stderr, p.stderr
    assert bm("check", out).returncode == 0 and b"known_loop" in out.read_bytes()


def test_capture_stall_default_ends_the_wait(tmp_path):
    """Without --stall or --timeout the same capture ends too (it waited forever): after the
    documented default, 30 s (or 3 x the meta's bench_timeout_ms when longer)."""
    from bmlib.records import stream
    w = stream.Watch()
    assert w.stall_s() == stream.STALL_S == 30
    w.feed(_boot("r14"))          # (the corpus's meta: bench_timeout_ms 2000)
    assert w.completed == 1 and w.stall_s() == 30
    import corpus
    lines = corpus.realistic14()
    k = corpus.record_indexes(lines)[0]
    w.feed(corpus.text(lines[:k] + [corpus.resign(lines[k], lambda d: d.update(bench_timeout_ms=20000))]))
    assert w.budget_ms == 20000 and w.stall_s() == 60
    path, flag, master = _stalling_pty(tmp_path)
    out = tmp_path / "rec.jsonl"
    t0 = time.monotonic()
    p = bm("capture", "--quiet", "--port", path, "-o", out, "--start", f"touch {flag}", timeout=200)
    took = time.monotonic() - t0
    os.close(master)
    assert p.returncode == 1 and 30 <= took < 90, (took, p.stderr)
    assert "boot 2 printed no record for 30 s" in p.stderr and bm("check", out).returncode == 0
