# SPDX-License-Identifier: Apache-2.0
"""One row per benchmark and run (or per benchmark, merged over runs) with its key figures
and their unit, as a text table, CSV, Markdown or JSON. Merged rows give, for each figure,
the median over the runs, and the runs' spread of the median. Event counts (records.md's
"events") follow as a table of their own, with the events each run could not count and why."""
import sys

from ..analysis import stats
from ..analysis.compare import comparability
from ..errors import UsageError
from ..records import events
from ..records.figures import SUMMARY
from ..records.frame import printable
from ..records.log import load_runs
from ..shared import (CV_NOISY_PPM, DRIFT_UNSTABLE_PPM, SHORT_INTERVAL_FACTOR, WARMUP_CV_PPM, WARMUP_MAX,
                      WARMUP_WINDOW)
from .options import bench_pattern
from .output import FORMATS, num, pct, render

FIGS = SUMMARY + ("stddev",)


def add_arguments(p):
    p.add_argument("runs", nargs="+", metavar="RUN", help="log or records file (every complete boot is a run)")
    p.add_argument("--format", choices=FORMATS, default="table", help="output format (default table)")
    p.add_argument("--merge", action="store_true",
                   help="one row per benchmark: each figure is the median over the runs")
    p.add_argument("--bench", metavar="REGEX", help="only benchmarks whose name matches REGEX")
    p.add_argument("--force", action="store_true",
                   help="--merge runs even when their board, unit, counter or sample count differ")


# The marks an ok row can carry (as the firmware's table marks them), each explained on stderr.
MARKS = {
    "*": f"the median batch is under {SHORT_INTERVAL_FACTOR}x the counter read overhead or {SHORT_INTERVAL_FACTOR} "
         f"ticks: the figure rests on the overhead subtraction or the counter's resolution",
    "~": f"drift_ppm over {DRIFT_UNSTABLE_PPM:,}: the machine's speed (or the benchmark's own cost) moved during it",
    "?": "state-dependent: under deterministic QEMU its cold run cost other than a warm one: the body changes the "
         "state its work depends on (its figures time runs on its own output; give it a setup_each)",
    "%": f"noisy: the samples' cv is over {CV_NOISY_PPM / 10000:g}%: no one figure stands for them (see the "
         f"percentiles, or bm plot)",
    "^": f"unsettled: the warm-up stopped at its cap of {WARMUP_MAX} batches before the last {WARMUP_WINDOW} agreed "
         f"within {WARMUP_CV_PPM / 10000:g}%: the cost was still moving when the samples began",
    "!": "a statistics counter saturated: the moments of those results are not exact",
}


def _status(res):
    """ok, with the firmware table's marks: ok* (short_interval: the median batch is under
    SHORT_INTERVAL_FACTOR x the counter read overhead or that many ticks, the figure rests on the
    subtraction or the resolution), ok~ (the machine's speed or the benchmark's own cost moved
    during it: drift_ppm over DRIFT_UNSTABLE_PPM), ok? (state_dependent: under
    deterministic QEMU its cold run cost other than a warm one), ok% (noisy: its samples' cv over
    CV_NOISY_PPM), ok^ (its warm-up hit its cap unsettled); and ok! (a statistics counter
    saturated: the moments are not exact); or the failure."""
    st = res.get("status")
    if st == "ok":
        flags = res.get("flags") if isinstance(res.get("flags"), dict) else {}
        warm = res.get("warmup") if isinstance(res.get("warmup"), dict) else {}
        return "ok" + ("*" if res.get("short_interval") is True else "") + \
            ("~" if res.get("unstable") is True else "") + ("?" if res.get("state_dependent") is True else "") + \
            ("%" if res.get("noisy") is True else "") + ("^" if warm.get("settled") is False else "") + \
            ("!" if flags.get("saturated") is True else "")
    where = f" in {res.get('phase')}" if res.get("phase") else ""
    return f"{st}: {res.get('reason', '')}{where}"


def per_run(runs, pick):
    rows = []
    for run in runs:
        for b in run.boot.benches:
            if not pick(b.name) or b.result is None:
                continue
            r = b.result.data
            raw = {"run": run.label, "benchmark": b.name, "status": _status(r), "unit": r.get("unit"),
                   "iters": r.get("iters"), "n": r.get("n"), "cold": r.get("cold")}
            raw.update({k: r.get(k) for k in FIGS})
            raw.update({"cv": r.get("cv_ppm") / 1e6 if isinstance(r.get("cv_ppm"), int) else None,
                        "insns": r.get("insns"), "p50_ns": r.get("p50_ns"), "ops_per_s": r.get("ops_per_s"),
                        "label": run.meta.get("label"), "board": run.meta.get("board")})
            if isinstance(r.get("events"), dict):
                raw["events"] = r["events"]
            if events.not_counted(run.meta):
                raw["events_not_counted"] = events.not_counted(run.meta)
            cells = {k: num(v) for k, v in raw.items()}
            cells["cv"] = pct(raw["cv"], signed=False) if raw["cv"] is not None else "-"
            cells["_raw"] = raw
            rows.append(cells)
    return rows


