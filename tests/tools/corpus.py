# SPDX-License-Identifier: Apache-2.0
"""Writes baremark console logs that follow docs/records.md (format 2) exactly, from samples it
draws itself (so every figure, hist bin and CRC is known), and derives from them hundreds of
damaged logs, each with the verdict bm check must give. The statistics figures come from
bmlib.records.derive, the code bm check uses: the corpus cannot catch a mistake in it; test_derive.py
(against the C, through ctest) does. Run it to write the corpus to a folder:
    /usr/bin/python3 tests/tools/corpus.py OUTDIR"""
import json
import os
import random
import sys
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from bmlib import FORMAT  # noqa: E402
from bmlib.records import derive  # noqa: E402
from bmlib.records.frame import crc_hex, dump  # noqa: E402
from bmlib.records.rules import STATUSES, WARMUP_WINDOW  # noqa: E402
from bmlib.shared import CV_NOISY_PPM, DRIFT_UNSTABLE_PPM  # noqa: E402


def figures(raw, iters):
    """The result record's statistics for raw batch values, as the firmware's report computes
    them from its state (bmlib.records.derive; tests/tools/test_derive.py holds it to the C)."""
    out = {"unit": None, "iters": iters}   # (the record's order: unit and iters first)
    out.update(derive.Hist(derive.hist_from_samples(raw, iters)).result())
    return out


class Bench:
    """One benchmark to write: raw samples (ok) or a failure (status, reason, phase, trap)."""

    def __init__(self, name, raw=None, iters=1, status="ok", reason=None, phase=None, trap=None,
                 said=(), extra=None):
        self.name, self.raw, self.iters, self.status = name, raw, iters, status
        self.reason, self.phase, self.trap, self.said, self.extra = reason, phase, trap, said, extra or {}


def meta_record(n_bench, samples, built_for="qemu-icount", hist=True, **over):
    m = {"type": "meta", "format": FORMAT, "seq": 0, "kit": "baremark", "kit_version": "0.2.0",
         "kit_vcs": "e8ad533", "label": "", "built_for": built_for, "board": "qemu-virt-riscv64",
         "board_facts": {"ram": "128 MiB"}, "console": "ns16550a@0x10000000", "isa": "rv64imac",
         "cycle_counter": "cycle (rdcycle)", "cycle_unit": "cycles",
         "instret_counter": "instret (rdinstret)", "timer": "clint-mtime@0x0200bff8",
         "timer_hz": 10000000, "overhead_cycles": 3, "overhead_cycles_max": 3, "overhead_instret": 5,
         "libc": "picolibc 1.8", "compiler": "GCC 12.2.0", "cflags": "-march=rv64imac_zicsr -O2",
         "opt": "-O2", "samples": samples, "min_batch_cycles": 2000, "bench_timeout_ms": 2000,
         "benchmarks": n_bench, "hist": hist, "stats_bytes": 2040,
         "arch_facts": {"priv": "M", "mcounteren": "0x7"}}
    m.update(over)
    return m


