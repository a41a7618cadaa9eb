# SPDX-License-Identifier: Apache-2.0
"""The QEMU cache model's host side (tools/bmlib/records/model.py): merging the plugin's counts into the
records (per-iteration mean and p50, the probe windows subtracted, re-CRC'd, the rest byte for
byte), the geometry it accepts, and the checker's rules for "model" and "events"."""
import argparse
import json
import os
import sys
from decimal import Decimal

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402
from corpus import Bench  # noqa: E402
from bmlib.records import log as logmod  # noqa: E402
from bmlib.records import model  # noqa: E402

GEO = model.geometry("l1d=32768:4:64,l1i=32768:4:64,l2=262144:8:64")


def counts_file(tmp_path, windows):
    """The plugin's file: windows are (bench index, repeat, samples, six counts)."""
    p = tmp_path / "counts.txt"
    lines = ["bmcache 1 l1d=32768:4:64 l1i=32768:4:64 l2=262144:8:64"]
    lines += [" ".join(["w"] + [str(x) for x in (i, r, s, *c)]) for i, r, s, c in windows]
    lines.append("end l1d_access=0")
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def boot():
    return corpus.text(corpus.write_log([Bench("alpha", [100] * 8, iters=2), Bench("beta", [50] * 8),
                                         Bench("gamma", status="fail", reason="verify failed", phase="verify")]))


def merged(tmp_path, windows):
    data = boot()
    out = model.merge(data, counts_file(tmp_path, windows), GEO)
    lg = logmod.analyze(out, "merged")
    recs = {(r.type, r.name): r.data for r in lg.boots[-1].records}
    return data, out, lg, recs


def test_merge_subtracts_the_probe_and_keeps_the_rest(tmp_path):
    probe = (1, 0, 2, 0, 0, 0)          # the window's own cost: subtracted from every sample
    # (fetches: every instruction once, as on AArch64 and RISC-V: l1i_access = insns, 50 and 50)
    windows = [(0, 2, 1, probe),
               (0, 6, 1, (41, 8, 102, 2, 10, 1)),    # six samples: 40 accesses, 8 misses in 2 iterations
               (0, 2, 1, (61, 16, 102, 2, 18, 3)),
               (1, 2, 1, probe), (1, 8, 1, (8, 0, 52, 0, 0, 0))]
    data, out, lg, recs = merged(tmp_path, windows)
    assert not lg.problems, [p.msg for p in lg.problems]
    ev = recs[("result", "alpha")]["events"]
    assert ev["l1d_access"] == {"mean": Decimal("22.500"), "p50": Decimal("20.000"), "source": "model"}
    assert ev["l1d_miss"]["mean"] == Decimal("5.000") and ev["l1d_miss"]["p50"] == Decimal("4.000")
    assert ev["l1i_access"]["p50"] == Decimal("50.000") and ev["l2_miss"]["mean"] == Decimal("0.750")
    assert recs[("result", "beta")]["events"]["l1d_access"]["mean"] == Decimal("7.000")
    assert "events" not in recs[("result", "gamma")]      # a failed benchmark carries no figures
    meta = recs[("meta", None)]["model"]
    assert meta["l1d"] == {"size_bytes": 32768, "ways": 4, "line_bytes": 64} and meta["l2"]["ways"] == 8
    # everything else is the original, byte for byte
    strip = [ln for ln in out.splitlines() if b'"events"' not in ln and b'"model"' not in ln]
    assert strip == [ln for ln in data.splitlines() if b'"type":"meta"' not in ln and
                     not (b'"type":"result"' in ln and b'"status":"ok"' in ln)]


def test_no_l2_is_not_a_zero(tmp_path):
    geo = model.geometry("l1d=32768:4:64,l1i=32768:4:64,l2=none")
    out = model.merge(boot(), counts_file(tmp_path, [(0, 10, 1, (1, 0, 1, 0, 0, 0))]), geo)
    recs = {r.name: r.data for r in logmod.analyze(out, "x").boots[-1].records if r.type == "result"}
    assert set(recs["alpha"]["events"]) == {"l1d_access", "l1d_miss", "l1i_access", "l1i_miss"}


def test_a_window_below_the_probe_is_refused(tmp_path):
    with pytest.raises(ValueError, match="fewer than the model's probe"):
        merged(tmp_path, [(0, 2, 1, (5, 0, 5, 0, 0, 0)), (0, 8, 1, (4, 0, 9, 0, 0, 0))])


@pytest.mark.parametrize("text", ["bmcache 1 x\nw 0 1 1 1 1 1 1 1 1\n", "", "bmcache 1 x\nw 0 1\nend\n"])
def test_damaged_counts_are_refused(tmp_path, text):
    p = tmp_path / "c.txt"
    p.write_text(text)
    with pytest.raises(ValueError):
        model.merge(boot(), str(p), GEO)


