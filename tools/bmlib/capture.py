"""Capture a board's console: from a serial port or pseudo-terminal (--port, pyserial), or
from a command's output (`-- qemu-system-...`). Waits for a meta record, stops at the end
record (or --timeout), and tolerates CR LF, ANSI noise and resets (a new meta is a new boot;
the last complete boot is kept). Saves the raw console (--raw) and the clean records (-o).

--start CMD runs a shell command once the console is being read (reset, flash or unpause the
board), so nothing printed before the reader attached is lost.

Exit status: 0 a complete, clean boot was saved; 1 the saved boot has problems (listed) or
none completed; 2 usage, the port cannot be opened, an output could not be written (the paths
are checked before anything is read), or the --start command failed before a boot began; 124
timed out before an end record; 130 stopped by Ctrl-C or SIGTERM before an end record. Whatever
ends the read, what arrived is saved: every byte to --raw, the boot's records (complete or not)
to -o, which is emptied when no boot arrived (never left holding an earlier run's records)."""
import os
import signal
import sys

from . import log as logmod
from . import stream
from .errors import UsageError
from .log import same_file
from .options import baud, seconds


def add_arguments(p):
    p.add_argument("--port", metavar="DEV", help="serial port or pseudo-terminal, e.g. /dev/ttyACM0, /dev/pts/3")
    p.add_argument("--baud", type=baud, default=115200, help="baud rate (default 115200; 8N1)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the records of the boot here (default: stdout)")
    p.add_argument("--raw", metavar="FILE", help="write every byte received here")
    p.add_argument("--timeout", type=seconds, default=None, help="give up after this many seconds (default: none)")
    p.add_argument("--linger", type=seconds, default=1.0,
                   help="after the end record, seconds of quiet before stopping (keeps the table in --raw)")
    p.add_argument("--start", metavar="CMD", help="shell command to run once the console is being read")
    p.add_argument("--quiet", action="store_true", help="do not echo the console to stderr")
    p.add_argument("cmd", nargs="*", help="-- command whose output is the console (instead of --port)")


def say(msg):
    print(f"bm capture: {msg}", file=sys.stderr)


def writable(path, what):
    """Refuse, before anything is read, an output path that cannot be written: the console of
    a board's run is gone once it has passed (nothing is created or truncated here)."""
    path = os.path.abspath(path)
    if os.path.isdir(path):
        raise UsageError(f"{what} {path}: is a directory")
    if os.path.exists(path):
        if not os.access(path, os.W_OK):
            raise UsageError(f"{what} {path}: not writable")
        return
    parent = os.path.dirname(path)
    if not os.path.isdir(parent):
        raise UsageError(f"{what} {path}: no folder {parent}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"{what} {path}: cannot create a file in {parent}")


def _write(path, data):
    """Write data; returns an error message instead of raising, so that one failed output does
    not lose the other."""
    try:
        logmod.write(path, data)
    except UsageError as e:
        return str(e)
    return None


def main(args):
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if bool(cmd) == bool(args.port):
        raise UsageError("give either --port DEV or -- COMMAND (one console to read)")
    if args.output:
        writable(args.output, "-o")
    if args.raw:
        writable(args.raw, "--raw")
    if args.output and args.raw and same_file(args.output, args.raw):
        raise UsageError(f"-o and --raw are the same file ({args.raw}): one would overwrite the other")
    echo = None if args.quiet else stream.echo_to(sys.stderr.buffer)
    helper = (lambda: stream.start_helper(args.start)) if args.start else None

    def stop(signum, frame):
        raise KeyboardInterrupt  # (SIGTERM, e.g. a CI job's timeout: stop like Ctrl-C, keep what arrived)
    signal.signal(signal.SIGTERM, stop)
    try:
        if args.port:
            res = stream.read_port(args.port, args.baud, args.timeout, args.linger, echo, helper)
        else:
            res = stream.run_command(cmd, args.timeout, args.linger, echo, helper)
    except ValueError as e:
        raise UsageError(str(e))
    except OSError as e:
        raise UsageError(f"cannot start {cmd[0] if cmd else args.port}: {e.strerror or e}")
    failed = []
    if args.raw:
        failed.append(_write(args.raw, res.data))
    lg = logmod.analyze(res.data, args.port or cmd[0])
    bt = lg.last_complete() or (lg.boots[-1] if lg.boots else None)
    # Earlier boots cut by a reset are expected on a real board: say so, but judge the kept one.
    for p in lg.problems:
        if bt is None or p not in bt.problems:
            say(f"note: {p.msg}")
    if res.start_failed is not None:
        say(f"the --start command exited with status {res.start_failed} before a boot began: {args.start}")
    if bt is None:
        if args.output:
            failed.append(_write(args.output, b""))
        say("no boot arrived (no meta record)" + (f"; {res.closed}" if res.closed else "") +
            ("; interrupted" if res.interrupted else ""))
        for msg in filter(None, failed):
            say(msg)
        if any(failed) or res.start_failed is not None:
            return 2
        return 124 if res.timed_out else 130 if res.interrupted else 1
    data = b"".join(r.text + b"\n" for r in bt.records)
    if args.output:
        failed.append(_write(args.output, data))
    # Both paths were checked before the run; if a write still failed (a full disk), the
    # records go to stdout rather than nowhere, and the exit status says so.
    lost = bool(args.output and failed[-1])
    for msg in filter(None, failed):
        say(msg)
    if not args.output or lost:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    where = f" to {args.output}" if args.output and not lost else " to stdout" if lost else ""
    for p in bt.problems:
        say(f"problem: {p.msg}")
    results = [b for b in bt.benches if b.result is not None]
    ok = sum(1 for b in results if b.status == "ok")
    state = "complete" if bt.complete else "INCOMPLETE"
    say(f"boot {bt.index}: {state}, {len(bt.records)} records, {len(results)} results ({ok} ok) saved{where}")
    if res.timed_out and not bt.complete:
        say(f"timed out after {args.timeout:g} s before the end record")
        return 124
    if res.interrupted and not bt.complete:
        say("interrupted before the end record")
        return 130
    if res.closed and not bt.complete:
        say(f"the console closed before the end record ({res.closed})")
    if any(failed):
        return 2
    return 0 if bt.clean else 1
