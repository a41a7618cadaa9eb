# SPDX-License-Identifier: Apache-2.0
"""The statistics that bm compare, bm history and bm bisect share: the median of record figures,
the one rank test (exact under ties) and the smallest p-value it can give, a bootstrap interval,
order-statistic ranks of a quantile's interval, and Cohen's d. The tests are scipy's."""
import math
import warnings

import numpy as np

RESAMPLES = 2000


def median(values):
    """The median of record figures, exact (Decimal: the mean of the two middle ones is exact
    too), so that what is printed is the figure, not a float near it."""
    v = sorted(values)
    k = len(v) // 2
    return v[k] if len(v) % 2 else (v[k - 1] + v[k]) / 2


def rank_test(a, b):
    """Two-sided Mann-Whitney U of B against A: (p, U of B). Exact (every arrangement of the
    pooled values, ties as they are) when there are at most 20,000 arrangements: few runs per
    side tie often (a run's figure is a bin's representative), and the normal approximation
    scipy uses with ties then gives p-values no arrangement can. The one rank test of bm compare,
    bm history and bm bisect: a and b are figures (decimals, floats), any sequence."""
    from scipy import stats as st
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if np.all(a == a[0]) and np.all(b == a[0]):
        return 1.0, len(a) * len(b) / 2
    u = float(st.mannwhitneyu(b, a, alternative="two-sided").statistic)
    if min(len(a), len(b)) < 2:
        return 1.0, u       # (one value on a side: no arrangement is more extreme than another)
    if math.comb(len(a) + len(b), len(a)) <= 20000:
        return _exact_p(a, b), u
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = st.mannwhitneyu(b, a, alternative="two-sided")
    return float(r.pvalue), u


def _exact_p(a, b):
    """The two-sided p-value of B's rank sum over every way to deal the pooled values (ties as
    they are: midranks) into sides of A's and B's sizes, each way equally likely: twice the
    smaller share of ways whose B rank sum is at or below, or at or above, B's own. The ways are
    counted by rank sum (doubled midranks are whole numbers), not dealt one by one: what scipy's
    permutation_test gives by enumerating them, in a millisecond instead of seconds."""
    from scipy import stats as st
    r2 = np.rint(2 * st.rankdata(np.concatenate([a, b]))).astype(np.int64)
    total, k = int(r2.sum()), min(len(a), len(b))
    ways = np.zeros((k + 1, total + 1), dtype=np.int64)   # ways[j, s]: j values whose ranks sum to s
    ways[0, 0] = 1
    for r in r2:
        ways[1:, r:] = ways[1:, r:] + ways[:-1, :total + 1 - r]
    dist = ways[k]
    s = int(r2[len(a):].sum()) if k == len(b) else total - int(r2[len(a):].sum())
    # (counted on the smaller side: B's sum is at or below its own where A's is at or above A's)
    low, high = int(dist[:s + 1].sum()), int(dist[s:].sum())
    return min(1.0, 2 * min(low, high) / int(dist.sum()))


def min_p(na, nb):
    """The smallest two-sided p-value an exact rank test can give with na and nb runs."""
    return min(1.0, 2 / math.comb(na + nb, na))


def bootstrap(a, b, stat, alpha, seed):
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


def order_ranks(n, q, t):
    """Ranks (l, u) of a distribution-free interval for the q-quantile of n samples: the true
    quantile is below X_(l) or above X_(u) with probability at most t each (binomial), or None
    when n is too small for one (an extreme quantile of few samples has no such interval)."""
    from scipy import stats as st
    if not 0 < q < 1:
        return None
    if n <= 10**7:
        lo, hi = int(st.binom.ppf(t, n, q)), int(st.binom.ppf(1 - t, n, q)) + 1
    else:  # (normal approximation, a rank wider each way)
        z, m = float(st.norm.ppf(1 - t)), n * q
        w = z * math.sqrt(n * q * (1 - q))
        lo, hi = int(math.floor(m - w)) - 1, int(math.ceil(m + w)) + 2
    return (lo, hi) if lo >= 1 and hi <= n else None


def samples_needed(q, t):
    return math.ceil(max(math.log(t) / math.log(q), math.log(t) / math.log(1 - q)))


def cohen_d(ma, sa, na, mb, sb, nb):
    if na + nb <= 2:
        return None
    pooled = math.sqrt(((na - 1) * sa * sa + (nb - 1) * sb * sb) / (na + nb - 2))
    if pooled == 0:
        return 0.0 if ma == mb else math.copysign(math.inf, mb - ma)
    return (mb - ma) / pooled
