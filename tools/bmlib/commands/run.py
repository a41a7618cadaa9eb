# SPDX-License-Identifier: Apache-2.0
"""Boot a baremark image (usually under QEMU), stream its console, and return the guest's
status; with --check (implied by --expect, --zero, --require, --exact and --runs > 1), also
judge its records. Reading stops once the end record arrived and the console went quiet, even
if the command keeps running (`cat /dev/pts/N`); a command ended by a signal after the end
record (cat's SIGHUP when the QEMU behind the pty exits) leaves the status to the end record.
On a timeout (--timeout seconds without a new record: a suite of any length runs to its end
while each record comes in time) or a crash what arrived is kept, checked, and the benchmark
that was running is named with what the kit printed (`*** ` lines).

With --log FILE nothing is run: a saved console log is judged the same way. With --board-json F
(the <name>.board.json beside an image) the command is the image's QEMU command, with its exit
map, and the console is saved beside the image (<name>.run.log).

What is shown (--show, or the environment's BM_SHOW): `table` hides the records (the JSON lines)
and shows the header, the table, the summary and the verdict; `all` shows every line as it
arrives; `auto` (the default) is `table` on a terminal and `all` when the output goes to a file or
a pipe, so `bm run ... > a.log` saves a log with its records. The saved console (--save) always
holds every line; the console itself is not changed.

Exit status: the guest's (0 pass, 1 a benchmark did not pass, 2 configuration, 3 aborted),
124 on a timeout, 125 when the run or its records are broken (the reason is printed). With
--expect-status, or --expect naming non-ok statuses, 0 means "as expected".

Exit maps (how the emulator's status becomes the guest's):
  direct          QEMU exits with the guest's status (virt test device, semihosting)
  isa-debug-exit  x86 isa-debug-exit: QEMU exits with (v << 1) | 1 for guest status v"""
import argparse
import os
import shutil
import signal
import sys

from ..errors import UsageError
from ..records import log as logmod
from ..records import model, rules, stream
from ..records.board import load_board
from ..records.figures import SUMMARY
from ..shared import DEFAULTS
from . import serve
from .options import count, seconds

BROKEN, TIMEOUT = 125, 124
SHOW = ("auto", "table", "all")


def console_text(text):
    if not text:
        raise argparse.ArgumentTypeError("an empty text is on every console: give the text to look for")
    return text


# An ok result whose figures time runs on its own output, undeclared (the table's ok?): not a
# pass, and what --expect calls it.
STATE_DEPENDENT = "state_dependent"


def expectation(text):
    """NAME=STATUS, or NAME=STATUS|STATUS... when either is right (a fault whose first symptom
    depends on how the compiler laid out what it hit)."""
    name, sep, status = text.partition("=")
    known = rules.STATUSES + (STATE_DEPENDENT,)
    if not sep or not name or not all(s in known for s in status.split("|")):
        raise argparse.ArgumentTypeError(f"{text!r}: use NAME=STATUS or NAME=STATUS|STATUS, STATUS one of "
                                         f"{', '.join(known)}")
    return name, status


def add_arguments(p):
    p.add_argument("--exit-map", default="direct", choices=["direct", "isa-debug-exit"])
    p.add_argument("--timeout", type=seconds, default=DEFAULTS["QEMU_TIMEOUT_S"],
                   help=f"seconds the run may go without a new record before it is stopped (default "
                        f"{DEFAULTS['QEMU_TIMEOUT_S']}, as the build's BM_QEMU_TIMEOUT_S): progress, not the run's length; "
                        f"each benchmark's watchdog guards it")
    p.add_argument("--package", default="", help="Debian package that provides the emulator (for the error message)")
    p.add_argument("--check", action="store_true", help="judge the records and require a passing run")
    p.add_argument("--expect-status", type=int, default=None, help="require this guest status")
    p.add_argument("--expect-text", action="append", default=[], type=console_text,
                   help="require this text on the console")
    p.add_argument("--reject-text", action="append", default=[], type=console_text,
                   help="fail when this text is on the console")
    p.add_argument("--expect", action="append", default=[], type=expectation, metavar="NAME=STATUS",
                   help="benchmark NAME must end with STATUS (trap, timeout, fail, ..., state_dependent: "
                        "an undeclared ok?); repeatable")
    p.add_argument("--allow-fail", action="store_true", help="benchmarks not named by --expect may fail")
    p.add_argument("--zero", action="append", default=[], metavar="NAME", help="benchmark that must report 0 cycles")
    p.add_argument("--exact", action="store_true",
                   help="deterministic run: --zero checks every statistic; expect_insns must match exactly")
    p.add_argument("--require", action="append", default=[], metavar="NAME", help="benchmark that must be present")
    p.add_argument("--runs", type=count, default=1, help="run this many times; records must be identical")
    p.add_argument("--linger", type=seconds, default=1.0,
                   help="after the end record, seconds of quiet before a command that keeps running is stopped")
    p.add_argument("--quiet", action="store_true", help="do not stream the console")
    p.add_argument("--save", metavar="FILE", help="write the console output of the (last) run to this file")
    p.add_argument("--log", metavar="FILE", help="judge this saved console log instead of running a command")
    p.add_argument("--board-json", metavar="F",
                   help="run the image of this <name>.board.json under its QEMU command (and save "
                        "the console beside it as <name>.run.log unless --save is given)")
    p.add_argument("--show", choices=SHOW, default=None,
                   help="what to stream: table (records hidden), all, auto = table on a terminal "
                        "(default: $BM_SHOW, else auto)")
    model.add_arguments(p)
    serve.add_arguments(p)
    p.add_argument("cmd", nargs=argparse.REMAINDER, help="-- command to run")


