# SPDX-License-Identifier: Apache-2.0
"""Comparison of two sides (A, B), each one or more runs, benchmark by benchmark: the change of
each figure with a confidence interval, the test that fits the data, effect sizes and verdicts
(figures and event counts). The tests are stats.py's; the gate is gate.py's."""
# The tests: exact for deterministic QEMU, within the histogram's resolution; distribution-free
# order-statistic intervals and Welch's t on the exact sums for one run per side; a rank test
# across run figures for several runs per side; and "?" where none fits the data.
import math
from dataclasses import dataclass, field
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np

from ..records import derive
from ..records.figures import EVENT_FIGURES, LEVELS, RANKS, SUMMARY, deterministic
from . import dist, stats

# Keys of the meta record that must agree for two runs to be comparable at all.
COMPARABLE = ("board", "built_for", "isa", "cycle_unit", "cycle_counter", "samples")
# Keys that say which build a run is: a side mixing them is probably a mistake.
BUILD = ("label", "kit_version", "kit_vcs", "compiler", "cflags", "opt")
# Besides the code, what moves a figure when two sides differ in it (docs/tools.md): the kit that
# measured (its harness, overhead subtraction, statistics), and how the code was built.
KIT = ("kit_version", "kit_vcs")
BUILT = ("compiler", "cflags", "opt", "libc")


@dataclass
class Row:
    """One figure of one benchmark, A against B."""
    metric: str
    a: object                 # A's figure (Decimal from the records; median over runs: float)
    b: object
    delta: object             # b - a, in the unit
    rel: float = None         # delta / a (None when a is 0)
    ci: tuple = None          # interval of delta, in the unit
    p: float = None           # the test's p-value (None: exact, or judged by the interval)
    test: str = ""
    significant: bool = False
    verdict: str = "~"
    why: str = ""             # why there is no test ("?"), or what bounds the verdict


@dataclass
class Bench:
    name: str
    unit: str = ""
    mode: str = ""            # exact | samples | runs | moments | status | missing
    runs: tuple = (0, 0)
    rows: list = field(default_factory=list)
    d: float = None           # Cohen's d (B - A)
    cliff: float = None       # Cliff's delta, P(B > A) - P(B < A)
    verdict: str = "~"
    note: str = ""
    cause: str = ""           # besides the code, what differs between A and B that moves a figure

    def row(self, metric):
        return next((r for r in self.rows if r.metric == metric), None)


def comparability(a_runs, b_runs):
    """The meta keys whose values differ between or within the sides: {key: [values]}."""
    out = {}
    for k in COMPARABLE:
        vals = []
        for r in list(a_runs) + list(b_runs):
            v = r.meta.get(k)
            if v not in vals:
                vals.append(v)
        if len(vals) > 1:
            out[k] = vals
    return out


def mixed_builds(runs):
    return [k for k in BUILD if len({str(r.meta.get(k)) for r in runs}) > 1]


def side_differences(a_runs, b_runs, keys):
    """{key: (A's values, B's values)} for the meta keys in which the two sides differ."""
    out = {}
    for k in keys:
        va, vb = ({str(r.meta.get(k)) for r in runs} for runs in (a_runs, b_runs))
        if va != vb:
            out[k] = (sorted(va), sorted(vb))
    return out


def differences_text(diff):
    """'kit_version 0.2.0 vs 0.3.0, cflags -O2 vs -O3' (a side's several values joined by /)."""
    return ", ".join(f"{k} {'/'.join(a)} vs {'/'.join(b)}" for k, (a, b) in diff.items())


def iters_of(benches):
    """The iters of these results (ok ones), sorted: the batch size each figure is per iteration of."""
    return sorted({x.result.get("iters") for x in benches if x.result is not None and x.status == "ok"
                   and isinstance(x.result.get("iters"), int)})


def _f(x):
    return float(x) if x is not None else None


