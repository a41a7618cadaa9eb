# SPDX-License-Identifier: Apache-2.0
"""Series over revisions from the history store, and their change points: exact for deterministic
runs (built_for qemu-icount: every change of a figure is one), a windowed rank test for noisy ones
(hardware, hosted), and the gate of the newest revision against the last change point or a named
baseline. The method and its measured false-alarm rate: docs/history.md."""
import math
from dataclasses import dataclass, field
from decimal import Decimal

from ..analysis import stats
from ..analysis.compare import compare_bench
from ..analysis.gate import gate_failures
from ..records.figures import SUMMARY, deterministic
from .store import revision_matches, short

EXACT_FIGURES = SUMMARY
NOISY_FIGURES = ("p50",)
FIGURE_CHOICES = EXACT_FIGURES + ("insns",)


@dataclass
class Point:
    """One revision of a series: its runs and this benchmark's result in each."""
    revision: str
    order: int
    rev_time: str
    subject: str
    first_time: str
    runs: list = field(default_factory=list)       # StoredRun
    results: list = field(default_factory=list)    # dicts from Store.results, one per run

    @property
    def status(self):
        st = sorted({r["status"] for r in self.results})
        if st == ["ok"]:
            return "ok"
        bad = [s for s in st if s != "ok"]
        return "/".join(bad) + (" (and ok)" if "ok" in st else "")

    def values(self, fig):
        return [r[fig] for r in self.results if r["status"] == "ok" and r.get(fig) is not None]

    def figure(self, fig):
        v = self.values(fig)
        return stats.median(v) if v else None


@dataclass
class Series:
    board: str
    config: str
    built_for: str
    unit: str
    bench: str
    points: list = field(default_factory=list)

    @property
    def deterministic(self):
        return deterministic(self.built_for)

    @property
    def name(self):
        return self.board + (f" [{self.config}]" if self.config else "") + \
            (f" ({self.built_for})" if not self.deterministic else "")

    def index_of(self, revision):
        return next((i for i, p in enumerate(self.points) if revision_matches(p.revision, revision)), None)


@dataclass
class Change:
    series: Series
    figure: str            # a figure, or "status"
    index: int             # the point after the change
    before_index: int      # the point before it (the last one that had the figure)
    before: object
    after: object
    method: str
    p: float = None
    note: str = ""

    @property
    def prev(self):
        return self.series.points[self.before_index]

    @property
    def point(self):
        return self.series.points[self.index]

    @property
    def delta(self):
        if isinstance(self.before, Decimal) and isinstance(self.after, Decimal):
            return self.after - self.before
        return None

    @property
    def rel(self):
        d = self.delta
        return float(d) / float(self.before) if d is not None and self.before else None

    def commits(self):
        """Commits in (before, after]: 1 when the two revisions are parent and child."""
        a, b = self.prev.order, self.point.order
        return b - a if a is not None and b is not None else None


def _order_key(all_known):
    if all_known:
        return lambda p: (p.order, p.rev_time or "", p.first_time)
    return lambda p: (p.rev_time or p.first_time, p.first_time)


def build_series(store, board=None, pick=None):
    """Every (board, config, built_for, unit) x benchmark series in the store, its points in
    revision order: ancestry (git rev-list --count) when every revision has it, else time."""
    runs = store.runs(board=board)
    results = store.results([r.id for r in runs])
    groups = {}
    for r in runs:
        groups.setdefault(r.series, {}).setdefault(r.revision, []).append(r)
    out = []
    for key in sorted(groups):
        revs = groups[key]
        points = []
        for rev, rs in revs.items():
            rs.sort(key=lambda r: (r.run_time, r.id))
            points.append(Point(rev, rs[0].rev_order, rs[0].rev_time, rs[0].rev_subject,
                                min(r.run_time for r in rs), rs))
        points.sort(key=_order_key(all(p.order is not None for p in points)))
        names = []
        for p in points:
            for r in p.runs:
                names += [n for n in results.get(r.id, {}) if n not in names]
        for name in sorted(names):
            if pick and not pick(name):
                continue
            s = Series(*key, name)
            for p in points:
                got = [(r, results[r.id][name]) for r in p.runs if name in results.get(r.id, {})]
                if got:
                    s.points.append(Point(p.revision, p.order, p.rev_time, p.subject, p.first_time,
                                          [g[0] for g in got], [g[1] for g in got]))
            out.append(s)
    return out


# ---- change points ----

