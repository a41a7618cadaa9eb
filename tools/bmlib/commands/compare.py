# SPDX-License-Identifier: Apache-2.0
"""Compare two sides, A and B (two builds, boards or library versions), each one or more runs:
per benchmark the change of the median, mean and P99 with a confidence interval, a test that
fits the data, effect sizes and a verdict (`slower`, `faster`, `~` not significant, `same` exact,
`?` changed but no test fits these data: why is said under the table), and each event count
(records.md's "events") both sides have: `more`, `fewer`, `same`, `~` or `?` like the figures.
Deterministic QEMU runs are compared exactly. `--gate` turns a regression into exit status 1.

Exit status: 0 no gate failed, 1 a gate failed, 2 usage, unreadable or not comparable runs."""
import re
import sys
from decimal import Decimal

from ..analysis import dist, stats
from ..analysis.compare import Row
from ..analysis.compare import (BUILT, KIT, comparability, compare_bench, differences_text, iters_of, mixed_builds,
                                side_differences)
from ..analysis.gate import gate_failures, parse_gate, state_failures
from ..errors import UsageError
from ..records import events
from ..records.figures import SUMMARY
from ..records.frame import printable
from ..records.log import load_runs
from ..shared import DRIFT_UNSTABLE_PPM
from .options import alpha, bench_pattern
from .output import FORMATS, num, pct, render


SHORT = {"exact": "exact", "mann-whitney U (runs)": "U-runs", "welch t (exact moments)": "welch-t",
         "welch t (moments)": "welch-t", "order-statistic interval": "OS-CI", "none": "-"}


def add_arguments(p):
    p.add_argument("files", nargs="*", metavar="RUN", help="A B: one file per side (or -a/-b)")
    p.add_argument("-a", nargs="+", default=[], metavar="RUN",
                   help="side A: log or records files; every complete boot in a file is one run")
    p.add_argument("-b", nargs="+", default=[], metavar="RUN", help="side B, as -a")
    p.add_argument("--metric", default="p50,mean,p99",
                   help=f"figures to compare, comma-separated, of {','.join(SUMMARY)} (default p50,mean,p99)")
    p.add_argument("--events", metavar="NAME,...", type=_event_names,
                   help="event counts to compare, comma-separated (default: every one both sides count; none: no "
                        "event)")
    p.add_argument("--gate", action="append", default=[], metavar="METRIC:+LIMIT[%]",
                   help="exit 1 when a benchmark's METRIC got significantly worse by more than LIMIT, or worse "
                        "and no test can judge it (e.g. p99:+5%%, mean:+20 in the records' unit); repeatable")
    p.add_argument("--alpha", type=alpha, default=0.05, help="significance level (default 0.05)")
    p.add_argument("--bench", metavar="REGEX", help="only benchmarks whose name matches REGEX")
    p.add_argument("--force", action="store_true", help="compare runs whose meta records differ")
    p.add_argument("--format", choices=FORMATS, default="table", help="output format (default table)")


def _event_names(text):
    return [] if text == "none" else events.name_list(text)


def _delta_text(r):
    d = r.delta
    if d == 0:
        return "0"
    if isinstance(d, Decimal):
        d = d.quantize(Decimal("0.001")) if abs(d) >= Decimal("0.001") or d == 0 else float(d)
    s = num(d)
    s = s if s.startswith("-") else "+" + s
    return f"{s} ({pct(r.rel)})" if r.rel is not None else s


def _ci_text(r):
    if r.ci is None:
        return "-"
    if r.rel is not None and r.a:
        a = float(r.a)
        return f"[{pct(r.ci[0] / a)}, {pct(r.ci[1] / a)}]"
    return f"[{r.ci[0]:+.3g}, {r.ci[1]:+.3g}]"


def side_units(runs):
    """{benchmark: its unit in the ok results of these runs} (None where they mix units)."""
    out = {}
    for r in runs:
        for x in r.boot.benches:
            u = x.result.get("unit") if x.result is not None and x.status == "ok" else None
            if isinstance(u, str):
                out[x.name] = u if out.get(x.name, u) == u else None
    return out


