# SPDX-License-Identifier: Apache-2.0
"""The value rules of docs/records.md, one record at a time: required keys and their types,
ranges, enumerations, and the relations inside a record (quantile order, counts, hist sums).
Relations between records (names, meta, totals) are checked in boot.py."""
import re
from decimal import Decimal

from .. import layout
from . import derive, events, model
from .figures import BUILT_FOR, QUANTILES, RANKS, deterministic
from .frame import DEC_MAX, U64_MAX, NonFinite, printable
# (the firmware's values, tools/gen-shared; STATUSES and WARMUP_WINDOW are also taken from here)
from ..shared import (CV_NOISY_PPM, DRIFT_UNSTABLE_PPM, PHASES, STATUSES, WARMUP_MAX, WARMUP_MIN, WARMUP_STEP,  # noqa: F401
                      WARMUP_WINDOW)

DEC128_MAX = Decimal(f"{(2**128 - 1) // 1000}.{(2**128 - 1) % 1000:03d}")   # a milli figure in 128 bits

U32_MAX = derive.U32_MAX     # the firmware's 32-bit counts (core/run/run.h)
# The smallest n at which a statistics state can say it saturated (core/stats, docs/statistics.md):
# a bin count saturates past U32_MAX samples, and the tail keeps at least one (BM_STATS_TOPK >= 1);
# the sums only past 2^63 samples.
SATURABLE_N = U32_MAX + 2
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")   # BM_BENCHMARK's name is a C identifier (bm-link)

# What "only ok carries figures" forbids on any other status.
FIGURES = QUANTILES + ("mean", "stddev", "cv_ppm", "ci95", "bound_ppm", "tukey", "insns",
                       "p50_ns", "mean_ns", "ops_per_s", "cycle_hz", "core_cycles_p50", "core_cycles_mean",
                       "drift_ppm", "unstable", "noisy", "events", "cold", "state_dependent", "state_reason",
                       "carries_state")


def name_problem(name):
    """What keeps a benchmark name from being a C identifier (BM_BENCHMARK's name, bm-link's
    registry), said as what is wrong with it, or None when it is one."""
    if not name:
        return "a benchmark's name is empty"
    if NAME.fullmatch(name):
        return None
    bad = sorted({c for c in name if not (c.isascii() and (c.isalnum() or c == "_"))})
    if bad:
        shown = " ".join(repr(c) for c in bad[:5])   # (repr: a control character shows escaped)
        return (f"a benchmark's name is a C identifier: use letters, digits and _ only (not {shown}"
                f"{' ...' if len(bad) > 5 else ''})")
    return "a benchmark's name is a C identifier: it must not start with a digit"


def show(v) -> str:
    if isinstance(v, NonFinite):
        return str(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Decimal):
        return format(v, "f")
    if isinstance(v, str):
        # (escaped: a problem is printed on a terminal, and a record's string may hold ESC)
        return '"' + printable(v if len(v) <= 40 else v[:40]) + ('"' if len(v) <= 40 else '..."')
    if v is None:
        return "null"
    if isinstance(v, (list, dict)):
        return "an array" if isinstance(v, list) else "an object"
    return str(v)


