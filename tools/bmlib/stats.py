"""Comparison of two sides (A, B), each one or more runs, benchmark by benchmark: the change
of each figure with a bootstrap confidence interval, the test that fits the data (exact for
deterministic QEMU, a rank test on the hist samples for one run per side, a rank test across
run figures for several runs per side), effect sizes, verdicts, and the regression gate.
All tests and intervals are scipy's; this module only chooses and wires them."""
import math
import re
import warnings
from dataclasses import dataclass, field
from decimal import Decimal, localcontext

import numpy as np

from . import dist

METRICS = ("min", "p50", "p90", "p99", "p999", "max", "mean")
QUANT = {"min": 0.0, "p50": 0.5, "p90": 0.9, "p99": 0.99, "p999": 0.999, "max": 1.0}
# Keys of the meta record that must agree for two runs to be comparable at all.
COMPARABLE = ("board", "built_for", "isa", "cycle_unit", "cycle_counter", "samples")
# Keys that say which build a run is: a side mixing them is probably a mistake.
BUILD = ("label", "kit_vcs", "compiler", "cflags", "opt")
RESAMPLES = 2000


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


def _f(x):
    return float(x) if x is not None else None


def _bootstrap(a, b, stat, alpha, seed):
    """Percentile bootstrap interval of stat(b) - stat(a) (scipy.stats.bootstrap)."""
    from scipy import stats as st
    if len(a) < 2 or len(b) < 2:
        return None
    if np.all(a == a[0]) and np.all(b == b[0]):
        d = float(b[0] - a[0])
        return (d, d)

    def diff(x, y, axis=-1):
        return stat(y, axis) - stat(x, axis)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = st.bootstrap((a, b), diff, vectorized=True, n_resamples=RESAMPLES, batch=100,
                           confidence_level=1 - alpha, method="percentile",
                           random_state=np.random.default_rng(seed))
    lo, hi = res.confidence_interval
    return (float(lo), float(hi)) if math.isfinite(lo) and math.isfinite(hi) else None


def _stat(metric):
    if metric == "mean":
        return lambda x, axis: np.mean(x, axis=axis)
    q = QUANT[metric]
    return lambda x, axis: dist.quantile(x, q, axis=axis)


def _mwu(a, b):
    """Two-sided Mann-Whitney U of B against A: (p, U of B)."""
    from scipy import stats as st
    if np.all(a == a[0]) and np.all(b == a[0]):
        return 1.0, len(a) * len(b) / 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = st.mannwhitneyu(b, a, alternative="two-sided")
    return float(r.pvalue), float(r.statistic)


def _welch_mean(ra, rb, delta):
    """Welch's t on the records' exact moments: p, or None with fewer than 2 samples on a side
    (one sample has no spread: there is nothing to test a difference against)."""
    from scipy import stats as st
    if ra["n"] < 2 or rb["n"] < 2:
        return None
    sda, sdb = _f(ra["stddev"]), _f(rb["stddev"])
    if sda == 0 and sdb == 0:
        # every sample alike on both sides: the means are exact, any difference is one
        return 1.0 if delta == 0 else 0.0
    return float(st.ttest_ind_from_stats(_f(ra["mean"]), sda, ra["n"], _f(rb["mean"]), sdb, rb["n"],
                                         equal_var=False).pvalue)


def _cohen_d(ma, sa, na, mb, sb, nb):
    if na + nb <= 2:
        return None
    pooled = math.sqrt(((na - 1) * sa * sa + (nb - 1) * sb * sb) / (na + nb - 2))
    if pooled == 0:
        return 0.0 if ma == mb else math.copysign(math.inf, mb - ma)
    return (mb - ma) / pooled


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
    keys = METRICS + ("n", "iters")
    first = benches[0].result.data
    return all(all(b.result.get(k) == first.get(k) for k in keys) for b in benches[1:])


