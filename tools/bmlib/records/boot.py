# SPDX-License-Identifier: Apache-2.0
"""One boot of a console log, the benchmarks in it and the problems found, and the checks of its
records (in seq order) against rules.py and against each other: the order of start, result and
hist records, the counts, and each figure against the rest of its boot."""
from dataclasses import dataclass, field
from decimal import Decimal

from .. import FORMAT, shared
from . import bounds, derive, events, rules, served
from .figures import deterministic


@dataclass
class Problem:
    """kind: empty, missing, duplicate, order, incomplete, reset, headless, format, record,
    structure, value, count, end. `line` is where to look (None: the log as a whole)."""
    kind: str
    line: int
    msg: str
    seq: int = None

    def __str__(self):
        return self.msg


@dataclass
class Bench:
    """One benchmark of a boot: its start, result and hist records (any may be missing)."""
    start: object = None
    result: object = None
    hist: object = None
    meta: dict = None         # its boot's meta record

    @property
    def name(self):
        for r in (self.start, self.result, self.hist):
            if r is not None and r.name:
                return r.name
        return "?"

    @property
    def status(self):
        return self.result.get("status") if self.result else None

    @property
    def seq(self):
        return min(r.seq for r in (self.start, self.result, self.hist) if r is not None)


@dataclass
class Boot:
    index: int
    meta: object = None
    end: object = None
    records: list = field(default_factory=list)
    benches: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    human: list = field(default_factory=list)
    running: Bench = None
    gaps: bool = False

    @property
    def complete(self):
        return self.meta is not None and self.end is not None

    @property
    def clean(self):
        return self.complete and not self.problems

    @property
    def lines(self):
        return (self.records[0].line, self.records[-1].line) if self.records else (0, 0)

    def bench(self, name):
        return next((b for b in self.benches if b.name == name), None)

    def kit_said(self, after_pos=-1):
        """The `*** ` lines the kit printed (after a position): what it said went wrong."""
        return [h.text.strip() for h in self.human if h.pos > after_pos and h.text.lstrip().startswith("*** ")]


def span(a, b, word="seq"):
    return f"{word} {a}" if a == b else f"{word} {a}-{b}"


def plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def check(bt, meta):
    """Check the records of boot bt, in seq order after its meta record (meta: that record's
    data): fills in its benches, end record, running benchmark and problems."""
    _Check(bt, meta).check()


def _overheads(ohs, flag):
    """The end of the message that refuses a result's short_interval flag: each overhead its
    batches may have been corrected by, ("overhead_cycles", 3) and where present
    ("overhead_user_cycles", 5), and what the batch is against each, the opposite of the flag:
    "overhead_cycles = 3 (or overhead_user_cycles = 5) is under 100 x 3 (or 5)"."""
    rel = "at least" if flag else "under"
    names = f"{ohs[0][0]} = {ohs[0][1]}" + "".join(f" (or {k} = {v})" for k, v in ohs[1:])
    times = f"{max(ohs[0][1], 1)}" + "".join(f" (or {max(v, 1)})" for _, v in ohs[1:])
    return f"{names} is {rel} {shared.SHORT_INTERVAL_FACTOR} x {times}"


