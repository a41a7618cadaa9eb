# SPDX-License-Identifier: Apache-2.0
"""The regression gate of bm compare and bm history: `--gate METRIC:+LIMIT[%]` read, and the
benchmarks whose comparison (compare.py's) got worse past it, or could not be judged."""
import re
from dataclasses import dataclass
from decimal import Decimal

from ..records.figures import SUMMARY


@dataclass
class Gate:
    metric: str
    limit: Decimal
    relative: bool
    text: str


_GATE = re.compile(r"^(%s|median):\+?(\d+(?:\.\d+)?)(%%?)$" % "|".join(SUMMARY))


def parse_gate(text):
    """`p99:+5%` (relative) or `mean:+20` (absolute, in the records' unit): a benchmark fails
    when that figure got worse by more than the limit (and the change is significant)."""
    m = _GATE.match(text.strip())
    if not m:
        raise ValueError(f"bad --gate {text!r}: use METRIC:+LIMIT% or METRIC:+LIMIT, METRIC one of "
                         f"{', '.join(SUMMARY)} (e.g. p99:+5%)")
    metric = "p50" if m.group(1) == "median" else m.group(1)
    return Gate(metric, Decimal(m.group(2)), m.group(3) == "%", text.strip())


def gate_failures(benches, gates):
    """[(bench name, message)] for every benchmark that regressed past a gate."""
    out = []
    for b in benches:
        if b.verdict in ("broken", "failing"):
            out.append((b.name, f"is not ok in B ({b.note})"))
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
                why = r.why or b.note or "no test fits"
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
                why = ("exact" if r.ci is None else "exact, at the histogram's resolution") if r.test == "exact" \
                    else f"p = {r.p:.2g}" if r.p is not None else "interval excludes 0"
                out.append((b.name, f"{g.metric} {change} is past {g.text} ({why})"))
    return out


def state_failures(benches, a_runs, b_runs):
    """[(bench name, message)] for every compared benchmark that is state-dependent, undeclared,
    in a run of either side (the table's ok?, the record's state_dependent: its figures time runs
    on its own output, so they are neither a baseline nor a result a gate can pass)."""
    out = []
    for b in benches:
        sides = []
        for side, runs in (("A", a_runs), ("B", b_runs)):
            n = sum(1 for r in runs if r.bench(b.name) is not None and r.bench(b.name).result is not None
                    and r.bench(b.name).result.get("state_dependent") is True)
            if n:
                sides.append(f"{n} of {len(runs)} runs of {side}")
        if sides:
            out.append((b.name, f"is state-dependent (ok?) in {' and '.join(sides)}: its figures time runs on its "
                                "own output (give it a setup_each, or declare .carries_state = 1 if that is what "
                                "it measures), so no gate passes on them"))
    return out
