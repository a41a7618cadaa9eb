# SPDX-License-Identifier: Apache-2.0
"""The distribution behind a result, rebuilt from its hist record: exact tail values, and each
bin's count spread evenly over the bin's range (clamped to the exact min and to the smallest
tail value, as the firmware clamps its own quantiles). Per-iteration values = raw / div."""
import numpy as np


MOST = 5_000_000   # samples rebuilt per hist at most (~40 MB as floats); more are thinned


def thinned(hist: dict) -> bool:
    """True when samples() gives evenly spaced ranks, not every sample (n above MOST)."""
    return hist["n"] > MOST


def samples(hist: dict) -> np.ndarray:
    """Sorted per-iteration values, one per sample (floats: for tests and plots; the exact
    figures stay in the records). Above MOST samples (a record may count up to 2^64), the
    values at MOST evenly spaced ranks instead, computed without building the rest: the same
    distribution, and rank tests on it are then conservative (see thinned)."""
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