def rows_of(benches, units_b=None):
    """The table's rows; units_b: B's unit of each benchmark (side_units), which the JSON rows
    carry as unit_b beside A's unit (they differ only in a comparison forced across units)."""
    rows = []
    for b in benches:
        first = {"bench": b.name, "d": num(b.d, 2) if b.d is not None else "-",
                 "cliff": f"{b.cliff:+.2f}" if b.cliff is not None else "-"}
        if not b.rows:
            rows.append(dict(first, metric="-", a="-", b="-", change="-", ci="-", p="-", test="-",
                             verdict=b.verdict + (f" ({b.note})" if b.note else ""),
                             _raw={"benchmark": b.name, "mode": b.mode, "verdict": b.verdict, "note": b.note,
                                   "cause": b.cause}))
            continue
        for i, r in enumerate(b.rows):
            row = first if i == 0 else {"bench": "", "d": "", "cliff": ""}
            rows.append(dict(row, metric=r.metric, a=num(r.a), b=num(r.b), change=_delta_text(r),
                             ci=_ci_text(r), p=f"{r.p:.2g}" if r.p is not None else "-",
                             test=SHORT.get(r.test, r.test), verdict=r.verdict,
                             _raw={"benchmark": b.name, "unit": b.unit,
                                   "unit_b": (units_b or {}).get(b.name, b.unit), "mode": b.mode,
                                   "runs_a": b.runs[0], "runs_b": b.runs[1], "metric": r.metric,
                                   "a": r.a, "b": r.b, "delta": r.delta, "rel": r.rel,
                                   "ci_low": r.ci[0] if r.ci else None, "ci_high": r.ci[1] if r.ci else None,
                                   "p": r.p, "test": r.test, "significant": r.significant,
                                   "verdict": r.verdict, "cohen_d": b.d, "cliff_delta": b.cliff,
                                   "note": b.note, "cause": b.cause, "why": r.why}))
    return rows


def sides(args):
    if args.files and (args.a or args.b):
        raise UsageError("give either A B or -a RUN... -b RUN..., not both")
    if args.files:
        if len(args.files) != 2:
            raise UsageError(f"give two runs (A B), or sides with -a RUN... -b RUN... ({len(args.files)} given)")
        return [args.files[0]], [args.files[1]]
    if not args.a or not args.b:
        raise UsageError("nothing to compare: give A B, or -a RUN... -b RUN...")
    return args.a, args.b