@pytest.mark.parametrize("text", ["l1d=32768:3:64,l1i=32768:4:64,l2=none", "l1d=32768:4:48,l1i=32768:4:64,l2=none",
                                  "l1d=32768:4:64,l2=none", "l1d=none,l1i=32768:4:64,l2=none",
                                  "l1d=32768:4:64,l1i=32768:4:64,l2=none,l1d=1024:1:64"])
def test_impossible_geometry_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError):
        model.geometry(text)


def resigned(edit, kind="result"):
    """A merged boot with one record edited and re-signed: intact, so only the rules can refuse it."""
    lines = corpus.text(corpus.write_log([Bench("alpha", [100] * 8)])).decode().split("\n")
    ev = {"l1d_access": {"mean": Decimal("10.000"), "p50": Decimal("10.000"), "source": "model"},
          "l1d_miss": {"mean": Decimal("2.000"), "p50": Decimal("2.000"), "source": "model"},
          "l1i_access": {"mean": Decimal("100.000"), "p50": Decimal("100.000"), "source": "model"},
          "l1i_miss": {"mean": Decimal("1.000"), "p50": Decimal("1.000"), "source": "model"},
          "l2_access": {"mean": Decimal("3.000"), "p50": Decimal("3.000"), "source": "model"},
          "l2_miss": {"mean": Decimal("3.000"), "p50": Decimal("3.000"), "source": "model"}}
    geo = {"l1d": {"size_bytes": 32768, "ways": 4, "line_bytes": 64},
           "l1i": {"size_bytes": 32768, "ways": 4, "line_bytes": 64},
           "l2": {"size_bytes": 262144, "ways": 8, "line_bytes": 64}}
    for i, ln in enumerate(lines):
        if ln.startswith('{"type":"result"'):
            lines[i] = corpus.resign(ln, lambda d: (d.__setitem__("events", ev), edit(d) if kind == "result" else 0))
        if ln.startswith('{"type":"meta"'):
            lines[i] = corpus.resign(ln, lambda d: (d.__setitem__("model", geo), d.__setitem__("events", {
                "counted": {k: {"source": "model"} for k in ev}, "not_counted": {}}), edit(d) if kind == "meta" else 0))
    return [p.msg for p in logmod.analyze("\n".join(lines).encode(), "x").problems]


def test_a_consistent_merged_boot_is_clean():
    assert resigned(lambda d: None) == []


@pytest.mark.parametrize("edit,words", [
    (lambda d: d["events"]["l1d_miss"].__setitem__("p50", Decimal("11.000")), "are a subset of"),
    (lambda d: d["events"]["l2_access"].__setitem__("mean", Decimal("5.000")), "the L1 misses it counts sum"),
    (lambda d: d["events"]["l1d_miss"].__setitem__("p50", Decimal("-1.000")), "is negative"),
    (lambda d: d["events"]["l1d_miss"].__setitem__("p50", Decimal("1.0001")), "at most 3 places"),
    (lambda d: d["events"].__setitem__("branch_miss", {"mean": 1, "p50": 1, "source": "model"}), "counts l1d_access"),
    (lambda d: d["events"]["l1i_miss"].pop("p50"), "exactly mean, p50 and source"),
    (lambda d: d.__setitem__("events", {}), "non-empty object"),
])
def test_impossible_events_are_refused(edit, words):
    errs = resigned(edit)
    assert any(words in e for e in errs), errs


@pytest.mark.parametrize("edit,words", [
    (lambda d: d["model"]["l1d"].__setitem__("ways", 3), "not a power-of-two number of sets"),
    (lambda d: d["model"].__setitem__("l1i", None), "model.l1i must be"),
    (lambda d: d["model"].pop("l2"), "exactly l1d, l1i, l2"),
    (lambda d: d["model"].__setitem__("l2", None), "events.counted.l2_access: counted by the cache model, but "
                                                   "model.l2 is null"),
])
def test_impossible_geometry_in_meta_is_refused(edit, words):
    errs = resigned(edit, "meta")
    assert any(words in e for e in errs), errs


def test_a_failed_result_carries_no_events():
    lines = corpus.text(corpus.write_log([Bench("alpha", status="fail", reason="verify failed", phase="verify")],
                                         samples=8)).decode().split("\n")
    for i, ln in enumerate(lines):
        if ln.startswith('{"type":"result"'):
            lines[i] = corpus.resign(ln, lambda d: d.__setitem__("events", {"l1d_miss": {"mean": 0}}))
    errs = [p.msg for p in logmod.analyze("\n".join(lines).encode(), "x").problems]
    assert any("carries figures (events)" in e for e in errs), errs


