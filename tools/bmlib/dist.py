"""The distribution behind a result, rebuilt from its hist record: exact tail values, and each
bin's count spread evenly over the bin's range (clamped to the exact min and to the smallest
tail value, as the firmware clamps its own quantiles). Per-iteration values = raw / div."""
import numpy as np


def samples(hist: dict) -> np.ndarray:
    """Sorted per-iteration values, one per sample (floats: for tests and plots; the exact
    figures stay in the records)."""
    bins, tail, div = hist["bins"], hist["tail"], hist["div"]
    lo_clamp = float(hist["min"])
    hi_clamp = float(tail[0]) if tail else float(hist["max"])
    parts = []
    if bins:
        lo = np.clip(np.array([b[0] for b in bins], dtype=float), lo_clamp, hi_clamp)
        hi = np.clip(np.array([b[1] for b in bins], dtype=float), lo_clamp, hi_clamp)
        cnt = np.array([b[2] for b in bins], dtype=np.int64)
        starts = np.cumsum(cnt) - cnt
        k = np.arange(int(cnt.sum())) - np.repeat(starts, cnt)
        parts.append(np.repeat(lo, cnt) + np.repeat(hi - lo, cnt) * (k + 0.5) / np.repeat(cnt, cnt))
    parts.append(np.array(tail, dtype=float))
    return np.sort(np.concatenate(parts)) / div


def quantile(sorted_values, q, axis=-1):
    """Nearest rank, as the firmware computes it (numpy's inverted_cdf)."""
    return np.quantile(sorted_values, q, axis=axis, method="inverted_cdf")


def thin(sorted_values, most=10000):
    """At most `most` values with the same distribution (evenly spaced ranks), so a bootstrap
    stays fast on a million samples; its interval is then wider than it need be."""
    n = len(sorted_values)
    if n <= most:
        return sorted_values
    idx = ((np.arange(most) + 0.5) * n / most).astype(np.int64)
    return sorted_values[idx]
