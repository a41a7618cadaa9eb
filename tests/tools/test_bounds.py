# SPDX-License-Identifier: Apache-2.0
"""Records that are well-formed, CRC'd and impossible (tools/bmlib/records/bounds.py): an ok
result's figures against the run that holds them: a batch longer than the run, a cold run
longer than the run or far from what its samples say one run costs, means no batch could hold,
misses above accesses in every batch, counted cycles or modelled fetches other than what -icount
makes exact, CPU time beyond the run, a counter's step its rate contradicts, a result's compile
line equal to the image's. Each is refused by bm check, and so by bm history add; what the
firmware prints stays accepted."""
from decimal import Decimal

import pytest

import corpus
from conftest import bm, no_crash
from history_git import git
from bmlib.records import log

D = Decimal


def _edit_end(lines, edit):
    return corpus.edit_record(lines, '{"type":"end"', edit)


def _edit_meta(lines, edit):
    return corpus.edit_record(lines, '{"type":"meta"', edit)


_edit_result, _with_unit = corpus.edit_result, corpus.with_unit


def _problems(lines):
    return [p.msg for p in log.analyze(corpus.text(lines)).problems]


def _ev(counted, res, built_for="qemu-icount", meta=None):
    """A two-benchmark boot (every sample 100 cycles, insns 100) counting `counted` events whose
    results carry res: name -> figures."""
    m = dict(meta or {}, events={"counted": counted, "not_counted": {}})
    b = [corpus.Bench(n, [100] * 8, extra={"events": dict(res)}) for n in ("alpha", "beta")]
    return corpus.write_log(b, built_for=built_for, meta=m)


def fig(mean, p50=None, source="pmu"):
    return {"mean": D(mean), "p50": D(p50 if p50 is not None else mean), "source": source}


PMU2 = {"l1d_access": {"source": "pmu", "raw": 4, "counter": "PMEVCNTR1_EL0"},
        "l1d_miss": {"source": "pmu", "raw": 3, "counter": "PMEVCNTR2_EL0"}}
CYC = {"cycles": {"source": "pmu", "raw": 2, "counter": "mhpmcounter3"}}
TASK = {"task_clock_ns": {"source": "perf", "type": 1, "config": 1}}
MODEL = {"l1i_access": {"source": "model"}, "l1i_miss": {"source": "model"}}
GEOMETRY = {"model": {"l1d": {"size_bytes": 32768, "ways": 4, "line_bytes": 64},
                      "l1i": {"size_bytes": 32768, "ways": 4, "line_bytes": 64}, "l2": None}}
BIG = D("18446744073709551.615")   # 1.8e19 in thousandths: the largest a u64 of milli-figures holds

# (case, lines, the words of the refusal)
IMPOSSIBLE = [
    ("misses-above-accesses-in-the-mean", _ev(PMU2, {"l1d_access": fig("4.000"), "l1d_miss": fig("9.000", "4.000")}),
     "events.l1d_miss.mean = 9.000 > events.l1d_access.mean = 4.000 by a miss or more a batch"),
    ("pmu-cycles-other-than-cycles", _ev(CYC, {"cycles": fig("97.000")}),
     "events.cycles: counted cycles 97.000 differ from the kit's cycles 100.000 (mean) under -icount"),
    ("task-clock-beyond-the-run", _ev(TASK, {"task_clock_ns": fig(BIG, "20.000", "perf")}, built_for="hosted"),
     "events.task_clock_ns.mean = 18446744073709551.615 x iters = 1 is more CPU time a batch than the whole run"),
    ("model-fetches-other-than-insns", _ev(MODEL, {"l1i_access": fig("90.000", source="model"),
                                                  "l1i_miss": fig("1.000", source="model")},
                                           meta=dict(GEOMETRY, isa="rv64imac")),
     "events.l1i_access = 90.000 (modelled) differs from the 100.000 instructions (insns)"),
    ("p50-1.8e19-without-hist", _edit_result(corpus.realistic14(hist=False), "crc32", lambda d: d.update(
        {k: BIG for k in ("p50", "p90", "p99", "p999", "max")})),
     "max = 18446744073709551.615 per iteration x iters = 1"),
    ("mean-beyond-every-batch", _edit_end(corpus.write_log([corpus.Bench("crc32", [99000] * 1000)], hist=False),
                                          lambda d: d.update(body_cycles=85000000, run_cycles=90000000)),
     "body_cycles = 85000000, fewer than the timed samples of the results add up to (98999999"),
    ("cold-above-the-run", _edit_result(corpus.realistic14(hist=False), "crc32", lambda d: d.update(
        cold=11936128518282651040, state_dependent=True, state_reason="x")),
     "cold = 11936128518282651040: its one run of the body is longer than the whole run"),
    ("cold-far-outside-at-iters-2", _edit_result(corpus.realistic14(hist=False), "sum_merged_loop", lambda d: d.update(
        cold=9000, state_dependent=False)),
     "state_dependent = false at iters 2, but its cold run (9000) is outside what one run of the body can cost"),
    ("tick-insns-against-the-clock", _edit_meta(corpus.realistic14(hist=False), lambda d: d.update(
        cycle_unit="systick_ticks", tick_insns=40)),
     "tick_insns = 40, but the counter ran at 1000000000 Hz (end cycle_hz): one step is 1.0 instructions"),
    ("result-cflags-equal-to-meta", _edit_result(corpus.realistic14(hist=False), "crc32", lambda d: d.update(
        cflags="-march=rv64imac_zicsr -O2")),
     "cflags is the meta record's: a result carries its own compile line only when it differs"),
]


