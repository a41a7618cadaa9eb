# SPDX-License-Identifier: Apache-2.0
"""Reading a console live, from a command's output (QEMU, `cat /dev/pts/N`) or a serial port
(pyserial): keeps every byte, watches the records go by, and stops once the end record of a
boot has arrived and the console has gone quiet, on a timeout, when the far end goes away, or
(when asked) once no record has arrived for a while after a boot completed."""
import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass

from . import frame


# After a boot completed, a later one that prints no record for this long has stalled: a
# benchmark is silent for at most its watchdog budget (the meta's bench_timeout_ms, 10 s by
# default: shared.DEFAULTS), so three budgets are waited for when that is longer.
STALL_S = 30.0
STALL_BUDGETS = 3


class Watch:
    """The bytes so far, and what the records among them say: a boot began (meta), which
    benchmark started last, whether that boot's end record arrived, how many boots completed,
    how many records arrived, and the newest meta's watchdog budget."""

    def __init__(self):
        self.data = bytearray()
        self.done = 0             # bytes already scanned (up to a newline)
        self.meta = False
        self.ended = False
        self.running = None
        self.completed = 0        # boots whose end record arrived
        self.records = 0
        self.budget_ms = 0        # the newest meta's bench_timeout_ms

    def _end(self):
        if self.meta and not self.ended:
            self.ended = True
            self.completed += 1

    def feed(self, chunk):
        self.data += chunk
        nl = self.data.rfind(b"\n")
        if nl >= self.done:
            sc = frame.scan(bytes(self.data[self.done:nl + 1]))
            self.done = nl + 1
            self.records += len(sc.records)
            for r in sc.records:
                if r.type == "meta":
                    self.meta, self.ended, self.running = True, False, None
                    ms = r.get("bench_timeout_ms")
                    self.budget_ms = ms if isinstance(ms, int) and not isinstance(ms, bool) else 0
                elif r.type == "start" and self.meta:
                    self.running = r.name
                elif r.type == "result":
                    self.running = None
                elif r.type == "end":
                    self._end()
        # An end record with no newline after it (the board halted right after printing it)
        # ends the boot all the same; any other partial line waits for its newline.
        if self.meta and not self.ended and self.data.endswith(b"}") and len(self.data) > self.done:
            if any(r.type == "end" for r in frame.scan(bytes(self.data[self.done:])).records):
                self._end()

    def stall_s(self):
        """The default quiet time after a complete boot (STALL_S)."""
        return max(STALL_S, STALL_BUDGETS * self.budget_ms / 1000)


@dataclass
class Result:
    data: bytes
    ended: bool               # an end record arrived (after a meta)
    timed_out: bool = False
    returncode: int = None    # the command's status, if it exited by itself
    stopped: bool = False     # we stopped the command (it kept running after the end record)
    closed: str = ""          # a port that went away: why
    interrupted: bool = False # Ctrl-C or SIGTERM stopped the read
    start_failed: int = None  # the --start command's status, when it failed before a boot began
    stalled: float = None     # after a complete boot, no record arrived for this many seconds