class Fields:
    """Typed access to one JSON object; every wrong or missing key adds one message."""

    def __init__(self, obj, prefix=""):
        self.obj, self.prefix, self.errs = obj, prefix, []

    def bad(self, key, msg):
        self.errs.append(f"{self.prefix}{key} {msg}")

    def _get(self, key, required):
        if key not in self.obj:
            if required:
                self.bad(key, "is missing")
            return None
        return self.obj[key]

    def _of(self, key, required, kind, what):
        """The value at key when it is a `kind` (bool is no int here); None when it is absent, or
        when it is not, which is said."""
        v = self._get(key, required)
        if v is None and key not in self.obj:
            return None
        if not isinstance(v, kind) or (kind is not bool and isinstance(v, bool)):
            self.bad(key, f"= {show(v)}: must be {what}")
            return None
        return v

    def int(self, key, required=True, lo=0, hi=U64_MAX, choices=None):
        v = self._of(key, required, int, "an integer")
        if v is None:
            return None
        if v < 0:
            self.bad(key, f"= {v} is negative")
            return None
        if choices and v not in choices:
            self.bad(key, f"= {v}: must be {' or '.join(map(str, choices))}")
            return None
        if v < lo:
            self.bad(key, f"= {v}: must be at least {lo}")
            return None
        if v > hi:
            self.bad(key, f"= {v}: must be at most {hi}")
            return None
        return v

    def dec(self, key, required=True, hi=DEC_MAX):
        v = self._get(key, required)
        if v is None and key not in self.obj:
            return None
        if isinstance(v, NonFinite) or (isinstance(v, Decimal) and not v.is_finite()):
            self.bad(key, f"is {v}: not a number")
            return None
        if isinstance(v, bool) or not isinstance(v, (int, Decimal)):
            self.bad(key, f"= {show(v)}: must be a decimal")
            return None
        if v < 0 or (isinstance(v, Decimal) and v.is_signed()):
            self.bad(key, f"= {show(v)} is negative")
            return None
        if not isinstance(v, Decimal) or v.as_tuple().exponent != -3:
            self.bad(key, f"= {show(v)}: must have exactly 3 digits after the point")
            return None
        if v > hi:
            self.bad(key, f"= {show(v)} is above {hi:.3f}")
            return None
        return v

    def str(self, key, required=True, choices=None, nonempty=False):
        v = self._of(key, required, str, "a string")
        if v is None:
            return None
        if choices and v not in choices:
            self.bad(key, f"= {show(v)}: must be one of {', '.join(choices)}")
            return None
        if nonempty and not v:
            self.bad(key, "is empty")
            return None
        return v

    def bool(self, key, required=True):
        return self._of(key, required, bool, "true or false")

    def obj_(self, key, required=True):
        v = self._of(key, required, dict, "an object")
        return None if v is None else Fields(v, f"{self.prefix}{key}.")

    def strmap(self, key):
        sub = self.obj_(key)
        if sub is not None:
            for k in sub.obj:
                sub.str(k)
            self.errs += sub.errs

    def hexstr(self, key, required=True):
        v = self.str(key, required)
        if v is not None:
            try:
                if not v.startswith("0x"):
                    raise ValueError
                int(v[2:], 16)
            except ValueError:
                self.bad(key, f"= {show(v)}: must be a hex string 0x...")


def warmup_problems(batches, settled):
    """What core/run/bm_measure.c's warm_up() cannot end with: it tests the last WARMUP_WINDOW
    batches once WARMUP_MIN ran, every WARMUP_STEP batches, and stops at WARMUP_MAX, settled or
    not (the kit's own values, tools/gen-shared; no board or host option sets others)."""
    out = []
    if batches is None:
        return out
    first = max(WARMUP_MIN, WARMUP_WINDOW)
    if batches > WARMUP_MAX:
        out.append(f"warmup.batches = {batches} is above the warm-up's cap of {WARMUP_MAX} batches")
    elif settled is False and batches != WARMUP_MAX:
        out.append(f"warmup.settled = false after {batches} batches: the warm-up ends unsettled only at its cap "
                   f"of {WARMUP_MAX}")
    elif settled and batches < WARMUP_WINDOW:
        out.append(f"warmup.settled = true after {batches} batches: settling is judged over the last "
                   f"{WARMUP_WINDOW}")
    elif settled and (batches < first or (batches % WARMUP_STEP and batches != WARMUP_MAX)):
        out.append(f"warmup.settled = true after {batches} batches: settling is tested after {first} batches and "
                   f"every {WARMUP_STEP} from there (or at the cap of {WARMUP_MAX})")
    return out