def compare_runs(a_runs, b_runs, metrics, alpha, name_filter=None, warn=None, event_names=None):
    """The library entry (also used by tools/bench/compare-power): [analysis.compare.Bench]. event_names:
    the events to compare (None: every one both sides count)."""
    kit = side_differences(a_runs, b_runs, KIT)
    names = []
    for r in a_runs + b_runs:
        for bench in r.boot.benches:
            if bench.name not in names and (not name_filter or re.search(name_filter, bench.name)):
                names.append(bench.name)
    out = []
    for name in names:
        a = [r.bench(name) for r in a_runs if r.bench(name) is not None]
        b = [r.bench(name) for r in b_runs if r.bench(name) is not None]
        res = compare_bench(name, a, b, metrics, alpha, events=event_names)
        out.append(res)
        # Besides the code: a different batch size, a different kit (named, never left to
        # read as the code's change)
        causes = []
        ia, ib = iters_of(a), iters_of(b)
        if ia and ib and ia != ib:
            causes.append(f"iters {'/'.join(map(str, ia))} in A, {'/'.join(map(str, ib))} in B: figures per "
                          f"iteration of different batches (a compiler can move work out of the batch loop)")
            if warn:
                warn(f"{name}: {causes[-1]}")
        if kit and any(r.significant or r.verdict == "?" for r in res.rows):
            causes.append(f"the kit differs ({differences_text(kit)}): a change it makes is the kit's, not the "
                          f"code's")
        res.cause = "; ".join(causes)
        _missing_events(res, a, b, event_names, warn)
        for side, have, runs in (("A", a, a_runs), ("B", b, b_runs)):
            if warn and have and len(have) < len(runs):
                warn(f"{name}: in {len(have)} of the {len(runs)} runs of {side} (tested on those)")
        for side, benches in (("A", a), ("B", b)):
            res = [x.result for x in benches if x.result is not None and x.status == "ok"]
            moved = sum(1 for r in res if r.get("unstable") is True)
            sat = sum(1 for r in res if isinstance(r.get("flags"), dict) and r.get("flags").get("saturated") is True)
            if warn and moved:
                warn(f"{name}: unstable in {moved} of {len(res)} run(s) of {side} (drift over {DRIFT_UNSTABLE_PPM:,} ppm: the "
                     f"machine's speed or the benchmark's own cost moved during it)")
            big = [x.hist.data["n"] for x in benches if x.hist is not None and x.status == "ok"
                   and dist.thinned(x.hist.data)]
            if warn and big and len(a) == 1 and len(b) == 1:
                warn(f"{name}: {max(big)} samples in {side}: Cliff's delta uses {dist.MOST} of them (evenly "
                     f"spaced ranks); the intervals use every rank")
            if warn and sat:
                warn(f"{name}: a statistics counter saturated in {sat} run(s) of {side}: its moments are not exact")
    if warn:
        modes = {b.mode for b in out}
        na, nb = len(a_runs), len(b_runs)
        if "runs" in modes and stats.min_p(na, nb) >= alpha:
            warn(f"with {na} and {nb} runs the smallest p-value a rank test can give is "
                 f"{stats.min_p(na, nb):.3g}, not below alpha {alpha}: no difference can be called "
                 f"significant; use 5 or more runs per side")
        elif "runs" in modes and min(na, nb) < 5:
            warn(f"only {min(na, nb)} run(s) on one side: the test has little power; 5 or more per side "
                 f"is better")
        if "samples" in modes:
            warn("one run per side: the intervals see only the noise within each run; a shift from "
                 "one run to the next (placement, frequency, caches) can look significant. Compare "
                 "several runs per side (-a RUN... -b RUN...) to test across runs")
    return out


def _missing_events(res, a, b, names, warn):
    """--events NAME that a side does not count in every run: a row that says so (and why, from
    the meta record's not_counted), never a silent drop; without --events, a warning for each
    event only one side counts."""
    if res.mode in ("missing", "status"):
        return
    if names is None:
        counted = [{ev for x in side for ev in (x.result.get("events") or {})} for side in (a, b)]
        for ev in sorted(counted[0] ^ counted[1]):
            if warn:
                warn(f"{res.name}: {ev} is counted in {'A' if ev in counted[0] else 'B'} only: not compared "
                     f"(--events {ev} shows why)")
        return
    for ev in names:
        has = [all(isinstance((x.result.get("events") or {}).get(ev), dict) for x in side) for side in (a, b)]
        if all(has):
            continue
        why = []
        for side, benches, ok in (("A", a, has[0]), ("B", b, has[1])):
            if not ok:
                reasons = {events.not_counted(x.meta).get(ev) for x in benches} - {None}
                why.append(f"{side} does not count it" + (f" ({'; '.join(sorted(reasons))})" if reasons else
                                                          " (not in its -DBM_EVENTS)"))
        res.rows.append(Row(f"{ev}.mean", None, None, None, None, None, None, "none", False, "missing",
                            "; ".join(why) + ": nothing to compare"))
        if warn:
            warn(f"{res.name}: --events {ev}: " + "; ".join(why))