def map_status(raw, how):
    if raw is None or raw < 0:
        return None                      # killed by a signal: a crash
    if how == "direct":
        return raw
    if raw & 1:
        return raw >> 1
    return None                          # QEMU ended without the exit device


def signal_name(returncode):
    """The signal that ended a command (subprocess's negative status), or None."""
    if returncode is None or returncode >= 0:
        return None
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def say(msg):
    print(f"bm run: {msg}", file=sys.stderr)


def explain(lg):
    """What a run that did not finish left behind: the running benchmark, the kit's words."""
    bt = lg.boots[-1] if lg.boots else None
    if bt is None:
        say("no records arrived" if not lg.scan.records else "no meta record arrived")
        return
    if (bt.meta.data or {}).get("serve") is True:
        say("the image is served (its meta record says serve: true): it waits for commands; give it some "
            "with --list or --bench (docs/records.md, \"Served images\")")
    done = [b for b in bt.benches if b.result is not None]
    say(f"{len(bt.records)} records arrived, {len(done)} of {(bt.meta.data or {}).get('benchmarks', '?')} results")
    if bt.running is not None:
        s = bt.running.start
        say(f"benchmark {bt.running.name} ({s.get('index')}/{s.get('of')}) was running, or the console stopped "
            "after its start record")
        for t in bt.kit_said(s.pos):
            say(f"  the kit said: {t}")
    else:
        for t in bt.kit_said(bt.records[-1].pos):
            say(f"  the kit said: {t}")


def judge(lg, args, status, text):
    """Everything wrong with a run's console: record problems, statuses, expectations."""
    errs = []
    for p in lg.problems:
        if status == 3 and p.kind == "incomplete":
            continue                     # an aborted run ends without its end record
        errs.append(p.msg)
    bt = lg.last_complete() or (lg.boots[-1] if lg.boots else None)
    benches = {b.name: b for b in bt.benches} if bt else {}
    want = dict(args.expect)
    for name, b in benches.items():
        if b.result is None:
            continue
        st = b.status
        why = f" ({b.result.get('reason')} in {b.result.get('phase')})" if st != "ok" else ""
        if st == "ok" and b.result.get("state_dependent") is True:
            st = STATE_DEPENDENT
            why = (f" (ok?: {b.result.get('state_reason')}; or declare .carries_state = 1 if runs on its own "
                   "output are what it measures)")
        exp = want.get(name, "ok")
        if st not in exp.split("|") and (name in want or not args.allow_fail):
            errs.append(f"benchmark {name}: status {st}{why}, expected {exp}")
    for name, st in want.items():
        if name not in benches:
            errs.append(f"benchmark {name} missing (expected status {st})")
    for name in args.zero:
        b = benches.get(name)
        if b is None or b.result is None:
            errs.append(f"benchmark {name} missing")
            continue
        for k in SUMMARY if args.exact else ("min",):
            if b.result.get(k) != 0:
                errs.append(f"{name}: {k} = {rules.show(b.result.get(k))}, expected 0 after overhead subtraction")
    if args.exact:
        for b in benches.values():
            exp = b.result.get("expect_insns") if b.result else None
            if exp is None:
                continue
            for k in ("min", "p50", "max", "mean", "insns"):
                if k in b.result.data and b.result.get(k) != exp:
                    errs.append(f"{b.name}: {k} = {rules.show(b.result.get(k))}, expected exactly {exp}")
    for name in args.require:
        if name not in benches:
            errs.append(f"benchmark {name} missing")
    if status is not None:
        end = bt.end if bt else None
        if end is not None and isinstance(end.get("exit_status"), int) and end.get("exit_status") != status:
            errs.append(f"guest exit status {status}, but the end record says {end.get('exit_status')}")
        if args.expect_status is None and not args.allow_fail:
            wanted = 1 if any(s != "ok" for s in want.values()) else 0
            if status != wanted:
                errs.append(f"guest exit status {status}, expected {wanted}")
    return errs + text_errors(args, text)