def _moments_of(bench):
    """(mean, standard deviation, n, rounding) per iteration: from the hist record's exact sums
    (rounding 0), else from the result's figures, printed to 3 decimals (rounding 0.0005)."""
    h = bench.hist.data if bench.hist is not None else None
    if h and h["n"] >= 1:
        n, div, s1, s2 = h["n"], h["div"], h["sum"], h["sumsq"]
        mean = Fraction(s1, n * div)
        var = Fraction(n * s2 - s1 * s1, n * (n - 1) * div * div) if n >= 2 else Fraction(0)
        return float(mean), math.sqrt(max(float(var), 0.0)), n, 0.0
    r = bench.result.data
    return _f(r["mean"]), _f(r["stddev"]), r["n"], 0.0005


def _welch_mean(a, b):
    """Welch's t on the two sides' moments: p, or None with fewer than 2 samples on a side (one
    sample has no spread: there is nothing to test a difference against). Figures known only to
    3 decimals are taken at their least favourable: the difference shrunk and the deviations
    grown by their rounding. With no spread on either side the permutation test's smallest
    p-value is what the difference is worth (all of A below all of B is one arrangement of many)."""
    from scipy import stats as st
    ma, sda, na, ea = _moments_of(a)
    mb, sdb, nb, eb = _moments_of(b)
    if na < 2 or nb < 2:
        return None
    diff = max(0.0, abs(mb - ma) - ea - eb)
    sda, sdb = sda + ea, sdb + eb
    if diff == 0:
        return 1.0
    if sda == 0 and sdb == 0:
        return stats.min_p(na, nb)
    return float(st.ttest_ind_from_stats(0.0, sda, na, diff, sdb, nb, equal_var=False).pvalue)


def _nearest_rank(n, metric):
    if metric == "min":
        return 1
    if metric == "max":
        return n
    return derive.nearest_rank(n, *RANKS[metric])


def _order_range(hist, r):
    """[lo, hi] per iteration (Fractions) that the r-th smallest sample (1-based) of a run lies
    in, from its hist record (a derive.Hist): exact in the tail and at the minimum, else its
    histogram bin, clamped as the firmware clamps it."""
    lo, hi = hist.order_range(r)
    return Fraction(lo, hist.div), Fraction(hi, hist.div)


def _quantile_range(bench, metric):
    """[lo, hi] per iteration holding the run's true nearest-rank `metric` (what its figure can be
    off by at the histogram's resolution)."""
    res = bench.result.data
    if bench.hist is not None:
        return _order_range(derive.Hist(bench.hist.data), _nearest_rank(res["n"], metric))
    return _bound_range(res[metric], (res.get("bound_ppm") or {}).get(metric, 0) if metric in RANKS else 0)


def _bound_range(figure, b):
    """[lo, hi] that a printed quantile with a relative bound of b ppm can stand for."""
    v = Fraction(str(figure))
    if not b:
        return v, v
    # (r - lo) / lo <= b and (hi - r) / hi <= b; the figure itself is rounded to 3 decimals
    e = Fraction(1, 2000)
    return (v - e) / (1 + Fraction(b, 10**6)), (v + e) / max(1 - Fraction(b, 10**6), Fraction(1, 10**6))


def _verdict(sig, delta):
    if not sig or delta == 0:
        return "~"
    return "slower" if delta > 0 else "faster"


def _rel(delta, a):
    return float(delta) / float(a) if a else None


def _exact_mean(bench):
    h = bench.hist.data if bench.hist is not None else None
    if not h:
        return bench.result.get("mean")
    with localcontext() as c:
        c.prec = 80
        return Decimal(h["sum"]) / (h["n"] * h["div"])


def _identical(benches):
    keys = SUMMARY + ("n", "iters")
    first = benches[0].result.data
    return all(all(b.result.get(k) == first.get(k) for k in keys) for b in benches[1:])