@dataclass
class Method:
    """The noisy series' test (docs/history.md): at each boundary between revisions, the runs of
    up to `window` revisions before it (back to the last change point) against the runs of up to
    `window` after it, Mann-Whitney U two-sided; a change point where p <= alpha and the medians
    differ by at least min_change (LNT ignores changes under 1%); of neighbouring boundaries that
    pass, the one with the smallest p."""
    window: int = 10
    alpha: float = 0.001
    min_change: float = 0.01

    @property
    def min_runs(self):
        """Runs needed on each side before the rank test can reach alpha at all."""
        n = 1
        while stats.min_p(n, n) > self.alpha:
            n += 1
        return n


def series_changes(s, figures, method):
    """The change points of one series, for these figures (and any change of status)."""
    out = []
    for i in range(1, len(s.points)):
        a, b = s.points[i - 1].status, s.points[i].status
        if a != b:
            out.append(Change(s, "status", i, i - 1, a, b, "status"))
    for fig in figures:
        if s.deterministic:
            out += _exact(s, fig)
        else:
            out += _noisy(s, fig, method)
    out.sort(key=lambda c: (c.index, c.figure != "status", FIGURE_CHOICES.index(c.figure)
                            if c.figure in FIGURE_CHOICES else 0))
    return out


def _exact(s, fig):
    """Deterministic runs repeat exactly: any change of the figure between two revisions is a
    change point, with no test. Runs of one revision that differ are said, not averaged away."""
    out, prev, prev_i = [], None, None
    for i, p in enumerate(s.points):
        vals = p.values(fig)
        if not vals:
            continue   # (not ok here: a status change; the figure is compared across it)
        v = stats.median(vals)
        note = f"its {len(vals)} runs at {short(p.revision)} differ ({min(vals)}..{max(vals)}): not deterministic" \
            if len(set(vals)) > 1 else ""
        if prev is not None and v != prev:
            out.append(Change(s, fig, i, prev_i, prev, v, "exact", note=note))
        prev, prev_i = v, i
    return out


def _noisy(s, fig, m):
    idx = [i for i, p in enumerate(s.points) if p.values(fig)]
    vals = [[float(v) for v in s.points[i].values(fig)] for i in idx]
    need = m.min_runs
    start, k, found = 0, 1, []

    def test(k):
        a = [v for vs in vals[max(start, k - m.window):k] for v in vs]
        b = [v for vs in vals[k:k + m.window] for v in vs]
        if len(a) < need or len(b) < need:
            return None
        ma, mb = stats.median(a), stats.median(b)
        if ma == mb or (ma and abs(mb - ma) / ma < m.min_change):
            return None
        p = stats.rank_test(a, b)[0]
        return (p, -abs(mb - ma), k) if p <= m.alpha else None

    while k < len(vals):
        first = test(k)
        if first is None:
            k += 1
            continue
        best = min(filter(None, [first] + [test(j) for j in range(k + 1, min(len(vals), k + m.window))]))
        p, _, at = best
        before = stats.median([s.points[i].figure(fig) for i in idx[max(start, at - m.window):at]])
        after = stats.median([s.points[i].figure(fig) for i in idx[at:at + m.window]])
        found.append(Change(s, fig, idx[at], idx[at - 1], before, after, "rank", p=p,
                            note=f"medians of {min(at - start, m.window)} and {min(len(vals) - at, m.window)} "
                                 f"revisions' runs"))
        start, k = at, at + 1
    return found


def all_changes(series, figures, method):
    out = []
    for s in series:
        out += series_changes(s, figures or (EXACT_FIGURES if s.deterministic else NOISY_FIGURES), method)
    return out


# Besides the user's revision, what moves a figure: the kit that measured, the build of the code
KIT = ("kit_version", "kit_vcs")
BUILT = ("compiler", "cflags", "opt", "libc")


def _moved(before_runs, after_runs, keys):
    """'kit_vcs a -> b, ...' for the keys whose values differ between two sets of runs."""
    out = []
    for k in keys:
        a, b = ({str(r.cols.get(k)) for r in runs} for runs in (before_runs, after_runs))
        if a != b:
            out.append(f"{k} {'/'.join(sorted(a))} -> {'/'.join(sorted(b))}")
    return ", ".join(out)


def kit_moved(before_runs, after_runs):
    return _moved(before_runs, after_runs, KIT)


