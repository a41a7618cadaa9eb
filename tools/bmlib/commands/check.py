# SPDX-License-Identifier: Apache-2.0
"""Check console logs against docs/records.md (format 2): every CRC, the order and count of
the records of each boot, and every value rule. Each problem is named once; lines that are
not records never void the records around them.

Exit status: 0 every log complete and clean, 1 problems (listed), 2 usage or unreadable file."""
import sys

from ..errors import UsageError
from ..records import log as logmod
from ..records.frame import printable


def add_arguments(p):
    p.add_argument("logs", nargs="+", metavar="LOG", help="console log or records file ('-' = stdin)")
    p.add_argument("--write", metavar="FILE",
                   help="save the records of the last complete boot to FILE (one LOG only)")
    p.add_argument("--quiet", action="store_true", help="print problems only (no summaries or notes)")


def summary(bt):
    a, b = bt.lines
    counts = {}
    for bench in bt.benches:
        if bench.status:
            counts[bench.status] = counts.get(bench.status, 0) + 1
    res = ", ".join(f"{v} {k}" for k, v in counts.items()) or "none"
    meta = bt.meta.data or {}
    fmt = [p for p in bt.problems if p.kind == "format"]
    state = "not read (not format 2)" if fmt else "complete" if bt.complete else "INCOMPLETE"
    return (f"boot {bt.index} (lines {a}-{b}): {state}, {len(bt.records)} records, "
            f"board {meta.get('board', '?')}, results: {res}")


def main(args):
    if args.write and len(args.logs) != 1:
        raise UsageError("--write saves one log's boot: give one LOG with it")
    if args.logs.count("-") > 1:
        raise UsageError("stdin ('-') can be read once: name it once, and the other logs by file")
    if args.write and logmod.same_file(args.write, args.logs[0]):
        # The log holds what --write drops (other boots, the console lines): never over it.
        raise UsageError(f"--write {args.write} is the log itself: write the records to another file")
    status = 0
    for path in args.logs:
        try:
            data = logmod.read(path)
        except UsageError as e:
            print(f"bm check: {e}", file=sys.stderr)
            status = 2
            continue
        lg = logmod.analyze(data, path)
        if not args.quiet:
            for bt in lg.boots:
                print(printable(f"{path}: {summary(bt)}"))
        for p in lg.problems:
            print(printable(f"{path}: problem: {p.msg}"))
        if not args.quiet:
            for n in lg.notes:
                print(printable(f"{path}: note: {n}"))
        verdict = "complete and clean" if lg.clean else \
            f"{len(lg.problems)} problem{'s' if len(lg.problems) != 1 else ''}"
        print(f"{path}: {verdict}")
        if not lg.clean:
            status = max(status, 1)
        if args.write:
            bt = lg.last_complete()
            if bt is None:
                print(f"bm check: {path}: no complete boot to write to {args.write}", file=sys.stderr)
                status = max(status, 1)
            else:
                logmod.write_boot(args.write, bt)
                if not args.quiet:
                    print(f"{path}: wrote the {len(bt.records)} records of boot {bt.index} to {args.write}")
    return status
