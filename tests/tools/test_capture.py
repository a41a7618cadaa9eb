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
