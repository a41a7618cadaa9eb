# SPDX-License-Identifier: Apache-2.0
"""bm compare on constructed data with known answers: identical runs, a clear 10% shift
(one run per side and several), a one-instruction change in deterministic QEMU (exact, no
test statistic), the gate's exit statuses, non-comparable runs refused, few-runs warnings.
Also bm report's formats and bm plot's files."""
import decimal
import json
import random
import re

import corpus
import subprocess

from conftest import BM, PY, bm, no_crash


def icount_log(extra=0, seed=1):
    """Deterministic QEMU: constant benchmarks, one with spread; `extra` instructions added
    per iteration of known_loop."""
    rng = random.Random(seed)
    b = [corpus.Bench("known_loop", [2001 + extra] * 300, extra={"expect_insns": 2001}),
         corpus.Bench("crc32", [11273] * 300),
         corpus.Bench("stats_add_random", [67 + int(rng.expovariate(1 / 80)) for _ in range(300)])]
    return corpus.write_log(b, 300, "qemu-icount")


def rows(p):
    return {(r["benchmark"], r.get("metric")): r for r in json.loads(p.stdout)}


def test_identical_runs_are_not_different(write):
    a = write("a.log", corpus.hosted_runs(seed=1))
    p = bm("compare", a, a, "--format", "json", "--gate", "p99:+0%", "--gate", "mean:+0%")
    assert p.returncode == 0, p.stderr
    r = rows(p)
    assert {x["verdict"] for x in r.values()} == {"~"}
    assert all(x["delta"] == 0 for x in r.values())


def test_ten_percent_shift_is_significant(write):
    a = write("a.log", corpus.hosted_runs(1.0, seed=1))
    b = write("b.log", corpus.hosted_runs(1.10, seed=2))
    p = bm("compare", a, b, "--format", "json")
    assert p.returncode == 0
    r = rows(p)
    for name in ("crc32", "memcpy_4k"):
        x = r[(name, "p50")]
        assert x["verdict"] == "slower" and x["test"] == "order-statistic interval"
        assert 0.07 < x["rel"] < 0.13 and x["ci_low"] > 0
        assert x["cliff_delta"] > 0.9 and x["cohen_d"] > 2
    assert "one run per side" in p.stderr
    q = bm("compare", b, a, "--format", "json")
    r = rows(q)
    assert {x["verdict"] for k, x in r.items() if k[1] != "p99"} == {"faster"}
    # 300 samples a side are too few for an interval of P99 (437 are needed at alpha 0.05):
    # its change is shown, untested, and a gate on it cannot pass
    assert {r[(n, "p99")]["verdict"] for n in ("crc32", "memcpy_4k")} == {"?"}
    assert "p99 needs 437 samples on each side" in r[("crc32", "p99")]["why"]
    big = [write(f"{s}.log", corpus.hosted_runs(f, seed=s, samples=600)) for s, f in ((1, 1.0), (2, 1.10))]
    assert {x["verdict"] for x in rows(bm("compare", *big, "--format", "json")).values()} == {"slower"}


def test_several_runs_per_side(write):
    a = [write(f"a{i}.log", corpus.hosted_runs(1.0, seed=10 + i)) for i in range(5)]
    # Each run's p50 is a histogram bin's representative (bins ~1.5% wide here, as the
    # firmware's): runs can share a bin, and with ties the rank test is not the exact one
    # (its smallest p, 2/252), so the sides are 6% apart and p is only asked to be small.
    b = [write(f"b{i}.log", corpus.hosted_runs(1.06, seed=20 + i)) for i in range(5)]
    p = bm("compare", "-a", *a, "-b", *b, "--format", "json")
    r = rows(p)
    x = r[("crc32", "p50")]
    assert x["test"] == "mann-whitney U (runs)" and x["runs_a"] == 5 and x["verdict"] == "slower"
    assert x["p"] < 0.015
    same = bm("compare", "-a", *a[:3], "-b", *a[3:], "--format", "json")
    # 3 vs 2 runs can never be significant: a figure that moved is untested ("?"), not "~"
    assert {x["verdict"] for x in rows(same).values()} <= {"~", "?"}
    assert all("cannot go below p = 0.2" in x["why"] for x in rows(same).values() if x["verdict"] == "?")
    assert "smallest p-value" in same.stderr


