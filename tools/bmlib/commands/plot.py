# SPDX-License-Identifier: Apache-2.0
"""Plot one benchmark's distribution from the hist records of one or more runs: a histogram
and a CDF side by side, one series per file (its runs pooled; --each-run for one per run),
P50/P99/P99.9 marked, the x axis over the bulk (min to the largest P99.9; --full-range for
everything), log-x when that spans more than ~1.5 decades. What the record knows, no more: an
exact value is a spike and a step of the CDF; a histogram bin is a bar over its range and a
shaded box of the CDF (where in the range its samples lie is not known). A series of one run
marks the record's own p50, p99 and p999; pooled runs the nearest rank of their pieces, shaded
where it lies in a bin. --event NAME plots an event count
instead: records hold its per-iteration mean and median per run, not its distribution, so that is
one bar (the mean) and one mark (the median) per run. Writes PNG or SVG (matplotlib, Agg backend:
no display needed)."""
import os
import sys

import numpy as np

from ..analysis import dist
from ..errors import UsageError
from ..records import events
from ..records.figures import RANKS
from ..records.frame import printable
from ..records.log import load_runs, same_file

LOG_DECADES = 1.5
MARKS = (("p50", "P50", ":"), ("p99", "P99", "--"), ("p999", "P99.9", "-."))


def add_arguments(p):
    p.add_argument("runs", nargs="+", metavar="RUN", help="log or records file (every complete boot is a run)")
    p.add_argument("--bench", required=True, metavar="NAME", help="the benchmark to plot")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.png or FILE.svg")
    p.add_argument("--bins", type=int, default=60,
                   help="most bars a series shows (default 60): past that, neighbouring pieces (exact values, "
                        "bins) are drawn as one bar over their range")
    p.add_argument("--each-run", action="store_true", help="one series per run, not per file")
    p.add_argument("--event", metavar="NAME", type=_one_event,
                   help="plot this event count per run (its mean and median) instead of the cycles' distribution")
    p.add_argument("--full-range", action="store_true",
                   help="x axis to the largest sample (default: to the largest P99.9, the rest counted in the title)")


def _one_event(text):
    import argparse
    names = events.name_list(text)
    if len(names) != 1:
        raise argparse.ArgumentTypeError(f"{text!r}: one event per plot")
    return names[0]


def _open_plt():
    # Always Agg (files only): a display backend named in the environment, valid or not, is not
    # ours to use, and matplotlib would refuse an unknown one at import.
    os.environ.pop("MPLBACKEND", None)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(plt, fig, path):
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}")
    finally:
        plt.close(fig)


