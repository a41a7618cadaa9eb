# SPDX-License-Identifier: Apache-2.0
"""Event counts in the records (tools/bmlib/records/events.py): what bm check refuses in the meta record's
"events" and the results' (each record well-formed and CRC'd, only the rules can refuse it), the
cache model's merge into them, and how bm report, compare and plot show them."""
import json
import os
import sys
from decimal import Decimal

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402
from corpus import Bench  # noqa: E402
from conftest import bm, no_crash  # noqa: E402
from bmlib.records import events  # noqa: E402
from bmlib.records import log as logmod  # noqa: E402

D = Decimal
PMU = {"instructions": {"source": "pmu", "raw": 8, "counter": "PMEVCNTR1_EL0"},
       "sw_incr": {"source": "pmu", "raw": 0, "counter": "PMEVCNTR2_EL0"}}
NOPE = {"l1d_miss": "PMCEID0_EL0 bit 3 is clear: this core does not count L1D_CACHE_REFILL (0x03)"}


def fig(mean, p50=None, source="pmu", **more):
    return dict({"mean": D(mean), "p50": D(p50 if p50 is not None else mean), "source": source}, **more)


def lines(counted=None, not_counted=None, res=None, raw=(100,) * 8, built_for="qemu-icount", meta=None,
          names=("alpha", "beta")):
    """One boot of ok benchmarks (insns = mean = 100 under qemu-icount), the meta counting
    `counted` (default the PMU's instructions and sw_incr) and each result carrying `res(name)`
    (default: instructions as the kit's insns, sw_incr 1)."""
    counted = PMU if counted is None else counted
    res = res or (lambda name: {"instructions": fig("100.000"), "sw_incr": fig("1.000")})
    m = dict(meta or {}, events={"counted": counted, "not_counted": NOPE if not_counted is None else not_counted})
    return corpus.write_log([Bench(n, list(raw), extra={"events": res(n)}) for n in names], built_for=built_for,
                            meta=m)


def problems(ls):
    return [p.msg for p in logmod.analyze(corpus.text(ls), "x").problems]


def test_a_run_that_counts_events_is_clean():
    assert problems(lines()) == []
    # none counted, every one named with why: clean too, and results carry no events
    ls = corpus.write_log([Bench("alpha", [100] * 8)], meta={"events": {"counted": {}, "not_counted": NOPE}})
    assert problems(ls) == []


def test_the_names_are_one_list():
    assert len(events.NAMES) == 21 and all(events.NAMES.values())
    assert events.name_list("l1d_miss, branch") == ["l1d_miss", "branch"]
    with pytest.raises(Exception, match="l1d_mis: not an event name"):
        events.name_list("l1d_mis")


def _meta(edit):
    def change(m):
        edit(m)
        return m
    ev = {"counted": json.loads(json.dumps(PMU)), "not_counted": dict(NOPE)}
    return change({"events": ev})


@pytest.mark.parametrize("edit,words", [
    (lambda m: m["events"]["counted"].__setitem__("l1_miss", {"source": "pmu", "raw": 3, "counter": "x"}),
     "events.counted.l1_miss: 'l1_miss' is not an event name"),
    (lambda m: m["events"]["not_counted"].__setitem__("cache_miss", "no"), "events.not_counted.cache_miss: 'cache_miss'"),
    (lambda m: m["events"]["not_counted"].__setitem__("instructions", "no"), "instructions is both counted and not_counted"),
    (lambda m: m["events"]["not_counted"].__setitem__("l1d_miss", ""), "events.not_counted.l1d_miss must be a non-empty"),
    (lambda m: m["events"]["counted"]["sw_incr"].__setitem__("raw", -1), "events.counted.sw_incr.raw = -1"),
    (lambda m: m["events"]["counted"]["sw_incr"].__setitem__("counter", ""), "events.counted.sw_incr.counter must be"),
    (lambda m: m["events"]["counted"]["sw_incr"].__setitem__("source", "guess"), "events.counted.sw_incr.source must be"),
    (lambda m: m["events"]["counted"].__setitem__("page_faults", {"source": "perf", "type": 1}),
     "events.counted.page_faults from perf must hold exactly source, type, config"),
    (lambda m: m["events"]["counted"].__setitem__("l1d_access", {"source": "model"}),
     "events.counted.l1d_access: counted by the cache model, but the meta record has no \"model\""),
    (lambda m: m["events"].pop("not_counted"), "events must be an object with exactly counted and not_counted"),
])
def test_impossible_meta_events_are_refused(edit, words):
    errs = events.meta_problems(_meta(edit))
    assert any(words in e for e in errs), errs