def compare_bench(name, a, b, metrics, alpha, seed=0, events=None):
    """a, b: the Bench (boot.Bench) of this benchmark in each run of each side; events: the
    event names to compare (None: every one both sides count)."""
    out = Bench(name, runs=(len(a), len(b)))
    if not a or not b:
        out.mode, out.verdict = "missing", "only in B" if not a else "only in A"
        return out
    sa = {x.status for x in a}
    sb = {x.status for x in b}
    oka = [x for x in a if x.status == "ok"]
    if sb != {"ok"} or not oka:
        # B not ok in some run: nothing of B's is good to compare (and a gate fails on it). A
        # never ok: nothing to compare B with, as for a benchmark only B has.
        out.mode = "status"
        out.verdict = "broken" if sa == {"ok"} else "fixed" if sb == {"ok"} else "failing"
        bad = sum(1 for x in b if x.status != "ok")
        out.note = f"A: {'/'.join(sorted(sa))}, B: {'/'.join(sorted(sb))}" + \
            (f"; not ok in {bad} of {len(b)} runs of B" if 0 < bad < len(b) else "")
        return out
    if len(oka) < len(a):
        # A failed in some runs and B in none: B is compared with A's ok runs, and says so (a
        # regression does not hide behind a flaky baseline run).
        r = compare_bench(name, oka, b, metrics, alpha, seed, events)
        r.runs = (len(a), len(b))
        r.note = "; ".join(filter(None, [f"A ok in {len(oka)} of {len(a)} runs (compared on those; "
                                         f"{'/'.join(sorted(sa - {'ok'}))} in the rest)", r.note]))
        return r
    out.unit = a[0].result.get("unit")
    exact = all(deterministic(x.meta.get("built_for")) for x in a + b)
    if exact and _identical(a) and _identical(b):
        out = _exact(out, a[0], b[0], metrics)
    elif len(a) == 1 and len(b) == 1:
        if a[0].hist is not None and b[0].hist is not None:
            out = _samples(out, a[0], b[0], metrics, alpha, seed)
        else:
            out = _moments(out, a[0], b[0], metrics, alpha)
    else:
        out = _runs(out, a, b, metrics, alpha, seed)
    _events(out, a, b, alpha, seed, events)
    return out


EVENT_VERDICT = {"slower": "more", "faster": "fewer"}


def _event_figures(benches, ev, k):
    """The runs' figure k (mean, p50) of event ev, the sources that counted it, and the largest
    bound of a p50 held in a histogram bin (ppm); None where a run has no such event."""
    out, src, bound = [], set(), 0
    for x in benches:
        v = (x.result.get("events") or {}).get(ev)
        if not isinstance(v, dict):
            return None, src, 0
        out.append(v[k])
        src.add(v["source"])
        bound = max(bound, v.get("p50_bound_ppm", 0) if k == "p50" else 0)
    return out, src, bound


def _events(out, a, b, alpha, seed, names):
    """The event figures both sides have in every run (names: only those; None: all), after the
    benchmark's own rows and without a say in its verdict. They have no distribution (a mean and
    a median per run): under deterministic QEMU a difference is a change
    ("more", "fewer"); several runs per side are tested like any run figure; one run per side
    cannot be tested ("?" if it moved)."""
    have = list(dict.fromkeys(ev for x in a for ev in (x.result.get("events") or {})))
    floor = stats.min_p(len(a), len(b))
    for ev in have:
        if names is not None and ev not in names:
            continue
        for k in EVENT_FIGURES:
            m = f"{ev}.{k}"
            (fa, sa, ba), (fb, sb, bb) = _event_figures(a, ev, k), _event_figures(b, ev, k)
            if fa is None or fb is None:
                break
            exact = out.mode == "exact" and len(set(fa)) == 1 and len(set(fb)) == 1
            if sa != sb:
                va, vb = stats.median(fa), stats.median(fb)
                row = Row(m, va, vb, vb - va, _rel(vb - va, va), None, None, "none", False,
                          "?" if vb != va else "~", f"counted by {'/'.join(sorted(sa))} in A, "
                                                    f"{'/'.join(sorted(sb))} in B: not one measurement")
            elif exact:
                # (a p50 held in a histogram bin is known to its bound: changed when the ranges part)
                va, vb = fa[0], fb[0]
                (la, ha), (lb, hb) = _bound_range(va, ba), _bound_range(vb, bb)
                lo, hi = lb - ha, hb - la
                moved = lo > 0 or hi < 0
                row = Row(m, va, vb, vb - va, _rel(vb - va, va), None if lo == hi else (float(lo), float(hi)), None,
                          "exact", moved, "same" if lo == hi == 0 else "more" if lo > 0 else "fewer" if hi < 0
                          else "~", "" if moved or lo == hi else "within the histogram's resolution")
            elif len(a) > 1 or len(b) > 1:
                row = _runs_row(m, fa, fb, alpha, seed, floor)
                row.verdict = EVENT_VERDICT.get(row.verdict, row.verdict)
            else:
                va, vb = fa[0], fb[0]
                row = Row(m, va, vb, vb - va, _rel(vb - va, va), None, None, "none", False,
                          "?" if vb != va else "~", "an event's figure of one run per side has no distribution "
                                                   "to test (compare several runs per side)")
            out.rows.append(row)