def plot_event(runs, args, warn):
    """One bar per run: the event's mean per iteration, its median marked; each run's source named
    (a modelled count is labelled so). A run that could not count it is said with its reason."""
    bars = []
    for run in runs:
        b = run.bench(args.bench)
        if b is None or b.result is None or b.status != "ok":
            warn(f"{run.label}: no ok result of {args.bench}")
            continue
        v = (b.result.get("events") or {}).get(args.event)
        if v is None:
            why = events.not_counted(run.meta).get(args.event)
            warn(f"{run.label}: {args.event} not counted" + (f": {why}" if why else " (not in -DBM_EVENTS)"))
            continue
        label = run.label + (f" ({run.meta.get('label')})" if run.meta.get("label") else "")
        bars.append((label.replace("$", r"\$") + f"\n{events.source_text(v)}", float(v["mean"]), float(v["p50"])))
    if not bars:
        raise UsageError(f"nothing to plot: no run counts {args.event} for {args.bench} (the warnings say why)")
    plt = _open_plt()
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(bars) + 2), 4.5))
    x = np.arange(len(bars))
    ax.bar(x, [m for _, m, _ in bars], color="#4c72b0", label="mean")
    ax.scatter(x, [p for _, _, p in bars], color="black", marker="_", s=400, zorder=3, label="median (p50)")
    ax.set_xticks(x, [lb for lb, _, _ in bars], fontsize=8)
    ax.set_ylabel(f"{args.event} per iteration")
    ax.set_title(f"{args.bench}: {args.event} ({events.NAMES[args.event]})", fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    _save(plt, fig, args.output)
    print(f"bm plot: wrote {args.output} ({args.event}, {len(bars)} run{'s' if len(bars) != 1 else ''})",
          file=sys.stderr)
    return 0


def main(args):
    ext = os.path.splitext(args.output)[1].lower()
    if ext not in (".png", ".svg"):
        raise UsageError(f"-o {args.output}: the file name must end in .png or .svg")
    if not 5 <= args.bins <= 1000:
        raise UsageError("--bins must be 5..1000")
    for path in args.runs:
        if same_file(args.output, path):
            raise UsageError(f"-o {args.output} is one of the logs to plot ({path}): write the plot to another file")

    def warn(msg):
        print(f"bm plot: warning: {printable(msg)}", file=sys.stderr)
    runs = load_runs(args.runs, warn)
    if args.event:
        return plot_event(runs, args, warn)
    groups = {}  # series label -> (unit, [each run's benchmark])
    units = {}   # unit -> the first run that has it
    for run in runs:
        b = run.bench(args.bench)
        if b is None or b.result is None:
            warn(f"{run.label}: no benchmark {args.bench}")
            continue
        if b.status != "ok":
            warn(f"{run.label}: {args.bench} is {b.status}: nothing to plot")
            continue
        if b.hist is None:
            warn(f"{run.label}: {args.bench} has no hist record (meta hist:false): nothing to plot")
            continue
        units.setdefault(b.result.data.get("unit", ""), run.label)
        name = run.label if args.each_run or run.path == "-" else os.path.basename(run.path)
        label = name + (f" ({run.meta.get('label')})" if run.meta.get("label") else "")
        # (text, not mathtext: a $ in a file name or a build label is a dollar sign)
        label = label.replace("$", r"\$")
        groups.setdefault(label, (b.result.data.get("unit", ""), []))[1].append(b)
    if not groups:
        names = sorted({b.name for r in runs for b in r.boot.benches})
        raise UsageError(f"nothing to plot for {args.bench!r} (benchmarks: {', '.join(names[:20])})")
    if len(units) > 1:
        # One x axis holds one unit: cycles of one core and TSC ticks of another are not
        # the same numbers, however alike they look.
        raise UsageError(f"{args.bench} is in different units: " +
                         ", ".join(f"{u} ({where})" for u, where in units.items()) +
                         "; plot each unit on its own")
    series = []
    for label, (unit, benches) in groups.items():
        parts = sorted((lo / b.hist.data["div"], hi / b.hist.data["div"], c)
                       for b in benches for lo, hi, c in dist.pieces(b.hist.data))
        if len(benches) > 1:
            label += f", {len(benches)} runs"
        series.append((label, parts, dict(_marks(benches, parts), unit=unit)))
    draw(series, args.bench, args.output, args.bins, args.full_range)
    nruns = sum(len(p) for _, p in groups.values())
    print(f"bm plot: wrote {args.output} ({len(series)} series, {nruns} run{'s' if nruns != 1 else ''})",
          file=sys.stderr)
    return 0


def _marks(benches, parts):
    """{p50, p99, p999: (lo, hi)}: one run's record figures (exact or the firmware's own answer in
    its bin), pooled runs' nearest ranks over their pieces (a range where a rank falls in a bin)."""
    if len(benches) == 1:
        r = benches[0].result.data
        return {k: (float(r[k]), float(r[k])) for k, _, _ in MARKS}
    return {k: tuple(float(x) for x in dist.quantile_range(parts, *RANKS[k])) for k, _, _ in MARKS}


def _bars(parts, edges):
    """More pieces than bars: the pieces whose middle falls between two edges, as one bar over
    their own range (equal steps of x, so heights compare; a piece is never split)."""
    if len(parts) < len(edges):
        return parts
    mid = np.array([(a + b) / 2 for a, b, _ in parts])
    slot = np.searchsorted(edges, mid, side="right")
    out = {}
    for (a, b, c), k in zip(parts, slot):
        lo, hi, n = out.get(k, (a, b, 0))
        out[k] = (min(lo, a), max(hi, b), n + c)
    return [out[k] for k in sorted(out)]


def draw(series, bench, path, nbins, full_range=False):
    plt = _open_plt()
    lo = min(p[0][0] for _, p, _ in series)
    hi = max(max(x[1] for x in p) for _, p, _ in series)
    hidden = 0
    if not full_range:
        # The bulk: a few far outliers would otherwise squeeze every sample into one bar.
        cut = max(m["p999"][1] for _, _, m in series)
        if cut < hi:
            hi = cut
            hidden = sum(c for _, p, _ in series for a, _, c in p if a > cut)
    logx = lo > 0 and hi / lo > 10 ** LOG_DECADES
    pad = (hi / lo) ** 0.03 if logx else ((hi - lo) * 0.05 or max(abs(hi) * 0.01, 0.5))
    x0, x1 = (lo / pad, hi * pad) if logx else (lo - pad, hi + pad)
    edges = np.geomspace(lo, hi, nbins + 1) if logx else np.linspace(lo, hi, nbins + 1)
    unit = series[0][2].get("unit", "")
    beyond = f" ({hidden} sample{'s' if hidden != 1 else ''} above {hi:g} not shown; --full-range)" if hidden else ""
    fig, (ax_h, ax_c) = plt.subplots(1, 2, figsize=(12, 4.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (label, parts, res) in enumerate(series):
        c = colors[i % len(colors)]
        n = sum(p[2] for p in parts)
        shown = [p for p in _bars(parts, edges) if p[0] <= x1]
        # an exact value: a spike; a range: a bar over it (its samples are somewhere in it)
        spikes = [(a, k / n) for a, b, k in shown if a == b]
        ranges = [(a, b, k / n) for a, b, k in shown if a != b]
        if spikes:
            ax_h.vlines([a for a, _ in spikes], 0, [f for _, f in spikes], color=c, linewidth=2, label=label)
        if ranges:
            ax_h.bar([a for a, _, _ in ranges], [f for _, _, f in ranges], width=[b - a for a, b, _ in ranges],
                     align="edge", color=c, alpha=0.45, edgecolor=c, label=None if spikes else label)
        # the CDF: what is surely <= x and what may be; equal (one line) where every value is known
        xs, low, up = dist.cdf_bounds(parts)
        xs = np.append(xs, max(xs[-1], x1))
        low, up = np.append(low, low[-1]) / n, np.append(up, up[-1]) / n
        ax_c.step(xs, up, where="post", color=c, label=label, marker="o" if len(parts) == 1 and n == 1 else None)
        if (low != up).any():
            ax_c.step(xs, low, where="post", color=c, linewidth=0.8)
            ax_c.fill_between(xs, low, up, step="post", color=c, alpha=0.25, linewidth=0)
        for key, name, style in MARKS:
            a, b = res[key]
            for ax in (ax_h, ax_c):
                if a == b:
                    ax.axvline(a, color=c, linestyle=style, linewidth=1, alpha=0.8)
                else:
                    ax.axvspan(a, b, color=c, alpha=0.15, linewidth=0)
    for ax in (ax_h, ax_c):
        if logx:
            ax.set_xscale("log")
        ax.set_xlim(x0, x1)
        ax.set_xlabel(f"{unit} per iteration")
        ax.grid(True, alpha=0.3)
    ax_h.set_ylabel("fraction of samples (spike: one value; bar: a range)")
    ax_h.set_title(f"{bench}: distribution{beyond}", fontsize=10)
    ax_c.set_ylabel("fraction of samples <= x (shaded: within a bin)")
    ax_c.set_ylim(0, 1.02)
    ax_c.set_title(f"{bench}: CDF")
    from matplotlib.lines import Line2D
    ax_h.legend(loc="upper right", fontsize=8)
    ax_c.legend(handles=[Line2D([], [], color="gray", linestyle=s, label=n) for _, n, s in MARKS],
                loc="lower right", fontsize=8)
    _save(plt, fig, path)
