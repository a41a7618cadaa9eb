# SPDX-License-Identifier: Apache-2.0
"""bm run --list and --bench: a served image (-DBM_SERVE=ON; docs/records.md, "Served images")
booted under its QEMU command, its console on stdio, asked for its benchmarks' names or to run
some of them with the samples and warm-up given, and ended; the console saved and judged as any
run's. Exit status as bm run's: the guest's (0 every result ok, 1 one was not), 2 for a command the
image refused (an unknown benchmark, a number out of its range) or an image that is not served,
124 on a timeout, 125 when the run or its records are broken."""
import sys

from ..errors import UsageError
from ..records import log as logmod
from ..records import session
from .options import count

CONFIG, TIMEOUT, BROKEN = 2, 124, 125


def add_arguments(p):
    p.add_argument("--list", action="store_true",
                   help="a served image: print the names of its benchmarks, one a line")
    p.add_argument("--bench", metavar="NAME[,NAME...]",
                   help="a served image: run these benchmarks (* all), in this order, in one boot")
    p.add_argument("--samples", type=count, help="with --bench: timed batches per benchmark (default: the image's)")
    p.add_argument("--warmup", type=count, help="with --bench: at least this many warm-up batches (1 to 256)")


def wanted(args):
    """Whether this bm run talks to a served image; its options' use checked."""
    served = args.list or args.bench is not None
    if (args.samples or args.warmup) and args.bench is None:
        raise UsageError("--samples and --warmup go with --bench")
    if served and args.list and args.bench is not None:
        raise UsageError("--list or --bench: one of them")
    if served and (args.runs > 1 or args.model or args.log):
        raise UsageError("--list and --bench talk to one boot of a served image: no --runs, --model or --log")
    return served


def commands(args, line_max):
    """The command lines: `list`, or `run` lines of the names (as many names a line as fit)."""
    if args.list:
        return [b"list"]
    names = [n for n in args.bench.split(",")]
    if not all(names):
        raise UsageError(f"--bench {args.bench!r}: an empty name")
    opts = (f" samples {args.samples}" if args.samples else "") + (f" warmup {args.warmup}" if args.warmup else "")
    lines, cur = [], []
    for n in names:
        if cur and len("run " + ",".join(cur + [n]) + opts) > line_max:
            lines.append(cur)
            cur = []
        cur.append(n)
    lines.append(cur)
    return [("run " + ",".join(c) + opts).encode() for c in lines]


def say(msg):
    print(f"bm run: {msg}", file=sys.stderr)


def converse(args, s):
    """Boot to the first ready record, the commands, then `end`: (what failed as (status, words)
    or None, the list's names)."""
    ready = s.ready(args.timeout)
    names = None
    for line in commands(args, ready.get("line_max") if isinstance(ready.get("line_max"), int) else 80):
        reply = s.command(line, args.timeout)
        err = next((r for r in reply if r.type == "error"), None)
        if err is not None:
            word = f" {err.get('word')!r}" if err.get("word") else ""
            hint = " (bm run --list names them)" if err.get("reason") == "unknown benchmark" else ""
            return (CONFIG, f"the image refused `{line.decode()}`: {err.get('reason')}{word}{hint}"), names
        lst = next((r for r in reply if r.type == "list"), None)
        if lst is not None:
            names = lst.get("names")
    return None, names


def main(args, cmd, echo, status_of, judge):
    """The conversation under cmd, the console echoed (echo: bm run's --show); status_of turns the
    command's exit status into the guest's (bm run's exit map), judge is bm run's --check."""
    cmd = session.serial_stdio(cmd)
    s = session.Session(cmd, echo=None if args.list else echo)
    failed, names, status = None, None, None
    try:
        try:
            failed, names = converse(args, s)
            if s.meta is not None and (s.meta.get("serve") is True):
                s.command(b"end", args.timeout)
                status = status_of(s.finish(args.timeout))
        except session.Stopped as e:
            failed = (CONFIG if "not a served" in e.why else TIMEOUT if "within" in e.why else BROKEN, e.why)
    except KeyboardInterrupt:
        failed = (BROKEN, "interrupted")
    finally:
        s.stop()
        if hasattr(echo, "flush"):
            echo.flush()
    data = bytes(s.data)
    # (an image that is not served ran nothing: the console saved before, its last real run's, stays)
    if args.save and s.meta is not None and s.meta.get("serve") is not True:
        say(f"nothing run: the console saved before ({args.save}) is kept")
    elif args.save:
        logmod.write(args.save, data)
        if not args.quiet:
            say(f"console saved to {args.save} ({len(s.records)} records)")
    if failed is not None:
        say(failed[1])
        return failed[0]
    lg = logmod.analyze(data, "console")
    errs = judge(lg, args, status, data.decode("utf-8", "replace")) if args.check else \
        [p.msg for p in lg.problems]
    if status is None:
        errs.append("the image did not exit after its end record (its exit device?)")
    for e in errs:
        say(e)
    if errs:
        return BROKEN
    if args.list:
        for n in names or []:
            print(n)
    elif not args.quiet:
        bt = lg.last_complete()
        done = [b for b in bt.benches if b.result is not None]
        ok = sum(b.status == "ok" for b in done)
        say(f"{len(done)} results ({ok} ok) from one boot of a served image; guest status {status}")
    return status