def test_deterministic_one_instruction_is_exact(write):
    a = write("a.log", icount_log(0))
    b = write("b.log", icount_log(1))
    p = bm("compare", a, b, "--format", "json")
    r = rows(p)
    k = r[("known_loop", "p50")]
    assert k["mode"] == "exact" and k["p"] is None and k["verdict"] == "slower" and k["delta"] == 1
    assert r[("known_loop", "mean")]["delta"] == 1
    assert {r[("crc32", m)]["verdict"] for m in ("p50", "mean", "p99")} == {"same"}
    # (its P50 is a histogram bin's: identical bins on both sides show no change, but cannot show "same")
    assert r[("stats_add_random", "p50")]["verdict"] == "~" and "resolution" in r[("stats_add_random", "p50")]["why"]
    t = bm("compare", a, b)
    assert "exact" in t.stdout and "slower" in t.stdout
    assert bm("compare", a, b, "--gate", "p50:+0%").returncode == 1
    assert bm("compare", a, b, "--gate", "p50:+1%").returncode == 0       # 0.05% is under 1%
    assert bm("compare", a, b, "--gate", "mean:+0.5").returncode == 1     # absolute: 1 > 0.5
    assert bm("compare", b, a, "--gate", "p50:+0%").returncode == 0       # faster passes
    assert bm("compare", a, a, "--gate", "p50:+0%").returncode == 0


def test_gate_exit_statuses(write):
    a = write("a.log", corpus.hosted_runs(1.0, seed=1))
    b = write("b.log", corpus.hosted_runs(1.10, seed=2))
    p = bm("compare", a, b, "--gate", "p99:+5%")
    assert p.returncode == 1 and "gate failed: crc32: p99" in p.stderr
    assert bm("compare", a, b, "--gate", "p50:+20%").returncode == 0
    assert bm("compare", b, a, "--gate", "p50:+1%").returncode == 0
    assert bm("compare", a, a, "--gate", "p99:+5%").returncode == 0
    bad = bm("compare", a, b, "--gate", "p99:5 percent")
    assert bad.returncode == 2 and "bad --gate" in bad.stderr


def test_broken_benchmark_fails_the_gate(write):
    ok = [corpus.Bench("x", [100] * 50), corpus.Bench("y", [200] * 50)]
    broken = [corpus.Bench("x", [100] * 50), corpus.Bench("y", status="trap", reason="bad", phase="samples",
                                                           trap={"cause": "c", "pc": "0x1", "code": "0x2"})]
    a = write("a.log", corpus.write_log(ok, 50))
    b = write("b.log", corpus.write_log(broken, 50))
    p = bm("compare", a, b, "--gate", "p99:+5%")
    assert p.returncode == 1 and "y: is not ok in B" in p.stderr and "broken" in p.stdout


def test_missing_benchmark_fails_the_gate(write):
    """A benchmark in A that B does not have cannot pass a gate; --bench leaves it out."""
    a = write("a.log", corpus.write_log([corpus.Bench("x", [100] * 50), corpus.Bench("y", [200] * 50)], 50))
    b = write("b.log", corpus.write_log([corpus.Bench("x", [100] * 50)], 50))
    p = bm("compare", a, b, "--gate", "p50:+0%")
    assert p.returncode == 1 and "y: is in A but not in B" in p.stderr and "only in A" in p.stdout
    assert bm("compare", a, b, "--gate", "p50:+0%", "--bench", "^x$").returncode == 0
    assert bm("compare", b, a, "--gate", "p50:+0%").returncode == 0     # new in B: nothing regressed


def test_state_dependent_fails_the_gate(write):
    """A result that times runs on its own output (state_dependent, undeclared) is no baseline and
    no result a gate can pass, even compared with itself."""
    import test_check
    _, flagged = test_check.flagged14()
    a = write("a.log", flagged)
    p = bm("compare", a, a, "--gate", "p50:+5%")
    assert p.returncode == 1, p.stderr
    assert "gate failed: crc32: is state-dependent (ok?) in 1 of 1 runs of A and 1 of 1 runs of B" in p.stderr
    assert bm("compare", a, a, "--gate", "p50:+5%", "--bench", "^empty$").returncode == 0


def test_not_comparable_is_refused(write):
    a = write("a.log", corpus.hosted_runs(seed=1))
    b = write("b.log", corpus.realistic14(samples=300))
    p = bm("compare", a, b)
    assert p.returncode == 2
    for key in ("board", "cycle_unit", "isa", "built_for"):
        assert key in p.stderr
    q = bm("compare", a, b, "--force")
    assert q.returncode == 0 and "only in" in q.stdout