def write_log(benches, samples=None, built_for="qemu-icount", hist=True, human=True, meta=None,
              end=True):
    """A whole boot as console text lines (without newlines): header, progress lines, the
    records, the kit's `*** ` lines, the table and the verdict line."""
    samples = samples or len(next(b.raw for b in benches if b.raw is not None))
    m = meta_record(len(benches), samples, built_for, hist, **(meta or {}))
    lines = []
    if human:
        lines += [f"baremark {m['kit_version']}: bare-metal benchmarks, results in cycles per iteration",
                  f"board         {m['board']}", f"method        {samples} samples per benchmark", ""]
    seq, sums = 0, 0
    lines.append(dump(m))
    counts = {s: 0 for s in STATUSES}
    for i, b in enumerate(benches, 1):
        seq += 1
        if human:
            lines.append(f"[{i}/{len(benches)}] {b.name} ...")
        lines.append(dump({"type": "start", "format": FORMAT, "seq": seq, "name": b.name, "index": i,
                           "of": len(benches)}))
        seq += 1
        r = {"type": "result", "format": FORMAT, "seq": seq, "name": b.name, "status": b.status}
        if b.status == "ok":
            f = figures(b.raw, b.iters)
            f["unit"] = m["cycle_unit"]
            r.update(f)
            p50_raw = derive.Hist(derive.hist_from_samples(b.raw, b.iters)).quantile(1, 2)[0]
            oh = m["overhead_cycles"]
            r.update({"insns": f["mean"], "p50_ns": f["p50"], "mean_ns": f["mean"], "cycle_hz": 1000000000,
                      "warmup": {"batches": WARMUP_WINDOW, "settled": True}, "below_overhead": 0,
                      "short_interval": p50_raw + oh < 100 * oh})
            if f["cv_ppm"] > CV_NOISY_PPM:
                r["noisy"] = True
            sums += sum(b.raw)
            r.update(b.extra)
            r["stack_used_bytes"] = 512
        else:
            r.update({"reason": b.reason, "phase": b.phase})
            if b.trap:
                r["trap"] = b.trap
            r["stack_used_bytes"] = 640
            if human:
                lines += list(b.said)
        counts[b.status] += 1
        lines.append(dump(r))
        if hist and b.status == "ok":
            seq += 1
            h = {"type": "hist", "format": FORMAT, "seq": seq, "name": b.name, "unit": m["cycle_unit"]}
            h.update(derive.hist_from_samples(b.raw, b.iters))
            lines.append(dump(h))
    if human:
        lines += ["", "benchmark               status    iters     n      min      p50      p99"]
        for b in benches:
            lines.append(f"{b.name:<23} {b.status:<8} {b.iters:>6}")
    if end:
        seq += 1
        ok = counts["ok"] == len(benches)
        e = {"type": "end", "format": FORMAT, "seq": seq, "results": len(benches)}
        e.update(counts)
        # (the timed samples lie inside the batches body_cycles counts, and those inside the
        # clock windows: a log with far outliers needs a long run)
        body, run, ticks = 85000000, 90000000, 900000
        if sums > 84000000:
            body, run = sums + 1000000, sums + 6000000
            ticks = (body + run) // 2 * m["timer_hz"] // 1000000000
        e.update({"exit_status": 2 if not benches else 0 if ok else 1, "run_cycles": run,
                  "body_cycles": body, "user_cycles": 250000, "cycle_hz": 1000000000,
                  "clock_ticks": ticks, "stack_used_bytes": 2264, "stack_bytes": 16384})
        lines.append(dump(e))
        if human:
            lines.append(f"baremark: {'PASS' if ok else 'FAIL'} ({counts['ok']}/{len(benches)} benchmarks verified)")
    return lines


# ---- base logs ----

NAMES14 = ["array_walk", "crc32", "empty", "known_loop", "list_walk", "matmul_16", "memcpy_4k",
           "stats_add_ascending", "stats_add_far_outliers", "stats_add_outliers", "stats_add_random",
           "stats_fetch_only", "sum_merged_loop", "sum_two_loops"]


def realistic14(seed=1, samples=1000, built_for="qemu-icount", human=True, hist=True):
    """14 benchmarks like the kit's: most constant (deterministic QEMU), some spread out, one
    with far outliers, one batched (iters 2) and one at 0 (iters 2^20)."""
    rng = random.Random(seed)
    out = []
    for name in NAMES14:
        iters = 1
        if name == "empty":
            raw, iters = [0] * samples, 1048576
        elif name == "sum_merged_loop":
            raw, iters = [3611] * samples, 2
        elif name == "stats_add_far_outliers":
            raw = [rng.choice([67, 239, 338]) if rng.random() < 0.85 else rng.randrange(1 << 20, 1 << 40)
                   for _ in range(samples)]
        elif name.startswith("stats_add"):
            raw = [67 + int(rng.expovariate(1 / 80)) for _ in range(samples)]
        else:
            base = {"array_walk": 2056, "crc32": 11273, "known_loop": 2001, "list_walk": 2054,
                    "matmul_16": 30569, "memcpy_4k": 24585, "stats_fetch_only": 11,
                    "sum_two_loops": 2316}[name]
            raw = [base] * samples
        extra = {"expect_insns": 2001} if name == "known_loop" else {}
        out.append(Bench(name, raw, iters, extra=extra))
    return write_log(out, samples, built_for, hist=hist, human=human)


def failing_log():
    """A boot with a trapped, a timed-out and a failed benchmark among ok ones."""
    rng = random.Random(7)
    b = [Bench("array_walk", [2056] * 200),
         Bench("bad_insn", status="trap", reason="illegal instruction", phase="samples",
               trap={"cause": "illegal instruction", "pc": "0x80001234", "code": "0x2"},
               said=["*** TRAP: illegal instruction (mcause=0x2) mepc=0x80001234 mtval=0x0"]),
         Bench("crc32", [11273 + rng.randrange(0, 40) for _ in range(200)]),
         Bench("spin", status="timeout", reason="over its 2000 ms budget", phase="samples",
               said=["*** TIMEOUT: spin over its 2000 ms budget"]),
         Bench("wrong_answer", status="fail", reason="verify failed", phase="verify")]
    return write_log(b, 200)