def _order(f, pairs):
    for (ka, a), (kb, b) in zip(pairs, pairs[1:]):
        if a is not None and b is not None and a > b:
            f.errs.append(f"{ka} = {show(a)} > {kb} = {show(b)}")


def check_meta(d: dict) -> list:
    f = Fields(d)
    f.str("kit", choices=("baremark",))
    for k in ("kit_version", "kit_vcs", "label", "board", "console", "isa", "cycle_counter",
              "instret_counter", "timer", "libc", "compiler", "cflags", "opt"):
        f.str(k)
    f.str("cycle_unit", nonempty=True)
    f.str("built_for", choices=BUILT_FOR)
    f.strmap("board_facts")
    f.strmap("arch_facts")
    for k in ("timer_hz", "overhead_instret", "min_batch_cycles", "bench_timeout_ms",
              "benchmarks", "stats_bytes"):
        f.int(k)
    f.int("samples", lo=1)
    tick = f.int("tick_insns", lo=1, required=False)
    if tick is not None and (not deterministic(d.get("built_for")) or d.get("cycle_unit") == "cycles"):
        f.bad("tick_insns", f"= {tick}: a counter's resolution in instructions is stated only by a qemu-icount "
                            f"build whose counter is not the core clock (cycle_unit {show(d.get('cycle_unit'))})")
    f.bool("hist")
    f.bool("serve", required=False)
    _order(f, [("overhead_cycles", f.int("overhead_cycles")),
               ("overhead_cycles_max", f.int("overhead_cycles_max"))])
    _order(f, [("overhead_user_cycles", f.int("overhead_user_cycles", required=False)),
               ("overhead_user_cycles_max", f.int("overhead_user_cycles_max", required=False))])
    f.errs += model.meta_problems(d)
    f.errs += events.meta_problems(d)
    return f.errs


def check_start(d: dict) -> list:
    f = Fields(d)
    name = f.str("name", nonempty=True)
    why = name_problem(name) if name else None
    if why:
        # (the result and hist records must carry their start's name: boot.py)
        f.bad("name", f"= {show(name)}: {why}")
    index, of = f.int("index", lo=1), f.int("of", lo=1)
    if index is not None and of is not None and index > of:
        f.errs.append(f"index = {index} > of = {of}")
    return f.errs