def test_perf_and_model_entries_are_accepted():
    m = _meta(lambda m: m["events"]["counted"].update(
        page_faults={"source": "perf", "type": 1, "config": 2}, l1d_access={"source": "model"}))
    assert events.meta_problems(dict(m, model={"l1d": {}})) == []


def _res(**over):
    """A result of the default boot with its events edited: name -> figures (None drops it)."""
    def res(name):
        ev = {"instructions": fig("100.000"), "sw_incr": fig("1.000")}
        for k, v in over.items():
            if v is None:
                ev.pop(k)
            else:
                ev[k] = v
        return ev
    return res


MISS = {k: {"source": "pmu", "raw": i, "counter": f"PMEVCNTR{i}_EL0"} for i, k in enumerate(
    ("l1d_access", "l1d_miss", "l1i_access", "l1i_miss", "l2_access", "l2_miss", "branch", "branch_miss"))}


@pytest.mark.parametrize("counted,res,words", [
    (None, _res(branch=fig("3.000")), "events.branch is not in the meta record's events.counted"),
    (None, _res(sw_incr=None), "events: sw_incr missing (the meta record's events.counted has it"),
    (None, _res(sw_incr=fig("1.000", source="perf")), "events.sw_incr.source = 'perf', but the meta record counts "
                                                      "it from 'pmu'"),
    (None, _res(sw_incr=fig("1.0001")), "events.sw_incr.mean = 1.0001: at most 3 places"),
    (None, _res(sw_incr=fig("-1.000")), "events.sw_incr.mean = -1.000 is negative"),
    (None, _res(sw_incr={"mean": "1", "p50": D(1), "source": "pmu"}), "events.sw_incr.mean must be a decimal"),
    (None, _res(sw_incr=fig("1.000", below=0)), "events.sw_incr.below = 0: a count >= 1"),
    (None, _res(sw_incr=fig("1.000", below=9)), "events.sw_incr.below = 9 > n = 8"),
    (None, _res(sw_incr=fig("1.000", max=D(1))), "events.sw_incr must hold mean, p50 and source"),
    (None, _res(sw_incr=fig("1.000", p50_bound_ppm=0)), "events.sw_incr.p50_bound_ppm = 0: 1 .. 4294967295"),
    (None, _res(cache=fig("1.000")), "events.cache: 'cache' is not an event name"),
    (None, _res(sw_incr=fig("1.000", source="model")), "events.sw_incr is from the cache model, but the meta "
                                                       "record has no \"model\""),
    (None, _res(instructions=fig("101.000")), "counted instructions 101.000 differ from the kit's instruction "
                                              "figure 100.000 (insns) under -icount"),
])
def test_impossible_result_events_are_refused(counted, res, words):
    errs = problems(lines(counted, res=res))
    assert any(words in e for e in errs), errs


@pytest.mark.parametrize("part,whole", events.SUBSETS)
def test_more_misses_than_accesses_are_refused(part, whole):
    """In the median sample; a mean may hold the counter reads' own misses (net of their accesses)."""
    ev = {n: fig("4.000") for n in MISS}
    ev[part] = fig("4.000", "5.000")
    errs = problems(lines(MISS, {}, res=lambda name: ev))
    assert any(f"events.{part}.p50 = 5.000 > events.{whole}.p50 = 4.000" in e for e in errs), errs
    ev[part] = fig("4.004", "4.000")
    assert problems(lines(MISS, {}, res=lambda name: ev)) == []


def test_below_and_a_bounded_p50_are_accepted():
    assert problems(lines(res=_res(sw_incr=fig("1.000", below=2, p50_bound_ppm=7968)))) == []