def main(args):
    def warn(msg):
        # (a warning quotes file names, labels and versions: escaped, so a terminal shows them)
        print(f"bm compare: warning: {printable(msg)}", file=sys.stderr)
    metrics = [m.strip() for m in args.metric.split(",") if m.strip()]
    metrics = list(dict.fromkeys("p50" if m == "median" else m for m in metrics))   # each once
    bad = [m for m in metrics if m not in SUMMARY]
    if bad or not metrics:
        raise UsageError(f"unknown --metric {','.join(bad) or '(none)'}: use {','.join(SUMMARY)}")
    try:
        gates = [parse_gate(g) for g in args.gate]
    except ValueError as e:
        raise UsageError(str(e))
    bench_pattern(args.bench)
    for g in gates:
        if g.metric not in metrics:
            metrics.append(g.metric)
    pa, pb = sides(args)
    if (pa + pb).count("-") > 1:
        raise UsageError("stdin ('-') can be read once: give it to one side, the other runs by file")
    a_runs, b_runs = load_runs(pa, warn), load_runs(pb, warn)
    diff = comparability(a_runs, b_runs)
    if diff:
        what = "; ".join(f"{k}: {' vs '.join(map(repr, v))}" for k, v in diff.items())
        if not args.force:
            raise UsageError(f"the runs are not comparable ({what}); --force compares them anyway")
        warn(f"comparing runs that differ in {what} (--force)")
    for side, runs in (("A", a_runs), ("B", b_runs)):
        mixed = mixed_builds(runs)
        if mixed:
            warn(f"side {side} mixes builds: its runs differ in {', '.join(mixed)}")
    kit = side_differences(a_runs, b_runs, KIT)
    if kit:
        kv = kit.get("kit_version")
        what = f"different kit versions ({'/'.join(kv[0])} vs {'/'.join(kv[1])})" if kv else \
            f"kits built from different sources ({differences_text(kit)})"
        warn(f"A and B were measured by {what}: part of a change may be the kit's own (its harness, overhead "
             "subtraction or statistics), not your code's; each benchmark that changed says so")
    built = side_differences(a_runs, b_runs, BUILT)
    if built:
        warn(f"A and B were built differently ({differences_text(built)}): a change may be the build's")
    benches = compare_runs(a_runs, b_runs, metrics, args.alpha, args.bench, warn, args.events)
    if not benches:
        raise UsageError("no benchmark to compare" + (f" matches {args.bench!r}" if args.bench else ""))
    names = {b.name for b in benches}
    units_a, units_b = side_units(a_runs), side_units(b_runs)

    def unit(units):
        # (one unit over the side's benchmarks, else none in the title: --force across units)
        u = {units.get(n) for n in names if n in units}
        return f" [{u.pop()}]" if len(u) == 1 and None not in u else ""
    cols = [("bench", "benchmark"), ("metric", "metric"), ("a", "A" + unit(units_a)), ("b", "B" + unit(units_b)),
            ("change", "change"), ("ci", f"{100 * (1 - args.alpha):g}% CI"), ("p", "p"),
            ("test", "test"), ("d", "d"), ("cliff", "cliff"), ("verdict", "verdict")]
    if args.format == "table":
        def side(runs):
            labels = sorted({r.meta.get("label") or "" for r in runs} - {""})
            return printable(f"{', '.join(r.label for r in runs[:3])}{', ...' if len(runs) > 3 else ''} "
                             f"({len(runs)} run{'s' if len(runs) != 1 else ''}, {runs[0].meta.get('built_for')}"
                             f"{', label ' + '/'.join(labels) if labels else ''})")
        print(f"A: {side(a_runs)}")
        print(f"B: {side(b_runs)}")
    render(rows_of(benches, units_b), cols, args.format, sys.stdout)
    if args.format == "table":
        for b in benches:
            for r in b.rows:
                if r.why and r.verdict in ("?", "~", "missing"):
                    print(f"  {b.name} {r.metric} {r.verdict}: {printable(r.why)}")
            if b.cause:
                print(f"  {b.name}: {printable(b.cause)}")
        print("change = B - A (positive: B takes longer); d = Cohen's d, cliff = Cliff's delta "
              "(B against A); ~ = not significant at alpha "
              f"{args.alpha:g}; ? = changed, but no test fits (a gate on it fails)")
        if any("." in r.metric for b in benches for r in b.rows):
            print("NAME.mean, NAME.p50: an event count per iteration (positive change: B counts more; its source "
                  "is in bm report)")
    fails = gate_failures(benches, gates) + state_failures(benches, a_runs, b_runs) if gates else []
    for name, msg in fails:
        print(f"bm compare: gate failed: {name}: {printable(msg)}", file=sys.stderr)
    if gates and not fails:
        print(f"bm compare: gate passed ({', '.join(g.text for g in gates)})", file=sys.stderr)
    return 1 if fails else 0