def causes(c):
    """[(cause, words)]: what changed across a change point besides the revision. A change point
    that coincides with a kit change is the kit's (docs/history.md: a kit change that moves a
    deterministic figure is named as the kit's, never blamed on the code); a different batch
    size (iters) moves a per-iteration figure too; a different build of the code may."""
    out = []
    kit = kit_moved(c.prev.runs, c.point.runs)
    if kit:
        out.append(("kit", f"the kit changed here ({kit}): the kit's change, not the code's"))
    iters = [{r.get("iters") for r in p.results if r.get("status") == "ok"} for p in (c.prev, c.point)]
    if iters[0] and iters[1] and iters[0] != iters[1]:
        out.append(("iters", f"iters {'/'.join(map(str, sorted(iters[0])))} -> {'/'.join(map(str, sorted(iters[1])))}: "
                             f"figures per iteration of another batch size"))
    built = _moved(c.prev.runs, c.point.runs, BUILT)
    if built:
        out.append(("build", f"the build changed too ({built})"))
    return out


def rows(changes, group=False):
    """One row per change point and figure, for the table and JSON; group=True: the figures of
    one change point that changed alike (the same values before and after) share a row."""
    out = []
    for c in changes:
        s = c.series
        raw = {"board": s.board, "config": s.config, "built_for": s.built_for, "benchmark": s.bench,
               "unit": s.unit, "figure": c.figure, "before_revision": c.prev.revision,
               "after_revision": c.point.revision, "after_subject": c.point.subject, "commits": c.commits(),
               "before": c.before, "after": c.after, "delta": c.delta, "rel": c.rel, "method": c.method,
               "p": c.p}
        why = causes(c)
        raw["cause"] = why[0][0] if why else ""
        raw["note"] = "; ".join(filter(None, [w for _, w in why] + [c.note]))
        if group and out and out[-1]["_key"] == (id(s), c.index, c.before, c.after, c.method, raw["note"]):
            out[-1]["figure"] += "," + c.figure
            continue
        cells = {k: ("" if v is None else format(v, "f") if isinstance(v, Decimal) else str(v)) for k, v in raw.items()}
        cells["before_revision"] = short(c.prev.revision)
        cells["after_revision"] = short(c.point.revision)
        cells["change"] = _change_text(c)
        cells["method"] = c.method + (f" p={c.p:.2g}" if c.p is not None else "")
        cells["_raw"] = raw
        cells["_key"] = (id(s), c.index, c.before, c.after, c.method, raw["note"])
        cells["_change"] = c
        out.append(cells)
    return out


def _change_text(c):
    d = c.delta
    if d is None:
        return f"{c.before} -> {c.after}"
    s = format(d, "f").rstrip("0").rstrip(".") if "." in format(d, "f") else format(d, "f")
    s = s if s.startswith("-") else "+" + s
    return s + (f" ({c.rel * 100:+.2f}%)" if c.rel is not None and math.isfinite(c.rel) else "")


# ---- the gate ----

def gate(store, series, gates, changes, method, baseline=None, alpha=0.05):
    """[(series name, benchmark, message)] for each series whose newest revision is worse than
    its baseline past a gate: the runs of a named baseline revision, or else those of the
    revisions since the series' last change point before the newest (at most `window` of them).
    The test is bm compare's (exact for deterministic runs; a rank test across runs otherwise).
    Also [(series, bench, note)] for the series that could not be gated, as the second item."""
    metrics = sorted({g.metric for g in gates}, key=SUMMARY.index)
    fails, notes = [], []
    by_series = {}
    for c in changes:
        by_series.setdefault(id(c.series), []).append(c.index)
    for s in series:
        last = len(s.points) - 1
        if baseline is not None:
            i = s.index_of(baseline)
            if i is None:
                notes.append((s, f"no run at the baseline {baseline}: not gated"))
                continue
            if i == last:
                notes.append((s, f"its newest revision is the baseline {baseline}: nothing to gate"))
                continue
            base = [s.points[i]]
        else:
            if last < 1:
                notes.append((s, "one revision only: nothing to gate against"))
                continue
            since = max([i for i in by_series.get(id(s), []) if i < last], default=0)
            base = s.points[max(since, last - method.window):last]
        a = [(r, res) for p in base for r, res in zip(p.runs, p.results)]
        b = list(zip(s.points[last].runs, s.points[last].results))
        ba = [store.boot(r).bench(s.bench) for r, _ in a]
        bb = [store.boot(r).bench(s.bench) for r, _ in b]
        cmp = compare_bench(s.bench, ba, bb, metrics, alpha)
        kit = kit_moved([r for r, _ in a], [r for r, _ in b])
        for _, msg in gate_failures([cmp], gates):
            fails.append((s, f"{msg} (newest {short(s.points[last].revision)} against "
                             f"{_base_text(base)})" + (f"; the kit changed between them ({kit}): the kit's change, "
                                                       f"not the code's" if kit else "")))
    return fails, notes


def _base_text(base):
    if len(base) == 1:
        return short(base[0].revision)
    return f"{len(base)} revisions {short(base[0].revision)}..{short(base[-1].revision)}"