def test_different_kit_versions_are_warned(write):
    """Two kit versions may measure differently (harness, overhead subtraction, statistics): a
    comparison across them says so, and so does a side that mixes them; one version is silent."""
    a = write("a.log", icount_log())
    b = write("b.log", corpus.write_log([corpus.Bench("known_loop", [2001] * 300)], 300,
                                         meta={"kit_version": "0.3.0"}))
    p = bm("compare", a, b)
    assert p.returncode == 0, p.stderr
    assert "different kit versions (0.2.0 vs 0.3.0)" in p.stderr
    q = bm("compare", a, a)
    assert "kit version" not in q.stderr and "mixes builds" not in q.stderr
    r = bm("compare", "-a", a, b, "-b", a)
    assert "side A mixes builds: its runs differ in kit_version" in r.stderr, r.stderr
    assert "different kit versions (0.2.0/0.3.0 vs 0.2.0)" in r.stderr


def test_what_differs_besides_the_code_is_named(write):
    """A change between sides that differ in iters (the compiler may hoist work out of a batch
    loop), in the kit (a version, or the same version from other sources) or in the build is
    named with the benchmarks it touched: never left to read as the code's."""
    a = write("a.log", corpus.write_log([corpus.Bench("s", [3765] * 300, iters=2)], 300))
    b = write("b.log", corpus.write_log([corpus.Bench("s", [1887] * 300, iters=1)], 300))
    p = bm("compare", a, b, "--format", "json")
    r = rows(p)[("s", "p50")]
    assert r["verdict"] == "slower" and "iters 2 in A, 1 in B" in r["cause"], r
    assert "s: iters 2 in A, 1 in B: figures per iteration of different batches" in p.stderr
    assert "s: iters 2 in A, 1 in B" in bm("compare", a, b).stdout
    # the same kit version built from another commit: the kit's change, named on the rows it moved
    c = write("c.log", corpus.write_log([corpus.Bench("s", [3765] * 300, iters=2)], 300))
    d = write("d.log", corpus.write_log([corpus.Bench("s", [3763] * 300, iters=2)], 300,
                                         meta={"kit_vcs": "0123456789ab"}))
    p = bm("compare", c, d, "--format", "json")
    r = rows(p)[("s", "p50")]
    assert r["verdict"] == "faster" and "the kit differs (kit_vcs" in r["cause"], r
    assert "kits built from different sources (kit_vcs" in p.stderr and "not your code's" in p.stderr
    e = write("e.log", corpus.write_log([corpus.Bench("s", [3765] * 300, iters=2)], 300, meta={"cflags": "-O3"}))
    p = bm("compare", c, e)
    assert "A and B were built differently (cflags" in p.stderr and "kit" not in p.stderr, p.stderr
    assert "kit" not in bm("compare", c, c).stderr


def test_usage_errors(write):
    a = write("a.log", corpus.hosted_runs(seed=1))
    for args in (("compare", a), ("compare", a, a, "-a", a), ("compare", a, a, "--metric", "p42"),
                 ("compare", a, a, "--alpha", "2"), ("compare", a, a, "--bench", "(")):
        p = bm(*args)
        assert p.returncode == 2, args
        no_crash(p)


def test_report_formats(write):
    a = write("a.log", corpus.failing_log())
    t = bm("report", a)
    assert t.returncode == 0 and "trap: illegal instruction" in t.stdout and "cycles" in t.stdout
    c = bm("report", a, "--format", "csv")
    assert c.stdout.splitlines()[0].startswith("run,benchmark,status,unit")
    m = bm("report", a, "--format", "markdown")
    assert m.stdout.startswith("| ") and "|---|" in m.stdout
    a2 = write("a2.log", corpus.failing_log())    # (deterministic QEMU: a second run is this one again)
    j = json.loads(bm("report", a, a2, "--format", "json").stdout)
    assert len(j) == 10 and j[0]["p50"] == 2056
    g = bm("report", "--merge", a, a2)
    assert g.returncode == 0 and "0.00%" in g.stdout
    assert bm("report", a, a).returncode == 2        # one file twice is not two runs