def hosted_runs(shift=1.0, seed=0, samples=300, names=("crc32", "memcpy_4k"), jitter=0.003, fail=(), tail=0.01):
    """A host-linux-like boot: noisy tsc_ticks samples, scaled by `shift` (1.10 = 10% slower);
    each run gets its own small run-to-run offset (`jitter`), as real runs do. The benchmarks
    named in `fail` failed their verify."""
    rng = random.Random(seed)
    benches = []
    for i, name in enumerate(names):
        base = (5600, 24000, 900, 3000)[i % 4] * shift * (1 + rng.gauss(0, jitter))
        raw = [int(base + rng.expovariate(1 / (base * tail))) for _ in range(samples)]
        benches.append(Bench(name, status="fail", reason="verify failed", phase="verify") if name in fail
                       else Bench(name, raw))
    return write_log(benches, samples, "hosted", human=False,
                     meta={"board": "host-linux", "isa": "x86_64", "cycle_unit": "tsc_ticks",
                           "cycle_counter": "tsc"})


def text(lines, eol="\n"):
    return (eol.join(lines) + eol).encode()


# ---- damaged logs, each with its verdict ----
# A verdict is the sorted list of problem kinds bm check must report; [] = complete and clean.

def record_indexes(lines):
    return [i for i, l in enumerate(lines) if l.startswith("{")]


def resign(line, edit):
    """Change a record's values and give it a valid CRC again: an impossible record that
    arrived intact, which only the value rules can catch. The string "NaN" becomes the bare
    JSON literal NaN, which no writer would emit."""
    d = json.loads(line[:line.rfind(',"crc":')] + "}", parse_float=Decimal)
    edit(d)
    body = dump(d)
    body = body[:body.rfind('"crc":')].replace('"NaN"', "NaN")
    return body + '"crc":"' + crc_hex(body.encode()) + '"}'



def edit_record(lines, start, edit):
    """lines with the first record whose text starts with `start` changed by edit (re-CRC'd)."""
    i = next(k for k, l in enumerate(lines) if l.startswith(start))
    return lines[:i] + [resign(lines[i], edit)] + lines[i + 1:]


def edit_result(lines, name, edit):
    """lines with benchmark name's result record changed by edit (its CRC made right again)."""
    i = next(k for k, l in enumerate(lines) if l.startswith('{"type":"result"') and f'"name":"{name}"' in l)
    return lines[:i] + [resign(lines[i], edit)] + lines[i + 1:]


def with_unit(lines, unit):
    """lines with the meta record's cycle_unit and every record's unit set to unit."""
    def edit(d):
        d.update(cycle_unit=unit) if d.get("type") == "meta" else d.update(unit=unit)
    return [resign(ln, edit) if ln.startswith("{") and ('"unit":' in ln or '"type":"meta"' in ln) else ln
            for ln in lines]


def _seq_kind(lines, i):
    """What losing record line i does: 'missing', or the first/last record's special cases."""
    recs = record_indexes(lines)
    if i == recs[0]:
        return "headless"
    if i == recs[-1]:
        return "incomplete"
    return "missing"


def _drift_past_spread(d):
    """A drift_ppm larger than the samples' spread allows (the quarters' minima lie within
    min..max); past 2^32 - 1 when the spread allows any 32-bit drift."""
    lo, hi = d["min"], d["max"]
    most = (hi - lo) * 10**6 / lo if lo > 0 else 0
    drift = int(most) + 1000 if lo > 0 else 1
    d.update(drift_ppm=drift if drift < 2**32 else 2**32, unstable=drift > DRIFT_UNSTABLE_PPM)


