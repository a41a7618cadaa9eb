#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A stand-in for a board under QEMU: prints a format-2 console log written by corpus.py and
then behaves as told (exit with a status, hang after the end record, hang or die mid-run),
optionally slowly, with CR LF, ANSI noise and a reset first. Used by the run/capture tests.
    fake_board.py [--log r14|fail|host] [--delay S] [--status N] [--isa-exit] [--hang-after-end]
                  [--hang-at NAME] [--die-at NAME] [--quiet-at NAME] [--reset] [--crlf] [--ansi] [--out PATH]"""
import argparse
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", default="fail")
    ap.add_argument("--delay", type=float, default=0.0, help="seconds between lines")
    ap.add_argument("--status", type=int, default=None, help="exit status (default: the end record's)")
    ap.add_argument("--isa-exit", action="store_true", help="exit with (status << 1) | 1 like x86 QEMU")
    ap.add_argument("--hang-after-end", action="store_true")
    ap.add_argument("--hang-at", help="stop printing after this benchmark's start record and hang")
    ap.add_argument("--die-at", help="after this benchmark's start record, die of SIGSEGV")
    ap.add_argument("--quiet-at", help="after this benchmark's start record, print nothing more and exit 0")
    ap.add_argument("--reset", action="store_true", help="print a boot cut after 5 records first")
    ap.add_argument("--crlf", action="store_true")
    ap.add_argument("--ansi", action="store_true", help="colour codes and a clear-screen on human lines")
    ap.add_argument("--out", help="write to this file (a pty) instead of stdout")
    ap.add_argument("--wait-for", help="wait until this file exists before printing")
    a = ap.parse_args()
    lines = {"r14": corpus.realistic14, "fail": corpus.failing_log,
             "host": corpus.hosted_runs}[a.log]()
    if a.reset:
        first = [i for i, l in enumerate(lines) if l.startswith("{")][5]
        lines = lines[:first + 1] + ["\x00\xff"] + lines
    eol = "\r\n" if a.crlf else "\n"
    out = open(a.out, "wb", buffering=0) if a.out else sys.stdout.buffer
    if a.wait_for:
        while not os.path.exists(a.wait_for):
            time.sleep(0.02)
    status = 0
    for line in lines:
        if a.ansi and not line.startswith("{"):
            line = "\x1b[2K\x1b[1;32m" + line + "\x1b[0m"
        out.write((line + eol).encode("latin-1" if "\xff" in line else "utf-8"))
        out.flush()
        if a.delay:
            time.sleep(a.delay)
        if line.startswith('{"type":"end"'):
            status = int(line.split('"exit_status":')[1].split(",")[0])
        if a.quiet_at and line.startswith('{"type":"start"') and f'"name":"{a.quiet_at}"' in line:
            sys.exit(0)     # (a UART a benchmark broke: the kit finishes and exits, unheard)
        for name, action in ((a.hang_at, "hang"), (a.die_at, "die")):
            if name and line.startswith('{"type":"start"') and f'"name":"{name}"' in line:
                out.write(f"*** {action.upper()}: {name} stopped here{eol}".encode())
                out.flush()
                if action == "hang":
                    while True:
                        time.sleep(1)
                os.kill(os.getpid(), signal.SIGSEGV)
    if a.hang_after_end:
        while True:
            time.sleep(1)
    status = a.status if a.status is not None else status
    sys.exit((status << 1) | 1 if a.isa_exit else status)


if __name__ == "__main__":
    main()