def test_report_marks_and_refuses_mixed_merges(write):
    """An unstable or saturated result is marked, as the firmware's table marks it; a median
    over runs of different boards or units is refused."""
    lines = corpus.hosted_runs(seed=1, tail=0.03)     # (samples spread enough for a drift of 6%)
    i = next(k for k, l in enumerate(lines) if '"type":"result"' in l and '"crc32"' in l)
    marked = list(lines)
    marked[i] = corpus.resign(lines[i], lambda d: d.update(drift_ppm=60000, unstable=True))
    m = write("m.log", marked)
    t = bm("report", m)
    assert t.returncode == 0 and "ok~" in t.stdout and "drift_ppm over 50,000" in t.stderr
    short = corpus.realistic14(samples=300)                # its `empty` is short_interval
    k = next(k for k, l in enumerate(short) if '"name":"empty","status"' in l)
    assert '"short_interval":true' in short[k]
    s = bm("report", write("s.log", short))
    assert s.returncode == 0 and re.search(r"^empty +ok\* ", s.stdout, re.M) and "ok*: the median batch is under 100x" in s.stderr
    assert "ok~" in bm("report", "--merge", m, write("h.log", lines)).stdout
    c = bm("compare", write("h2.log", lines), m)
    assert c.returncode == 0 and "crc32: unstable in 1 of 1 run(s) of B" in c.stderr
    mixed = bm("report", "--merge", write("a.log", lines), write("r.log", corpus.realistic14(samples=300)))
    assert mixed.returncode == 2 and "board: host-linux, qemu-virt-riscv64" in mixed.stderr
    assert "cycle_unit: tsc_ticks, cycles" in mixed.stderr


def test_plot_png_and_svg(write, tmp_path):
    a = write("a.log", corpus.hosted_runs(1.0, seed=1))
    b = write("b.log", corpus.hosted_runs(1.1, seed=2))
    png, svg = tmp_path / "p.png", tmp_path / "p.svg"
    assert bm("plot", a, b, "--bench", "crc32", "-o", png).returncode == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10000
    r = write("r.log", corpus.realistic14(samples=300))
    assert bm("plot", r, "--bench", "stats_add_far_outliers", "-o", svg).returncode == 0
    assert b"<svg" in svg.read_bytes()[:2000]
    assert bm("plot", r, "--bench", "empty", "-o", tmp_path / "e.png").returncode == 0
    p = bm("plot", a, "--bench", "nope", "-o", tmp_path / "x.png")
    assert p.returncode == 2 and "nothing to plot" in p.stderr
    assert bm("plot", a, "--bench", "crc32", "-o", tmp_path / "x.jpg").returncode == 2
    u = bm("plot", a, r, "--bench", "crc32", "-o", tmp_path / "u.png")     # tsc_ticks and cycles
    assert u.returncode == 2 and "different units" in u.stderr and not (tmp_path / "u.png").exists()