def _kill_group(proc):
    """Stop a command we started, and its children (it runs in its own process group)."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=2)
    except (ProcessLookupError, PermissionError):
        pass
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()


def start_command(cmd, shell=False, output=True):
    """Start cmd in its own process group (so all of it can be stopped), its output piped."""
    return subprocess.Popen(cmd, shell=shell, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE if output else None,
                            stderr=subprocess.STDOUT if output else None, start_new_session=True)


def _pump(read, watch, timeout, linger, echo, helper=None, tick=0.1, stall=None):
    """Read until the end record and `linger` s of quiet, a timeout (`timeout` s without a new
    record: progress, not the run's length; a healthy suite of any length runs to its end, and
    each benchmark's own watchdog stays the guard against a hang), end of input, Ctrl-C or
    SIGTERM ("interrupted": what arrived is kept), or the --start helper failing before a boot
    began. With stall (a function of the Watch giving seconds), a boot having completed, also
    once no record arrived for that long ("stalled": a later boot stopped, or noise without
    records keeps the console from going quiet). read(wait) returns bytes, b"" for no data yet,
    or None at end of input."""
    last = last_rec = time.monotonic()
    try:
        while True:
            now = time.monotonic()
            if watch.ended and now - last >= linger:
                return "ended"
            if timeout and now - last_rec >= timeout:
                return "ended" if watch.ended else "timeout"
            if stall is not None and watch.completed and now - last_rec >= stall(watch):
                return "ended" if watch.ended else "stalled"
            if helper is not None and not watch.meta and helper.poll() not in (None, 0):
                return "start-failed"
            left = min(tick, (timeout - (now - last_rec)) if timeout else tick)
            chunk = read(max(0.0, left))
            if chunk is None:
                return "eof"
            if chunk:
                last = time.monotonic()
                seen = watch.records
                watch.feed(chunk)
                if watch.records != seen:
                    last_rec = last
                if echo:
                    echo(chunk)
    except KeyboardInterrupt:
        return "interrupted"


def echo_to(out):
    """An echo for run_command and read_port: each chunk to the binary stream `out` at once
    (flushed), so the console is seen as it arrives."""
    def echo(chunk):
        out.write(chunk)
        out.flush()
    return echo


def echo_without_records(out):
    """An echo that writes each complete line to `out` unless it is a record (the JSON lines a
    person does not read: they stay in the saved console). A line is written once its newline
    arrives; flush() writes what is left when the run is over."""
    pending = bytearray()

    def keep(line):
        return not line.lstrip(b"\r\x00 ").startswith(b'{"type":')

    def echo(chunk):
        pending.extend(chunk)
        nl = pending.rfind(b"\n")
        if nl < 0:
            return
        lines = bytes(pending[:nl + 1]).splitlines(keepends=True)
        del pending[:nl + 1]
        out.write(b"".join(ln for ln in lines if keep(ln)))
        out.flush()

    def flush():
        if pending and keep(bytes(pending)):
            out.write(bytes(pending))
            out.flush()
        pending.clear()
    echo.flush = flush
    return echo


def run_command(cmd, timeout=None, linger=1.0, echo=None, after_start=None, stall=None):
    """Run cmd, reading its output (stdout and stderr together) as a console (stall: _pump's)."""
    proc = start_command(cmd)
    fd = proc.stdout.fileno()
    os.set_blocking(fd, False)
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    helper = after_start() if after_start else None
    watch = Watch()

    def read(wait):
        if not sel.select(wait):
            return b""
        try:
            return os.read(fd, 65536) or None
        except BlockingIOError:
            return b""
    try:
        why = _pump(read, watch, timeout, linger, echo, helper, stall=stall)
        res = Result(bytes(watch.data), watch.ended, timed_out=why == "timeout", interrupted=why == "interrupted",
                     start_failed=helper.returncode if why == "start-failed" else None,
                     stalled=stall(watch) if why == "stalled" else None)
        if why == "eof":
            # Output closed: the command is exiting; give it a timeout's time to do so.
            try:
                res.returncode = proc.wait(timeout=max(timeout, 0.5) if timeout else None)
            except subprocess.TimeoutExpired:
                res.timed_out = not watch.ended
        if proc.poll() is None:
            if why == "ended":
                # The record set is complete; a command that keeps running (cat of a pty, a
                # board that halts) has nothing more to say. A moment to exit by itself:
                try:
                    res.returncode = proc.wait(timeout=0.3)
                except subprocess.TimeoutExpired:
                    res.stopped = True
            _kill_group(proc)
        elif res.returncode is None:
            res.returncode = proc.returncode
        return res
    finally:
        _kill_group(proc)
        sel.close()
        proc.stdout.close()
        if helper is not None:
            finish_helper(helper)


def read_port(port, baud, timeout=None, linger=1.0, echo=None, after_open=None, stall=None):
    """Read a serial port (or pseudo-terminal) with pyserial. Raises OSError-like ValueError
    with a message when the port cannot be opened; a port that goes away ends the read.
    (stall: _pump's)"""
    import serial
    try:
        ser = serial.Serial(port, baudrate=baud, timeout=0)
    except (serial.SerialException, OSError, ValueError) as e:
        raise ValueError(f"cannot open {port}: {e}")
    helper = after_open() if after_open else None
    watch = Watch()
    closed = []
    sel = selectors.DefaultSelector()
    sel.register(ser.fileno(), selectors.EVENT_READ)

    def read(wait):
        if not sel.select(wait):
            return b""
        try:
            data = ser.read(ser.in_waiting or 1)
        except (serial.SerialException, OSError) as e:
            closed.append(str(e))
            return None
        if not data:
            # Readable yet empty: the other side of a pseudo-terminal closed (QEMU exited).
            closed.append("the other end closed")
            return None
        return data
    try:
        why = _pump(read, watch, timeout, linger, echo, helper, stall=stall)
    finally:
        sel.close()
        try:
            ser.close()
        except (serial.SerialException, OSError):
            pass
        if helper is not None:
            finish_helper(helper)
    return Result(bytes(watch.data), watch.ended, timed_out=why == "timeout",
                  closed=closed[0] if closed and why == "eof" else "", interrupted=why == "interrupted",
                  start_failed=helper.returncode if why == "start-failed" else None,
                  stalled=stall(watch) if why == "stalled" else None)


def start_helper(command):
    """`--start CMD`: a shell command run once the console is being read (reset, flash or
    unpause the board), so nothing it causes to be printed is lost."""
    return subprocess.Popen(command, shell=True, stdin=subprocess.DEVNULL, start_new_session=True)


def finish_helper(proc, grace=2.0):
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
    return proc.returncode