def value_edits():
    """(name, record type, edit) for well-formed but impossible values."""
    def setk(k, v):
        return lambda d: d.__setitem__(k, v)

    def sub(k, sk, v):
        return lambda d: d[k].__setitem__(sk, v)
    return [
        ("p50>max", "result", lambda d: d.update(p50=d["max"] + 1, p90=d["max"] + 1, p99=d["max"] + 1, p999=d["max"] + 1)),
        ("p90<p50", "result", lambda d: d.update(p90=d["p50"] - Decimal("0.001")) if d["p50"] > 0 else d.update(p50=Decimal("1.000"))),
        ("mean>max", "result", lambda d: d.update(mean=d["max"] + 5)),
        ("n=0", "result", setk("n", 0)),
        ("iters=0", "result", setk("iters", 0)),
        ("nan", "result", setk("mean", "NaN")),
        ("negative", "result", setk("stddev", Decimal("-1.000"))),
        ("unit", "result", setk("unit", "tsc_ticks")),
        ("out_hi>n", "result", sub("tukey", "out_hi", 5000)),
        ("status", "result", setk("status", "crashed")),
        ("int-for-dec", "result", lambda d: d.update(ci95=int(d["ci95"]))),
        ("2-digits", "result", lambda d: d.update(stddev=d["stddev"].quantize(Decimal("0.01")))),
        ("bool-for-int", "result", setk("cv_ppm", True)),
        ("missing-key", "result", lambda d: d.pop("p90")),
        ("huge", "result", setk("max", Decimal("18446744073709551616.000"))),
        ("bins-order", "hist", lambda d: d.update(bins=list(reversed(d["bins"]))) if len(d["bins"]) > 1 else d.update(bins=[[5, 3, 1]] + d["bins"])),
        ("hist-sum", "hist", lambda d: d.update(n=d["n"] + 1)),
        ("tail-below", "hist", lambda d: d.update(tail=[0] + d["tail"][1:]) if d["bins"] else d.update(max=d["max"] + 7)),
        ("hist-min", "hist", lambda d: d.update(sum=d["sum"] * 3 + 1)),
        # Well-formed, in order, and still impossible: the hist record says otherwise.
        ("stddev-not-hist", "result", lambda d: d.update(stddev=d["stddev"] + 5000)),
        ("p50-not-hist", "result", lambda d: d.update(p50=d["p90"]) if d["p50"] != d["p90"] else d.update(p50=d["p50"] - Decimal("0.001"), min=Decimal(0))),
        ("bound-not-hist", "result", sub("bound_ppm", "p99", 123)),
        ("tukey-not-hist", "result", sub("tukey", "out_lo", 1)),
        ("cv-not-hist", "result", lambda d: d.update(cv_ppm=d["cv_ppm"] + 1)),
        ("flags-not-hist", "result", sub("flags", "saturated", True)),
        ("ns-not-p50", "result", lambda d: d.update(p50_ns=d["p50_ns"] + 1)),
        ("sum-not-bins", "hist", lambda d: d.update(sum=d["sum"] + d["n"] * (d["max"] - d["min"]) // 2 + 1) if d["max"] > d["min"] else d.update(sumsq=d["sumsq"] + 1)),
        ("sumsq-missing", "hist", lambda d: d.pop("sumsq")),
        ("sumsq-low", "hist", lambda d: d.update(sumsq=d["sum"] * d["sum"] // d["n"] - 1)),
        ("bin-not-layout", "hist", lambda d: d.update(bins=[[d["bins"][0][0] + 1] + d["bins"][0][1:]] + d["bins"][1:]) if d["bins"] else d.update(topk=3)),
        ("bpo-not-n", "hist", setk("bins_per_octave", 23)),
        ("meta-benchmarks", "meta", lambda d: d.update(benchmarks=d["benchmarks"] + 1)),
        ("meta-samples", "meta", lambda d: d.update(samples=d["samples"] + 1)),
        ("meta-unit", "meta", setk("cycle_unit", "cntvct_ticks")),
        ("meta-built-for", "meta", setk("built_for", "simulator")),
        ("end-ok", "end", lambda d: d.update(ok=d["ok"] - 1, fail=d["fail"] + 1)),
        ("end-exit", "end", lambda d: d.update(exit_status=1 - min(1, d["exit_status"]))),
        ("end-results", "end", lambda d: d.update(results=d["results"] + 1, ok=d["ok"] + 1)),
        ("end-stack", "end", lambda d: d.update(stack_used_bytes=d["stack_bytes"])),
        ("end-cycles", "end", lambda d: d.update(body_cycles=d["run_cycles"] + 1)),
        ("start-index", "start", lambda d: d.update(index=d["of"] + 1)),
        # Impossible from the figures alone (a log with hist:false has nothing else to tell by).
        ("stddev-spread", "result", lambda d: d.update(stddev=(d["max"] - d["min"]) * 2 + Decimal("1.000"))),
        ("ci95-not-t", "result", lambda d: d.update(ci95=d["ci95"] * 3 + Decimal("1.000"))),
        ("fence-above-p50", "result", lambda d: d["tukey"].update(lo=d["p50"] + 1, hi=d["tukey"]["hi"] + d["p50"] + 1)),
        ("tukey-all-out", "result", lambda d: d["tukey"].update(out_lo=d["n"] - d["tukey"]["out_hi"])),
        ("settled-early", "result", sub("warmup", "batches", 3)),
        ("u32-overflow", "result", setk("below_overhead", 2**32)),
        # noisy: present only as true, and only over the limit
        ("noisy-false", "result", setk("noisy", False)),
        ("noisy-low-cv", "result", lambda d: d.update(noisy=True, cv_ppm=0) if d.get("noisy") else d.update(noisy=True)),
        ("uncertain>n", "result", sub("tukey", "out_uncertain", 10**9)),
        # (too few ticks for the batches of a run that passed; too many for any run)
        ("end-ticks", "end", lambda d: d.update(clock_ticks=1 if d["ok"] == d["results"] else d["clock_ticks"] * 1000)),
        # Impossible against the rest of the boot: the samples of the hist, the meta's counters.
        ("short-not-hist", "result", lambda d: d.update(short_interval=not d["short_interval"])),
        ("drift-not-hist", "result", _drift_past_spread),
        ("stack-past-end", "result", setk("stack_used_bytes", 99999)),
        # the heap's high-water mark comes with the heap's size, and is not above it
        ("heap-past-size", "result", lambda d: d.update(heap_used_bytes=4097, heap_bytes=4096)),
        ("heap-alone", "result", setk("heap_used_bytes", 64)),
        ("meta-no-timer", "meta", lambda d: d.update(timer="none", timer_hz=0)),
        ("meta-no-insns", "meta", setk("instret_counter", "none")),
        ("format-decimal", "result", setk("format", Decimal(f"{FORMAT}.0"))),
        ("fail-with-figures", "failresult", lambda d: d.update(min=Decimal("1.000"))),
        ("trap-no-cause", "trapresult", lambda d: d["trap"].pop("cause")),
        ("phase", "failresult", setk("phase", "lunch")),
    ]


# Edits that affect more than one subject, with the problems they must give.
_VALUE_KINDS = {"meta-benchmarks": ["count"], "format-decimal": ["record"], "end-ok": ["end"], "end-results": ["count", "end"],
                "end-exit": ["end"], "end-stack": ["end"], "end-cycles": ["end"], "end-ticks": ["end"]}


def corpus(seed=12):
    """[(name, bytes, verdict)]: the damaged logs and what bm check must say about each."""
    rng = random.Random(seed)
    out = []
    bases = {"r14": realistic14(), "fail": failing_log(), "host": hosted_runs(),
             "r14-nohist": realistic14(seed=3, samples=100, hist=False, built_for="hardware")}
    for bname, lines in bases.items():
        out.append((f"{bname}/clean", text(lines), []))
        out.append((f"{bname}/crlf", text(lines, "\r\n"), []))
        recs = record_indexes(lines)
        for i in recs:
            # A corrupted byte: the CRC no longer matches.
            l = lines[i]
            j = rng.randrange(1, len(l) - 1)
            ch = chr((ord(l[j]) + rng.randrange(1, 90)) % 94 + 33)
            if ch != l[j]:
                dam = lines[:i] + [l[:j] + ch + l[j + 1:]] + lines[i + 1:]
                out.append((f"{bname}/flip{i}", text(dam), [_seq_kind(lines, i)]))
            # The line lost entirely.
            out.append((f"{bname}/drop{i}", text(lines[:i] + lines[i + 1:]), [_seq_kind(lines, i)]))
            # The log cut in the middle of this record.
            cut = lines[:i] + [lines[i][:rng.randrange(1, len(lines[i]) - 2)]]
            out.append((f"{bname}/cut{i}", text(cut)[:-1], ["empty"] if i == recs[0] else
                        ["incomplete"]))
            # The same line twice: a repeated meta is a reset after record 0.
            dup = lines[:i + 1] + [lines[i]] + lines[i + 1:]
            out.append((f"{bname}/dup{i}", text(dup), ["reset"] if i == recs[0] else ["duplicate"]))
        for a, b in zip(recs[1:-1], recs[2:]):
            if rng.random() < 0.5:
                sw = list(lines)
                sw[a], sw[b] = sw[b], sw[a]
                out.append((f"{bname}/swap{a}", text(sw), ["order"]))
        # Noise on human lines never voids a record.
        human = [i for i, l in enumerate(lines) if l and not l.startswith("{")]
        for k, i in enumerate(human):
            noisy = list(lines)
            l = noisy[i]
            noisy[i] = ("{" + l[1:]) if l.startswith("[") else (l[:3] + "\x1b[1;31m" + l[3:] + "\x1b[0m")
            out.append((f"{bname}/noise{i}", text(noisy), []))
        for k in range(6):
            noisy = list(lines)
            i = rng.choice(recs)
            noisy[i] = "\x1b[0m" + noisy[i][:10] + "\x00" + noisy[i][10:]
            out.append((f"{bname}/ansi-in-record{k}", text(noisy), []))
        glued = list(lines)
        i = rng.choice(recs[1:-1])
        glued[i:i + 2] = [glued[i] + glued[i + 1]]
        out.append((f"{bname}/glued{i}", text(glued), []))
        out.append((f"{bname}/reset-garbage", b"\xff\xfe\x00" + text(lines), []))
        # Concatenations: two whole runs are fine; a partial boot before a whole one is a reset.
        # (a hosted run never repeats its timings: the same boot twice there is a copy)
        out.append((f"{bname}/twice", text(lines + lines), ["repeat"] if bname == "host" else []))
        for i in rng.sample(recs[1:-1], min(4, len(recs) - 2)):
            out.append((f"{bname}/reset{i}", text(lines[:i + 1] + ["garbage after reset"] + lines), ["reset"]))
        out.append((f"{bname}/tail-first", text(lines[recs[5]:] + lines), ["headless"]))
        out.append((f"{bname}/truncated-at-line", text(lines[:recs[len(recs) // 2] + 1]), ["incomplete"]))
        # Impossible values with a valid CRC.
        by_type = {}
        for i in recs:
            d = json.loads(lines[i], parse_float=Decimal)
            t = d["type"]
            if t == "result" and d["status"] != "ok":
                t = "trapresult" if d["status"] == "trap" else "failresult"
            by_type.setdefault(t, []).append(i)
        for name, typ, edit in value_edits():
            if typ not in by_type or (name.endswith("-not-hist") and "hist" not in by_type):
                continue   # (only a hist record tells those figures wrong)
            i = rng.choice(by_type[typ])
            bad = list(lines)
            bad[i] = resign(lines[i], edit)
            if bad[i] == lines[i]:
                continue
            out.append((f"{bname}/value-{name}@{i}", text(bad), _VALUE_KINDS.get(name, ["value"])))
        # An icount image booted without -icount: cycles are no longer instructions.
        if '"built_for":"qemu-icount"' in lines[recs[0]]:
            i = next(k for k in recs if '"type":"result"' in lines[k] and '"insns"' in lines[k])
            noisy = list(lines)
            noisy[i] = resign(lines[i], lambda d: d.update(insns=d["insns"] - Decimal("1.5")))
            out.append((f"{bname}/icount-but-not-insns", text(noisy), ["value"]))
        # One benchmark's records renamed to another's: a name runs once per boot.
        starts = [i for i in recs if json.loads(lines[i], parse_float=Decimal)["type"] == "start"]
        if len(starts) > 1:
            first, second = (json.loads(lines[i], parse_float=Decimal)["name"] for i in starts[:2])
            renamed = [resign(l, lambda d: d.update(name=first)) if l.startswith("{") and
                       json.loads(l, parse_float=Decimal).get("name") == second else l for l in lines]
            out.append((f"{bname}/same-name-twice", text(renamed), ["value"]))
    out.append(("empty", b"", ["empty"]))
    out.append(("human-only", b"baremark 0.2.0\n[1/1] x ...\n", ["empty"]))
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    os.makedirs(sys.argv[1], exist_ok=True)
    verdicts = {}
    for name, data, verdict in corpus():
        fn = name.replace("/", "_") + ".log"
        with open(os.path.join(sys.argv[1], fn), "wb") as f:
            f.write(data)
        verdicts[fn] = verdict
    with open(os.path.join(sys.argv[1], "verdicts.json"), "w") as f:
        json.dump(verdicts, f, indent=1, sort_keys=True)
    print(f"{len(verdicts)} logs in {sys.argv[1]}")