def test_plot_marks_what_the_records_know(write, tmp_path, monkeypatch):
    """A two-tick run (1 sample at 2222, 999 at 2223, 4 iterations a batch): its P50 line is the
    record's p50 (555.750, the nearest rank), its values are spikes, no bar spreads a count; pooled
    runs mark their pooled nearest rank; a rank inside a bin is a shaded span, not a line."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.axes import Axes
    from bmlib.cli import main
    got = {"line": [], "span": [], "bar": 0}
    line, span, bar = Axes.axvline, Axes.axvspan, Axes.bar

    def rec_line(self, x=0, *a, **k):
        got["line"].append((x, k.get("linestyle")))
        return line(self, x, *a, **k)

    def rec_span(self, a0, a1, *a, **k):
        got["span"].append((a0, a1))
        return span(self, a0, a1, *a, **k)

    def rec_bar(self, *a, **k):
        got["bar"] += 1
        return bar(self, *a, **k)
    monkeypatch.setattr(Axes, "axvline", rec_line)
    monkeypatch.setattr(Axes, "axvspan", rec_span)
    monkeypatch.setattr(Axes, "bar", rec_bar)
    log = _one(write, "t.log", [2222] + [2223] * 999, iters=4)
    assert "\"p50\":555.750" in open(log).read()
    assert main(["plot", str(log), "--bench", "x", "-o", str(tmp_path / "t.png")]) == 0
    assert {x for x, st in got["line"] if st == ":"} == {555.75} and got["bar"] == 0 and not got["span"]
    got["line"].clear()
    other = _one(write, "u.log", [2222] * 600 + [2223] * 400, iters=4)
    assert main(["plot", str(log), str(other), "--bench", "x", "-o", str(tmp_path / "u.png")]) == 0
    assert {x for x, st in got["line"] if st == ":"} == {555.75, 555.5}
    got["line"].clear()
    # past 64 values: the histogram; its median lies in a bin: shaded, with the bars of the bins
    wide = _one(write, "w.log", [1000 + i % 300 for i in range(3000)])
    assert main(["plot", str(wide), "--bench", "x", "-o", str(tmp_path / "w.png")]) == 0
    assert got["span"] == [] and got["bar"] > 0   # (one run: the record's own p50, a line)
    two = write("w2.log", [line for k in range(2)
                           for line in corpus.write_log([corpus.Bench("x", [1000 + (i * 7 + k) % 300 for i in range(3000)])])])
    assert main(["plot", str(two), "--bench", "x", "-o", str(tmp_path / "v.png")]) == 0
    assert got["span"], "two runs pooled: a rank inside a bin is a range"


def test_untestable_changes_do_not_pass_a_gate(write):
    """A gate passes only on a test: B worse on a figure nothing can test (one run per side
    without hist records: only the mean has a test; one sample per side: nothing has) fails it,
    marked '?', and says why."""
    a = write("a.log", corpus.write_log([corpus.Bench("x", [1000 + i % 7 for i in range(100)])], hist=False,
                                        built_for="hardware"))
    b = write("b.log", corpus.write_log([corpus.Bench("x", [1100 + i % 7 for i in range(100)])], hist=False,
                                        built_for="hardware"))
    p = bm("compare", a, b, "--gate", "p99:+5%")
    no_crash(p)
    assert p.returncode == 1 and "p99 rose from" in p.stderr and "cannot be judged" in p.stderr, p.stderr
    assert "gate passed" not in p.stderr
    assert bm("compare", b, a, "--gate", "p99:+5%").returncode == 0       # B better: nothing to judge
    one_a = write("1a.log", corpus.write_log([corpus.Bench("x", [1000])], built_for="hardware"))
    one_b = write("1b.log", corpus.write_log([corpus.Bench("x", [1001])], built_for="hardware"))
    for metric in ("mean", "p50", "p99"):
        p = bm("compare", one_a, one_b, "--format", "json", "--gate", f"{metric}:+0.05%")
        r = rows(p)
        assert r[("x", metric)]["p"] is None and r[("x", metric)]["verdict"] == "?", r
        why = "fewer than 2 samples" if metric == "mean" else f"{metric} needs"
        assert p.returncode == 1 and why in p.stderr, p.stderr


def test_huge_hist_is_thinned_not_expanded():
    """A hist record may count up to 2^64 samples: the tools rebuild at most dist.MOST of them,
    at evenly spaced ranks, without building the rest; below that, every one."""
    import numpy as np
    from bmlib.analysis import dist
    from bmlib.records import derive
    rng = random.Random(9)
    h = derive.hist_from_samples([int(rng.lognormvariate(8, 1.5)) for _ in range(20000)], 3)
    full = dist.samples(h)
    assert len(full) == 20000 and not dist.thinned(h)
    most, dist.MOST = dist.MOST, 1000
    try:
        thin = dist.samples(h)
        assert dist.thinned(h) and len(thin) == 1000
        assert np.array_equal(thin, full[((np.arange(1000) + 0.5) * 20).astype(np.int64)])
        big = dict(h, n=h["n"] - len(h["bins"]) + 0, bins=[[b[0], b[1], b[2] * 2**40] for b in h["bins"]])
        big["n"] = sum(b[2] for b in big["bins"]) + len(big["tail"])
        assert len(dist.samples(big)) == 1000
    finally:
        dist.MOST = most


def test_plot_never_writes_over_its_input(write):
    a = write("a.svg", corpus.hosted_runs(seed=1))
    before = open(a, "rb").read()
    p = bm("plot", a, "--bench", "crc32", "-o", a)
    assert p.returncode == 2 and "is one of the logs" in p.stderr and open(a, "rb").read() == before


def _one(write, name, raw, built_for="hardware", iters=1, **kw):
    return write(name, corpus.write_log([corpus.Bench("x", raw, iters=iters)], built_for=built_for, **kw))


def test_verdicts_stay_within_what_the_data_show(write):
    """Data of which a confident verdict would claim more than they show: none gets one, and no
    gate fails on them."""
    rng = random.Random(5)

    def mixed(k):  # ~6 % far outliers: one side's 71 outliers overflow the 64-value tail
        return [rng.randrange(1000, 1004) for _ in range(1000 - k)] + \
            [rng.randrange(2 ** 40, 2 ** 41) for _ in range(k)]
    a, b = _one(write, "a.log", mixed(71)), _one(write, "b.log", mixed(54))
    p = bm("compare", b, a, "--format", "json", "--gate", "p50:+0.5%")
    no_crash(p)
    # A's bulk sits in one coarse bin (its top is 2^40): the p50s differ by the bins, not the data
    assert rows(p)[("x", "p50")]["verdict"] == "~" and p.returncode == 0, p.stdout + p.stderr
    # The median moved down by 1 while most of B moved up: a rank test is no test of the median
    a = _one(write, "ma.log", [30] * 450 + [40] * 100 + [50] * 450)
    b = _one(write, "mb.log", [39] * 510 + [60] * 490)
    r = rows(bm("compare", a, b, "--format", "json"))[("x", "p50")]
    assert r["delta"] == -1 and r["verdict"] == "~" and r["ci_low"] < 0 < r["ci_high"], r
    # Two samples a side, no spread: 1 arrangement in 6 is as extreme, p = 1/3
    a, b = _one(write, "2a.log", [1000, 1000]), _one(write, "2b.log", [1001, 1001])
    r = rows(bm("compare", a, b, "--format", "json", "--gate", "mean:+0%"))[("x", "mean")]
    assert abs(r["p"] - 1 / 3) < 1e-9 and r["verdict"] == "~"
    # 2^20 iterations a batch: the mean and stddev print as 0.001 / 0.000; the exact sums decide
    a = _one(write, "ia.log", [rng.randrange(1563, 1584) for _ in range(1000)], iters=2 ** 20)
    b = _one(write, "ib.log", [rng.randrange(1563, 1584) for _ in range(1000)], iters=2 ** 20)
    p = bm("compare", a, b, "--format", "json", "--gate", "mean:+5%")
    assert rows(p)[("x", "mean")]["p"] > 1e-3 and p.returncode == 0, p.stdout


def test_deterministic_quantiles_are_judged_at_their_resolution(write):
    """Deterministic QEMU: a P50 from a histogram bin is known to the bin. One sample moved by
    one instruction is no longer called 'same'; a move the bin hides is not called 'slower'."""
    base = list(range(2000, 2300))
    one = [2150 if v == 2149 else v for v in base]
    a, b = _one(write, "a.log", base, "qemu-icount"), _one(write, "b.log", one, "qemu-icount")
    r = rows(bm("compare", a, b, "--format", "json"))[("x", "p50")]
    assert r["mode"] == "exact" and r["verdict"] == "~" and r["ci_low"] < 0 < r["ci_high"], r
    # (past 64 distinct values: a histogram's bins, not the exact mode's values)
    spread = [3000 + 7 * i for i in range(70)]
    a = _one(write, "c.log", [2060] * 150 + [2065] * 150 + spread, "qemu-icount")
    b = _one(write, "d.log", [2049] + [2060] * 149 + [2065] * 150 + spread, "qemu-icount")
    p = bm("compare", b, a, "--format", "json", "--gate", "p50:+0%")
    assert rows(p)[("x", "p50")]["verdict"] == "~" and p.returncode == 0, p.stdout + p.stderr
    # few values (the exact mode): the median is known exactly, and the same
    a = _one(write, "e.log", [2060] * 150 + [2065] * 150, "qemu-icount")
    b = _one(write, "f.log", [2049] + [2060] * 149 + [2065] * 150, "qemu-icount")
    r = rows(bm("compare", b, a, "--format", "json"))[("x", "p50")]
    assert r["verdict"] == "same" and r["ci_low"] is None, r


def test_tied_runs_get_an_exact_p(write):
    """Runs that tie within a side get the exact p of their arrangement (4 against 4, wholly
    apart: 2/70; the normal approximation with ties gives less). 3 runs a side can never reach
    p < 0.1: no test is run, and the moved figure is "?" (a gate on it cannot pass)."""
    def side(base, k, tag):
        return [write(f"{tag}{i}.log", corpus.write_log([corpus.Bench("x", [base + (j % 7) for j in range(300)])],
                                                        built_for="hardware")) for i in range(k)]
    p = bm("compare", "-a", *side(5000, 4, "a"), "-b", *side(5100, 4, "b"), "--format", "json")
    r = rows(p)[("x", "p50")]
    assert abs(r["p"] - 2 / 70) < 1e-9 and r["verdict"] == "slower", r
    assert "repeats" in p.stderr and "deterministic core can" in p.stderr      # identical runs: said
    p = bm("compare", "-a", *side(5000, 3, "c"), "-b", *side(5100, 3, "d"), "--format", "json", "--gate", "p50:+1%")
    r = rows(p)[("x", "p50")]
    assert r["p"] is None and r["verdict"] == "?" and "3 and 3 runs of it" in r["why"], r
    assert p.returncode == 1 and "cannot be judged" in p.stderr


def hosted_side(tag, shift, write, k=5, seed=0, fail_in=None):
    """k host-linux runs; in run fail_in crc32 failed its verify."""
    return [write(f"{tag}{i}.log", corpus.hosted_runs(shift, seed=seed + i, fail=("crc32",) if i == fail_in else ()))
            for i in range(k)]


def test_a_flaky_baseline_run_does_not_hide_a_regression(write):
    """crc32 failed in one of A's runs: B (10% slower, ok in all) is compared with A's 4 ok runs,
    and the gate fails; crc32 failing in one of B's runs fails the gate whatever A did."""
    a = hosted_side("a", 1.0, write, seed=10, fail_in=4)
    b = hosted_side("b", 1.10, write, seed=20)
    p = bm("compare", "-a", *a, "-b", *b, "--format", "json", "--gate", "p50:+5%", "--bench", "^crc32$")
    no_crash(p)
    r = rows(p)[("crc32", "p50")]
    assert r["verdict"] == "slower" and "A ok in 4 of 5 runs" in r["note"], r
    assert p.returncode == 1 and "crc32: p50 +" in p.stderr, p.stderr
    b_flaky = hosted_side("c", 1.0, write, seed=30, fail_in=2)
    for sides in ((a, b_flaky), (b, b_flaky)):
        p = bm("compare", "-a", *sides[0], "-b", *sides[1], "--gate", "p50:+5%", "--bench", "^crc32$")
        assert p.returncode == 1 and "crc32: is not ok in B" in p.stderr and "not ok in 1 of 5 runs of B" in p.stderr, \
            p.stderr


