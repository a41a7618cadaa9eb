# SPDX-License-Identifier: Apache-2.0
"""The kit's portable event names (shared.EVENTS: -DBM_EVENTS takes them, the records carry them),
and the checker's rules for the meta record's "events" (what a run counts, from which source, and
what it cannot count, with why) and each ok result's "events" (per-iteration figures), alone and
against each other (docs/records.md). The cache model's own rules are in model.py."""
import argparse
from decimal import Decimal

from .. import shared
from .derive import U32_MAX
from .figures import EVENT_FIGURES, deterministic
from .frame import DEC_MAX, U64_MAX

# name -> what one count is (per iteration in a result): the one list, shared.py's (the build
# and the firmware take it from there)
NAMES = shared.EVENTS
# source -> the keys of a meta events.counted entry beside "source", and their types
SOURCES = {"pmu": {"raw": int, "counter": str}, "perf": {"type": int, "config": int}, "model": {}}
SOURCE_WORDS = {"pmu": "pmu", "perf": "perf", "model": "modelled"}
# (part, whole): a part counts a subset of its whole's events, whatever counted them
SUBSETS = (("l1d_miss", "l1d_access"), ("l1i_miss", "l1i_access"), ("l2_miss", "l2_access"),
           ("branch_miss", "branch"))
MILLI = Decimal("0.001")


def _whole(v):
    return isinstance(v, int) and not isinstance(v, bool)


def name_list(text):
    """A command line's NAME,NAME,... -> [names], each a known event (argparse type)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if n not in NAMES]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"{','.join(bad) or repr(text)}: not an event name; the events are "
                                         f"{', '.join(NAMES)}")
    return names


def counted(meta):
    """The meta record's events.counted ({} when the run counts none or the object is malformed)."""
    ev = meta.get("events")
    c = ev.get("counted") if isinstance(ev, dict) else None
    return c if isinstance(c, dict) else {}


def not_counted(meta):
    ev = meta.get("events")
    c = ev.get("not_counted") if isinstance(ev, dict) else None
    return c if isinstance(c, dict) else {}


def meta_problems(d):
    """The meta record's "events" (absent when BM_EVENTS is empty): known names, each counted
    one with its source's keys, each not-counted one with a reason, no name in both."""
    if "events" not in d:
        return []
    ev = d["events"]
    if not isinstance(ev, dict) or set(ev) != {"counted", "not_counted"} or \
            not all(isinstance(v, dict) for v in ev.values()):
        return ["events must be an object with exactly counted and not_counted, both objects"]
    errs = []
    for name, v in ev["counted"].items():
        where = f"events.counted.{name}"
        if name not in NAMES:
            errs.append(f"{where}: {name!r} is not an event name (the kit's: {', '.join(NAMES)})")
            continue
        src = v.get("source") if isinstance(v, dict) else None
        if src not in SOURCES:
            errs.append(f"{where}.source must be one of {', '.join(SOURCES)}")
            continue
        keys = SOURCES[src]
        if set(v) != {"source", *keys}:
            errs.append(f"{where} from {src} must hold exactly source{''.join(', ' + k for k in keys)}")
            continue
        for k, t in keys.items():
            x = v[k]
            if t is int and not (_whole(x) and 0 <= x <= U64_MAX):
                errs.append(f"{where}.{k} = {x!r}: must be an integer 0 .. 2^64-1")
            elif t is str and not (isinstance(x, str) and x):
                errs.append(f"{where}.{k} must be a non-empty string (the register counting it)")
        if src == "model" and not isinstance(d.get("model"), dict):
            errs.append(f"{where}: counted by the cache model, but the meta record has no \"model\" (its geometry): "
                        "only bm run --model merges model events")
    for name, why in ev["not_counted"].items():
        where = f"events.not_counted.{name}"
        if name not in NAMES:
            errs.append(f"{where}: {name!r} is not an event name (the kit's: {', '.join(NAMES)})")
        elif not isinstance(why, str) or not why.strip():
            errs.append(f"{where} must be a non-empty string: why this run cannot count it")
        elif name in ev["counted"]:
            errs.append(f"events: {name} is both counted and not_counted")
    return errs


def _figure_problem(x):
    if not isinstance(x, (Decimal, int)) or isinstance(x, bool) or not Decimal(x).is_finite():
        return "must be a decimal"
    if x < 0 or (isinstance(x, Decimal) and x.is_signed()):
        return f"= {x} is negative"
    if isinstance(x, Decimal) and x != x.quantize(MILLI):
        return f"= {x}: at most 3 places after the point"
    if x > DEC_MAX:
        return f"= {x} is above {DEC_MAX}"
    return None