@pytest.mark.parametrize("case,lines,words", IMPOSSIBLE, ids=[c[0] for c in IMPOSSIBLE])
def test_impossible_records_are_refused(case, lines, words):
    msgs = _problems(lines)
    assert any(words in m for m in msgs), msgs


POSSIBLE = [
    # the overhead's own miss in a few samples (under a 2 KiB model, `empty`: 0.004 for 0 accesses)
    ("a-few-samples-miss-the-reads-lines", _ev(PMU2, {"l1d_access": fig("0.000"), "l1d_miss": fig("0.004", "0.000")})),
    ("pmu-cycles-equal", _ev(CYC, {"cycles": fig("100.000")})),
    ("pmu-cycles-on-hardware", _ev(CYC, {"cycles": fig("97.000")}, built_for="hardware")),
    ("task-clock-within-the-run", _ev(TASK, {"task_clock_ns": fig("130.000", "120.000", "perf")}, built_for="hosted")),
    ("model-fetches-equal", _ev(MODEL, {"l1i_access": fig("100.000", source="model"),
                                       "l1i_miss": fig("1.000", source="model")}, meta=dict(GEOMETRY, isa="rv64imac"))),
    ("tick-insns-at-25-mhz", _edit_end(_edit_meta(_with_unit(corpus.write_log([corpus.Bench("crc32", [11273] * 1000)]),
                                                         "systick_ticks"), lambda d: d.update(tick_insns=40)),
                                        lambda d: d.update(cycle_hz=25000000, clock_ticks=35000000))),
    ("cold-a-few-cycles-off-at-iters-2", _edit_result(corpus.realistic14(hist=False), "sum_merged_loop",
                                                      lambda d: d.update(cold=1808, state_dependent=False))),
    # (the compiler hoisted most of the body out of the batch loop: a lone run pays it all)
    ("cold-a-whole-batch-at-iters-2", _edit_result(corpus.realistic14(hist=False), "sum_merged_loop",
                                                   lambda d: d.update(cold=3611, state_dependent=False))),
    ("result-cflags-of-its-own", _edit_result(corpus.realistic14(hist=False), "crc32",
                                              lambda d: d.update(cflags="-march=rv64imac_zicsr -O2 -Wno-error"))),
]


@pytest.mark.parametrize("case,lines", POSSIBLE, ids=[c[0] for c in POSSIBLE])
def test_what_the_firmware_prints_is_accepted(case, lines):
    # (figures of a run: realistic14's sum_merged_loop is 1805.5 per iteration at iters 2, a lone
    # run measured 1808 on qemu-virt-riscv64: its call and reads, not the batch's)
    assert _problems(lines) == []


def test_history_add_refuses_what_check_refuses(write, tmp_path):
    """bm history add stores nothing of a log bm check refuses: the p50 of 1.8e19 a hist-less log
    could carry is not stored as a +460362966651099328% change."""
    db = tmp_path / "h.sqlite"
    repo = tmp_path / "proj"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "f").write_text("x\n")
    git(repo, "add", "f")
    git(repo, "commit", "-q", "-m", "one")
    good = write("good.log", corpus.realistic14(hist=False))
    bad = write("bad.log", IMPOSSIBLE[4][1])
    p = bm("history", "add", "--db", db, good, "--revision", "HEAD", cwd=repo)
    no_crash(p)
    assert p.returncode == 0, p.stderr
    q = bm("history", "add", "--db", db, bad, "--revision", "HEAD", cwd=repo)
    no_crash(q)
    assert q.returncode == 1 and "refused, nothing of it stored" in q.stderr and "max = 18446744073709551.615" in q.stderr
    r = bm("history", "list", "--db", db, cwd=repo)
    assert r.stdout.count("qemu-virt-riscv64") == 1, r.stdout
    c = bm("check", bad)
    assert c.returncode == 1 and "max = 18446744073709551.615" in c.stdout + c.stderr