def test_compare_knows_a_bounded_p50_to_its_bin(write):
    """A p50 held in a histogram bin (p50_bound_ppm): deterministic runs whose p50s lie within
    each other's bounds are ~, not a change; the exact means still are."""
    a = write("a.log", lines(res=_res(sw_incr=fig("1000.000", p50_bound_ppm=7968))))
    b = write("b.log", lines(res=_res(sw_incr=fig("1004.000", p50_bound_ppm=7968))))
    js = json.loads(bm("compare", "--format", "json", "--events", "sw_incr", a, b).stdout)
    got = {r["metric"]: (r["verdict"], r["why"]) for r in js if r["benchmark"] == "alpha"}
    assert got["sw_incr.p50"] == ("~", "within the histogram's resolution") and got["sw_incr.mean"][0] == "more"


def test_instructions_need_not_match_without_icount():
    # (host time: the kit's insns and the PMU's count are read at different moments)
    assert problems(lines(res=_res(instructions=fig("101.000")), built_for="qemu")) == []


def test_a_failed_result_carries_no_events():
    ls = corpus.write_log([Bench("alpha", [100] * 8, extra={"events": {"instructions": fig("100.000")}}),
                           Bench("beta", status="fail", reason="verify failed", phase="verify")],
                          meta={"events": {"counted": {"instructions": PMU["instructions"]}, "not_counted": {}}})
    assert problems(ls) == []
    ls = [corpus.resign(ln, lambda d: d.update(events={"instructions": fig("1.000")}))
          if '"status":"fail"' in ln else ln for ln in ls]
    errs = problems(ls)
    assert any("a fail result carries figures (events)" in e for e in errs), errs


@pytest.fixture
def logs(write):
    """A: the default boot; B: sw_incr doubled and l1d_access modelled (a run under bm run --model)."""
    model_meta = {"model": {"l1d": {"size_bytes": 32768, "ways": 4, "line_bytes": 64},
                            "l1i": {"size_bytes": 32768, "ways": 4, "line_bytes": 64}, "l2": None}}
    b = lines(dict(PMU, l1d_access={"source": "model"}), meta=model_meta,
              res=_res(sw_incr=fig("2.000"), l1d_access=fig("7.500", "7.000", source="model")))
    return write("a.log", lines()), write("b.log", b)


def test_report_shows_events_with_their_source_and_what_was_not_counted(logs):
    p = bm("report", *logs)
    no_crash(p)
    assert p.returncode == 0, p.stderr
    table = p.stdout.split("events per iteration")[1]
    rows = [ln.split() for ln in table.splitlines()[2:] if ln.strip() and not ln.startswith(("not", "  "))]
    assert ["b.log", "alpha", "l1d_access", "modelled", "7.5", "7", "-"] in rows, table
    assert ["a.log", "beta", "sw_incr", "pmu", "1", "1", "-"] in rows and len(rows) == 10, table
    assert "not counted:\n  l1d_miss: PMCEID0_EL0 bit 3 is clear" in p.stdout
    csv = bm("report", "--format", "csv", logs[1]).stdout.splitlines()
    assert csv[0].endswith("l1d_access.mean,l1d_access.p50,l1d_access.source")
    assert csv[1].endswith(",100.000,100.000,pmu,2.000,2.000,pmu,7.500,7.000,model"), csv
    rows = json.loads(bm("report", "--format", "json", logs[1]).stdout)
    assert rows[0]["events"]["l1d_access"] == {"mean": 7.5, "p50": 7, "source": "model"}
    assert rows[0]["events_not_counted"] == NOPE
    merged = bm("report", "--merge", *logs).stdout.split("events per iteration")[1]
    assert ["alpha", "sw_incr", "pmu", "1.5", "1.5", "2"] in [ln.split() for ln in merged.splitlines()], merged


