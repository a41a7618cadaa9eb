# SPDX-License-Identifier: Apache-2.0
"""Capture a board's console: from a serial port or pseudo-terminal (--port, pyserial), or
from a command's output (`-- qemu-system-...`). Waits for a meta record, stops at the end
record (or --timeout), and tolerates CR LF, ANSI noise and resets (a new meta is a new boot;
the newest complete boot is kept, and every other one is named as dropped). Once a boot has
completed, a later one that prints no record for --stall seconds ends the capture. Saves the
raw console (--raw) and the clean records (-o).

--start CMD runs a shell command once the console is being read (reset, flash or unpause the
board), so nothing printed before the reader attached is lost.

Exit status: 0 a complete, clean boot was saved and no later boot began; 1 the saved boot has
problems (listed), a later boot did not complete (stalled, or the console closed), or none
completed; 2 usage, the port cannot be opened, an output could not be written (the paths are
checked before anything is read), or the --start command failed before a boot began; 124 timed
out before an end record; 130 stopped by Ctrl-C or SIGTERM before an end record. Whatever ends
the read, what arrived is saved: every byte to --raw, the boot's records (complete or not) to
-o, which is emptied when no boot arrived (never left holding an earlier run's records)."""
import os
import signal
import sys

from ..errors import UsageError
from ..records import log as logmod
from ..records import stream
from ..records.boot import plural
from ..records.log import same_file
from .options import baud, seconds


def add_arguments(p):
    p.add_argument("--port", metavar="DEV", help="serial port or pseudo-terminal, e.g. /dev/ttyACM0, /dev/pts/3")
    p.add_argument("--baud", type=baud, default=115200, help="baud rate (default 115200; 8N1)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the records of the boot here (default: stdout)")
    p.add_argument("--raw", metavar="FILE", help="write every byte received here")
    p.add_argument("--timeout", type=seconds, default=None, help="give up after this many seconds without a new record (default: none)")
    p.add_argument("--linger", type=seconds, default=1.0,
                   help="after the end record, seconds of quiet before stopping (keeps the table in --raw)")
    p.add_argument("--stall", type=seconds, default=None,
                   help=f"once a boot has completed, stop when no record arrives for this many seconds "
                        f"(default {stream.STALL_S:g}, or {stream.STALL_BUDGETS} x the newest meta's "
                        f"bench_timeout_ms if longer)")
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

    def stall(watch):
        return args.stall or watch.stall_s()
    try:
        if args.port:
            res = stream.read_port(args.port, args.baud, args.timeout, args.linger, echo, helper, stall)
        else:
            res = stream.run_command(cmd, args.timeout, args.linger, echo, helper, stall)
    except ValueError as e:
        raise UsageError(str(e))
    except OSError as e:
        raise UsageError(f"cannot start {cmd[0] if cmd else args.port}: {e.strerror or e}")
    failed = []
    if args.raw:
        failed.append(_write(args.raw, res.data))
    lg = logmod.analyze(res.data, args.port or cmd[0])
    done = [b for b in lg.boots if b.complete]
    bt = done[-1] if done else (lg.boots[-1] if lg.boots else None)
    # Earlier boots cut by a reset are expected on a real board: say so, but judge the kept one.
    for p in lg.problems:
        if bt is None or p not in bt.problems:
            say(f"note: {p.msg}")
    later = [b for b in lg.boots if bt is not None and b.index > bt.index]
    for b in lg.boots:
        if b is not bt:
            why = "it did not complete" if b in later else \
                f"boot {bt.index} is newer{' and complete' if bt.complete else ''}"
            say(f"dropped boot {b.index} (lines {b.lines[0]}-{b.lines[1]}, {_state(b)}): {why}")
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
    say(f"boot {bt.index}: {_state(bt)}, {len(bt.records)} records, {len(results)} results ({ok} ok) saved{where}")
    if bt.complete and bt.problems:
        say(f"the newest complete boot, boot {bt.index} (lines {bt.lines[0]}-{bt.lines[1]}), is damaged: "
            f"{plural(len(bt.problems), 'problem')} (above)")
    cut = "the end record" if not bt.complete else f"boot {later[-1].index}'s end record" if later else None
    if res.timed_out and cut:
        say(f"timed out after {args.timeout:g} s without a record, before {cut}")
        return 124
    if res.interrupted and cut:
        say(f"interrupted before {cut}")
        return 130
    if res.closed and cut:
        say(f"the console closed before {cut} ({res.closed})")
    if res.stalled is not None:
        who = f"boot {later[-1].index} printed no record" if later else "no record arrived"
        say(f"{who} for {res.stalled:g} s after boot {bt.index} completed: stopped (--stall sets the wait)")
    if any(failed):
        return 2
    return 0 if bt.clean and not later else 1


def _state(bt):
    """A boot in a few words: complete and clean, complete with problems, or cut short."""
    if not bt.complete:
        return "INCOMPLETE"
    return "complete" if not bt.problems else f"complete, {plural(len(bt.problems), 'problem')}"