def test_a_benchmark_in_fewer_runs_is_not_judged_by_the_side_count(write):
    """crc32 is in 1 of A's 5 runs: one run against five can never be significant, so its moved
    figures are "?" (the gate fails), and the warning names it."""
    a = hosted_side("a", 1.0, write, seed=10, k=1) + \
        [write(f"m{i}.log", corpus.hosted_runs(1.0, seed=40 + i, names=("memcpy_4k",))) for i in range(4)]
    b = hosted_side("b", 1.10, write, seed=20)
    p = bm("compare", "-a", *a, "-b", *b, "--format", "json", "--gate", "p50:+5%")
    no_crash(p)
    r = rows(p)
    assert r[("crc32", "p50")]["verdict"] == "?" and "1 and 5 runs of it" in r[("crc32", "p50")]["why"]
    assert r[("memcpy_4k", "p50")]["verdict"] == "slower"
    assert "crc32: in 1 of the 5 runs of A" in p.stderr
    assert p.returncode == 1 and "crc32: p50 rose" in p.stderr and "cannot be judged" in p.stderr


def test_one_boot_given_twice_is_one_run(write):
    """The same file twice on a side, or a hosted log appended to itself, would count one run
    as two: refused (check names the copied boot)."""
    a = write("a.log", corpus.hosted_runs(1.0, seed=1))
    b = write("b.log", corpus.hosted_runs(1.0, seed=2))
    p = bm("compare", "-a", a, a, "-b", b, b)
    assert p.returncode == 2 and "are one file" in p.stderr, p.stderr
    twice = write("twice.log", corpus.hosted_runs(1.0, seed=1) * 2)
    p = bm("compare", "-a", twice, "-b", b)
    no_crash(p)
    assert p.returncode == 0 and "boot 2 skipped" in p.stderr and "repeats boot 1" in p.stderr, p.stderr
    c = bm("check", twice)
    assert c.returncode == 1 and "repeats boot 1 record for record" in c.stdout + c.stderr
    copy = write("copy.log", corpus.hosted_runs(1.0, seed=1))
    p = bm("compare", "-a", a, copy, "-b", b)
    assert p.returncode == 2 and "copy.log repeats a.log record for record" in p.stderr, p.stderr


