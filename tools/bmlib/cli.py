# SPDX-License-Identifier: Apache-2.0
"""The command line of tools/bm: one argparse subcommand per module of commands/ (each gives
add_arguments() and main()). A new subcommand (e.g. `lava`) is one more module there and one
more line in COMMANDS."""
import argparse
import errno
import importlib
import os
import sys

from .errors import UsageError
from .records.frame import printable

# name -> one-line help. Only the chosen command's module is imported, so `bm run` and
# `bm check` work even where numpy/scipy/matplotlib are missing (only compare/report/plot need them).
COMMANDS = {
    "run": "boot an image under a command (QEMU), stream and judge its records",
    "capture": "capture a board's console (serial port or command) into clean records",
    "check": "check logs: CRCs, order, counts, values (exit 0 = complete and clean)",
    "report": "tabulate results of one or more runs (table, csv, markdown, json)",
    "compare": "compare runs A and B: change with CI, significance, effect size, --gate",
    "plot": "plot a benchmark's histogram and CDF (runs overlaid) to PNG or SVG",
    "lava": "LAVA board farms: write a job, a device dictionary, run it locally, check its results",
    "history": "results over time: store runs by revision, list, change points, --gate, a trend page",
    "bisect": "find the first commit whose benchmark figure changed (git bisect with the kit's runs)",
}

EXIT_INTERNAL = 70


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(
        prog="bm", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="baremark's host tool: run or capture a board, check its records, report, "
                    "compare two builds, plot distributions. docs/tools.md has the details.",
        epilog="`bm COMMAND --help` describes each command.")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    chosen = next((a for a in argv if not a.startswith("-")), None)
    mod = None
    for name, text in COMMANDS.items():
        if name == chosen:
            try:
                mod = importlib.import_module(f"bmlib.commands.{name}")
            except ImportError as e:
                print(f"bm {name}: {e}: this Python ({sys.executable}) lacks Debian's packages; run "
                      f"tools/bm itself (it starts /usr/bin/python3) after `apt-get install "
                      f"python3-scipy python3-matplotlib python3-serial`", file=sys.stderr)
                return 2
            p = sub.add_parser(name, help=text, description=mod.__doc__,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
            mod.add_arguments(p)
        else:
            sub.add_parser(name, help=text, add_help=False)
    args = ap.parse_args(argv)
    if not args.command:
        ap.print_help(sys.stderr)
        return 2
    try:
        status = mod.main(args)
        sys.stdout.flush()   # (a full disk or a closed pipe is found here, not at exit)
        return status
    except UsageError as e:
        print(f"bm {args.command}: {printable(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"bm {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`bm report ... | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        if e.errno not in (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG, errno.EROFS):
            raise
        # Writing the output failed (a full disk, `> /dev/full`): not a bug, and what was not
        # written is said to be lost rather than half-written silently.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"bm {args.command}: cannot write the output: {e.strerror or e}", file=sys.stderr)
        return 2
    except Exception as e:  # a bug: say so in one line (BM_DEBUG=1 shows the traceback)
        if os.environ.get("BM_DEBUG"):
            raise
        print(f"bm {args.command}: internal error (a bug in bm; BM_DEBUG=1 shows where): "
              f"{type(e).__name__}: {e}", file=sys.stderr)
        return EXIT_INTERNAL
