# SPDX-License-Identifier: Apache-2.0
"""bmlib.records.derive and bmlib.layout against the C they mirror: bm-stats (the firmware's statistics
core and record writer on the host, BM_STATS) turns sample sets of every shape into a result and
a hist record; the Python must rebuild that hist from the same samples, byte for byte, and give
every figure of that result from the hist, or bm check would refuse (or pass) the wrong records."""
import os
import random
import subprocess

import pytest

from bmlib import layout
from bmlib.records import derive, frame, rules

BM_STATS = os.environ.get("BM_STATS")
needs_c = pytest.mark.skipif(not BM_STATS, reason="BM_STATS (the bm-stats binary) not set: run through ctest")


def c_records(raw, div):
    args = [BM_STATS, "--format", "json", "--with-hist", "--name", "x"]
    if div != 1:
        args += ["--div", str(div)]
    p = subprocess.run(args, input="".join(f"{v}\n" for v in raw), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    recs = [frame.loads(line[:line.rfind(',"crc":')] + "}") for line in p.stdout.splitlines()]
    assert [r["type"] for r in recs] == ["result", "hist"], p.stdout[:500]
    return recs


def shapes():
    rng = random.Random(15)
    out = []
    for n in (1, 2, 3, 5, 10, 31, 64, 65, 66, 100, 127, 1000, 5000):
        out.append((f"uniform-{n}", [rng.randrange(1000, 100000) for _ in range(n)], 1))
        out.append((f"lognormal-{n}", [int(rng.lognormvariate(9, 1.5)) for _ in range(n)], 7))
    out += [
        ("constant", [12345] * 3000, 1),
        ("zeros", [0] * 500 + [3] * 500, 1),
        ("small", [rng.randrange(0, 20) for _ in range(3000)], 3),
        ("spikes", [20000 + rng.randrange(64) if i % 100 == 99 else 1000 + rng.randrange(16) for i in range(10000)], 1),
        ("far-below", [rng.randrange(1, 4) for _ in range(500)] + [2**40 + rng.randrange(2**20) for _ in range(500)], 1),
        ("huge", [2**63 + rng.randrange(2**62) for _ in range(300)], 1),
        ("huge-div", [rng.randrange(2**50, 2**52) for _ in range(300)], 2**31 + 5),
        ("big-div", [rng.randrange(10**9, 10**10) for _ in range(300)], 10**6),
        ("ascending", list(range(1, 4001)), 1),
        ("two-values", [100] * 900 + [5000] * 100, 1),
        ("outliers-low", [1] * 10 + [10000] * 990, 1),
        ("max-u64", [2**64 - 1] * 70 + [1] * 30, 1),
        ("two-far", [1, 2**64 - 1], 1),                  # ci95 far past 2^64
        ("tukey-mean-past-2^64", [0] + [2**64 - 2] * 2 + [2**64 - 1] * 64, 1),   # low outlier at its bin's rep
        # the exact mode (at most 64 distinct values): two ticks, hit/miss, values over a range
        ("two-ticks", [2222] + [2223] * 999, 4),
        ("two-ticks-54", [684] * 54 + [685] * 946, 1),
        ("hit-miss", [12 if rng.random() < 0.97 else 150 for _ in range(5000)], 1),
        ("64-values", [1000 + 997 * rng.randrange(64) for _ in range(20000)], 3),
        ("64-values-40bit", [(1 << 39) + (rng.randrange(64) << 20) for _ in range(3000)], 1),
        ("65-values", [5000 + 13 * rng.randrange(65) for _ in range(20000)], 1),
        ("straddle", [1000 + rng.randrange(8) for _ in range(900)] + [1200 + rng.randrange(100) for _ in range(100)], 1),
    ]
    return out


SHAPES = shapes()


@needs_c
@pytest.mark.parametrize("name,raw,div", SHAPES, ids=[s[0] for s in SHAPES])
def test_same_as_c(name, raw, div):
    result, hist = c_records(raw, div)
    mine = derive.hist_from_samples(raw, div)
    assert {k: hist[k] for k in mine} == mine
    assert rules.check_hist(dict(hist, name="x", unit="value")) == []
    h = derive.Hist(hist)
    assert h.problems() == []
    want = h.result()
    for k, v in want.items():
        assert result[k] == v, (k, result[k], v)
    assert derive.differences(result, h) == []
    # and the value rules take every figure the C prints (the harness's keys aside: bm-stats
    # has no warm-up), e.g. a ci95 or a Tukey high fence past 2^64 (printed exact, in 128 bits)
    assert [e for e in rules.check_result(result) if not e.endswith("is missing")] == []
    assert derive.figure_problems(dict(result, iters=div)) == []


@needs_c
def test_exact_record_held_to_its_values():
    """An exact state's bins and tail are the switch's (derive.exact_view): one moved sample, in
    the values or in the bins, is refused; a result with the old binned median is refused."""
    result, hist = c_records([2222] + [2223] * 999, 4)
    assert hist["values"] == [[2222, 1], [2223, 999]] and result["p50"] == frame.Decimal("555.750")
    assert result["tukey"]["out_lo"] == 1 and result["tukey"]["out_hi"] == 0
    h = dict(hist, name="x", unit="value")
    assert rules.check_hist(h) == []
    bad = dict(h, values=[[2222, 2], [2223, 998]])
    assert any("add up" in e for e in rules.check_hist(bad))
    bad = dict(h, bins=[[b[0], b[1], b[2] + 1] for b in h["bins"]], tail=h["tail"][1:])
    assert rules.check_hist(bad) != []
    old = dict(result, p50=frame.Decimal("555.500"))
    assert [d[0] for d in derive.differences(old, derive.Hist(hist))] == ["p50"]


@needs_c
def test_wide_counts_same_as_c():
    """Past 1,114,111 samples: 32-bit counts, 23 bins per octave, the coarsened flag."""
    rng = random.Random(3)
    raw = [rng.randrange(1000, 1000000) for _ in range(1200000)]
    result, hist = c_records(raw, 1)
    assert hist["bins_per_octave"] == 23 and result["flags"]["coarsened"] is True
    assert {k: hist[k] for k in derive.hist_from_samples(raw)} == derive.hist_from_samples(raw)
    assert derive.differences(result, derive.Hist(hist)) == []


@needs_c
def test_every_figure_is_checked():
    """Any one figure of a true result, changed by one in its last digit, is a difference."""
    raw = [int(random.Random(4).lognormvariate(8, 1)) for _ in range(1000)]
    result, hist = c_records(raw, 3)
    h = derive.Hist(hist)
    seen = 0
    for key, sub in [(k, None) for k in ("min", "p50", "p90", "p99", "p999", "max", "mean", "stddev", "ci95", "cv_ppm")] + \
            [("bound_ppm", k) for k in ("p50", "p90", "p99", "p999")] + \
            [("tukey", k) for k in ("lo", "hi", "out_lo", "out_hi", "mean")]:
        bad = dict(result)
        if sub:
            bad[key] = dict(result[key])
            bad[key][sub] += 1 if isinstance(bad[key][sub], int) else frame.Decimal("0.001")
        else:
            bad[key] += 1 if isinstance(bad[key], int) else frame.Decimal("0.001")
        diff = derive.differences(bad, h)
        assert [d[0] for d in diff] == [key + ("." + sub if sub else "")], diff
        seen += 1
    assert seen == 19


def _true_result(raw, div):
    h = dict(derive.hist_from_samples(raw, div), name="x", unit="value")
    return dict(derive.Hist(h).result(), iters=div)


def test_figure_rules_take_every_true_result():
    """Without a hist record, bm check tests what the figures say of each other (spread within
    min..max, cv, ci95, the Tukey fences and outliers): on thousands of true results (the exact
    C formulas, test_same_as_c) of every shape, size and divisor, none is refused."""
    rng = random.Random(23)
    gens = [
        lambda n: [rng.randrange(0, 4) for _ in range(n)],
        lambda n: [rng.randrange(1000, 1010) for _ in range(n)],
        lambda n: [int(rng.lognormvariate(8, 2)) for _ in range(n)],
        lambda n: [rng.choice((1, 2**40)) for _ in range(n)],
        lambda n: [10**6] * (n - 1) + [rng.randrange(0, 2**64)],
        lambda n: [rng.randrange(2**63, 2**64) for _ in range(n)],
        lambda n: [rng.randrange(0, 2**64) for _ in range(n)],
        lambda n: [v for v in range(n)],
    ]
    for trial in range(3000):
        n = rng.choice((1, 2, 3, 4, 5, 7, 10, 31, 65, 200, 1000))
        div = rng.choice((1, 1, 2, 3, 7, 1000, 2**31 + 5))
        raw = rng.choice(gens)(n)
        r = _true_result(raw, div)
        assert derive.figure_problems(r) == [], (trial, n, div, raw[:8], r)


def test_figure_rules_refuse_forgeries():
    """The forgeries a log without hist records could carry, each named."""
    rng = random.Random(5)
    base = _true_result([rng.randrange(1000, 1100) for _ in range(500)] + [5000, 9000], 1)
    const = _true_result([2056] * 100, 1)
    D = frame.Decimal

    def refused(r, key, value, word):
        bad = {k: (dict(v) if isinstance(v, dict) else v) for k, v in r.items()}
        if "." in key:
            a, b = key.split(".")
            bad[a][b] = value
        else:
            bad[key] = value
        errs = derive.figure_problems(bad)
        assert any(word in e for e in errs), (key, value, errs)
    refused(const, "stddev", D("99999.000"), "can spread")
    refused(const, "cv_ppm", 500000, "cv_ppm")
    refused(const, "ci95", D("12345.000"), "ci95")
    refused(base, "ci95", base["ci95"] * 2 + D("1.000"), "ci95")
    refused(base, "cv_ppm", base["cv_ppm"] * 2 + 2, "cv_ppm")
    refused(const, "tukey.lo", D("9000.000"), "fences")
    refused(const, "tukey.out_hi", 50, "not above the high fence")
    refused(base, "tukey.out_lo", 3, "not below the low fence")
    refused(base, "tukey.out_hi", 502, "leaves no sample")
    refused(const, "tukey.mean", D("1.000"), "no outliers")
    refused(const, "bound_ppm.p50", 900000, "each answer is exact")
    refused(base, "p50", D("1050.500"), "not whole")
    refused(_true_result([7], 1), "stddev", D("1.000"), "one sample")
    refused(base, "stddev", D("0.000"), "must spread")
    refused(const, "stddev", D("0.001"), "every sample is")
    refused(const, "tukey.hi", D("100000.000"), "the fences are that value")
    small = _true_result(list(range(1000, 1010)), 1)
    refused(small, "p999", D("1008.000"), "its nearest rank is n")
    refused(small, "bound_ppm.p999", 7000, "its nearest rank is n")
    refused(small, "bins_per_octave", 23, "bins_per_octave")


def test_layout_round_trip():
    """Every bin of both count widths under every top octave holds exactly the values that
    bin_of maps to it: its ends map to it, the values just outside do not."""
    for wide, nbins in ((False, 682), (True, 339)):
        for top in range(64):
            for i in range(1, nbins):
                r = layout.bin_range(wide, top, i)
                if r is None:
                    continue
                lo, hi = r
                assert layout.bin_of(wide, top, lo) == i and layout.bin_of(wide, top, hi) == i
                if lo > 1:
                    assert layout.bin_of(wide, top, lo - 1) != i
                if hi.bit_length() - 1 < top or (hi + 1).bit_length() - 1 <= top:
                    assert layout.bin_of(wide, top, hi + 1) != i


def test_ns_figures():
    d = {"p50": frame.Decimal("100.000"), "mean": frame.Decimal("150.500"), "cycle_hz": 2000000000,
         "p50_ns": frame.Decimal("50.000"), "mean_ns": frame.Decimal("75.250"), "ops_per_s": 20000000}
    assert derive.ns_problems(d) == []
    assert derive.ns_problems(dict(d, ops_per_s=1)) and derive.ns_problems(dict(d, p50_ns=frame.Decimal("1.000")))
    assert derive.ns_problems({k: v for k, v in d.items() if k != "cycle_hz"})   # ns without a clock
