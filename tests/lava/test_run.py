# SPDX-License-Identifier: Apache-2.0
"""ctest lava.run (qemu-virt-riscv64, qemu-virt-aarch64): the real lava-run runs the job of the
kit's image and of the fault-injection image. Every benchmark of the kit's own record stream must
come back as a LAVA test case with the same result and the same measurement (the p50 text, and
the p50 of a local QEMU run of the same deterministic image); bm check, report and compare must
read LAVA's log as they read a local capture. Files stay in BM_LAVA_WORK/run-* to look at."""
import json
import os
import shutil
import time

from conftest import bm, check_cases, env_path, no_crash, read_lava_log, require_lava, result_records


def board_json(var):
    path = env_path(var)
    with open(path) as f:
        return path, json.load(f)


def workdir(name):
    d = os.path.join(env_path("BM_LAVA_WORK"), name)
    shutil.rmtree(d, ignore_errors=True)
    return d


def lava_run(path, work, *extra):
    require_lava()
    t0 = time.monotonic()
    p = bm("lava", "run", "--board-json", path, "--keep", work, "--quiet", "--timeout-min", "2", *extra)
    no_crash(p)
    print(f"bm lava run {os.path.basename(path)}: {time.monotonic() - t0:.1f} s\n{p.stderr}")
    return p


def test_kit_image(tmp_path):
    path, b = board_json("BM_LAVA_KIT_JSON")
    work = workdir("run-kit")
    p = lava_run(path, work, "-o", os.path.join(work, "records.jsonl"))
    assert p.returncode == 0, p.stderr + p.stdout
    log = os.path.join(work, "lava.log")
    console, cases, job = read_lava_log(log)
    assert job == "pass"
    recs = result_records(console)
    meta = json.loads(next(l for l in console if l.startswith('{"type":"meta"')))
    assert len(recs) == meta["benchmarks"] > 0
    assert all(status == "ok" for _, status, _, _ in recs)
    check_cases(recs, cases)

    # The same image run here, without LAVA: deterministic, so the very same p50 texts.
    local = tmp_path / "local.log"
    r = bm("run", "--quiet", "--check", "--exit-map", b["exit_map"], "--save", local, "--", *b["qemu"])
    assert r.returncode == 0, r.stderr
    mine = result_records(local.read_text().splitlines())
    assert [(n, p50) for n, _, p50, _ in mine] == [(c["extra"]["test_case_id"], c["measurement"]) for c in cases]

    # bm reads LAVA's log as a console: check, report, compare (exactly the same figures).
    c = bm("check", log)
    assert c.returncode == 0 and "complete and clean" in c.stdout, c.stdout + c.stderr
    rep = bm("report", log, "--format", "csv")
    assert rep.returncode == 0 and len(rep.stdout.strip().splitlines()) == len(recs) + 1, rep.stderr
    cmp = bm("compare", local, log, "--gate", "p50:+0%", "--gate", "mean:+0%", "--format", "csv")
    assert cmp.returncode == 0, cmp.stdout + cmp.stderr
    rows = cmp.stdout.strip().splitlines()[1:]
    # (a quantile held in a histogram bin is known to its bin: no change, but not provably "same")
    assert rows and all(row.split(",")[4] == "0" and (row.endswith(",same") or row.endswith(",~"))
                        for row in rows), cmp.stdout
    # The records bm lava run wrote are the boot's, byte for byte.
    with open(os.path.join(work, "records.jsonl")) as f:
        written = f.read().splitlines()
    assert written == [l for l in console if l.startswith('{"type":"')]
    res = bm("lava", "results", log)
    assert res.returncode == 0 and f"{len(recs)} of {len(recs)} benchmarks agree" in res.stderr, res.stderr


def test_fault_image():
    """Trapped, timed-out, overflowing and failing benchmarks are failed LAVA cases without a
    measurement; the good ones around them pass with their figures."""
    path, _ = board_json("BM_LAVA_FAULTS_JSON")
    work = workdir("run-faults")
    p = lava_run(path, work)
    assert p.returncode == 1, p.stderr          # failed benchmarks, LAVA and records agreeing
    p = lava_run(path, work, "--allow-fail")
    assert p.returncode == 0, p.stderr
    console, cases, job = read_lava_log(os.path.join(work, "lava.log"))
    assert job == "pass"                         # a failed case does not fail a LAVA job
    recs = result_records(console)
    check_cases(recs, cases)
    statuses = {s for _, s, _, _ in recs}
    assert {"ok", "trap", "timeout", "fail"} <= statuses, statuses
    assert any(c["result"] == "fail" for c in cases) and any(c["result"] == "pass" for c in cases)
    c = bm("check", os.path.join(work, "lava.log"))
    assert c.returncode == 0, c.stdout