class _Check:
    """Structure and values of one boot whose records are in seq order. Messages are gathered
    by subject (a benchmark, the meta record, the end record, a rule that many benchmarks
    break) and each subject becomes one problem."""

    def __init__(self, bt, meta):
        self.bt, self.meta = bt, meta
        self.subjects = {}      # key -> [first line, seq, title, messages]
        self.by_rule = {}       # rule -> [(bench, message)]

    def say(self, key, rec, title, msg):
        s = self.subjects.setdefault(key, [rec.line, rec.seq, title, []])
        s[3].append(msg)

    def bench_say(self, bench, rec, msg):
        first = min((r for r in (bench.start, bench.result, bench.hist) if r is not None), key=lambda r: r.seq)
        self.say(("bench", first.seq), first, f"benchmark {bench.name}", msg)

    def rule_say(self, rule, bench, rec, msg):
        self.by_rule.setdefault(rule, []).append((bench, rec, msg))

    def check(self):
        bt, meta = self.bt, self.meta
        for m in rules.check_meta(meta):
            self.say(("meta",), bt.meta, "meta record", m)
        srv = served.Session(self) if meta.get("serve") is True else None   # (its runs' samples: its own)
        samples = meta.get("samples") if isinstance(meta.get("samples"), int) and srv is None else None
        unit = meta.get("cycle_unit") if isinstance(meta.get("cycle_unit"), str) else None
        hist_on = meta.get("hist") is True
        prev, cur, after_end = bt.meta, None, []
        for r in bt.records[1:]:
            gap = r.seq != prev.seq + 1
            if bt.end is not None:
                after_end.append(r)
                prev = r
                continue
            if r.data is None:
                self.say(("rec", r.seq), r, f"seq {r.seq}", r.error)
                prev, cur = r, None
                continue
            if r.get("format") != FORMAT or not isinstance(r.get("format"), int):
                self.say(("rec", r.seq), r, f"seq {r.seq} ({r.type})", f"format = {rules.show(r.get('format'))}, not {FORMAT}")
            t = r.type
            if t == "start":
                if not gap and prev.type == "start" and cur is not None:
                    self.bench_say(cur, r, f"has no result (the next record is the start of {r.name})")
                cur = Bench(start=r)
                bt.benches.append(cur)
                for m in rules.check_start(r.data):
                    self.bench_say(cur, r, "start: " + m)
                if not gap and prev.type == "result" and hist_on and prev.get("status") == "ok":
                    self.bench_say(bt.benches[-2] if len(bt.benches) > 1 else cur, prev,
                                   "hist: missing after an ok result (meta says hist:true)")
            elif t == "result":
                if cur is not None and cur.result is None and (not gap or cur.name == r.name):
                    cur.result = r
                    if cur.start is not None and r.name != cur.start.name:
                        self.bench_say(cur, r, f"result: name {rules.show(r.name)} differs from its start's "
                                               f"{rules.show(cur.start.name)}")
                else:
                    cur = Bench(result=r)
                    bt.benches.append(cur)
                    if not gap:
                        self.bench_say(cur, r, "result: no start record before it")
                for m in rules.check_result(r.data):
                    self.bench_say(cur, r, "result: " + m)
                self.result_vs_meta(cur, r, samples, unit)
            elif t == "hist":
                if cur is not None and cur.result is not None and cur.hist is None \
                        and (not gap or cur.result.name == r.name):
                    cur.hist = r
                    if r.name != cur.result.name:
                        self.bench_say(cur, r, f"hist: name {rules.show(r.name)} differs from its result's")
                    elif cur.result.get("status") != "ok":
                        self.bench_say(cur, r, f"hist: follows a {cur.result.get('status')} result (only ok has one)")
                else:
                    cur = Bench(hist=r)
                    bt.benches.append(cur)
                    if not gap:
                        self.bench_say(cur, r, "hist: no result record before it")
                if not hist_on:
                    self.bench_say(cur, r, "hist: present but meta says hist:false")
                hist_errs = rules.check_hist(r.data)
                for m in hist_errs:
                    self.bench_say(cur, r, "hist: " + m)
                if not hist_errs and cur.result is not None and cur.result.get("status") == "ok":
                    self.hist_vs_result(cur)
            elif t == "end":
                bt.end = r
                if not gap and prev.type == "start":
                    self.bench_say(cur, prev, "has no result (the next record is the end)")
                if not gap and prev.type == "result" and hist_on and prev.get("status") == "ok":
                    self.bench_say(cur, prev, "hist: missing after an ok result (meta says hist:true)")
                for m in rules.check_end(r.data, served=srv is not None):
                    self.say(("end",), r, "end record", m)
            elif t == "meta" or (srv is not None and t in served.TYPES):
                pass  # (a meta starts a new boot; a served boot's own records: served.py)
            else:
                # Format 2 may gain keys, not record types: an unknown type is a sender's bug.
                self.say(("rec", r.seq), r, f"seq {r.seq}", f"record type {rules.show(t)} is not in format {FORMAT}")
            prev = r
        if after_end:
            a = after_end[0]
            self.say(("after",), a, "records after the end record",
                     f"{plural(len(after_end), 'record')} ({span(a.seq, after_end[-1].seq)}) follow it")
        if bt.end is None and bt.benches and bt.benches[-1].result is None and bt.benches[-1].start is not None:
            bt.running = bt.benches[-1]
        # The registry holds each name once (a name defined twice does not link), so one boot
        # runs each benchmark once: a second one is an edited log, or two benchmarks merged.
        # (Starts only: a lost record splits one benchmark's records, which is said already.)
        first = {}
        for b in bt.benches:
            rec = b.start
            if rec is None or not isinstance(rec.name, str) or srv is not None:
                continue   # (a served boot runs what its commands name, as often)
            if b.name in first:
                self.bench_say(b, rec, f"{rec.type}: {b.name} already ran in this boot (line "
                                       f"{first[b.name]}): each benchmark runs once per boot")
            else:
                first[b.name] = rec.line
        self.icount_claim()
        self.clock_windows()
        for m in bounds.meta_problems(meta, bt.end):
            self.say(("meta",), bt.meta, "meta record", m)
        (srv.check if srv is not None else self.counts)()
        self.run_facts()
        self.emit()

    def run_facts(self):
        """Each result against what the rest of its boot says (docs/records.md): no ns figure
        without a timer, no insns without an instruction counter, a stack high-water mark within
        the stack; and, from its hist record, short_interval and drift_ppm as its samples give
        them (the firmware computes both from these samples), and, in a run where every
        benchmark passed, all the timed samples inside the batches the end record counts."""
        bt, meta, end = self.bt, self.meta, self.bt.end

        def whole(x):
            return isinstance(x, int) and not isinstance(x, bool)
        no_timer = meta.get("timer") == "none" or meta.get("timer_hz") == 0
        no_insns = meta.get("instret_counter") == "none"
        size = end.get("stack_bytes") if end is not None else None
        # (the overheads a result's batches may have been corrected by: overhead_user_cycles too
        # where benchmark code reads the counters through a trap; a result does not say which)
        ohs = [(k, meta.get(k)) for k in ("overhead_cycles", "overhead_user_cycles") if whole(meta.get(k))]
        sums, known = 0, True
        for b in bt.benches:
            r = b.result
            if r is None or r.data is None:
                continue
            used = r.get("stack_used_bytes")
            if whole(used) and whole(size) and used > size:
                self.bench_say(b, r, f"result: stack_used_bytes = {used}, more than the whole stack (the end's "
                                     f"stack_bytes = {size})")
            if r.get("status") != "ok":
                continue
            if no_timer:
                have = [k for k in ("cycle_hz", "p50_ns", "mean_ns", "ops_per_s") if k in r.data]
                if have:
                    self.rule_say(("timer", None), b, r, f"has {', '.join(have)} (figures of a timer)")
            if no_insns and "insns" in r.data:
                self.rule_say(("insns", "none"), b, r, "has insns")
            for m in bounds.result_problems(meta, end, r):
                self.bench_say(b, r, "result: " + m)
            h = b.hist.data if b.hist is not None else None
            if h is None or rules.check_hist(h) or h.get("n") != r.get("n") or h.get("div") != r.get("iters"):
                # No usable hist: short_interval against the printed p50 and the overhead, and
                # the samples' sum at least what the mean (rounded to 0.001) says
                if ohs:
                    self.short_vs_p50(b, r, ohs)
                n, mean, iters = r.get("n"), r.get("mean"), r.get("iters")
                if whole(n) and whole(iters) and isinstance(mean, Decimal) and mean.is_finite():
                    sums += max(0, int((mean - Decimal("0.0005")) * n * iters))
                continue
            hist = derive.Hist(h)
            if hist.sum_saturated:
                known = False   # (past 2^64 of cycles: the end's u64 sums wrapped long before)
            else:
                sums += hist.sum
            si = r.get("short_interval")
            if ohs and isinstance(si, bool) and hist.n:
                p50 = hist.quantile(1, 2)[0]
                if all(si != shared.short_interval(p50, oh) for _, oh in ohs):
                    self.bench_say(b, r, f"result: short_interval = {rules.show(si)}, but its median batch of "
                                         f"{p50} + the meta's {_overheads(ohs, si)}")
            drift = r.get("drift_ppm")
            if whole(drift):
                # (the quarters' smallest samples lie within min..max; 0 with fewer than 4
                # samples or a minimum of 0, as the firmware gives it)
                most = 0 if hist.n < 4 or hist.min == 0 else derive.muldiv64(hist.max - hist.min, 10**6, hist.min)
                most = min(most, rules.U32_MAX)
                if drift > most:
                    self.bench_say(b, r, f"result: drift_ppm = {drift}, but its samples span only {hist.min}..{hist.max}"
                                         f" (at most {most})")
        # (only when every benchmark passed: one that failed may have written the counter back,
        # which the end's sums carry, as the faults image's fault_counter_back does)
        body = end.get("body_cycles") if end is not None else None
        if known and whole(body) and sums > body and end.get("ok") == end.get("results"):
            self.say(("end",), end, "end record",
                     f"body_cycles = {body}, fewer than the timed samples of the results add up to ({sums}: the "
                     f"hist records' sums, n x iters x mean without one)")

    def short_vs_p50(self, b, r, ohs):
        """short_interval against the printed figures: the firmware sets it when the median batch,
        overhead included, is under 100 x the overhead or one tick (shared.short_interval),
        and prints that median per iteration, rounded to 0.001 halves up. Every raw median that
        prints as this p50 is tried, with each overhead of ohs, so only a flag that none of them
        gives is refused."""
        si, p50, iters = r.get("short_interval"), r.get("p50"), r.get("iters")
        if not isinstance(si, bool) or not isinstance(p50, Decimal) or not p50.is_finite() \
                or not isinstance(iters, int) or isinstance(iters, bool) or iters < 1:
            return
        m = int(p50 * 1000)
        # raw prints as m thousandths iff (2m - 1) iters <= 2000 raw < (2m + 1) iters
        lo = max(0, -(-(2 * m - 1) * iters // 2000))
        hi = -(-(2 * m + 1) * iters // 2000) - 1
        if lo > hi:
            return   # (no raw median prints as this p50: not this rule's to say)
        if all(si != shared.short_interval(raw, oh) for raw in (lo, hi) for _, oh in ohs):
            size = f"{lo}" if lo == hi else f"{lo}..{hi}"
            unit = r.get("unit") if isinstance(r.get("unit"), str) else "cycles"
            self.bench_say(b, r, f"result: short_interval = {rules.show(si)}, but p50 = {rules.show(p50)} x iters = "
                                 f"{iters} is a median batch of {size} {unit}, and that + the meta's "
                                 f"{_overheads(ohs, si)}")

    def icount_claim(self):
        """built_for qemu-icount promises exact, repeatable counts; under -icount shift=0 a core
        that counts instructions counts one cycle per instruction, so every ok result's mean
        cycles equal its mean instructions (insns). An image built for icount but booted without
        it (a hand-made QEMU line) counts host time instead: its figures are not exact, and
        compare must not judge them as if they were. (Only where the counter is the core clock,
        cycle_unit "cycles": a timer's ticks, the fallback of a core without a usable cycle
        counter, run at the timer's rate under -icount too.)"""
        if not deterministic(self.meta.get("built_for")):
            return
        # The same from the clock where there is no instructions counter (x86): under -icount
        # shift=0 one instruction is one nanosecond, so a counter of cycles or TSC ticks runs at
        # 1 GHz (measured: within 1 ppm); without it, at the host's rate. (SysTick ticks follow
        # QEMU's clock either way: nothing to tell there.)
        hz = self.bt.end.get("cycle_hz") if self.bt.end is not None else None
        if not isinstance(hz, int) or isinstance(hz, bool):
            hz = next((b.result.get("cycle_hz") for b in self.bt.benches if b.result is not None
                       and isinstance(b.result.get("cycle_hz"), int)), None)
        if self.meta.get("cycle_unit") in ("cycles", "tsc_ticks") and isinstance(hz, int) \
                and abs(hz - 10**9) > 10**7:
            self.say(("meta",), self.bt.meta, "meta record",
                     f"built_for = \"qemu-icount\", but the {self.meta.get('cycle_unit')} counter ran at {hz} Hz, "
                     f"not the 1 GHz of -icount shift=0: this boot ran without -icount, so its figures are "
                     f"host time, not exact (run it with the board's QEMU line: bm run, or the build's run target)")
            return
        if self.meta.get("cycle_unit") in ("cycles", "tsc_ticks"):
            for b in self.bt.benches:
                rhz = b.result.get("cycle_hz") if b.result is not None else None
                if isinstance(rhz, int) and not isinstance(rhz, bool) and abs(rhz - 10**9) > 10**7:
                    self.bench_say(b, b.result, f"result: cycle_hz = {rhz}, but built_for = \"qemu-icount\" runs "
                                                f"the {self.meta.get('cycle_unit')} counter at 1 GHz (-icount shift=0)")
        if self.meta.get("cycle_unit") != "cycles":
            return
        said = {k[1] for k in self.subjects if k[0] == "bench"}   # (an edited result is said already)
        for b in self.bt.benches:
            r = b.result
            if r is None or r.get("status") != "ok" or b.seq in said:
                continue
            mean, insns = r.get("mean"), r.get("insns")
            if isinstance(mean, Decimal) and isinstance(insns, Decimal) and mean != insns:
                self.say(("meta",), self.bt.meta, "meta record",
                         f"built_for = \"qemu-icount\", but {b.name}'s mean = {rules.show(mean)} cycles is not its "
                         f"{rules.show(insns)} instructions, as it is under -icount shift=0: this boot ran without "
                         f"-icount, so its figures are host time, not exact (run it with the board's QEMU line: "
                         f"bm run, or the build's run target)")
                return

    def clock_windows(self):
        """The end's clock estimate against the run it was measured in: cycle_hz is the cycles of
        every ok benchmark's window over their timer ticks (rounded), so those windows held
        cycle_hz x clock_ticks / timer_hz cycles, give or take one Hz's worth. They lie inside
        the run (at most run_cycles), and every batch of a benchmark that passed lies inside its
        window (at least body_cycles when all passed)."""
        end, meta = self.bt.end, self.meta
        if end is None:
            return
        hz, ticks, thz = end.get("cycle_hz"), end.get("clock_ticks"), meta.get("timer_hz")
        run, body = end.get("run_cycles"), end.get("body_cycles")
        if not all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in (hz, ticks, thz, run)):
            return
        w_lo, w_hi = (hz - 1) * ticks // thz, -(-(hz + 1) * ticks // thz)
        if w_lo > run:
            self.say(("end",), end, "end record",
                     f"cycle_hz = {hz} over clock_ticks = {ticks} of the {thz} Hz timer (meta) is {w_lo} cycles "
                     f"or more of clock windows, more than the whole run (run_cycles = {run})")
        elif isinstance(body, int) and body > w_hi and end.get("ok") == end.get("results"):
            self.say(("end",), end, "end record",
                     f"cycle_hz = {hz} over clock_ticks = {ticks} of the {thz} Hz timer (meta) is at most {w_hi} "
                     f"cycles of clock windows, fewer than the batches they hold (body_cycles = {body})")

    def result_vs_meta(self, bench, r, samples, unit):
        if r.get("status") != "ok":
            return
        for m in events.against_meta(self.meta, r.data):
            self.bench_say(bench, r, "result: " + m)
        n, u = r.get("n"), r.get("unit")
        if samples is not None and isinstance(n, int) and n != samples:
            self.rule_say(("n", samples), bench, r, f"n = {rules.show(n)}")
        if unit is not None and isinstance(u, str) and u != unit:
            self.rule_say(("unit", unit), bench, r, f"unit = {rules.show(u)}")

    def hist_vs_result(self, bench):
        h, r = bench.hist.data, bench.result.data
        for hk, rk in (("unit", "unit"), ("div", "iters"), ("n", "n"), ("bins_per_octave", "bins_per_octave")):
            if h.get(hk) != r.get(rk):
                self.bench_say(bench, bench.hist, f"hist: {hk} = {rules.show(h.get(hk))} but the result's "
                                                  f"{rk} = {rules.show(r.get(rk))}")
        if h.get("n") != r.get("n") or h.get("div") != r.get("iters"):
            return
        # Every statistics figure of the result, recomputed from the distribution it came from
        # with the firmware's own formulas: a result its hist does not give is refused.
        diff = derive.differences(r, derive.Hist(h))
        if diff:
            shown = ", ".join(f"{k} = {rules.show(g)} (the hist gives {rules.show(e)})" for k, g, e in diff[:4])
            self.bench_say(bench, bench.result, f"result: figures its hist record does not give: {shown}"
                                                f"{f' and {len(diff) - 4} more' if len(diff) > 4 else ''}")

    def counts(self):
        """Benchmark counts (meta, starts, results, end) in one message; the end's status
        totals in another. Skipped where a lost record already explains a difference."""
        bt, meta = self.bt, self.meta
        results = [b.result for b in bt.benches if b.result is not None]
        whole = not self.bt.gaps and bt.end is not None
        told = meta.get("benchmarks")
        ofs = sorted({b.start.get("of") for b in bt.benches if b.start is not None
                      and isinstance(b.start.get("of"), int)})
        parts, bad = [f"meta benchmarks = {rules.show(told)}"], False
        if ofs and ofs != [told]:
            parts.append("start records say of = " + ", ".join(map(str, ofs)))
            bad = True
        if whole:
            parts.append(f"{len(results)} results arrived")
            bad |= len(results) != told
            er = bt.end.get("results")
            if isinstance(er, int):
                parts.append(f"end says results = {er}")
                bad |= er != told or er != len(results)
        if bad and isinstance(told, int):
            self.say(("count",), bt.meta, "benchmark counts disagree", ", ".join(parts))
        if whole:
            counted = {s: 0 for s in rules.STATUSES}
            for r in results:
                st = r.get("status")
                if isinstance(st, str) and st in counted:
                    counted[st] += 1
            # A result with an unknown status is already named; its totals cannot be compared.
            diff = [f"{s} = {bt.end.get(s)} (counted {c})" for s, c in counted.items()
                    if isinstance(bt.end.get(s), int) and bt.end.get(s) != c
                    and sum(counted.values()) == len(results)]
            dep = sum(1 for r in results if r.get("status") == "ok" and r.get("state_dependent") is True)
            told_dep = bt.end.get("state_dependent")
            if isinstance(told_dep, int) and told_dep != dep:
                diff.append(f"state_dependent = {told_dep} (counted {dep})")
            if diff:
                self.say(("end",), bt.end, "end record", "totals differ from the results: " + ", ".join(diff))
            starts = [b for b in bt.benches if b.start is not None]
            for k, b in enumerate(starts, 1):
                i = b.start.get("index")
                if isinstance(i, int) and i != k:
                    self.rule_say(("index", None), b, b.start, f"index = {i} (it is start {k})")

    def emit(self):
        """A rule broken by one benchmark joins that benchmark's problem; broken by several,
        it is one problem of its own (e.g. an edited meta record, not 14 bad results)."""
        for (rule, want), items in self.by_rule.items():
            benches = {id(b) for b, _, _ in items}
            key = {"n": "meta samples", "unit": "meta cycle_unit", "index": "the start order",
                   "timer": f"meta timer = {rules.show(self.meta.get('timer'))}, timer_hz = "
                            f"{rules.show(self.meta.get('timer_hz'))} (no timer)",
                   "insns": "meta instret_counter"}[rule]
            against = f"{key} = {rules.show(want)}" if want is not None else key
            if len(benches) == 1:
                b, rec, msg = items[0]
                self.bench_say(b, rec, f"{rec.type}: {msg} disagrees with {against}")
            else:
                shown = ", ".join(f"{b.name} {msg}" for b, _, msg in items[:4])
                self.say(("rule", rule), self.bt.meta, f"{len(items)} {items[0][1].type} records",
                         f"disagree with {against} ({shown}{', ...' if len(items) > 4 else ''})")
        for key, (line, seq, title, msgs) in sorted(self.subjects.items(), key=lambda kv: kv[1][1]):
            kind = {"count": "count", "end": "end", "after": "structure", "index": "structure",
                    "rec": "record"}.get(key[0], "value")
            self.bt.problems.append(Problem(kind, line, f"line {line}: {title}: " + "; ".join(msgs), seq))
