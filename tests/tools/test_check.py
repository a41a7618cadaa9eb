# SPDX-License-Identifier: Apache-2.0
"""bm check on the generated corpus: hundreds of damaged logs derived from valid base logs,
each with the exact verdict it must get (complete and clean, or precisely which problems),
the command's exit statuses and --write, and a fuzz pass that must never crash."""
import random
import subprocess
from decimal import Decimal

import pytest

import corpus
from bmlib.records import log
from conftest import BM, PY, bm, no_crash

CORPUS = corpus.corpus()


def test_corpus_is_large_and_varied():
    assert len(CORPUS) >= 500
    kinds = {k for _, _, v in CORPUS for k in v}
    assert {"missing", "duplicate", "order", "incomplete", "reset", "headless", "value", "count",
            "end", "empty"} <= kinds
    assert sum(1 for _, _, v in CORPUS if not v) >= 100      # intact records with noise around


@pytest.mark.parametrize("name,data,verdict", CORPUS, ids=[c[0] for c in CORPUS])
def test_verdict(name, data, verdict):
    lg = log.analyze(data, name)
    assert sorted(p.kind for p in lg.problems) == sorted(verdict), [p.msg for p in lg.problems]
    assert lg.clean == (not verdict)


def test_lost_record_is_named_once_with_its_seq(write):
    lines = corpus.realistic14()
    i = corpus.record_indexes(lines)[9]
    path = write("flip.log", lines[:i] + [lines[i].replace('"seq":', '"seq":"', 1)] + lines[i + 1:])
    p = bm("check", path)
    assert p.returncode == 1
    problems = [l for l in p.stdout.splitlines() if ": problem: " in l]
    assert len(problems) == 1 and "seq 9 missing" in problems[0] and "CRC mismatch" in problems[0]