def test_report_merge_is_exact_and_says_what_it_left_out(write):
    """--merge's medians are the records' decimals (CSV too: 6 significant digits printed
    1.1277e+06 for 1127700.000); a benchmark that failed or is missing in some runs says so."""
    runs = [write(f"h{i}.log", corpus.hosted_runs(200.0, seed=i, fail=("crc32",) if i == 2 else ())) for i in range(3)]
    p = bm("report", "--merge", *runs, "--format", "csv")
    no_crash(p)
    rows = list(__import__("csv").DictReader(p.stdout.splitlines()))
    def p50s(rs):
        out = []
        for r in rs:
            line = next(x for x in open(r) if '"type":"result"' in x and '"memcpy_4k"' in x)
            out.append(json.loads(line, parse_float=decimal.Decimal)["p50"])
        return sorted(out)
    m = next(r for r in rows if r["benchmark"] == "memcpy_4k")
    assert decimal.Decimal(m["p50"]) == p50s(runs)[1] and "e" not in m["p50"].lower(), m
    two = list(__import__("csv").DictReader(bm("report", "--merge", *runs[:2], "--format", "csv").stdout.splitlines()))
    w = p50s(runs[:2])
    assert decimal.Decimal(next(r for r in two if r["benchmark"] == "memcpy_4k")["p50"]) == (w[0] + w[1]) / 2
    c = next(r for r in rows if r["benchmark"] == "crc32")
    assert c["status"].startswith("ok in 2 of 3; fail: verify failed"), c
    assert "crc32: its figures are the medians of the 2 runs it passed, of 3" in p.stderr


