# SPDX-License-Identifier: Apache-2.0
"""What no run can produce, though every value is well-formed: an ok result's figures against
the run that holds them (its end record's cycles and clock, its meta record's build). Each rule
is a bound the firmware cannot pass, with the slack its own rounding needs, so a record it
refuses was edited or written by broken firmware (boot.py gathers the messages)."""
from decimal import Decimal

from .figures import deterministic
from .rules import show


def _whole(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _num(x):
    return isinstance(x, (int, Decimal)) and not isinstance(x, bool) and Decimal(x).is_finite()


def _hz(end, r):
    """The cycle counter's rate: the end record's estimate, else the result's own."""
    for src in (end, r):
        hz = src.get("cycle_hz") if src is not None else None
        if _whole(hz) and hz > 0:
            return hz
    return None


def result_problems(meta, end, r):
    """An ok result (r) against its boot: meta and end (None when missing)."""
    iters, run = r.get("iters"), end.get("run_cycles") if end is not None else None
    errs = _cold(meta, r, iters if _whole(iters) else 0, run)
    if not _whole(iters) or iters < 1:
        return errs
    top = r.get("max")
    if _whole(run) and _num(top) and top * iters > run:
        # a timed batch lies inside the run: net of the overhead, one batch is max x iters
        errs.append(f"max = {top} per iteration x iters = {iters} is {top * iters} {r.get('unit') or 'cycles'} a "
                    f"batch, more than the whole run (end run_cycles = {run})")
    if r.get("cflags") is not None and r.get("cflags") == meta.get("cflags"):
        errs.append("cflags is the meta record's: a result carries its own compile line only when it differs")
    errs += _events(meta, end, r, iters, run)
    return errs


def _cold(meta, r, iters, run):
    """state_dependent is the verdict of a deterministic build (built_for qemu-icount), where runs on
    the same input cost the same, and only of one: there a result with a cold figure carries it. A
    cold run is one run of the body: never longer than the whole run; unflagged, within what its
    samples say one run costs (at iters 1 the firmware compares it with every sample, within a tick;
    at more, a batch's share holds a pass of its loop, and a lone run its call and reads)."""
    det = deterministic(meta.get("built_for"))
    dep, cold = r.get("state_dependent"), r.get("cold")
    if not det and dep is not None:
        return [f"state_dependent on a {show(meta.get('built_for'))} build (only a qemu-icount build gives that "
                "verdict)"]
    if det and dep is None and cold is not None and r.get("carries_state") is not True:
        # (a benchmark that declares it carries state, carries_state, gets no verdict)
        return ["cold without state_dependent on a qemu-icount build"]
    if not _whole(cold):
        return []
    if _whole(run) and cold > run:
        return [f"cold = {cold}: its one run of the body is longer than the whole run (end run_cycles = {run})"]
    lo, hi = r.get("min"), r.get("max")
    if not det or dep is not False or not _num(lo) or not _num(hi):
        return []
    if iters == 1 and not lo - 1 <= cold <= hi + 1:
        return [f"state_dependent = false, but its cold run ({cold}) is outside its single-run samples "
                f"({show(lo)}..{show(hi)})"]
    # At iters > 1 a batch's per-iteration figure shares out what the compiler hoisted out of the
    # batch loop (a lone run pays all of it: 368 against 3.356 a run at iters 1024, measured), so a
    # lone run lies between the cheapest share and a whole batch: min .. max x iters, give or take
    # a pass of the loop, the overhead (its call and reads) and a step of the counter.
    # (the larger overhead where the unprivileged path reads the counters otherwise: Cortex-M's SVC)
    oh = max([meta.get(k) for k in ("overhead_cycles_max", "overhead_user_cycles_max") if _whole(meta.get(k))] or [0])
    slack = (meta.get("batch_loop_cycles") if _whole(meta.get("batch_loop_cycles")) else 0) + oh + 2
    if iters > 1 and not lo - slack <= cold <= hi * iters + slack:
        return [f"state_dependent = false at iters {iters}, but its cold run ({cold}) is outside what one run of the "
                f"body can cost beside its samples ({lo} .. {hi} x {iters}, give or take {slack}: a pass of the batch "
                "loop, the overhead and a step of the counter)"]
    return []


def _events(meta, end, r, iters, run):
    ev = r.get("events")
    if not isinstance(ev, dict):
        return []
    errs = []

    def fig(name):
        v = ev.get(name)
        return v if isinstance(v, dict) and _num(v.get("mean")) and _num(v.get("p50")) else None

    # Misses within accesses in the mean too: the counter reads' own lines may be evicted in a
    # few samples (a miss the subtracted overhead did not hold: under a 2 KiB L1D model `empty`
    # averages 0.004 misses for 0 accesses), never in every batch.
    for part, whole in (("l1d_miss", "l1d_access"), ("l1i_miss", "l1i_access"), ("l2_miss", "l2_access")):
        p, w = fig(part), fig(whole)
        if p and w and (p["mean"] - w["mean"]) * iters >= 1:
            errs.append(f"events.{part}.mean = {p['mean']} > events.{whole}.mean = {w['mean']} by a miss or more "
                        f"a batch: misses are accesses that missed")
    if deterministic(meta.get("built_for")):
        cyc = fig("cycles")
        if cyc and cyc.get("source") == "pmu" and meta.get("cycle_unit") == "cycles" and _num(r.get("mean")) \
                and cyc["mean"] != r.get("mean"):
            errs.append(f"events.cycles: counted cycles {cyc['mean']} differ from the kit's cycles {r.get('mean')} "
                        "(mean) under -icount, where both count the same clock exactly")
        l1i = fig("l1i_access")
        isa = str(meta.get("isa", ""))
        if l1i and l1i.get("source") == "model" and _num(r.get("insns")) and isa.startswith(("rv", "armv8", "aarch64")) \
                and l1i["mean"] != r.get("insns"):
            # (docs/cache-model.md: between the batch's two counter reads the plugin sees every
            # instruction fetched once: on AArch64 and RISC-V, l1i_access is the instruction count)
            errs.append(f"events.l1i_access = {l1i['mean']} (modelled) differs from the {r.get('insns')} instructions "
                        "(insns): the model fetches every instruction between the batch's counter reads once")
    task = fig("task_clock_ns")
    hz = _hz(end, r)
    if task and _whole(run) and hz:
        run_ns = run * 10**9 // hz + 1
        if task["mean"] * iters > run_ns:
            errs.append(f"events.task_clock_ns.mean = {task['mean']} x iters = {iters} is more CPU time a batch than "
                        f"the whole run lasted ({run_ns} ns: end run_cycles over cycle_hz)")
    return errs


def meta_problems(meta, end):
    """The meta record against the end's clock: tick_insns is the counter's step in instructions
    at -icount's one instruction a nanosecond, so 10^9 / the counter's rate, measured to 1/256."""
    tick, hz = meta.get("tick_insns"), _hz(end, None)
    if not _whole(tick) or not hz or not deterministic(meta.get("built_for")):
        return []
    want = Decimal(10**9) / hz
    if abs(tick - want) > want / 128 + 1:
        return [f"tick_insns = {tick}, but the counter ran at {hz} Hz (end cycle_hz): one step is {want:.1f} "
                f"instructions at -icount's one a nanosecond"]
    return []