def merged(runs, pick, warn=None):
    names = []
    for run in runs:
        names += [b.name for b in run.boot.benches if pick(b.name) and b.name not in names]
    rows = []
    for name in names:
        res = [run.bench(name).result.data for run in runs
               if run.bench(name) is not None and run.bench(name).result is not None]
        ok = [r for r in res if r.get("status") == "ok"]
        marked = sorted({_status(r) for r in ok} - {"ok"})
        failed = ", ".join(sorted({_status(r) for r in res if r.get("status") != "ok"}))
        raw = {"benchmark": name, "runs": len(res), "ok": len(ok),
               "status": ("ok" if not marked else "/".join(marked)) if len(ok) == len(res) else
               f"ok in {len(ok)} of {len(res)}; {failed}" if ok else failed,
               "unit": ok[0].get("unit") if ok else None}
        if warn and len(res) < len(runs):
            warn(f"{name}: in {len(res)} of the {len(runs)} runs")
        if warn and ok and len(ok) < len(res):
            warn(f"{name}: its figures are the medians of the {len(ok)} runs it passed, of {len(res)}")
        for k in FIGS:
            # (exact: the median of decimals is a decimal, and what is printed is the figure)
            vals = [r[k] for r in ok if r.get(k) is not None]
            raw[k] = stats.median(vals) if vals else None
        evs = {}
        for r in ok:
            for ev, v in (r.get("events") or {}).items():
                evs.setdefault(ev, []).append(v)
        if evs:
            # (each figure the median over the runs that counted it; every source that did)
            raw["events"] = {ev: {"mean": stats.median([v["mean"] for v in vs]),
                                  "p50": stats.median([v["p50"] for v in vs]),
                                  "source": "/".join(sorted({v["source"] for v in vs})), "runs": len(vs)}
                             for ev, vs in evs.items()}
        p50s = [r["p50"] for r in ok]
        raw["spread"] = float((max(p50s) - min(p50s)) / raw["p50"]) if len(p50s) > 1 and raw["p50"] else None
        cells = {k: num(v) for k, v in raw.items()}
        cells["spread"] = pct(raw["spread"], signed=False) if raw["spread"] is not None else "-"
        cells["_raw"] = raw
        rows.append(cells)
    return rows


def event_columns(rows):
    """CSV's event columns: NAME.mean, NAME.p50, NAME.source for every event of any row."""
    names = list(dict.fromkeys(ev for row in rows for ev in row["_raw"].get("events", {})))
    for row in rows:
        for ev, v in row["_raw"].get("events", {}).items():
            row["_raw"].update({f"{ev}.mean": v["mean"], f"{ev}.p50": v["p50"], f"{ev}.source": v["source"]})
    return [(f"{ev}.{k}", f"{ev}.{k}") for ev in names for k in ("mean", "p50", "source")]


def event_table(rows, runs, fmt, merged_rows):
    """The events of the rows as a table of their own (one row per benchmark and event), then the
    events each run could not count and why. Nothing when no run counts or refuses one."""
    out = []
    for row in rows:
        raw = row["_raw"]
        for ev, v in raw.get("events", {}).items():
            out.append({"run": raw.get("run", ""), "benchmark": raw["benchmark"], "event": ev,
                        "source": "/".join(events.SOURCE_WORDS.get(x, x) for x in v["source"].split("/")),
                        "mean": num(v["mean"]), "p50": num(v["p50"]), "below": num(v.get("below")),
                        "runs": num(v.get("runs"))})
    refused = {}
    for run in runs:
        for ev, why in events.not_counted(run.meta).items():
            refused.setdefault((ev, why), []).append(run.label)
    if not out and not refused:
        return
    if out:
        cols = [("run", "run"), ("benchmark", "benchmark"), ("event", "event"), ("source", "source"),
                ("mean", "mean/it"), ("p50", "p50/it"), ("below", "below")]
        if merged_rows:
            cols = cols[1:-1] + [("runs", "runs")]
        elif len(runs) == 1 and fmt == "table":
            cols = cols[1:]
        print("\nevents per iteration, overhead subtracted (modelled: the QEMU cache model of bm run --model, "
              "not a hardware count):")
        render(out, cols, fmt, sys.stdout)
    if refused:
        print("\nnot counted:")
        for (ev, why), where in refused.items():
            shown = "" if len(where) == len(runs) else f" (in {', '.join(where[:3])}{', ...' if len(where) > 3 else ''})"
            print(printable(f"{'- ' if fmt == 'markdown' else '  '}{ev}: {why}{shown}"))


def main(args):
    def warn(msg):
        print(f"bm report: warning: {printable(msg)}", file=sys.stderr)
    rx = bench_pattern(args.bench)
    pick = (lambda n: bool(rx.search(n))) if rx else (lambda n: True)
    runs = load_runs(args.runs, warn)
    if args.merge and not args.force:
        differ = comparability(runs, [])
        if differ:
            raise UsageError("--merge takes medians over runs of one kind; these differ in " +
                             "; ".join(f"{k}: {', '.join(map(str, v))}" for k, v in differ.items()) +
                             " (report them without --merge, or --force)")
    if args.merge:
        rows = merged(runs, pick, warn)
        cols = [("benchmark", "benchmark"), ("status", "status"), ("runs", "runs"), ("unit", "unit")] + \
               [(k, k) for k in FIGS] + [("spread", "p50 spread")]
    else:
        rows = per_run(runs, pick)
        cols = [("run", "run"), ("benchmark", "benchmark"), ("status", "status"), ("unit", "unit"),
                ("iters", "iters"), ("n", "n"), ("cold", "cold")] + [(k, k) for k in FIGS] + \
               [("cv", "cv"), ("insns", "insn/it"), ("p50_ns", "ns/it"), ("ops_per_s", "ops/s")]
        if len(runs) == 1 and args.format == "table":
            cols = cols[1:]
    if not rows:
        raise UsageError("no benchmark to report" + (f" matches {args.bench!r}" if args.bench else ""))
    if args.format == "csv":
        cols += event_columns(rows)
    render(rows, cols, args.format, sys.stdout)
    if args.format in ("table", "markdown"):
        event_table(rows, runs, args.format, args.merge)
    marks = {c for row in rows for c in MARKS if row["_raw"]["status"].startswith("ok") and c in row["_raw"]["status"]}
    for c, text in MARKS.items():
        if c in marks:
            warn(f"ok{c}: {text}")
    return 0