def result_problems(d):
    """An ok result's "events": known names, each {mean, p50, source[, below][, p50_bound_ppm]} with
    per-iteration decimals (p50 within a histogram bin: the bound says how far it may be off), and a miss never more than the accesses (a part within its whole) on any source."""
    if "events" not in d or d.get("status") != "ok":
        return []            # (a non-ok result's events: rules.FIGURES refuses them)
    ev = d["events"]
    if not isinstance(ev, dict) or not ev:
        return ["events must be a non-empty object"]
    errs, fig = [], {}
    n = d.get("n")
    for name, v in ev.items():
        where = f"events.{name}"
        if name not in NAMES:
            errs.append(f"{where}: {name!r} is not an event name (the kit's: {', '.join(NAMES)})")
            continue
        if not isinstance(v, dict) or v.get("source") not in SOURCES:
            errs.append(f"{where}.source must be one of {', '.join(SOURCES)}")
            continue
        extra = set(v) - {"mean", "p50", "source", "below", "p50_bound_ppm"}
        if extra or not all(k in v for k in EVENT_FIGURES):
            errs.append(f"{where} must hold mean, p50 and source (and below, p50_bound_ppm where they are not 0)"
                        f"{': not ' + ', '.join(sorted(extra)) if extra else ''}")
            continue
        bad = [(k, _figure_problem(v[k])) for k in EVENT_FIGURES if _figure_problem(v[k])]
        for k, why in bad:
            errs.append(f"{where}.{k} {why}")
        if "below" in v:
            b = v["below"]
            if not _whole(b) or b < 1:
                errs.append(f"{where}.below = {b!r}: a count >= 1 (absent when no sample was below the overhead)")
            elif _whole(n) and b > n:
                errs.append(f"{where}.below = {b} > n = {n}: it counts some of the n samples")
        if "p50_bound_ppm" in v:
            b = v["p50_bound_ppm"]
            if not _whole(b) or not 1 <= b <= U32_MAX:
                errs.append(f"{where}.p50_bound_ppm = {b!r}: 1 .. {U32_MAX} ppm (absent when the median is exact)")
        if not bad:
            fig[name] = v
    # The median sample only: every figure is net of what the counter reads count themselves, and a
    # few samples may find the reads' own lines evicted by the kit's work between batches (under a
    # 2 KiB L1D model, `empty` averages 0.004 misses a run for 0 accesses); that is the overhead's
    # miss, not an impossible one. The median sample still cannot miss more than it accesses.
    for part, whole in SUBSETS:
        if part in fig and whole in fig:
            for k in ("p50",):
                if fig[part][k] > fig[whole][k]:
                    errs.append(f"events.{part}.{k} = {fig[part][k]} > events.{whole}.{k} = {fig[whole][k]}: "
                                f"{NAMES[part]} are a subset of {NAMES[whole]}")
    return errs


def against_meta(meta, r):
    """An ok result's events against its boot's meta record: the same names and sources; model
    events only in a run with a model; and under -icount, instructions counted by the PMU equal to
    the kit's own instruction figure (insns), both exact there."""
    ev = r.get("events")
    ev = ev if isinstance(ev, dict) else {}
    if r.get("status") != "ok" or (not ev and "events" not in meta):
        return []
    have, errs = counted(meta), []
    for name, v in ev.items():
        src = v.get("source") if isinstance(v, dict) else None
        if src == "model" and not isinstance(meta.get("model"), dict):
            errs.append(f"events.{name} is from the cache model, but the meta record has no \"model\" (its geometry): "
                        "only bm run --model merges model events")
        elif name not in have:
            errs.append(f"events.{name} is not in the meta record's events.counted")
        elif isinstance(have[name], dict) and src != have[name].get("source"):
            errs.append(f"events.{name}.source = {src!r}, but the meta record counts it from "
                        f"{have[name].get('source')!r}")
    missing = [name for name in have if name not in ev]
    if missing:
        errs.append(f"events: {', '.join(missing)} missing (the meta record's events.counted has "
                    f"{'it' if len(missing) == 1 else 'them'}: every ok result carries every counted event)")
    ins, kit = ev.get("instructions"), r.get("insns")
    if deterministic(meta.get("built_for")) and isinstance(ins, dict) and ins.get("source") == "pmu" \
            and isinstance(ins.get("mean"), (Decimal, int)) and isinstance(kit, (Decimal, int)) \
            and ins["mean"] != kit:
        errs.append(f"events.instructions: counted instructions {ins['mean']} differ from the kit's instruction "
                    f"figure {kit} (insns) under -icount")
    return errs


def source_text(v):
    """How a result's event source reads in a table ("modelled": never mistaken for a count)."""
    return SOURCE_WORDS.get(v.get("source"), str(v.get("source"))) if isinstance(v, dict) else "-"