def test_compare_tests_event_figures_like_the_others(logs):
    p = bm("compare", *logs)
    no_crash(p)
    assert p.returncode == 0, p.stderr
    got = {(r["benchmark"], r["metric"]): r["verdict"] for r in json.loads(bm("compare", "--format", "json", *logs).stdout)}
    # deterministic (qemu-icount) runs: a difference is a change; l1d_access only in B: not compared
    assert {m: v for (b, m), v in got.items() if b == "alpha" and "." in m} == {
        "instructions.mean": "same", "instructions.p50": "same", "sw_incr.mean": "more", "sw_incr.p50": "more"}, got
    assert "sw_incr.mean                1           2  +1 (+100.00%)" in p.stdout
    assert "l1d_access" not in p.stdout and "NAME.mean, NAME.p50: an event count" in p.stdout
    js = json.loads(bm("compare", "--format", "json", "--events", "sw_incr", *logs).stdout)
    ev = [r for r in js if r["metric"].startswith("sw_incr")]
    assert [(r["metric"], r["a"], r["b"], r["verdict"], r["test"]) for r in ev if r["benchmark"] == "beta"] == \
        [("sw_incr.mean", 1, 2, "more", "exact"), ("sw_incr.p50", 1, 2, "more", "exact")]
    assert not [r for r in js if r["metric"].startswith("instructions")]
    # one run per side of host time: an event figure has no test; it moved, so "?"
    a, b = (lines(built_for="qemu", res=r) for r in (None, _res(sw_incr=fig("2.000"))))
    qa, qb = (logs[0].replace("a.log", n) for n in ("qa.log", "qb.log"))
    for path, ls in ((qa, a), (qb, b)):
        open(path, "wb").write(corpus.text(ls))
    out = bm("compare", qa, qb).stdout
    assert "alpha sw_incr.mean ?: an event's figure of one run per side has no distribution" in out, out


def test_an_event_one_side_lacks_is_said(tmp_path):
    """--events NAME that one side does not count: a row that says so, with the meta's reason,
    and a warning; never dropped silently. Without --events: a warning."""
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_bytes(corpus.text(lines()))
    b.write_bytes(corpus.text(lines(counted={"instructions": PMU["instructions"]},
                                    not_counted=dict(NOPE, sw_incr="no such counter here"),
                                    res=lambda name: {"instructions": fig("100.000")})))
    p = bm("compare", a, b, "--events", "sw_incr", "--format", "json")
    r = {(x["benchmark"], x["metric"]): x for x in json.loads(p.stdout)}
    assert r[("alpha", "sw_incr.mean")]["verdict"] == "missing", p.stdout
    assert "B does not count it (no such counter here)" in r[("alpha", "sw_incr.mean")]["why"]
    assert "alpha: --events sw_incr: B does not count it" in p.stderr
    assert "sw_incr is counted in A only" in bm("compare", a, b).stderr


@pytest.mark.parametrize("cmd", [["compare", "--events", "l1d_mis"], ["plot", "--bench", "alpha", "-o", "x.png",
                                                                     "--event", "l1d_mis"]])
def test_bad_event_names_are_refused(logs, cmd):
    p = bm(*cmd, *logs)
    assert p.returncode == 2 and "l1d_mis: not an event name; the events are instructions, cycles" in p.stderr, \
        p.stderr


def test_plot_an_event(logs, tmp_path):
    out = tmp_path / "ev.png"
    p = bm("plot", *logs, "--bench", "alpha", "--event", "sw_incr", "-o", out)
    no_crash(p)
    assert p.returncode == 0 and out.read_bytes()[:4] == b"\x89PNG" and "(sw_incr, 2 runs)" in p.stderr, p.stderr
    p = bm("plot", *logs, "--bench", "alpha", "--event", "l1d_miss", "-o", out)
    assert p.returncode == 2, p.stderr
    assert "a.log: l1d_miss not counted: PMCEID0_EL0 bit 3 is clear" in p.stderr
    assert "nothing to plot: no run counts l1d_miss for alpha" in p.stderr
    p = bm("plot", *logs, "--bench", "alpha", "--event", "l1d_access", "-o", tmp_path / "m.svg")
    assert p.returncode == 0 and "a.log: l1d_access not counted (not in -DBM_EVENTS)" in p.stderr, p.stderr
    assert "modelled" in (tmp_path / "m.svg").read_text()


def test_records_md_names_the_events_of_the_one_list():
    from test_docs import documented_keys
    row = documented_keys()["result"]["events"]
    import re
    listed = re.search(r"each with its meaning: ([^)]*)\)", row).group(1)
    assert re.findall(r"`(\w+)`", listed) == list(events.NAMES)
