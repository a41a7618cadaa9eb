# SPDX-License-Identifier: Apache-2.0
"""The distribution behind a result, rebuilt from its hist record. What the record knows: exact
values (an exact state's "values", the tail's) and histogram bins, each a range holding a count
(clamped to the exact min and to the smallest tail value, as the firmware clamps its own
quantiles): pieces(). For rank tests, samples() places each bin's count evenly over its range.
Per-iteration values = raw / div."""
import numpy as np


MOST = 5_000_000   # samples rebuilt per hist at most (~40 MB as floats); more are thinned


def pieces(hist: dict):
    """[(lo, hi, count)], raw, ascending: an exact value is a piece with lo == hi; a bin's range
    is where its count lies, nothing more is known of them."""
    if hist.get("values"):
        return [(v, v, c) for v, c in hist["values"]]
    tail, out = hist["tail"], []
    lo_c, hi_c = hist["min"], tail[0] if tail else hist["max"]
    for lo, hi, c in hist["bins"]:
        lo = max(lo, lo_c)
        out.append((lo, max(min(hi, hi_c), lo), c))
    for v in tail:
        if out and out[-1][0] == out[-1][1] == v:
            out[-1] = (v, v, out[-1][2] + 1)
        else:
            out.append((v, v, 1))
    return out


def cdf_bounds(parts):
    """(xs, lower, upper): at each x of xs (ascending), the samples that are surely <= x (their
    piece ends at or below x) and that may be (their piece starts at or below x); one run's
    exact values make the two equal."""
    lo = np.array([p[0] for p in parts], dtype=float)
    hi = np.array([p[1] for p in parts], dtype=float)
    c = np.array([p[2] for p in parts], dtype=float)
    xs = np.unique(np.concatenate([lo, hi]))
    o_lo, o_hi = np.argsort(lo, kind="stable"), np.argsort(hi, kind="stable")
    up = np.concatenate([[0.0], np.cumsum(c[o_lo])])[np.searchsorted(lo[o_lo], xs, side="right")]
    low = np.concatenate([[0.0], np.cumsum(c[o_hi])])[np.searchsorted(hi[o_hi], xs, side="right")]
    return xs, low, up


def quantile_range(parts, num, den):
    """[lo, hi] holding the nearest-rank num/den quantile of these pieces (lo == hi: exact)."""
    xs, low, up = cdf_bounds(parts)
    n = int(up[-1])
    rank = n if num >= den else max(1, -(-num * n // den))
    return xs[np.searchsorted(up, rank)], xs[np.searchsorted(low, rank)]


def thinned(hist: dict) -> bool:
    """True when samples() gives evenly spaced ranks, not every sample (n above MOST)."""
    return hist["n"] > MOST


def samples(hist: dict) -> np.ndarray:
    """Sorted per-iteration values, one per sample (floats: for rank tests; the exact
    figures stay in the records). Above MOST samples (a record may count up to 2^64), the
    values at MOST evenly spaced ranks instead, computed without building the rest: the same
    distribution, and rank tests on it are then conservative (see thinned)."""
    if hist.get("values"):
        vals = np.array([v for v, _ in hist["values"]], dtype=float)
        ends = np.cumsum([c for _, c in hist["values"]])
        n = int(ends[-1])
        ranks = np.arange(n, dtype=np.int64) if n <= MOST else \
            ((np.arange(MOST) + 0.5) * (n / MOST)).astype(np.int64).clip(0, n - 1)
        return vals[np.searchsorted(ends, ranks, side="right")] / hist["div"]
    bins, tail, div = hist["bins"], hist["tail"], hist["div"]
    lo_clamp = float(hist["min"])
    hi_clamp = float(tail[0]) if tail else float(hist["max"])
    n = int(hist["n"])
    ranks = np.arange(n, dtype=np.int64) if n <= MOST else \
        ((np.arange(MOST) + 0.5) * (n / MOST)).astype(np.int64).clip(0, n - 1)
    out = np.empty(len(ranks), dtype=float)
    hist_n = n - len(tail)
    in_bins = ranks < hist_n
    if bins and in_bins.any():
        lo = np.clip(np.array([b[0] for b in bins], dtype=float), lo_clamp, hi_clamp)
        hi = np.clip(np.array([b[1] for b in bins], dtype=float), lo_clamp, hi_clamp)
        cnt = np.array([b[2] for b in bins], dtype=np.int64)
        ends = np.cumsum(cnt)
        r = ranks[in_bins]
        i = np.searchsorted(ends, r, side="right")           # the bin of each rank
        k = r - (ends[i] - cnt[i])                           # its place in that bin
        out[in_bins] = lo[i] + (hi[i] - lo[i]) * (k + 0.5) / cnt[i]
    if (~in_bins).any():
        out[~in_bins] = np.array(tail, dtype=float)[ranks[~in_bins] - hist_n]
    return np.sort(out) / div


def quantile(sorted_values, q, axis=-1):
    """Nearest rank, as the firmware computes it (numpy's inverted_cdf)."""
    return np.quantile(sorted_values, q, axis=axis, method="inverted_cdf")
