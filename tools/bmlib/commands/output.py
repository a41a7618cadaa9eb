# SPDX-License-Identifier: Apache-2.0
"""Tables for report and compare, in the formats they offer: an aligned text table, CSV,
Markdown, or JSON (decimals stay exact numbers), and the number formatting they share. (Text from
records and file names is escaped for a terminal by records.frame.printable.)"""
import csv
import io
import math
from decimal import Decimal

from ..records.frame import dumps_json, printable

FORMATS = ("table", "csv", "markdown", "json")


def num(v, digits=3) -> str:
    """A figure for people: exact decimals without trailing zeros, floats to a few digits."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Decimal):
        s = format(v, "f")
        return s.rstrip("0").rstrip(".") if "." in s else s
    if isinstance(v, float):
        if not math.isfinite(v):
            return "inf" if v > 0 else "-inf" if v < 0 else "-"
        if v != 0 and abs(v) < 10 ** -digits:
            return f"{v:.2g}"
        s = f"{v:.{digits}f}"
        return s.rstrip("0").rstrip(".") if "." in s else s
    return str(v)


def pct(x, signed=True) -> str:
    if x is None or not math.isfinite(x):
        return "-"
    return f"{x * 100:+.2f}%" if signed else f"{x * 100:.2f}%"


def _csv(v):
    """CSV keeps full precision (it is for programs): exact decimals, and floats (ratios,
    p-values, intervals) as the shortest text that reads back as the same float."""
    if v is None:
        return ""
    if isinstance(v, Decimal):
        return format(v, "f")
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else ""
    return str(v)


def render(rows, columns, fmt, out):
    """rows: list of dicts; columns: [(key, title)]. Table cells are already strings for
    `table`/`markdown`/`csv`; JSON takes the raw values from the `_raw` dict of each row."""
    if fmt == "json":
        out.write(dumps_json([r.get("_raw", {k: r.get(k) for k, _ in columns}) for r in rows]) + "\n")
        return
    # (CSV and JSON carry text exactly, quoted or escaped by their own rules; a table and
    # Markdown are read on a terminal or as lines)
    cells = [[printable(r.get(k, "")) for k, _ in columns] for r in rows]
    titles = [printable(t) for _, t in columns]
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow([k for k, _ in columns])
        for r in rows:
            raw = r.get("_raw", {})
            w.writerow([_csv(raw[k]) if k in raw else r.get(k, "") for k, _ in columns])
        out.write(buf.getvalue())
        return
    if fmt == "markdown":
        out.write("| " + " | ".join(titles) + " |\n")
        out.write("|" + "|".join("---" if i == 0 else "---:" for i in range(len(titles))) + "|\n")
        for c in cells:
            out.write("| " + " | ".join(x.replace("|", "\\|") for x in c) + " |\n")
        return
    width = [max([len(t)] + [len(c[i]) for c in cells]) for i, t in enumerate(titles)]

    def line(c):
        return "  ".join(x.ljust(width[i]) if i < 2 else x.rjust(width[i])
                         for i, x in enumerate(c)).rstrip()
    out.write(line(titles) + "\n")
    for c in cells:
        out.write(line(c) + "\n")
