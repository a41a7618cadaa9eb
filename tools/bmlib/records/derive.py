# SPDX-License-Identifier: Apache-2.0
"""A result's statistics recomputed from its hist record as the firmware's report computes them
(core/stats/bm_stats_report.c, bm_stats_record.c, bm_stats_exact.c, the harness's ns figures), so
that bm check refuses a result its own distribution does not give, and a hist record no state
could hold."""
# Python's integers are exact: each figure is the C's integer formula with the same rounding
# (halves up, nearest rank, the balanced bin representative).
import math
from decimal import Decimal

from .. import layout, shared
from .figures import QUANTILES, RANKS

U64_MAX = layout.U64_MAX
U32_MAX = 2**32 - 1
U128_MAX = 2**128 - 1


def _round(x, d):
    """round(x / d), halves up"""
    return (2 * x + d) // (2 * d)


def _root(x, d):
    """round(sqrt(x / d)), halves up: r = isqrt(x // d), up iff 4x >= (2r+1)^2 d"""
    r = math.isqrt(x // d)
    return r + 1 if 4 * x >= (2 * r + 1) ** 2 * d else r


def _milli(m):
    """A milli-unit integer as the record prints it (three decimals), exact at any size."""
    return Decimal(f"{m // 1000}.{m % 1000:03d}")


def nearest_rank(n, num, den):
    """The rank (1-based) of the num/den quantile of n samples, nearest rank as the firmware
    asks for it."""
    return n if num >= den else max(1, -(-num * n // den))


def muldiv64(a, b, d):
    """bm_muldiv64: a * b / d rounded to nearest, saturating at 2^64-1."""
    return min(U64_MAX, (a * b + d // 2) // d)


def exact_view(values, n, topk=64):
    """(bins, tail) of an exact state's values (bm_st_ex_view): the bins and tail the state would
    switch to in histogram mode, the K largest samples exactly and the rest in the layout of
    their top octave and n."""
    if n <= topk:
        return [], [v for v, c in values for _ in range(c)]
    i, above = len(values) - 1, 0
    while i > 0 and above + values[i][1] < topk:
        above += values[i][1]
        i -= 1
    in_tail = topk - above
    c0 = values[i][1] - in_tail
    hmax = values[i][0] if c0 else values[i - 1][0]
    wide, top = n > layout.U16_MAX_N, max(hmax.bit_length() - 1, 0)
    bins = []
    for k, (v, c) in enumerate(values[:i + 1]):
        c = c if k < i else c0
        if not c:
            continue
        b = layout.bin_of(wide, top, v)
        if bins and bins[-1][0] == b:
            bins[-1][1] += c
        else:
            bins.append([b, c])
    tail = [values[i][0]] * in_tail + [v for v, c in values[i + 1:] for _ in range(c)]
    return [list(layout.bin_range(wide, top, b)) + [c] for b, c in bins], tail


class Hist:
    """A checked hist record (rules.check_hist passed) with its bins placed in the layout; with
    "values", an exact state's (every figure from them)."""

    def __init__(self, h):
        self.n, self.div = h["n"], h["div"]
        self.min, self.max = h["min"], h["max"]
        self.sum, self.sumsq = h["sum"], h["sumsq"]
        self.bins = [tuple(b) for b in h["bins"]]
        self.tail = list(h["tail"])
        self.topk = h.get("topk", 64)
        self.values = [tuple(x) for x in h["values"]] if isinstance(h.get("values"), list) else None
        sat = h.get("saturated") or {}
        self.sum_saturated = sat.get("sum") is True
        self.bins_saturated = sat.get("bins") is True
        self.wide = self.n > layout.U16_MAX_N
        self.hist_n = self.n - len(self.tail)
        self.top = None
        self.index = []            # each bin's index in the layout (None: not a bin of it)
        if self.bins:
            last = self.bins[-1][0]
            self.top = last.bit_length() - 1 if last else 0
            for lo, hi, _ in self.bins:   # (ascending: no lo is above the last one's octave)
                i = layout.bin_of(self.wide, self.top, lo)
                self.index.append(i if layout.bin_range(self.wide, self.top, i) == (lo, hi) else None)

    # ---- the hist record itself ----

    def problems(self):
        """What no statistics state could have written (the structure is rules.check_hist's)."""
        if self.values is not None:
            return self._value_problems()
        out = []
        bad = [k for k, i in enumerate(self.index) if i is None]
        if bad:
            lo, hi, _ = self.bins[bad[0]]
            out.append(f"bin {bad[0]} [{lo}, {hi}] is not a bin of the layout that n = {self.n} and the "
                       f"top octave {self.top} give ({len(bad)} such)")
            return out
        if self.sum_saturated:
            return out   # the sums are ceilings, not sums
        lo_c, hi_c = self._clamp()
        tail1 = sum(self.tail)
        tail2 = sum(v * v for v in self.tail)
        s_lo = sum(max(lo, lo_c) * c for lo, hi, c in self.bins) + tail1
        s_hi = sum(min(max(hi, lo_c), hi_c) * c for lo, hi, c in self.bins) + tail1
        q_lo = sum(max(lo, lo_c) ** 2 * c for lo, hi, c in self.bins) + tail2
        q_hi = sum(min(max(hi, lo_c), hi_c) ** 2 * c for lo, hi, c in self.bins) + tail2
        if self.bins:
            # one sample of the first bin is the minimum itself, exactly (it cannot sit at the top)
            top0 = min(max(self.bins[0][1], lo_c), hi_c)
            s_hi -= top0 - self.min
            q_hi -= top0 * top0 - self.min * self.min
        if not s_lo <= self.sum <= s_hi:
            out.append(f"sum = {self.sum} is not what its bins and tail can add up to ({s_lo} .. {s_hi})")
        if not q_lo <= self.sumsq <= q_hi:
            out.append(f"sumsq = {self.sumsq} is not what its bins and tail can add up to ({q_lo} .. {q_hi})")
        elif self.n * self.sumsq < self.sum * self.sum:
            out.append(f"sumsq = {self.sumsq} is below sum^2 / n: a negative variance")
        return out

    def _value_problems(self):
        """An exact state's: its values ascending, at most topk of them, every count >= 1 and n
        below 2^32, the head exactly theirs, and bins and tail what they switch to."""
        vals, n = self.values, self.n
        if len(vals) > self.topk:
            return [f"{len(vals)} values: an exact state holds at most topk = {self.topk}"]
        if any(c < 1 for _, c in vals) or any(a[0] >= b[0] for a, b in zip(vals, vals[1:])):
            return ["values are not ascending and distinct, each with a count of at least 1"]
        out = []
        if sum(c for _, c in vals) != n:
            out.append(f"values count {sum(c for _, c in vals)} samples but n = {n}")
        if n > U32_MAX:
            out.append(f"values with n = {n}: an exact state holds fewer than 2^32 samples")
        if (self.min, self.max) != (vals[0][0], vals[-1][0]):
            out.append(f"min, max = {self.min}, {self.max} but the values span {vals[0][0]}..{vals[-1][0]}")
        if self.sum_saturated or self.bins_saturated:
            out.append("an exact state (values) says it saturated")
        s1, s2 = sum(v * c for v, c in vals), sum(v * v * c for v, c in vals)
        if (self.sum, self.sumsq) != (s1, s2):
            out.append(f"sum, sumsq = {self.sum}, {self.sumsq} but the values add up to {s1}, {s2}")
        if not out and exact_view(vals, n, self.topk) != ([list(b) for b in self.bins], self.tail):
            out.append("bins and tail are not what its values give (the state it would switch to)")
        return out

    def _rank_value(self, rank):
        """The value of the rank-th smallest sample of an exact state."""
        upto = 0
        for v, c in self.values:
            upto += c
            if upto >= rank:
                return v
        return self.values[-1][0]

    def _clamp(self):
        """The range every histogram sample lies in: [min, smallest tail value]."""
        return self.min, self.tail[0] if self.tail else self.max

    # ---- the report ----

    def _bin_range(self, k):
        """Bin k's range clamped to [min, tail minimum], as the firmware clamps it."""
        lo, hi, _ = self.bins[k]
        clo, chi = self._clamp()
        lo = max(lo, clo)
        return lo, max(min(hi, chi), lo)

    def _rep(self, k):
        """bin_rep: bin k's clamped range, its representative (the point that balances the worst
        relative error on both sides) and that error in ppm."""
        lo, hi = self._bin_range(k)
        if lo == hi:
            return lo, 0
        if lo == 0:
            return 0, U32_MAX
        r = lo + ((hi - lo) * lo + (lo + hi) // 2) // (lo + hi)

        def ppm(a, b):
            return min(U32_MAX, -(-1000000 * a // b))
        return r, max(ppm(r - lo, lo), ppm(hi - r, hi))

    def _bin_of_rank(self, rank):
        below = 0
        for k, (_, _, c) in enumerate(self.bins):
            if below + c >= rank:
                return k
            below += c
        raise AssertionError("rank past the bins")   # check_hist: the counts add up to n

    def order_range(self, rank):
        """(lo, hi), raw: where the rank-th smallest sample (1-based) lies. Exact in the tail and
        at the minimum, else its bin's clamped range."""
        if self.values is not None:
            v = self._rank_value(rank)
            return v, v
        if rank > self.hist_n:
            v = self.tail[rank - self.hist_n - 1]
            return v, v
        if rank == 1:
            return self.min, self.min
        return self._bin_range(self._bin_of_rank(rank))

    def quantile(self, num, den):
        """(raw value, bound_ppm) of the nearest rank num/den."""
        rank = nearest_rank(self.n, num, den)
        if self.values is not None:
            return self._rank_value(rank), 0
        if rank > self.hist_n or rank == 1:
            return self.order_range(rank)[0], 0
        return self._rep(self._bin_of_rank(rank))

    def coarsened(self):
        if not self.bins or self.values is not None:
            return False
        return self.wide or any(i is not None and 1 <= i < 84 for i in self.index)

    def result(self):
        """The figures bm_stats_record_fields prints for this state, as record values, in the
        order it prints them."""
        n, div, s1, s2 = self.n, self.div, self.sum, self.sumsq
        shown = {k: self.quantile(*r) for k, r in RANKS.items()}
        stddev = ci95 = cv = 0
        if n >= 2 and not self.sum_saturated:
            v = max(0, n * s2 - s1 * s1)
            t = shared.t95_e4(n - 1)
            stddev = min(U128_MAX, _root(v * 10**6, n * (n - 1) * div * div))
            ci95 = min(U128_MAX, _root(v * t * t, n * n * (n - 1) * div * div * 100))
            if s1:
                cv = min(U64_MAX, _root(v * 10**12 * n, (n - 1) * s1 * s1))
        out = {"n": n, "min": _milli(_round(self.min * 1000, div))}
        for key, (raw, _) in shown.items():
            out[key] = _milli(_round(raw * 1000, div))
        out["max"] = _milli(_round(self.max * 1000, div))
        out["mean"] = _milli(min(U128_MAX, _round(s1 * 1000, n * div)))
        out["stddev"], out["cv_ppm"], out["ci95"] = _milli(stddev), cv, _milli(ci95)
        out["bound_ppm"] = {k: b for k, (_, b) in shown.items()}
        out["tukey"] = self._tukey(self.quantile(1, 4)[0], self.quantile(3, 4)[0])
        out["flags"] = {"coarsened": self.coarsened(), "saturated": self.sum_saturated or self.bins_saturated}
        out["bins_per_octave"] = layout.bins_per_octave(n)
        return out

    def _tukey(self, q1, q3):
        """The fences Q1 - 1.5 IQR and Q3 + 1.5 IQR from the raw quartiles (v is below the low one
        iff v < ceil((5 Q1 - 3 Q3) / 2), above the high one iff v > floor((5 Q3 - 3 Q1) / 2)),
        the outliers (an exact value or a tail value exactly, a bin by its representative, its
        count uncertain when its range straddles a fence: "out_uncertain", printed when not 0) and
        the mean of the rest."""
        n, div = self.n, self.div
        x = max(5 * q1 - 3 * q3, 0)
        y = 5 * q3 - 3 * q1
        lo_t, hi_t = (x + 1) // 2, min(y // 2, U64_MAX)
        outs, osum, unc = [0, 0], 0, 0

        def count(v, c):
            nonlocal osum
            if v < lo_t or v > hi_t:
                outs[v > hi_t] += c
                osum += v * c
        if self.values is not None:
            for v, c in self.values:
                count(v, c)
        else:
            for k, (blo, bhi, c) in enumerate(self.bins):
                if not (blo >= lo_t and bhi <= hi_t):   # a bin inside both fences changes nothing
                    count(self._rep(k)[0], c)
                    a, b = self._bin_range(k)
                    unc += c if (a < lo_t <= b) or (a <= hi_t < b) else 0
            for v in self.tail:
                count(v, 1)
        kept = n - outs[0] - outs[1]
        mean = min(U128_MAX, _round(max(self.sum - osum, 0) * 1000, kept * div)) if kept else 0
        out = {"lo": _milli(min(U128_MAX, _round(x * 500, div))), "hi": _milli(min(U128_MAX, _round(y * 500, div))),
               "out_lo": outs[0], "out_hi": outs[1]}
        if unc:
            out["out_uncertain"] = unc
        out["mean"] = _milli(mean)
        return out


def hist_from_samples(raw, div=1, topk=64):
    """The hist record fields (without type, seq, name and unit) a statistics state holding
    these samples prints: the topk largest exactly, the rest in the bins of the layout that
    the largest of them and n give (the layout depends on nothing else, not on the order); with
    at most topk distinct values (and n < 2^32) the exact state's values too."""
    s = sorted(raw)
    n = len(s)
    values = []
    for v in s:
        if values and values[-1][0] == v:
            values[-1][1] += 1
        else:
            values.append([v, 1])
    if 0 < n <= U32_MAX and len(values) <= topk:
        bins, tail = exact_view(values, n, topk)
        return {"div": div, "n": n, "min": s[0], "max": s[-1], "sum": sum(s), "sumsq": sum(v * v for v in s),
                "topk": topk, "bins_per_octave": layout.bins_per_octave(n), "saturated": {"sum": False, "bins": False},
                "bins": bins, "tail": tail, "values": values}
    body, tail = (s[:-topk], s[-topk:]) if n > topk else ([], s)
    wide = n > layout.U16_MAX_N
    bins = {}
    if body:
        top = max(body[-1].bit_length() - 1, 0)
        for v in body:
            i = layout.bin_of(wide, top, v)
            bins[i] = bins.get(i, 0) + 1
        bins = [list(layout.bin_range(wide, top, i)) + [c] for i, c in sorted(bins.items())]
    return {"div": div, "n": n, "min": s[0] if s else 0, "max": s[-1] if s else 0, "sum": sum(s),
            "sumsq": sum(v * v for v in s), "topk": topk, "bins_per_octave": layout.bins_per_octave(n),
            "saturated": {"sum": False, "bins": False}, "bins": bins or [], "tail": tail}


def differences(result, hist):
    """[(key, the result's value, what the hist gives)] for every statistics figure of an ok
    result that its hist record does not give (keys with dots for nested objects)."""
    want = hist.result()
    out = []
    # out_uncertain is printed only when not 0: absent on either side reads as 0
    if isinstance(result.get("tukey"), dict) and isinstance(want.get("tukey"), dict):
        result = dict(result, tukey=dict({"out_uncertain": 0}, **result["tukey"]))
        want = dict(want, tukey=dict({"out_uncertain": 0}, **want["tukey"]))

    def walk(prefix, got, exp):
        for k, e in exp.items():
            if not isinstance(got, dict) or k not in got:
                continue   # a missing key is rules.check_result's to name
            g = got[k]
            if isinstance(e, dict):
                walk(f"{prefix}{k}.", g, e)
            elif isinstance(e, bool) or isinstance(g, bool):
                if g is not e:
                    out.append((prefix + k, g, e))
            elif not isinstance(g, (int, Decimal)) or g != e:
                out.append((prefix + k, g, e))
    walk("", result, want)
    return out


def ns_problems(d):
    """The harness's figures that follow from p50, mean and cycle_hz (core/run/bm_measure.c
    summarize): p50_ns and mean_ns = value x 10^9 / cycle_hz, ops_per_s = cycle_hz / p50,
    core_cycles_* = value x core_per_tick_ppm / 10^6, each rounded to nearest from the milli
    figures. [] when they agree or a figure is missing (rules.check_result names those)."""
    out = []
    p50, mean, hz = d.get("p50"), d.get("mean"), d.get("cycle_hz")
    if not isinstance(p50, Decimal) or not isinstance(mean, Decimal):
        return out
    pm, mm = min(U64_MAX, int(p50 * 1000)), min(U64_MAX, int(mean * 1000))   # (the harness's, saturated)
    has = [k for k in ("p50_ns", "mean_ns", "ops_per_s") if k in d]
    if isinstance(hz, int) and hz > 0:
        want = {"p50_ns": _milli(muldiv64(pm, 10**9, hz)), "mean_ns": _milli(muldiv64(mm, 10**9, hz)),
                "ops_per_s": muldiv64(hz, 1000, pm) if pm else 0}
        if not has and (want["p50_ns"] or want["mean_ns"]):
            out.append(f"cycle_hz = {hz} but p50_ns, mean_ns and ops_per_s are missing")
        src = {"p50_ns": "p50", "mean_ns": "mean", "ops_per_s": "p50"}
        for k in has:
            if d[k] != want[k]:
                out.append(f"{k} = {d[k]} but {src[k]} and cycle_hz = {hz} give {want[k]}")
    elif has:
        out.append(f"{', '.join(has)} without cycle_hz")
    ppm = d.get("core_per_tick_ppm")
    if isinstance(ppm, int) and ppm > 0:
        for k, src, v in (("core_cycles_p50", "p50", pm), ("core_cycles_mean", "mean", mm)):
            w = _milli(muldiv64(v, ppm, 10**6))
            if k in d and d[k] != w:
                out.append(f"{k} = {d[k]} but {src} and core_per_tick_ppm = {ppm} give {w}")
    return out


def figure_problems(d):
    """What the figures of an ok result say about each other, hist record or not (a log with
    hist:false has only these): the spread a sample of n values in [min, max] can have, cv =
    stddev / mean, ci95 = t stddev / sqrt(n), Tukey fences around the median with outliers only
    beyond min or max, the mean without outliers = the mean when there are none. Each printed
    figure is its exact value rounded to 0.001 (the C's halves up), so each test allows that
    rounding and nothing more. [] when they agree (rules.check_result names missing keys)."""
    from fractions import Fraction as F
    out = []
    n, lo, hi, p50, mean, sd, ci, cv = (d.get(k) for k in ("n", "min", "max", "p50", "mean", "stddev",
                                                           "ci95", "cv_ppm"))
    tk, fl = d.get("tukey"), d.get("flags")
    if not (isinstance(n, int) and all(isinstance(x, Decimal) for x in (lo, hi, p50, mean, sd, ci))
            and isinstance(cv, int) and isinstance(tk, dict) and isinstance(fl, dict)):
        return out
    half = F(1, 2000)   # the rounding of a printed figure
    lo, hi, p50, mean, sd, ci = (F(x) for x in (lo, hi, p50, mean, sd, ci))
    if d.get("iters") == 1:
        # one iteration per sample: every sample is a whole count, and so is every quantile
        frac = [k for k in QUANTILES if d[k] != int(d[k])]
        if frac:
            out.append(f"{', '.join(frac)} not whole with iters = 1 (each sample is a whole count)")
        b = d.get("bound_ppm")
        nz = [f"bound_ppm.{k} = {b[k]}" for k in RANKS
              if isinstance(b, dict) and b.get(k)]
        if lo == hi and nz:
            out.append(f"{', '.join(nz)} but every sample is {d['min']} (min = max): each answer is exact")
    if n == 1 and (sd or ci or cv):
        out.append(f"n = 1 but stddev = {d['stddev']}, ci95 = {d['ci95']}, cv_ppm = {cv}: one sample has no spread")
    bpo = d.get("bins_per_octave")
    if isinstance(bpo, int) and bpo != layout.bins_per_octave(n):
        out.append(layout.bins_per_octave_problem(bpo, n))
    # the nearest rank n is the largest sample: the tail's, exact, whatever its size
    b = d.get("bound_ppm")
    for k, r in RANKS.items():
        if nearest_rank(n, *r) >= n and (d.get(k) != d["max"] or (isinstance(b, dict) and b.get(k))):
            out.append(f"{k} = {d.get(k)} (bound_ppm {b.get(k) if isinstance(b, dict) else '?'}) with n = {n}: "
                       f"its nearest rank is n, the maximum {d['max']}, exact")
    if n >= 2 and lo < hi and fl.get("saturated") is not True:
        # the smallest spread of n values with these min and max: the others at their middle
        least = (max(hi - lo - 2 * half, 0) / 2) ** 2 * F(2, n - 1)
        if (sd + half) ** 2 < least:
            out.append(f"stddev = {d['stddev']} is less than {n} values spanning min..max "
                       f"({d['min']}..{d['max']}) must spread")
    if d.get("iters") == 1 and lo == hi and (sd or ci or cv):
        out.append(f"every sample is {d['min']} (min = max, iters = 1) but stddev = {d['stddev']}, ci95 = "
                   f"{d['ci95']}, cv_ppm = {cv}")
    if n >= 2 and fl.get("saturated") is not True:
        # the largest sample standard deviation of n values in [a, b] is (b - a) / 2 sqrt(n / (n - 1))
        if sd > half and (sd - half) ** 2 > ((hi - lo + 2 * half) / 2) ** 2 * F(n, n - 1):
            out.append(f"stddev = {d['stddev']} is more than {n} values within min..max "
                       f"({d['min']}..{d['max']}) can spread")
        # ci95 = t stddev / sqrt(n): k^2 = t^2 / n
        k2 = F(shared.t95_e4(n - 1), 10**4) ** 2 / n
        if (ci + half) ** 2 < max(sd - half, 0) ** 2 * k2 or (ci > half and (ci - half) ** 2 > (sd + half) ** 2 * k2):
            out.append(f"ci95 = {d['ci95']} is not t x stddev / sqrt(n) (t = {shared.t95_e4(n - 1) / 10**4}, "
                       f"stddev = {d['stddev']}, n = {n})")
        # cv_ppm = 10^6 stddev / mean, rounded to an integer (untestable where the mean rounds to 0)
        if cv < U64_MAX and mean > half:
            c_lo = 10**6 * max(sd - half, 0) / (mean + half) - F(1, 2)
            c_hi = 10**6 * (sd + half) / (mean - half) + F(1, 2)
            if not c_lo <= cv <= c_hi:
                out.append(f"cv_ppm = {cv} is not 10^6 x stddev / mean ({d['stddev']} / {d['mean']})")
    t_lo, t_hi, o_lo, o_hi, t_mean = (tk.get(k) for k in ("lo", "hi", "out_lo", "out_hi", "mean"))
    if not (isinstance(t_lo, Decimal) and isinstance(t_hi, Decimal) and isinstance(o_lo, int)
            and isinstance(o_hi, int) and isinstance(t_mean, Decimal)):
        return out
    t_lo, t_hi = F(t_lo), F(t_hi)
    # Q1 - 1.5 IQR <= Q1 <= P50 <= Q3 <= Q3 + 1.5 IQR
    if t_lo > p50 + 2 * half or t_hi < p50 - 2 * half:
        out.append(f"tukey fences {d['tukey']['lo']}..{d['tukey']['hi']} do not hold p50 = {d['p50']}")
    # the samples in the first quartile's bin are never outliers
    if o_lo + o_hi >= n:
        out.append(f"tukey out_lo + out_hi = {o_lo + o_hi} leaves no sample inside the fences (n = {n})")
    # an outlier is a sample (or a bin's representative, within min..max) strictly beyond its
    # fence; with iters = 1 the figures are exact (samples are integers, fences halves)
    slack = 0 if d.get("iters") == 1 else 2 * half
    if o_lo and lo >= t_lo + slack:
        out.append(f"tukey out_lo = {o_lo} but min = {d['min']} is not below the low fence {d['tukey']['lo']}")
    if o_hi and hi <= t_hi - slack:
        out.append(f"tukey out_hi = {o_hi} but max = {d['max']} is not above the high fence {d['tukey']['hi']}")
    if o_lo == 0 and o_hi == 0 and F(t_mean) != mean:
        out.append(f"tukey.mean = {d['tukey']['mean']} but there are no outliers: the mean is {d['mean']}")
    if d.get("iters") == 1 and lo == hi and (t_lo != lo or t_hi != hi):
        out.append(f"tukey fences {d['tukey']['lo']}..{d['tukey']['hi']} but every sample is {d['min']}: "
                   "Q1 = Q3, the fences are that value")
    return out
