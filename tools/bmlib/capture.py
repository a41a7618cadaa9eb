"""Capture a board's console: from a serial port or pseudo-terminal (--port, pyserial), or
from a command's output (`-- qemu-system-...`). Waits for a meta record, stops at the end
record (or --timeout), and tolerates CR LF, ANSI noise and resets (a new meta is a new boot;
the last complete boot is kept). Saves the raw console (--raw) and the clean records (-o).

--start CMD runs a shell command once the console is being read (reset, flash or unpause the
board), so nothing printed before the reader attached is lost.

Exit status: 0 a complete, clean boot was saved; 1 the saved boot has problems (listed) or
none completed; 2 usage or the port cannot be opened; 124 timed out before an end record."""
import sys

from . import log as logmod
from . import stream
from .log import UsageError
from .run import seconds



def baud(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v <= 0:
        raise __import__("argparse").ArgumentTypeError(f"{text!r}: baud must be a positive integer")
    return v


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


def _write(path, data):
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}")


def main(args):
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if bool(cmd) == bool(args.port):
        raise UsageError("give either --port DEV or -- COMMAND (one console to read)")
    echo = None
    if not args.quiet:
        def echo(chunk):
            sys.stderr.buffer.write(chunk)
            sys.stderr.buffer.flush()
    helper = (lambda: stream.start_helper(args.start)) if args.start else None
    try:
        if args.port:
            res = stream.read_port(args.port, args.baud, args.timeout, args.linger, echo, helper)
        else:
            res = stream.run_command(cmd, args.timeout, args.linger, echo, helper)
    except ValueError as e:
        raise UsageError(str(e))
    except OSError as e:
        raise UsageError(f"cannot start {cmd[0] if cmd else args.port}: {e.strerror or e}")
    if args.raw:
        _write(args.raw, res.data)
    lg = logmod.analyze(res.data, args.port or cmd[0])
    bt = lg.last_complete() or (lg.boots[-1] if lg.boots else None)
    # Earlier boots cut by a reset are expected on a real board: say so, but judge the kept one.
    for p in lg.problems:
        if bt is None or p not in bt.problems:
            say(f"note: {p.msg}")
    if bt is None:
        say("no boot arrived (no meta record)" + (f"; {res.closed}" if res.closed else ""))
        return 124 if res.timed_out else 1
    data = b"".join(r.text + b"\n" for r in bt.records)
    if args.output:
        _write(args.output, data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    where = f" to {args.output}" if args.output else ""
    for p in bt.problems:
        say(f"problem: {p.msg}")
    results = [b for b in bt.benches if b.result is not None]
    ok = sum(1 for b in results if b.status == "ok")
    state = "complete" if bt.complete else "INCOMPLETE"
    say(f"boot {bt.index}: {state}, {len(bt.records)} records, {len(results)} results ({ok} ok) saved{where}")
    if res.timed_out and not bt.complete:
        say(f"timed out after {args.timeout:g} s before the end record")
        return 124
    if res.closed and not bt.complete:
        say(f"the console closed before the end record ({res.closed})")
    return 0 if bt.clean else 1