def _exact(out, a, b, metrics):
    """Deterministic QEMU: every figure is an instruction count, so any change is a change;
    there is nothing to test. A quantile from a histogram bin is known to its bin only: B's
    range against A's says whether it changed, and by how much at least."""
    out.mode = "exact"
    for m in metrics:
        ra, rb = a.result.get(m), b.result.get(m)
        if m == "mean":
            va, vb = _exact_mean(a), _exact_mean(b)
            e = Decimal(0) if a.hist is not None and b.hist is not None else Decimal("0.001")
            lo, hi = vb - va - e, vb - va + e
        else:
            va, vb = ra, rb
            (la, ha), (lb, hb) = _quantile_range(a, m), _quantile_range(b, m)
            lo, hi = lb - ha, hb - la
        delta = vb - va
        if lo == hi == 0:
            verdict, sig, why = "same", False, ""
        elif lo > 0 or hi < 0:
            verdict, sig, why = ("slower" if lo > 0 else "faster"), True, ""
        else:
            verdict, sig = "~", False
            why = "within the histogram's resolution"
        ci = None if lo == hi else (float(lo), float(hi))
        out.rows.append(Row(m, ra, rb, delta, _rel(delta, va), ci, None, "exact", sig, verdict, why))
    first = next((r for r in out.rows if r.metric == "p50"), out.rows[0] if out.rows else None)
    changed = [r for r in out.rows if r.significant]
    out.verdict = first.verdict if first and first.significant else (changed[0].verdict if changed else
                                                                      "same" if all(r.verdict == "same" for r in out.rows)
                                                                      else "~")
    return out


def _samples(out, a, b, metrics, alpha, seed):
    """One run per side, with hist records. Quantiles: each side's distribution-free interval
    (order statistics, at 1 - alpha/2 each, so the difference's holds at 1 - alpha) taken to
    its histogram bins' edges: sampling and resolution both in it, significant when it excludes
    0. The mean: Welch's t on the exact sums. The extremes of one run have no interval (?).
    Effect sizes on the samples rebuilt from the hist records."""
    out.mode = "samples"
    xa, xb = dist.samples(a.hist.data), dist.samples(b.hist.data)
    out.cliff = 2 * stats.rank_test(xa, xb)[1] / (len(xa) * len(xb)) - 1
    ma, sa, na, _ = _moments_of(a)
    mb, sb, nb, _ = _moments_of(b)
    out.d = stats.cohen_d(ma, sa, na, mb, sb, nb)
    ra, rb = a.result.data, b.result.data
    ha, hb = derive.Hist(a.hist.data), derive.Hist(b.hist.data)
    t = alpha / 4
    for m in metrics:
        va, vb = ra.get(m), rb.get(m)
        delta = vb - va
        ci, p, sig, why = None, None, False, ""
        if m == "mean":
            p = _welch_mean(a, b)
            test = "welch t (exact moments)" if p is not None else "none"
            sig = p is not None and p < alpha
            why = "" if p is not None else "fewer than 2 samples on a side"
        elif m in ("min", "max"):
            test, why = "none", f"the {m} of one run per side has no interval (compare several runs)"
        else:
            ka, kb = stats.order_ranks(na, LEVELS[m], t), stats.order_ranks(nb, LEVELS[m], t)
            if ka is None or kb is None:
                test = "none"
                why = f"{m} needs {stats.samples_needed(LEVELS[m], t)} samples on each side for an interval"
            else:
                test = "order-statistic interval"
                lo = _order_range(hb, kb[0])[0] - _order_range(ha, ka[1])[1]
                hi = _order_range(hb, kb[1])[1] - _order_range(ha, ka[0])[0]
                ci = (float(lo), float(hi))
                sig = lo > 0 or hi < 0
        untested = test == "none"
        verdict = "?" if untested and delta != 0 else "~" if not sig else \
            ("slower" if (ci[0] > 0 if ci else delta > 0) else "faster")
        out.rows.append(Row(m, va, vb, delta, _rel(delta, va), ci, p, test, sig, verdict, why))
    out.verdict = _headline(out)
    return out