def compare_bench(name, a, b, metrics, alpha, seed=0):
    """a, b: the Bench (log.Bench) of this benchmark in each run of each side."""
    out = Bench(name, runs=(len(a), len(b)))
    if not a or not b:
        out.mode, out.verdict = "missing", "only in B" if not a else "only in A"
        return out
    sa = {x.status for x in a}
    sb = {x.status for x in b}
    if sa != {"ok"} or sb != {"ok"}:
        out.mode = "status"
        out.verdict = "broken" if sa == {"ok"} else "fixed" if sb == {"ok"} else "failing"
        out.note = f"A: {'/'.join(sorted(sa))}, B: {'/'.join(sorted(sb))}"
        return out
    out.unit = a[0].result.get("unit")
    icount = all(x.meta.get("built_for") == "qemu-icount" for x in a + b)
    if icount and _identical(a) and _identical(b):
        return _exact(out, a[0], b[0], metrics)
    if len(a) == 1 and len(b) == 1:
        if a[0].hist is not None and b[0].hist is not None:
            return _samples(out, a[0], b[0], metrics, alpha, seed)
        return _moments(out, a[0], b[0], metrics, alpha)
    return _runs(out, a, b, metrics, alpha, seed)


def _exact(out, a, b, metrics):
    """Deterministic QEMU: every figure is an instruction count, so any change is a change;
    there is nothing to test."""
    out.mode = "exact"
    for m in metrics:
        if m == "mean":
            va, vb = _exact_mean(a), _exact_mean(b)
        else:
            va, vb = a.result.get(m), b.result.get(m)
        delta = vb - va
        ra, rb = a.result.get(m), b.result.get(m)
        out.rows.append(Row(m, ra, rb, delta, _rel(delta, va), None, None, "exact",
                            delta != 0, "same" if delta == 0 else "slower" if delta > 0 else "faster"))
    first = next((r for r in out.rows if r.metric == "p50"), out.rows[0] if out.rows else None)
    changed = [r for r in out.rows if r.delta != 0]
    out.verdict = first.verdict if first and first.delta != 0 else (changed[0].verdict if changed else "same")
    return out


def _samples(out, a, b, metrics, alpha, seed):
    """One run per side: tests on the samples rebuilt from the hist records."""
    out.mode = "samples"
    xa, xb = dist.samples(a.hist.data), dist.samples(b.hist.data)
    p_rank, u = _mwu(xa, xb)
    out.cliff = 2 * u / (len(xa) * len(xb)) - 1
    ra, rb = a.result.data, b.result.data
    out.d = _cohen_d(_f(ra["mean"]), _f(ra["stddev"]), ra["n"], _f(rb["mean"]), _f(rb["stddev"]), rb["n"])
    ta, tb = dist.thin(xa), dist.thin(xb)
    for m in metrics:
        va, vb = ra.get(m), rb.get(m)
        delta = vb - va
        ci = _bootstrap(ta, tb, _stat(m), alpha, seed)
        if m == "p50" and min(len(xa), len(xb)) >= 2:
            p, test = p_rank, "mann-whitney U (samples)"
            sig = p < alpha
        elif m == "p50":
            p, test, sig = None, "none", False     # (one sample: a rank test has nothing to rank)
        elif m == "mean":
            p = _welch_mean(ra, rb, delta)
            test, sig = ("welch t (exact moments)", p < alpha) if p is not None else ("none", False)
        else:
            p, test = None, "bootstrap interval"
            sig = ci is not None and (ci[0] > 0 or ci[1] < 0)
        # "?": no test could be made (one sample on a side); the gate does not take it as a pass
        untested = p is None and (test == "none" or ci is None)
        test = "none" if untested else test
        out.rows.append(Row(m, va, vb, delta, _rel(delta, va), ci, p, test, sig,
                            "?" if untested and delta != 0 else _verdict(sig, delta)))
    out.verdict = _headline(out)
    return out


def _moments(out, a, b, metrics, alpha):
    """One run per side without hist records: only the mean can be tested (Welch's t from
    the records' exact moments); other figures are shown without a test."""
    out.mode = "moments"
    out.note = "no hist records: only the mean is tested"
    ra, rb = a.result.data, b.result.data
    out.d = _cohen_d(_f(ra["mean"]), _f(ra["stddev"]), ra["n"], _f(rb["mean"]), _f(rb["stddev"]), rb["n"])
    for m in metrics:
        va, vb = ra.get(m), rb.get(m)
        delta = vb - va
        p = _welch_mean(ra, rb, delta) if m == "mean" else None
        if p is not None:
            out.rows.append(Row(m, va, vb, delta, _rel(delta, va), None, p, "welch t (exact moments)",
                                p < alpha, _verdict(p < alpha, delta)))
        else:
            out.rows.append(Row(m, va, vb, delta, _rel(delta, va), None, None, "none", False,
                                "?" if delta != 0 else "~"))
    out.verdict = _headline(out)
    return out