def check_result(d: dict) -> list:
    f = Fields(d)
    f.str("name", nonempty=True)
    status = f.str("status", choices=STATUSES)
    f.int("stack_used_bytes", required=False)
    heap_used, heap = f.int("heap_used_bytes", required=False, lo=1), f.int("heap_bytes", required=False, lo=1)
    if ("heap_used_bytes" in d) != ("heap_bytes" in d):
        f.errs.append("heap_used_bytes and heap_bytes come together (a benchmark that took from the heap) or not at all")
    elif heap_used is not None and heap is not None and heap_used > heap:
        f.errs.append(f"heap_used_bytes = {heap_used} > heap_bytes = {heap}: more heap used than the image has")
    if status is None:
        return f.errs
    if status != "ok":
        f.str("reason")
        f.str("phase", choices=PHASES)
        if status == "trap":
            t = f.obj_("trap")
            if t is not None:
                t.str("cause")
                t.hexstr("pc")
                t.hexstr("code")
                t.hexstr("addr", required=False)
                f.errs += t.errs
        carried = [k for k in FIGURES if k in d]
        if carried:
            f.errs.append(f"a {status} result carries figures ({', '.join(carried)}): only ok does")
        return f.errs
    f.str("unit", nonempty=True)
    f.int("iters", lo=1)
    f.int("cycle_hz", required=False)
    f.int("cold", required=False)
    dep, why = f.bool("state_dependent", required=False), f.str("state_reason", required=False, nonempty=True)
    if dep is not None and (why is not None) != dep:
        f.errs.append(f"state_dependent = {show(dep)} {'without' if dep else 'with'} a state_reason (a reason "
                      f"comes with the flag, and only with it)")
    elif dep is None and why is not None:
        f.errs.append("state_reason without state_dependent")
    if f.bool("carries_state", required=False) is not None and dep is not None:
        f.errs.append("carries_state with state_dependent (a benchmark that declares it carries state gets no verdict)")
    noisy = f.bool("noisy", required=False)
    if noisy is not None and (noisy is not True or not isinstance(d.get("cv_ppm"), int) or d["cv_ppm"] <= CV_NOISY_PPM):
        f.errs.append(f"noisy = {show(noisy)} but cv_ppm = {show(d.get('cv_ppm'))} (noisy, present only when true, "
                      f"means over {CV_NOISY_PPM})")
    drift, unstable = f.int("drift_ppm", required=False, hi=U32_MAX), f.bool("unstable", required=False)
    if drift is not None and unstable is not None and unstable != (drift > DRIFT_UNSTABLE_PPM):
        f.errs.append(f"unstable = {show(unstable)} but drift_ppm = {drift} (unstable means over {DRIFT_UNSTABLE_PPM})")
    n = f.int("n", lo=1)
    q = [(k, f.dec(k)) for k in QUANTILES]
    _order(f, q)
    lo, hi = q[0][1], q[-1][1]
    mean = f.dec("mean")
    if mean is not None and lo is not None and hi is not None and not lo <= mean <= hi:
        f.errs.append(f"mean = {show(mean)} is outside min..max ({show(lo)}..{show(hi)})")
    f.dec("stddev")
    f.int("cv_ppm")
    f.dec("ci95", hi=DEC128_MAX)   # t x stddev / sqrt(n) can pass 2^64 (n = 2: 12.7 x)
    b = f.obj_("bound_ppm")
    if b is not None:
        for k in RANKS:
            b.int(k, hi=U32_MAX)
        f.errs += b.errs
    t = f.obj_("tukey")
    if t is not None:
        # (5 Q3 - 3 Q1) / 2 can pass 2^64; the firmware prints it exact, in 128 bits
        _order(t, [("tukey.lo", t.dec("lo")), ("tukey.hi", t.dec("hi", hi=DEC128_MAX))])
        # (the mean inside the fences can pass the largest sample: a low outlier leaves at its
        # bin's representative, which may be below its value; printed exact, in 128 bits)
        t.dec("mean", hi=DEC128_MAX)
        out = (t.int("out_lo"), t.int("out_hi"))
        if None not in out and n is not None and sum(out) > n:
            t.errs.append(f"tukey out_lo + out_hi = {sum(out)} > n = {n}")
        # samples in histogram bins that straddle a fence: printed only when some are
        unc = t.int("out_uncertain", required=False, lo=1)
        if unc is not None and n is not None and unc > n:
            t.errs.append(f"tukey out_uncertain = {unc} > n = {n}")
        f.errs += t.errs
    fl = f.obj_("flags")
    if fl is not None:
        fl.bool("coarsened")
        if fl.bool("saturated") is True and n is not None and n < SATURABLE_N:
            # (it would switch off every check of the moments: stddev, cv, ci95)
            fl.errs.append(f"flags.saturated = true, but n = {n}: nothing saturates below n = {SATURABLE_N} (a bin "
                           f"holds {U32_MAX} samples and the tail at least one; a sum saturates past 2^63 samples)")
        f.errs += fl.errs
    f.int("bins_per_octave", choices=layout.BINS_PER_OCTAVE)
    w = f.obj_("warmup")
    if w is not None:
        w.errs += warmup_problems(w.int("batches", lo=1, hi=U32_MAX), w.bool("settled"))
        f.errs += w.errs
    below = f.int("below_overhead", hi=U32_MAX)
    if below and n is not None and below > n:
        f.errs.append(f"below_overhead = {below} > n = {n}: it counts some of the n timed batches")
    elif below and lo is not None and lo > 0:
        f.errs.append(f"below_overhead = {below} but min = {show(lo)}: a batch under the overhead counts 0, "
                      f"so min would be 0")
    f.bool("short_interval")
    for k in ("insns", "p50_ns", "mean_ns", "core_cycles_p50", "core_cycles_mean"):
        f.dec(k, required=False)
    for k in ("ops_per_s", "core_per_tick_ppm", "bytes", "expect_insns"):
        f.int(k, required=False)
    f.str("cflags", required=False)
    f.errs += events.result_problems(d)
    f.errs += model.event_problems(d)
    if not f.errs:
        f.errs += derive.ns_problems(d)
        f.errs += derive.figure_problems(d)
    return f.errs