def test_merge_lists_its_events_in_meta_beside_the_firmwares(tmp_path):
    """The firmware counted instructions and named l1d_miss as not counted: the model's events join
    the counted ones (l1d_miss moves there), each result keeps its own events beside the model's."""
    ins = {"instructions": {"mean": Decimal("100.000"), "p50": Decimal("100.000"), "source": "pmu"}}
    data = corpus.text(corpus.write_log(
        [Bench("alpha", [100] * 8, extra={"events": ins})],
        meta={"arch_facts": {"events": "PMUv3"},     # (a nested "events" first: not the one to replace)
              "events": {"counted": {"instructions": {"source": "pmu", "raw": 8, "counter": "PMEVCNTR1_EL0"}},
                         "not_counted": {"l1d_miss": "no refill event", "branch": "no branch event"}}}))
    out = model.merge(data, counts_file(tmp_path, [(0, 2, 1, (1, 0, 1, 0, 0, 0)), (0, 8, 1, (1, 0, 101, 0, 0, 0))]),
                      GEO)
    lg = logmod.analyze(out, "merged")
    assert not lg.problems, [p.msg for p in lg.problems]
    meta, res = (next(r.data for r in lg.boots[-1].records if r.type == t) for t in ("meta", "result"))
    assert meta["events"]["counted"]["instructions"]["source"] == "pmu"
    assert {k for k, v in meta["events"]["counted"].items() if v == {"source": "model"}} == set(model.COUNTS)
    assert meta["events"]["not_counted"] == {"branch": "no branch event"} and meta["arch_facts"]["events"] == "PMUv3"
    assert res["events"]["instructions"] == ins["instructions"] and res["events"]["l1d_miss"]["source"] == "model"
    with pytest.raises(ValueError, match="merged twice"):
        model.merge(out, counts_file(tmp_path, [(0, 10, 1, (1, 0, 1, 0, 0, 0))]), GEO)


def test_model_events_without_a_model_are_refused():
    """A meta record without "model" (no bm run --model) whose results say source model: refused."""
    ev = {"l1d_access": {"mean": Decimal("1.000"), "p50": Decimal("1.000"), "source": "model"}}
    lines = corpus.write_log([Bench("alpha", [100] * 8, extra={"events": ev})],
                             meta={"events": {"counted": {"l1d_access": {"source": "model"}}, "not_counted": {}}})
    errs = [p.msg for p in logmod.analyze(corpus.text(lines), "x").problems]
    assert any("counted by the cache model, but the meta record has no \"model\"" in e for e in errs), errs
    assert any("events.l1d_access is from the cache model, but the meta record has no \"model\"" in e
               for e in errs), errs


def test_a_window_of_no_samples_is_refused(tmp_path):
    """(it divided by zero: bm run crashed)"""
    probe = (1, 0, 2, 0, 0, 0)
    with pytest.raises(ValueError, match="a window of 0 samples"):
        merged(tmp_path, [(0, 2, 1, probe), (0, 1, 0, probe), (0, 8, 1, (4, 0, 9, 0, 0, 0))])


def test_windows_that_are_not_the_results_samples_are_refused(tmp_path):
    """The model's windows of a benchmark hold its n samples: more (a window left open by a body that
    trapped, then closed by the next benchmark's) or fewer are another run's counts."""
    probe = (1, 0, 2, 0, 0, 0)
    with pytest.raises(ValueError, match="hold 9 samples, but its result has n = 8"):
        merged(tmp_path, [(0, 2, 1, probe), (0, 9, 1, (4, 0, 9, 0, 0, 0))])


FAKE_QEMU = r'''
import sys
sys.path.insert(0, {here!r})
import corpus
from corpus import Bench
spec = sys.argv[sys.argv.index("-plugin") + 1]
out = dict(kv.split("=", 1) for kv in spec.split(",")[1:] if "=" in kv)["out"]
with open(out, "w") as f:
    f.write("bmcache 1 x\nw 0 2 1 1 0 2 0 0 0\nw 0 1 0 1 0 2 0 0 0\nend l1d_access=0\n")
print(corpus.text(corpus.write_log([Bench("alpha", [100] * 8)])).decode(), end="")
'''


def test_bm_run_keeps_the_console_when_the_model_fails(tmp_path):
    """The model's counts refused: bm run says so (125) and the console it saves holds every record
    the firmware printed, as printed."""
    import subprocess
    from conftest import PY, bm, no_crash
    src = tmp_path / "m.c"
    src.write_text("char bm_model_area[64];\nvoid bm_model_mark(unsigned o) { bm_model_area[o] = 0; }\n"
                   "int bm_batch_alpha(int x) { return x * 3; }\n")
    elf = tmp_path / "img.elf"
    subprocess.run(["cc", "-c", str(src), "-o", str(elf)], check=True)
    so = tmp_path / "bmcache.so"
    so.write_bytes(b"")
    fake = tmp_path / "fake_qemu.py"
    fake.write_text(FAKE_QEMU.format(here=os.path.dirname(os.path.abspath(__file__))))
    saved = tmp_path / "run.log"
    p = bm("run", "--model", so, "--save", saved, "--", PY, fake, elf)
    no_crash(p)
    assert p.returncode == 125 and "cache model: benchmark alpha: the cache model counted a window of 0 samples" \
        in p.stderr, p.stderr
    assert "no model figures merged" in p.stderr
    lg = logmod.analyze(saved.read_bytes(), "saved")
    assert lg.clean and lg.boots[-1].end is not None, [x.msg for x in lg.problems]