def _runs(out, a, b, metrics, alpha, seed):
    """Several runs per side: each run gives one figure; the test compares those figures
    (runs differ by more than their samples say, so sample-level tests would overclaim)."""
    out.mode = "runs"
    for m in metrics:
        xa = np.array([_f(x.result.get(m)) for x in a])
        xb = np.array([_f(x.result.get(m)) for x in b])
        ma, mb = float(np.median(xa)), float(np.median(xb))
        delta = mb - ma
        p, u = _mwu(xa, xb)
        ci = _bootstrap(xa, xb, lambda x, axis: np.median(x, axis=axis), alpha, seed)
        sig = p < alpha
        out.rows.append(Row(m, ma, mb, delta, _rel(delta, ma), ci, p, "mann-whitney U (runs)",
                            sig, _verdict(sig, delta)))
    # Effect sizes of the run medians.
    xa = np.array([_f(x.result.get("p50")) for x in a])
    xb = np.array([_f(x.result.get("p50")) for x in b])
    out.cliff = 2 * _mwu(xa, xb)[1] / (len(xa) * len(xb)) - 1

    def sd(x):
        return float(np.std(x, ddof=1)) if len(x) > 1 else 0.0
    out.d = _cohen_d(float(np.mean(xa)), sd(xa), len(xa), float(np.mean(xb)), sd(xb), len(xb))
    out.verdict = _headline(out)
    return out


def _headline(out):
    """The benchmark's verdict: its median's, else the first figure that changed."""
    r = out.row("p50")
    if r is not None:
        return r.verdict
    sig = [r for r in out.rows if r.significant]
    return sig[0].verdict if sig else "~"


def min_p(na, nb):
    """The smallest two-sided p-value an exact rank test can give with na and nb runs."""
    return min(1.0, 2 / math.comb(na + nb, na))


# ---- the gate ----

@dataclass
class Gate:
    metric: str
    limit: Decimal
    relative: bool
    text: str


_GATE = re.compile(r"^(min|p50|median|p90|p99|p999|max|mean):\+?(\d+(?:\.\d+)?)(%?)$")


def parse_gate(text):
    """`p99:+5%` (relative) or `mean:+20` (absolute, in the records' unit): a benchmark fails
    when that figure got worse by more than the limit (and the change is significant)."""
    m = _GATE.match(text.strip())
    if not m:
        raise ValueError(f"bad --gate {text!r}: use METRIC:+LIMIT% or METRIC:+LIMIT, METRIC one of "
                         f"{', '.join(METRICS)} (e.g. p99:+5%)")
    metric = "p50" if m.group(1) == "median" else m.group(1)
    return Gate(metric, Decimal(m.group(2)), m.group(3) == "%", text.strip())


def gate_failures(benches, gates):
    """[(bench name, message)] for every benchmark that regressed past a gate."""
    out = []
    for b in benches:
        if b.verdict == "broken":
            out.append((b.name, f"was ok in A, is not in B ({b.note})"))
            continue
        if b.verdict == "only in A":
            # Nothing in B to pass the gate with: a benchmark that stopped running (a lost
            # record, a changed selection) is not a benchmark that did not regress.
            out.append((b.name, "is in A but not in B (select the benchmarks both have with --bench)"))
            continue
        for g in gates:
            r = b.row(g.metric)
            if r is not None and r.verdict == "?" and r.delta is not None and r.delta > 0:
                # B's figure is worse and nothing could test it: a gate that cannot be judged
                # has not passed (one run per side without hist records tests only the mean;
                # one sample per side tests nothing)
                why = b.note or "fewer than 2 samples on a side"
                out.append((b.name, f"{g.metric} rose from {r.a} to {r.b} and cannot be tested ({why}): "
                                    f"{g.text} cannot be judged, so it does not pass"))
                continue
            if r is None or not r.significant or r.delta is None or r.delta <= 0:
                continue
            if g.relative:
                past = r.rel is None or Decimal(str(r.rel)) * 100 > g.limit
                change = f"{r.rel * 100:+.2f}%" if r.rel is not None else f"+{r.delta} from 0"
            else:
                past = Decimal(str(r.delta)) > g.limit
                change = f"+{r.delta} {b.unit}"
            if past:
                why = "exact" if r.test == "exact" else f"p = {r.p:.2g}" if r.p is not None \
                    else "interval excludes 0"
                out.append((b.name, f"{g.metric} {change} is past {g.text} ({why})"))
    return out