def test_huge_seq_jump_is_one_problem(write):
    """A seq corrupted on the board (a user's overflow hit the kit's counter: 1.5e9) is one
    gap, named as a range, in bounded memory (it listed every missing number: 24 GB)."""
    lines = corpus.realistic14()
    recs = corpus.record_indexes(lines)
    bumped = list(lines)
    for k in recs[3:]:
        bumped[k] = corpus.resign(lines[k], lambda d: d.update(seq=d["seq"] + 1515870807))
    p = subprocess.run(["/bin/sh", "-c", 'ulimit -v 1000000; exec "$0" "$@"', PY, BM, "check", write("j.log", bumped)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "seq 3-1515870809 missing" in p.stdout, p.stdout + p.stderr


def test_reset_is_one_problem_and_write_keeps_last_boot(write, tmp_path):
    lines = corpus.realistic14()
    recs = corpus.record_indexes(lines)
    path = write("reset.log", lines[:recs[4] + 1] + lines)
    out = tmp_path / "kept.jsonl"
    p = bm("check", path, "--write", out)
    assert p.returncode == 1
    assert sum(": problem: " in l for l in p.stdout.splitlines()) == 1
    assert "board reset after record 4" in p.stdout
    q = bm("check", out)
    assert q.returncode == 0 and q.stdout.strip().endswith("complete and clean")
    assert out.read_text().count("\n") == len(recs)
    # --write over the log itself would drop its first boot and its console lines: refused
    before = open(path, "rb").read()
    r = bm("check", path, "--write", path)
    assert r.returncode == 2 and "is the log itself" in r.stderr and open(path, "rb").read() == before


def test_noise_on_progress_line_is_clean(write):
    lines = [("{" + l[1:]) if l.startswith("[") else l for l in corpus.realistic14()]
    p = bm("check", write("noise.log", lines))
    assert p.returncode == 0, p.stdout
    assert "note:" in p.stdout


def test_exit_statuses(write, tmp_path):
    good = write("good.log", corpus.failing_log())
    assert bm("check", good).returncode == 0
    assert bm("check", good, "--quiet").stdout.strip().endswith("complete and clean")
    p = bm("check", good, str(tmp_path / "missing.log"))
    assert p.returncode == 2 and "cannot read" in p.stderr
    assert bm("check").returncode == 2
    assert bm("check", good, good, "--write", tmp_path / "x").returncode == 2


def test_format1_log_named_once(write):
    """A log of the kit's earlier record format, two boots of it: one message, not one per record."""
    from bmlib.records import frame
    old = []
    for line in corpus.realistic14(hist=False) * 2:
        if line.startswith('{"type":'):
            d = frame.loads(line)
            d.pop("crc")
            d["format"] = 1
            line = frame.dump(d)
        old.append(line)
    p = bm("check", write("format1.log", old))
    assert p.returncode == 1 and p.stdout.count("format 1") == 1, p.stdout


def _mutate(data, rng):
    b = bytearray(data)
    for _ in range(rng.randrange(1, 12)):
        op = rng.randrange(6)
        i = rng.randrange(len(b)) if b else 0
        if op == 0 and b:
            b[i] = rng.randrange(256)
        elif op == 1:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        elif op == 2:
            del b[i:i + rng.randrange(1, 200)]
        elif op == 3:
            j = rng.randrange(len(b)) if b else 0
            b[i:i] = b[j:j + rng.randrange(1, 400)]
        elif op == 4:
            b[i:i] = rng.choice([b"{", b"}", b'"crc":"', b"NaN", b"\r", b"\n", b'{"type":"', b"\x1b["])
        else:
            b = b[:i]
    return bytes(b)


def test_fuzz_library_never_raises():
    rng = random.Random(2024)
    bases = [corpus.text(corpus.realistic14(samples=200)), corpus.text(corpus.failing_log()),
             corpus.text(corpus.hosted_runs())]
    for k in range(1500):
        data = _mutate(rng.choice(bases), rng)
        lg = log.analyze(data, f"fuzz{k}")
        assert isinstance(lg.clean, bool)


def test_fuzz_cli_never_tracebacks(write):
    rng = random.Random(7)
    base = corpus.text(corpus.failing_log())
    paths = [write(f"f{k}.log", _mutate(base, rng)) for k in range(40)]
    p = bm("check", *paths)
    no_crash(p)
    assert p.returncode in (0, 1)
    for sub in (("report",), ("compare", paths[0]), ("plot", "--bench", "crc32", "-o", paths[0] + ".png")):
        q = bm(*sub, *paths[1:3])
        no_crash(q)


def test_fuzz_values_never_raise():
    """Well-formed records (valid CRC) with values of any type in any key: the rules must
    name them, never raise; boots that still pass go through the compare statistics."""
    import json
    from decimal import Decimal
    from bmlib.analysis.compare import compare_bench
    from bmlib.records import frame
    rng = random.Random(5)
    vals = [None, [], {}, "x", -1, 0, 2**64, 2**70, Decimal("1.5"), Decimal("-0.000"), True,
            "NaN", [1, 2], [[1, 2, 3]], {"a": 1}, Decimal("1e30")]

    def edit(d):
        k = rng.choice(list(d))
        if isinstance(d[k], dict) and d[k] and rng.random() < 0.5:
            edit(d[k])
        elif isinstance(d[k], list) and d[k] and rng.random() < 0.5:
            d[k][rng.randrange(len(d[k]))] = rng.choice(vals)
        elif rng.random() < 0.15:
            del d[k]
        else:
            d[k] = rng.choice(vals)
    bases = [corpus.realistic14(samples=120), corpus.failing_log(), corpus.hosted_runs(samples=100)]
    for _ in range(800):
        lines = list(rng.choice(bases))
        for _ in range(rng.randrange(1, 4)):
            i = rng.choice(corpus.record_indexes(lines))
            d = json.loads(lines[i][:lines[i].rfind(',"crc":')] + "}", parse_float=Decimal,
                           parse_constant=lambda s: "NaN")
            edit(d)
            body = frame.dump(d)
            body = body[:body.rfind('"crc":')].replace('"NaN"', "NaN")
            lines[i] = body + '"crc":"' + frame.crc_hex(body.encode()) + '"}'
        lg = log.analyze(corpus.text(lines))
        for bt in lg.boots:
            if bt.clean:
                for b in bt.benches:
                    compare_bench(b.name, [b], [b], ["p50", "mean", "p99"], 0.05)


def test_numbers_and_strings_no_firmware_writes(write):
    """JSON the firmware never writes, with a right CRC: a number in exponent notation (it would
    pass as three decimals, or be a gigabyte of digits), a lone UTF-16 surrogate (no tool could
    print it), an integer -0 (it would pass as 0). Each is a problem of its record, not a crash of a tool."""
    from bmlib.records import frame
    lines = corpus.realistic14(samples=100)
    i = next(k for k, l in enumerate(lines) if '"type":"result"' in l)

    def raw_edit(line, old, new):
        body = line[:line.rfind('"crc":')].replace(old, new, 1)
        assert old in line
        return body + '"crc":"' + frame.crc_hex(body.encode()) + '"}'
    m = frame.loads(lines[i])["min"]
    for old, new, word in ((f'"min":{m}', f'"min":{m.normalize():E}', "exponent notation"),
                           ('"stddev":', '"stddev":1E+999999999,"x":', "exponent notation"),
                           ('"name":"', '"name":"\\ud800', "unpaired UTF-16 surrogate"),
                           ('"cv_ppm":', '"cv_ppm":-0,"y":', "-0 has a sign")):
        bad = list(lines)
        bad[i] = raw_edit(lines[i], old, new)
        for cmd in (("check",), ("report",), ("compare",)):
            args = (write("bad.log", bad),) * (2 if cmd == ("compare",) else 1)
            p = bm(*cmd, *args)
            no_crash(p)
            assert p.returncode in (1, 2), (cmd, p.stdout, p.stderr)
        p = bm("check", write("bad.log", bad))
        assert word in p.stdout and len(p.stdout) < 5000, p.stdout


def test_icount_result_clock_and_windows(write):
    """Under -icount shift=0 every counter of cycles runs at 1 GHz: a result whose cycle_hz
    (and ns figures, consistently) say 2 GHz did not run there. And the end's clock estimate
    must fit the run: its windows inside run_cycles, holding the batches of a run that passed."""
    from bmlib.records import derive
    lines = corpus.realistic14(samples=100)
    i = next(k for k, l in enumerate(lines) if '"type":"result"' in l)

    def two_ghz(d):
        pm, mm = int(d["p50"] * 1000), int(d["mean"] * 1000)
        d.update(cycle_hz=2 * 10**9, p50_ns=derive._milli(derive.muldiv64(pm, 10**9, 2 * 10**9)),
                 mean_ns=derive._milli(derive.muldiv64(mm, 10**9, 2 * 10**9)),
                 ops_per_s=derive.muldiv64(2 * 10**9, 1000, pm) if pm else 0)
    bad = list(lines)
    bad[i] = corpus.resign(lines[i], two_ghz)
    p = bm("check", write("hz.log", bad))
    assert p.returncode == 1 and "runs the cycles counter at 1 GHz" in p.stdout, p.stdout
    e = max(k for k, l in enumerate(lines) if '"type":"end"' in l)
    for edit, word in ((lambda d: d.update(clock_ticks=1), "fewer than the batches"),
                       (lambda d: d.update(clock_ticks=d["clock_ticks"] * 2), "more than the whole run")):
        bad = list(lines)
        bad[e] = corpus.resign(lines[e], edit)
        p = bm("check", write("end.log", bad))
        assert p.returncode == 1 and word in p.stdout, p.stdout


def test_stdin_once(write):
    p = bm("check", "-", "-", input=open(write("a.log", corpus.failing_log())).read())
    assert p.returncode == 2 and "can be read once" in p.stderr


_edit_result = corpus.edit_result


def _problems(lines):
    lg = log.analyze(corpus.text(lines))
    return [p.msg for p in lg.problems]


# (benchmark, edit, the words of the refusal) on the 14-benchmark log, with and without hist records
IMPOSSIBLE = [
    ("below-over-n", "empty", lambda d: d.update(below_overhead=d["n"] + 1),
     "below_overhead = 1001 > n = 1000: it counts some of the n timed batches"),
    ("below-min-above-0", "crc32", lambda d: d.update(below_overhead=1),
     "below_overhead = 1 but min = 11273.000: a batch under the overhead counts 0, so min would be 0"),
    ("warmup-above-cap", "crc32", lambda d: d.update(warmup={"batches": 260, "settled": True}),
     "warmup.batches = 260 is above the warm-up's cap of 256 batches"),
    ("warmup-unsettled-above-cap", "crc32", lambda d: d.update(warmup={"batches": 300, "settled": False}),
     "warmup.batches = 300 is above the warm-up's cap of 256 batches"),
    ("unsettled-below-cap", "crc32", lambda d: d.update(warmup={"batches": 100, "settled": False}),
     "warmup.settled = false after 100 batches: the warm-up ends unsettled only at its cap of 256"),
    ("settled-between-tests", "crc32", lambda d: d.update(warmup={"batches": 13, "settled": True}),
     "warmup.settled = true after 13 batches: settling is tested after 8 batches and every 4"),
]


@pytest.mark.parametrize("hist", [True, False], ids=["hist", "nohist"])
@pytest.mark.parametrize("case,name,edit,words", IMPOSSIBLE, ids=[c[0] for c in IMPOSSIBLE])
def test_impossible_counts_and_warmup_refused(case, name, edit, words, hist):
    """Figures no run of the harness can print (core/run/: bm_account(), warm_up()), each
    refused naming the record and what contradicts what."""
    lines = corpus.realistic14(hist=hist)
    assert _problems(lines) == []
    msgs = _problems(_edit_result(lines, name, edit))
    assert len(msgs) == 1 and f"benchmark {name}: result: " in msgs[0] and words in msgs[0], msgs


def test_possible_counts_and_warmup_accepted():
    """What the harness can print stays accepted: every batch under the overhead (min 0), an
    unsettled warm-up at its cap, settling found at the cap or on a test (every 4 from 8)."""
    lines = corpus.realistic14(hist=False)
    for name, edit in (("empty", lambda d: d.update(below_overhead=d["n"])),
                       ("crc32", lambda d: d.update(warmup={"batches": 256, "settled": False})),
                       ("crc32", lambda d: d.update(warmup={"batches": 256, "settled": True})),
                       ("crc32", lambda d: d.update(warmup={"batches": 12, "settled": True}))):
        assert _problems(_edit_result(lines, name, edit)) == []


def test_saturated_flag_where_nothing_saturates_refused():
    """Without hist records a saturated flag switched off the checks of the moments: at n = 1000
    (nothing saturates below 2^32 + 1 samples) a stddev no 1000 values within min..max can have
    was accepted."""
    lines = corpus.realistic14(hist=False)

    def edit(d):
        d["flags"]["saturated"] = True
        d.update(stddev=(d["max"] - d["min"]) * 10 + 1, ci95=Decimal("0.000"), cv_ppm=0)
        d.pop("noisy", None)   # (its cv is 0 now: not noisy)
    msgs = _problems(_edit_result(lines, "stats_add_random", edit))
    assert len(msgs) == 1 and "benchmark stats_add_random: result: flags.saturated = true, but n = 1000: " \
        "nothing saturates below n = 4294967297" in msgs[0], msgs
    from bmlib.records import rules
    assert rules.SATURABLE_N == 2**32 + 1


def _short_log(raw, iters):
    """A boot without hist records: one benchmark of constant raw batches of iters iterations
    (meta overhead_cycles 3: short_interval below a median batch of 297)."""
    return corpus.write_log([corpus.Bench("edge", [raw] * 100, iters), corpus.Bench("crc32", [11273] * 100)],
                            100, "hardware", hist=False)


@pytest.mark.parametrize("raw,iters,shown", [(296, 1, "296"), (297, 1, "297"), (296, 2000, "295..296"),
                                             (297, 2000, "297..298"), (11273, 1, "11273")])
def test_short_interval_against_p50_without_hist(raw, iters, shown):
    """short_interval is p50 x iters + overhead < 100 x overhead: a flag the printed p50 and the
    meta's overhead contradict is refused, allowing the rounding of p50 (0.001 per iteration)
    and nothing more."""
    lines = _short_log(raw, iters)
    assert _problems(lines) == []
    msgs = _problems(_edit_result(lines, "edge", lambda d: d.update(short_interval=not d["short_interval"])))
    want = "under" if raw < 297 else "at least"
    assert len(msgs) == 1 and f"benchmark edge: result: short_interval = {'false' if raw < 297 else 'true'}" \
        in msgs[0] and f"is a median batch of {shown} cycles" in msgs[0] and f"is {want} 100 x 3" in msgs[0], msgs


def test_short_interval_within_p50_rounding_accepted():
    """With 4000 iterations a p50 of 0.074 is any median batch of 294..297: both flags are
    possible (raw 296 is short, 297 is not), so neither is refused."""
    for raw in (296, 297):
        lines = _short_log(raw, 4000)
        flipped = _edit_result(lines, "edge", lambda d: d.update(short_interval=not d["short_interval"]))
        assert _problems(lines) == [] and _problems(flipped) == []


@pytest.mark.parametrize("hist", [False, True])
def test_short_interval_against_either_overhead(hist):
    """Where benchmark code reads the counters through a trap (meta overhead_user_cycles), a
    result's batches were corrected by that overhead or, a .privileged one's, by overhead_cycles,
    and the result does not say which: a flag either gives is accepted, one neither gives refused."""
    def log(raw):
        lines = corpus.write_log([corpus.Bench("edge", [raw] * 100, 1), corpus.Bench("crc32", [11273] * 100)],
                                 100, "hardware", hist=hist)
        return _edit_meta(lines, lambda d: d.update(overhead_user_cycles=2, overhead_user_cycles_max=2))
    flip = (lambda d: d.update(short_interval=not d["short_interval"]))
    # 296 + 3 is under 100 x 3 (short), 296 + 2 is not under 100 x 2: either flag is possible
    assert _problems(log(296)) == [] and _problems(_edit_result(log(296), "edge", flip)) == []
    # 150 is short against both: false is refused, naming both
    msgs = _problems(_edit_result(log(150), "edge", flip))
    assert len(msgs) == 1 and "benchmark edge: result: short_interval = false" in msgs[0] and \
        "overhead_cycles = 3 (or overhead_user_cycles = 2) is under 100 x 3 (or 2)" in msgs[0], msgs


def test_name_starting_with_a_digit_says_so(write):
    lines = corpus.realistic14(samples=100)
    named = [corpus.resign(l, lambda d: d.update(name="9lives")) if l.startswith("{") and '"name":"crc32"' in l
             else l for l in lines]
    p = bm("check", write("9.log", named))
    assert p.returncode == 1 and 'name = "9lives": a benchmark\'s name is a C identifier: it must not start ' \
        "with a digit" in p.stdout, p.stdout
    odd = [corpus.resign(l, lambda d: d.update(name="odd$name")) if l.startswith("{") and '"name":"crc32"' in l
           else l for l in lines]
    p = bm("check", write("odd.log", odd))
    assert p.returncode == 1 and "use letters, digits and _ only (not '$')" in p.stdout, p.stdout
    esc = [corpus.resign(l, lambda d: d.update(name="a\x1b[2J\u202eb")) if l.startswith("{") and '"name":"crc32"' in l
           else l for l in lines]
    p = bm("check", write("esc.log", esc))
    assert p.returncode == 1 and "(not '\\x1b' '[' '\\u202e')" in p.stdout, p.stdout
    assert '"a\\x1b[2J\\u202eb"' in p.stdout and "\x1b" not in p.stdout and "\u202e" not in p.stdout


def _edit_meta(lines, edit):
    return corpus.edit_record(lines, '{"type":"meta"', edit)


_with_unit = corpus.with_unit


@pytest.mark.parametrize("unit,refused", [("cycles", True), ("cntvct_ticks", False)])
def test_icount_cycles_equal_instructions_only_on_the_core_clock(unit, refused):
    """Under -icount shift=0 a core clock counts one cycle per instruction, so a mean of cycles
    other than insns says the boot ran without -icount; a timer's ticks (a fallback counter such
    as CNTVCT_EL0) run at the timer's rate there too, and are never held to it."""
    lines = _edit_result(corpus.realistic14(samples=100), "crc32", lambda d: d.update(insns=d["insns"] + 1))
    said = [m for m in _problems(_with_unit(lines, unit)) if "cycles is not its" in m]
    assert bool(said) == refused, said


@pytest.mark.parametrize("built_for,unit,ok", [("qemu-icount", "systick_ticks", True), ("hardware", "systick_ticks", False),
                                               ("qemu-icount", "cycles", False)])
def test_tick_insns_only_where_a_tick_is_a_count_of_instructions(built_for, unit, ok):
    """meta tick_insns (core/run/bm_clock.c: one counter step in instructions under -icount) is a
    figure only a qemu-icount build of a counter slower than the core can state."""
    lines = corpus.realistic14(hist=False)
    msgs = _problems(_edit_meta(lines, lambda d: d.update(built_for=built_for, cycle_unit=unit, tick_insns=1)))
    tick = [m for m in msgs if "tick_insns" in m]
    assert (tick == []) if ok else (len(tick) == 1 and "tick_insns = 1:" in tick[0]), msgs
    zero = _problems(_edit_meta(lines, lambda d: d.update(built_for="qemu-icount", cycle_unit=unit, tick_insns=0)))
    assert any("tick_insns" in m for m in zero), zero


def _cold(cold, dep=None, why=None):
    """An edit giving a result the cold figure and the deterministic verdict
    (core/report/bm_report_records.c)."""
    def edit(d):
        d["cold"] = cold
        if dep is not None:
            d["state_dependent"] = dep
        if why is not None:
            d["state_reason"] = why
    return edit


WHY = "the body's work depends on state it changes itself; give it a setup_each that restores its input"
# (built_for, benchmark, edit, the words of the refusal) on the 14-benchmark log (crc32: iters 1,
# every sample 11273)
COLD_IMPOSSIBLE = [
    ("flag-without-reason", "qemu-icount", "crc32", _cold(11273, True),
     "state_dependent = true without a state_reason"),
    ("reason-without-flag", "qemu-icount", "crc32", _cold(11273, False, WHY),
     "state_dependent = false with a state_reason"),
    ("cold-without-verdict", "qemu-icount", "crc32", _cold(11273),
     "cold without state_dependent on a qemu-icount build"),
    ("verdict-on-hardware", "hardware", "crc32", _cold(11273, False),
     'state_dependent on a "hardware" build'),
    ("unflagged-cold-outside-samples", "qemu-icount", "crc32", _cold(20000, False),
     "state_dependent = false, but its cold run (20000) is outside its single-run samples"),
    ("cold-negative", "qemu-icount", "crc32", _cold(-1, False), "cold"),
]


@pytest.mark.parametrize("case,built_for,name,edit,words", COLD_IMPOSSIBLE, ids=[c[0] for c in COLD_IMPOSSIBLE])
def test_impossible_cold_and_verdict_refused(case, built_for, name, edit, words):
    """The cold figure and the state-dependence verdict (docs/records.md): the verdict only from a
    deterministic build, always there with a cold figure, a reason with the flag; at one run a
    sample, a cold run outside the samples (by more than a tick) flagged."""
    lines = corpus.realistic14(hist=False, built_for=built_for)
    assert _problems(lines) == []
    msgs = _problems(_edit_result(lines, name, edit))
    assert len(msgs) == 1 and f"benchmark {name}: " in msgs[0] and words in msgs[0], msgs


def test_possible_cold_and_verdict_accepted():
    """What the harness prints stays accepted: the cold run equal to the samples, or a tick off
    (a timer counter), unflagged; any cold run flagged with its reason; a batched benchmark's cold
    run (not compared with per-iteration figures); the cold figure alone off deterministic builds;
    and a log without cold (older firmware)."""
    det = corpus.realistic14(hist=False)
    for name, edit in (("crc32", _cold(11273, False)), ("crc32", _cold(11274, False)),
                       ("crc32", _cold(20000, True, WHY)), ("sum_merged_loop", _cold(1808, False)),
                       ("empty", _cold(0, False))):
        assert _problems(_edit_result(det, name, edit)) == [], name
    for built_for in ("hardware", "hosted", "qemu"):
        lines = corpus.realistic14(hist=False, built_for=built_for)
        assert _problems(_edit_result(lines, "crc32", _cold(20000))) == []


def test_cold_on_a_failed_result_refused():
    lines = corpus.failing_log()
    i = next(k for k, l in enumerate(lines) if l.startswith('{"type":"result"') and '"status":"trap"' in l)
    msgs = _problems(lines[:i] + [corpus.resign(lines[i], _cold(5))] + lines[i + 1:])
    assert len(msgs) == 1 and "carries figures (cold): only ok does" in msgs[0], msgs


def _edit_end(lines, edit):
    """lines with the end record changed by edit (its CRC made right again)."""
    i = next(k for k, l in enumerate(lines) if l.startswith('{"type":"end"'))
    return lines[:i] + [corpus.resign(lines[i], edit)] + lines[i + 1:]


def flagged14():
    """The 14-benchmark log with crc32 state-dependent (undeclared: the table's ok?), as the
    firmware ends it: the end record counts it and the run's status is 1."""
    det = _edit_result(corpus.realistic14(hist=False), "crc32", _cold(20000, True, WHY))
    return det, _edit_end(det, lambda d: d.update(state_dependent=1, exit_status=1))


def test_state_dependent_fails_the_run():
    """An undeclared state-dependent result fails the run (docs/firmware.md): the end record's
    state_dependent counts the flagged results, and with any the exit status is 1."""
    flagged, good = flagged14()
    assert _problems(good) == []
    msgs = _problems(_edit_end(flagged, lambda d: d.update(state_dependent=1)))
    assert len(msgs) == 1 and "exit_status = 0 but 14 of 14 results are ok, 1 of them state-dependent " \
                               "(expected 1)" in msgs[0], msgs
    msgs = _problems(_edit_end(good, lambda d: d.update(state_dependent=0)))
    assert any("state_dependent = 0 (counted 1)" in m for m in msgs), msgs


def test_declared_carried_state():
    """.carries_state = 1: the record says carries_state, with no verdict (its cold run may differ
    from its samples, as it times runs on its own output on purpose); never with a verdict."""
    def declared(d):
        d["cold"] = 20000
        d["carries_state"] = True
    det = corpus.realistic14(hist=False)
    assert _problems(_edit_result(det, "crc32", declared)) == []
    both = _problems(_edit_result(det, "crc32", lambda d: (declared(d), d.update(state_dependent=False))))
    assert len(both) == 1 and "carries_state with state_dependent" in both[0], both