def check_hist(d: dict) -> list:
    f = Fields(d)
    f.str("name", nonempty=True)
    f.str("unit", nonempty=True)
    f.int("div", lo=1)
    n = f.int("n", lo=1)
    lo, hi = f.int("min"), f.int("max")
    total = f.int("sum", hi=float("inf"))
    f.int("sumsq", hi=float("inf"))
    bpo = f.int("bins_per_octave", choices=layout.BINS_PER_OCTAVE)
    if bpo is not None and n is not None and bpo != layout.bins_per_octave(n):
        f.errs.append(layout.bins_per_octave_problem(bpo, n))
    topk = f.int("topk", lo=1, hi=128)
    if topk is not None and topk & (topk - 1):
        f.errs.append(f"topk = {topk}: must be a power of two")
    sat = f.obj_("saturated")
    if sat is not None:
        sat.bool("sum")
        sat.bool("bins")
        f.errs += sat.errs
    bins, tail = d.get("bins"), d.get("tail")
    ok_bins = isinstance(bins, list) and all(
        isinstance(b, list) and len(b) == 3 and all(isinstance(x, int) and not isinstance(x, bool)
                                                    and 0 <= x <= U64_MAX for x in b) for b in bins)
    ok_tail = isinstance(tail, list) and all(
        isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= U64_MAX for x in tail)
    if not ok_bins:
        f.errs.append("bins is missing or not an array of [lo, hi, count] integers")
    if not ok_tail:
        f.errs.append("tail is missing or not an array of integers")
    if not (ok_bins and ok_tail):
        return f.errs
    values = d.get("values")
    if values is not None and not (isinstance(values, list) and values and all(
            isinstance(x, list) and len(x) == 2 and all(isinstance(y, int) and not isinstance(y, bool)
                                                        and 0 <= y <= U64_MAX for y in x) for x in values)):
        f.errs.append("values is not a non-empty array of [value, count] integers")
    for i, (blo, bhi, c) in enumerate(bins):
        if blo > bhi or c < 1:
            f.errs.append(f"bin {i} [{blo}, {bhi}, {c}] is empty or inverted")
            break
        if c > 2**32 - 1:
            # (a count saturates at 2^32-1 and says so; the firmware holds ~10^7 samples)
            f.errs.append(f"bin {i} [{blo}, {bhi}] counts {c}: a bin holds at most 4294967295")
            break
        if i and blo <= bins[i - 1][1]:
            f.errs.append(f"bin {i} [{blo}, {bhi}] overlaps or precedes bin {i - 1}: bins must ascend")
            break
    if any(a > b for a, b in zip(tail, tail[1:])):
        f.errs.append("tail is not ascending")
    if bins and tail and tail[0] < bins[-1][0]:
        f.errs.append(f"tail value {tail[0]} lies below the last bin [{bins[-1][0]}, {bins[-1][1]}]")
    if n is not None and topk is not None and len(tail) != min(n, topk):
        f.errs.append(f"the tail holds {len(tail)} values; the {min(n, topk)} largest of n = {n} "
                      f"(topk {topk}) belong there")
    if n is not None:
        held = sum(b[2] for b in bins) + len(tail)
        if held != n:
            f.errs.append(f"bins and tail hold {held} samples but n = {n}")
    if lo is not None and hi is not None:
        if lo > hi:
            f.errs.append(f"min = {lo} > max = {hi}")
        if tail and hi != tail[-1]:
            f.errs.append(f"max = {hi} but the largest tail value is {tail[-1]}")
        if not tail and bins and not bins[-1][0] <= hi <= bins[-1][1]:
            f.errs.append(f"max = {hi} is not in the last bin")
        if bins and not bins[0][0] <= lo <= bins[0][1]:
            f.errs.append(f"min = {lo} is not in the first bin [{bins[0][0]}, {bins[0][1]}]")
        if bins and tail and lo > tail[0]:
            f.errs.append(f"min = {lo} is above the smallest tail value {tail[0]}")
        if not bins and tail and lo != tail[0]:
            f.errs.append(f"min = {lo} but the smallest sample (tail) is {tail[0]}")
        if total is not None and n is not None and not n * lo <= total <= n * hi:
            f.errs.append(f"sum = {total} is not within n x min .. n x max")
        sat = d.get("saturated")
        if isinstance(sat, dict) and sat.get("bins") is True and n is not None and n < 2**32 - 1:
            f.errs.append(f"saturated.bins = true, but n = {n}: a bin saturates at 4294967295 samples")
        if isinstance(sat, dict) and sat.get("sum") is True and n is not None and n * hi < 2**126:
            # The sums saturate at 2^127 (sum) and 2^191 (sumsq), not below: a flag that
            # cannot be true would switch off every check of the sums.
            f.errs.append(f"saturated.sum = true, but n x max = {n * hi} is far below where a sum saturates (2^127)")
    if not f.errs:
        f.errs += derive.Hist(d).problems()
    return f.errs