def _moments(out, a, b, metrics, alpha):
    """One run per side without hist records: only the mean can be tested (Welch's t from
    the records' exact moments); other figures are shown without a test."""
    out.mode = "moments"
    out.note = "no hist records: only the mean is tested"
    ra, rb = a.result.data, b.result.data
    out.d = stats.cohen_d(_f(ra["mean"]), _f(ra["stddev"]), ra["n"], _f(rb["mean"]), _f(rb["stddev"]), rb["n"])
    for m in metrics:
        va, vb = ra.get(m), rb.get(m)
        delta = vb - va
        p = _welch_mean(a, b) if m == "mean" else None
        if p is not None:
            out.rows.append(Row(m, va, vb, delta, _rel(delta, va), None, p, "welch t (moments)",
                                p < alpha, _verdict(p < alpha, delta)))
        else:
            out.rows.append(Row(m, va, vb, delta, _rel(delta, va), None, None, "none", False,
                                "?" if delta != 0 else "~", out.note if m != "mean" else
                                "fewer than 2 samples on a side"))
    out.verdict = _headline(out)
    return out


def _runs(out, a, b, metrics, alpha, seed):
    """Several runs per side: each run gives one figure; the test compares those figures
    (runs differ by more than their samples say, so sample-level tests would overclaim). With
    too few runs of this benchmark for the rank test to reach alpha (one side has it in fewer
    runs than the other, say), a figure that moved is "?", not "~"."""
    out.mode = "runs"
    floor = stats.min_p(len(a), len(b))
    for m in metrics:
        out.rows.append(_runs_row(m, [x.result.get(m) for x in a], [x.result.get(m) for x in b], alpha, seed,
                                  floor))
    # Effect sizes of the run medians.
    xa = np.array([_f(x.result.get("p50")) for x in a])
    xb = np.array([_f(x.result.get("p50")) for x in b])
    out.cliff = 2 * stats.rank_test(xa, xb)[1] / (len(xa) * len(xb)) - 1

    def sd(x):
        return float(np.std(x, ddof=1)) if len(x) > 1 else 0.0
    out.d = stats.cohen_d(float(np.mean(xa)), sd(xa), len(xa), float(np.mean(xb)), sd(xb), len(xb))
    out.verdict = _headline(out)
    return out


def _runs_row(m, fa, fb, alpha, seed, floor):
    """One figure of several runs per side (fa, fb: each run's): the rank test across runs, and a
    bootstrap interval of the medians' difference."""
    xa, xb = np.array([_f(x) for x in fa]), np.array([_f(x) for x in fb])
    ma, mb = stats.median(fa), stats.median(fb)
    delta = mb - ma
    if floor >= alpha:
        return Row(m, ma, mb, delta, _rel(delta, ma), None, None, "none", False, "?" if delta != 0 else "~",
                   f"{len(fa)} and {len(fb)} runs of it: a rank test cannot go below p = {floor:.3g}")
    p, u = stats.rank_test(xa, xb)
    ci = stats.bootstrap(xa, xb, lambda x, axis: np.median(x, axis=axis), alpha, seed)
    # (significant, and B's runs above A's (U) the way the medians moved: else no verdict)
    sig = p < alpha and (u * 2 > len(xa) * len(xb)) == (delta > 0) and delta != 0
    return Row(m, ma, mb, delta, _rel(delta, ma), ci, p, "mann-whitney U (runs)", sig, _verdict(sig, delta))


def _headline(out):
    """The benchmark's verdict: its median's, else the first figure that changed."""
    r = out.row("p50")
    if r is not None:
        return r.verdict
    sig = [r for r in out.rows if r.significant]
    return sig[0].verdict if sig else "~"
