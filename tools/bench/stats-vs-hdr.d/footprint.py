#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Statistics footprint of a firmware image: the text and read-only data the linker kept from the
statistics core (core/stats/*) and its wide-integer module (core/out/bm_wide.c), split into the
part a timed sample can run (insert: bm_stats_insert.c, bm_stats_layout.c), the exact mode
(exact: bm_stats_exact.c: its insert, its switch to the histogram, and what the report reads of
it) and the part only the report runs (report: bm_stats_report.c, bm_stats_wide.c,
bm_stats_record.c, bm_wide.c), from the link map.

  footprint.py MAP [--limit BYTES]

The inline fast path (bm/stats.h) is compiled into its callers (the harness, kit_stats); its
copies are listed separately, by the symbols of the functions it is inlined into, not counted."""
import argparse
import re
import sys

PARTS = {
    "insert": ("core/stats/bm_stats_insert.c", "core/stats/bm_stats_layout.c"),
    "exact": ("core/stats/bm_stats_exact.c",),
    "report": ("core/stats/bm_stats_report.c", "core/stats/bm_stats_wide.c", "core/stats/bm_stats_record.c",
               "core/out/bm_wide.c"),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("map")
    ap.add_argument("--limit", type=int, default=8192)
    a = ap.parse_args()
    try:
        text = open(a.map).read()
    except OSError as e:
        sys.exit(f"footprint: {e}")
    start = text.find("Linker script and memory map")
    if start < 0:
        sys.exit(f"footprint: {a.map} is not a GNU ld map")
    lines = text[start:].splitlines()
    sec = re.compile(r"^ (\.(?:text|rodata|srodata)[^\s]*)(?:\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+))?\s*$")
    cont = re.compile(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)\s*$")
    sizes = {p: {} for p in PARTS}
    i = 0
    while i < len(lines):
        m = sec.match(lines[i])
        if m:
            name, addr, size, obj = m.groups()
            if addr is None and i + 1 < len(lines):
                c = cont.match(lines[i + 1])
                if c:
                    addr, size, obj = c.groups()
                    i += 1
            if addr is not None and int(addr, 16) != 0:
                for part, srcs in PARTS.items():
                    if any(obj.endswith(src + ".obj") or obj.endswith(src + ".o") for src in srcs):
                        sizes[part][name] = int(size, 16)
        i += 1
    total = 0
    for part, d in sizes.items():
        t = sum(d.values())
        total += t
        print(f"{part:<7} {t:6d} B   " + ", ".join(f"{n.split('.', 2)[-1]} {s}" for n, s in
                                                sorted(d.items(), key=lambda x: -x[1])[:8]) + (" ..." if len(d) > 8 else ""))
    print(f"total   {total:6d} B   (limit {a.limit} B: {'met' if total <= a.limit else 'MISSED'})")
    return 0 if total <= a.limit else 1


if __name__ == "__main__":
    sys.exit(main())