def test_plot_takes_any_file_name_and_environment(write, tmp_path):
    """A $ in a file name is text, not mathtext (matplotlib raised on an unbalanced one); a
    display backend in MPLBACKEND is not ours to use; an output that cannot be written is a
    usage error, not a bug."""
    import os
    a = write("x$\\frac{a$.log", corpus.hosted_runs(1.0, seed=1))
    env = dict(os.environ, MPLBACKEND="bogus")
    p = bm("plot", a, "--bench", "crc32", "-o", tmp_path / "p.png", env=env)
    no_crash(p)
    assert p.returncode == 0 and (tmp_path / "p.png").stat().st_size > 1000, p.stderr
    for cmd in (("report", a), ("check", a), ("compare", a, a)):
        full = subprocess.run([PY, BM, *cmd], stdout=open("/dev/full", "w"), stderr=subprocess.PIPE, text=True)
        assert full.returncode == 2 and "cannot write the output" in full.stderr, (cmd, full.stderr)


def test_labels_and_names_are_escaped(write, tmp_path):
    """Text from records and file names (a build label, a kit version, a failure's reason, a run's
    file name) with ESC, NUL, a newline or a bidirectional override reaches no terminal raw: the
    table and Markdown show it escaped, CSV quotes it and JSON escapes it (their own rules)."""
    evil = "x\x1b[2J\x00\nfake row\u202e"
    shown = "x\\x1b[2J\\x00\\nfake row\\u202e"
    a = write("a.log", corpus.hosted_runs(seed=1))
    b_lines = corpus.hosted_runs(seed=2, fail=("memcpy_4k",))
    b_lines = [corpus.resign(l, lambda d: d.update(label=evil, kit_version="9" + evil))
               if l.startswith('{"type":"meta"') else
               corpus.resign(l, lambda d: d.update(reason="verify " + evil)) if '"status":"fail"' in l else l
               for l in b_lines]
    b = str(tmp_path / "b\x1b[31m\n.log")
    open(b, "wb").write(corpus.text(b_lines))
    assert bm("check", b).returncode == 0
    p = bm("compare", a, b)
    no_crash(p)
    assert p.returncode == 0, p.stderr
    for out in (p.stdout, p.stderr):
        assert not any(c in out for c in "\x1b\x00\u202e"), out
    assert f"label {shown}" in p.stdout and "b\\x1b[31m\\n.log" in p.stdout
    assert f"vs 9{shown})" in p.stderr                      # the kit versions warning
    assert p.stdout.count("\n") == len(p.stdout.splitlines()) and "\nfake row" not in p.stdout
    r = bm("report", a, b, "--format", "markdown")
    assert r.returncode == 0 and f"verify {shown}" in r.stdout and "\x1b" not in r.stdout, r.stdout
    assert all(line.startswith("|") for line in r.stdout.splitlines())
    t = bm("report", b)
    assert f"verify {shown}" in t.stdout and "\x1b" not in t.stdout
    c = bm("report", b, "--format", "csv")
    import csv
    import io
    assert [row for row in csv.reader(io.StringIO(c.stdout)) if row[2].startswith("fail")][0][2] == \
        "fail: verify " + evil + " in verify"
    j = bm("report", b, "--format", "json")
    assert any(x["label"] == evil for x in json.loads(j.stdout)) and "\x1b" not in j.stdout


def test_forced_across_units_names_each_sides_unit(write):
    """--force across units: each side's column says its own unit (B's said A's), and the
    JSON rows carry B's as unit_b."""
    a = write("a.log", corpus.hosted_runs(seed=1))
    b = write("b.log", corpus.realistic14(samples=300))
    p = bm("compare", a, b, "--force")
    assert p.returncode == 0, p.stderr
    head = next(l for l in p.stdout.splitlines() if l.startswith("benchmark"))
    assert "A [tsc_ticks]" in head and "B [cycles]" in head, head
    j = rows(bm("compare", a, b, "--force", "--format", "json"))
    assert j[("crc32", "p50")]["unit"] == "tsc_ticks" and j[("crc32", "p50")]["unit_b"] == "cycles"
    same = bm("compare", a, a)
    head = next(l for l in same.stdout.splitlines() if l.startswith("benchmark"))
    assert "A [tsc_ticks]" in head and "B [tsc_ticks]" in head