def check_end(d: dict, served=False) -> list:
    """An end record (or a served run command's done record: served, its exit status 0 with no
    results as with all ok, docs/records.md)."""
    f = Fields(d)
    results = f.int("results")
    counts = {k: f.int(k) for k in STATUSES}
    status = f.int("exit_status", hi=2)
    undeclared = f.int("state_dependent", required=False)
    used, size = f.int("stack_used_bytes", required=False), f.int("stack_bytes", required=False)
    if None not in counts.values() and results is not None:
        if sum(counts.values()) != results:
            f.errs.append(f"the status counts add up to {sum(counts.values())}, not results = {results}")
        elif status is not None:
            want = 2 if results == 0 and not served else 0 if counts["ok"] == results and not undeclared else 1
            if status != want:
                f.errs.append(f"exit_status = {status} but {counts['ok']} of {results} results are ok"
                              + (f", {undeclared} of them state-dependent" if undeclared else "")
                              + f" (expected {want})")
    if ("stack_used_bytes" in d) != ("stack_bytes" in d):
        f.errs.append("stack_used_bytes and stack_bytes come together (bare metal) or not at all")
    if used is not None and size is not None and used >= size:
        f.errs.append(f"stack_used_bytes = {used} of stack_bytes = {size}: the main stack overflowed")
    cyc = {k: f.int(k, required=False) for k in ("run_cycles", "body_cycles", "user_cycles")}
    if any(k in d for k in cyc) and not all(k in d for k in cyc):
        f.errs.append("run_cycles, body_cycles and user_cycles come together or not at all")
    elif None not in cyc.values() and cyc["body_cycles"] + cyc["user_cycles"] > cyc["run_cycles"]:
        f.errs.append(f"body_cycles + user_cycles = {cyc['body_cycles'] + cyc['user_cycles']} > "
                      f"run_cycles = {cyc['run_cycles']}: parts of the run exceed the run")
    f.int("cycle_hz", required=False)
    f.int("clock_ticks", required=False, lo=1)
    if ("cycle_hz" in d) != ("clock_ticks" in d):
        f.errs.append("cycle_hz and clock_ticks come together (a timer) or not at all")
    return f.errs


CHECKS = {"meta": check_meta, "start": check_start, "result": check_result, "hist": check_hist,
          "end": check_end}