def text_errors(args, text):
    """--expect-text and --reject-text against the console's text."""
    return [f"console lacks the text {t!r}" for t in args.expect_text if t not in text] + \
        [f"console has the text {t!r}" for t in args.reject_text if t in text]


def from_board_json(args, cmd):
    """The command, exit map, package and log of a <name>.board.json's image."""
    if cmd:
        raise UsageError("--board-json runs the image's own QEMU command; give no command with it")
    board = load_board(args.board_json)
    qemu = board.get("qemu") or []
    if not qemu or not all(isinstance(a, str) for a in qemu):
        raise UsageError(f"{args.board_json}: no QEMU command for this image (built for "
                         f"{board.get('built_for')}): flash it and read its console with `bm capture`")
    if board.get("exit_map") in ("direct", "isa-debug-exit"):
        args.exit_map = board["exit_map"]
    args.package = args.package or board.get("qemu_package", "")
    image = board.get("image") or os.path.join(os.path.dirname(args.board_json), "baremark.elf")
    if not args.save:
        args.save = os.path.splitext(image)[0] + ".run.log"
    not_built(image, args.save)
    return qemu


def not_built(image, save):
    """Refuses (status 2) an image the build left unbuilt, saying why: the fit plan's reason and
    plan (<name>.not-built, tools/bm-size), or that there is no such file. Nothing is run, so the
    console saved before stays as it was."""
    marker = os.path.splitext(image)[0] + ".not-built"
    kept = f"; the console saved before ({save}) is kept" if save and os.path.exists(save) else ""
    if os.path.exists(marker):
        with open(marker, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines() or ["not built"]
        say(f"{image}: {lines[0]}")
        for line in lines[1:]:
            say(line)
        raise UsageError(f"{os.path.basename(image)} was not built (it does not fit its board: the fit plan "
                         f"above says what to leave out); nothing run{kept}")
    if not os.path.exists(image):
        raise UsageError(f"{image}: not built (no such file: build it first); nothing run{kept}")


def echo_for(args):
    """The console's echo as --show (or $BM_SHOW) asks, or None with --quiet."""
    if args.quiet:
        return None
    show = args.show or os.environ.get("BM_SHOW") or "auto"
    if show not in SHOW:
        raise UsageError(f"BM_SHOW={show!r}: use one of {', '.join(SHOW)}")
    if show == "all" or (show == "auto" and not sys.stdout.isatty()):
        return stream.echo_to(sys.stdout.buffer)
    return stream.echo_without_records(sys.stdout.buffer)


def main(args):
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    served = serve.wanted(args)   # (--list, --bench: a served image, tools/bmlib/commands/serve.py)
    if args.board_json:
        if args.log:
            raise UsageError("--log judges a saved log; give no --board-json with it")
        cmd = from_board_json(args, cmd)
    checking = args.check or args.runs > 1 or bool(args.expect or args.zero or args.require or args.exact)
    if args.log:
        if cmd:
            raise UsageError("--log judges a saved log; give no command with it")
        data = logmod.read(args.log)
        lg = logmod.analyze(data, args.log)
        bt = lg.last_complete()
        status = bt.end.get("exit_status") if bt is not None and isinstance(bt.end.get("exit_status"), int) else None
        errs = judge(lg, args, status, data.decode("utf-8", "replace"))
        if args.expect_status is not None and status != args.expect_status:
            errs.append(f"guest exit status {status}, expected {args.expect_status}")
        for e in errs:
            say(f"{args.log}: {e}")
        if errs:
            return BROKEN
        say(f"{args.log}: {len(bt.records)} records, all valid; guest status {status}")
        return 0
    if not cmd:
        raise UsageError("no command given (use: bm run [options] -- qemu-system-... args, or --log FILE)")
    exe = cmd[0]
    if shutil.which(exe) is None:
        if os.path.isfile(exe) and not os.access(exe, os.X_OK):
            raise UsageError(f"{exe} is not a program: to judge a saved log use `bm run --log {exe}` "
                             f"or `bm check {exe}`")
        hint = f": install the Debian package {args.package} (tools/setup does)" if args.package else ""
        raise UsageError(f"{exe} not found{hint}")
    if served:
        return serve.main(args, cmd, echo_for(args), lambda rc: map_status(rc, args.exit_map), judge)
    counts = None
    if args.model:
        # (the console is shown once the model's counts are merged into its records)
        cmd, counts = model.prepare(cmd, args)
    shown = echo_for(args)
    echo = None if counts else shown
    first = None
    status = 0
    for i in range(args.runs):
        try:
            res = stream.run_command(cmd, timeout=args.timeout, linger=args.linger, echo=echo)
        except OSError as e:
            say(f"cannot start {exe}: {e.strerror or e}")
            return BROKEN
        finally:
            if hasattr(echo, "flush"):
                echo.flush()
        if counts and not res.timed_out:
            try:
                res.data = model.merge(res.data, counts, args.model_geometry)
            except ValueError as e:
                # (the console as it came, kept: the model's failure loses none of the firmware's records)
                if shown is not None:
                    shown(res.data)
                if args.save:
                    logmod.write(args.save, res.data)
                    say(f"console saved to {args.save} as the firmware printed it (no model figures merged)")
                say(f"cache model: {e}")
                return BROKEN
        if counts and shown is not None:
            shown(res.data)
            if hasattr(shown, "flush"):
                shown.flush()
        if args.save:
            logmod.write(args.save, res.data)
        lg = logmod.analyze(res.data, "console")
        if args.save and not args.quiet:
            say(f"console saved to {args.save} ({len(lg.scan.records)} records)")
        text = res.data.decode("utf-8", "replace")
        if res.timed_out:
            say(f"timed out after {args.timeout:g} s without a record; stopped")
            explain(lg)
            for p in lg.problems:
                if p.kind != "incomplete":
                    say(p.msg)
            return TIMEOUT
        if res.stopped:
            bt = lg.last_complete()
            status = bt.end.get("exit_status") if bt is not None else None
        else:
            status = map_status(res.returncode, args.exit_map)
            sig = signal_name(res.returncode)
            last = lg.boots[-1] if lg.boots else None
            told = last.end.get("exit_status") if last is not None and last.end is not None else None
            if sig and isinstance(told, int) and not isinstance(told, bool):
                # The reader of a console (cat of the pty QEMU writes) gets SIGHUP when QEMU exits:
                # its end says nothing about the run, whose end record has arrived.
                status = told
                say(f"the command ended by signal {sig} after the end record: the run is judged by its records "
                    f"(guest status {status}, from the end record)")
            elif status is None:
                say(f"the command ended with status {res.returncode}{f' ({sig})' if sig else ''} without the exit "
                    "device (crash?)")
                explain(lg)
                return BROKEN
        errs = judge(lg, args, status, text) if checking else []
        if not checking and status in (0, 1) and (not lg.boots or lg.boots[-1].end is None):
            # The guest says it finished, its console does not: the records were lost (a benchmark
            # broke the UART) or the process ended early (exit() on host-linux): no status to trust.
            errs.append(f"the guest exited with status {status}, but its console has no end record "
                        "(the console stopped, or the run ended early): its results are not all there")
        if not checking:
            errs += text_errors(args, text)
        if args.expect_status is not None and status != args.expect_status:
            errs.append(f"guest exit status {status}, expected {args.expect_status}")
        if errs:
            if status == 3 or not lg.boots or lg.boots[-1].end is None:
                explain(lg)
            for e in errs:
                say(e)
            return BROKEN
        bt = lg.last_complete()
        lines = [r.text for r in bt.records] if bt else []
        if first is None:
            first = lines
        elif lines != first:
            k = next((j for j, (a, b) in enumerate(zip(first, lines)) if a != b), min(len(first), len(lines)))
            say(f"run {i + 1} differs from run 1 at record {k}:")
            if k < len(first):
                say(f"  run 1: {first[k].decode('utf-8', 'replace')}")
            if k < len(lines):
                say(f"  run {i + 1}: {lines[k].decode('utf-8', 'replace')}")
            return BROKEN
        if checking:
            say(f"run {i + 1}: {len(lines)} records, all valid, guest status {status}")
    if args.runs > 1:
        say(f"{args.runs} runs gave identical records ({len(first)} records)")
    if args.expect_status is not None or (args.expect and any(s != "ok" for _, s in args.expect)):
        return 0
    return status if status is not None else BROKEN
