# SPDX-License-Identifier: Apache-2.0
"""bm history on logs with known answers (tests/tools/corpus.py), on an SQLite file and on a
throwaway PostgreSQL server (history_pg.py): add is idempotent and refuses what bm check refuses
with its messages; revisions come from the label or --revision and are ordered by git; list, show,
export; exact change points of deterministic series and the rank test's of noisy ones; the gate
against the last change point and a named baseline; the page's files."""
import json
import os

import corpus
import pytest
from conftest import bm, no_crash
from history_git import git
from history_pg import db, pg_cluster  # noqa: F401 (fixtures)


@pytest.fixture
def repo(tmp_path):
    """A git work tree of 8 commits; returns (path, [full commit ids, oldest first])."""
    r = tmp_path / "proj"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    for i in range(8):
        (r / "f").write_text(f"{i}\n")
        git(r, "add", "f")
        env_date = f"2024-01-01T00:{i:02d}:00Z"
        os.environ.update(GIT_AUTHOR_DATE=env_date, GIT_COMMITTER_DATE=env_date)
        git(r, "commit", "-q", "-m", f"commit {i + 1}")
    return r, git(r, "log", "--reverse", "--format=%H").split()


def icount(label, extra=0, fail=False, board="qemu-virt-riscv64", meta=None, crc_iters=1):
    """A deterministic boot: known_loop with `extra` instructions more, crc32 constant,
    stats_add_random spread out (but deterministic: the same seed)."""
    import random
    rng = random.Random(5)
    b = [corpus.Bench("known_loop", [2001 + extra] * 200, extra={"expect_insns": 2001}),
         corpus.Bench("crc32", [11273 * crc_iters - crc_iters // 2] * 200, iters=crc_iters) if not fail else
         corpus.Bench("crc32", status="trap", reason="illegal instruction", phase="samples",
                      trap={"cause": "illegal instruction", "pc": "0x80001234", "code": "0x2"}),
         corpus.Bench("stats_add_random", [67 + int(rng.expovariate(1 / 80)) for _ in range(200)])]
    return corpus.text(corpus.write_log(b, 200, meta=dict({"label": label, "board": board}, **(meta or {}))))


def hosted(label, shift=1.0, seed=0, reps=1):
    out = b""
    for k in range(reps):
        lines = corpus.hosted_runs(shift, seed=seed * 100 + k, jitter=0.003)
        lines = [corpus.resign(x, lambda d: d.update(label=label)) if '"type":"meta"' in x else x for x in lines]
        out += corpus.text(lines)
    return out


def put(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


def add(db, *logs, cwd=None, ok=True):
    p = bm("history", "add", *logs, "--db", db, cwd=cwd)
    no_crash(p)
    if ok:
        assert p.returncode == 0, p.stderr
    return p


def changes(db, *extra, cwd=None):
    p = bm("history", "changes", "--db", db, "--format", "json", *extra, cwd=cwd)
    no_crash(p)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_add_is_idempotent_and_keyed_by_revision(db, repo, tmp_path):
    r, revs = repo
    log = put(tmp_path, "a.log", icount(revs[2][:12]))
    first = add(db, log, cwd=r)
    assert "stored as run 1" in first.stdout and "revision " + revs[2][:12] in first.stdout
    again = add(db, log, cwd=r)
    assert "already stored" in again.stdout
    ls = bm("history", "list", "--db", db, "--format", "json", cwd=r)
    runs = json.loads(ls.stdout)
    assert len(runs) == 1
    run = runs[0]
    # the label's short id resolved to the commit; its subject, time and place in history known
    assert run["revision"] == revs[2] and run["subject"] == "commit 3" and run["rev_time"].startswith("2024-01-01T00:02")
    assert run["board"] == "qemu-virt-riscv64" and run["built_for"] == "qemu-icount" and run["ok"] == 3
    # --revision names the commit when the label does not; a label naming another one is refused
    plain = put(tmp_path, "b.log", icount("gcc12-O2"))
    p = add(db, plain, "--revision", revs[3], cwd=r)
    assert "revision " + revs[3][:12] in p.stdout
    bad = add(db, log, "--revision", revs[4], cwd=r, ok=False)
    assert bad.returncode == 2 and f"names revision {revs[2][:12]}" in bad.stderr
    none = add(db, put(tmp_path, "c.log", icount("nightly-build")), cwd=r, ok=False)
    assert none.returncode == 2 and "no revision" in none.stderr and "--revision" in none.stderr
    unknown = add(db, plain, "--revision", "0123456789ab", cwd=r, ok=False)
    assert unknown.returncode == 2 and "not a commit of the git work tree" in unknown.stderr
    # the config (label without its revision) keeps series apart: gcc12-O2 is its own
    runs = json.loads(bm("history", "list", "--db", db, "--format", "json", cwd=r).stdout)
    assert sorted(x["config"] for x in runs) == ["", "gcc12-O2"]


def test_add_refuses_what_check_refuses(db, repo, tmp_path):
    r, revs = repo
    lines = corpus.text(corpus.write_log([corpus.Bench("crc32", [11273] * 200)], 200,
                                         meta={"label": revs[0][:12]})).decode().splitlines()
    i = next(k for k, x in enumerate(lines) if '"type":"result"' in x)
    lines[i] = lines[i].replace('"p50":11273.000', '"p50":11274.000')   # its CRC no longer matches
    broken = put(tmp_path, "broken.log", ("\n".join(lines) + "\n").encode())
    good = put(tmp_path, "good.log", icount(revs[1][:12]))
    p = add(db, good, broken, cwd=r, ok=False)
    assert p.returncode == 1
    check = bm("check", broken)
    problems = [x.split("problem: ", 1)[1] for x in check.stdout.splitlines() if ": problem: " in x]
    assert problems and all(f"{broken}: problem: {m}" in p.stderr for m in problems)
    assert "refused, nothing of it stored" in p.stderr
    # the good log went in, nothing of the broken one
    runs = json.loads(bm("history", "list", "--db", db, "--format", "json", cwd=r).stdout)
    assert [x["source"] for x in runs] == [good]
    missing = add(db, str(tmp_path / "nope.log"), cwd=r, ok=False)
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_hosted_boots_and_repeats(db, repo, tmp_path):
    r, revs = repo
    log = put(tmp_path, "h.log", hosted("O2", reps=3))
    p = add(db, log, "--revision", revs[0], cwd=r)
    assert p.stdout.count("stored as run") == 3
    # the same hosted boots named as another revision: one boot given twice, refused whole
    q = add(db, log, "--revision", revs[1], cwd=r, ok=False)
    assert q.returncode == 2 and "never repeats its timings" in q.stderr
    assert len(json.loads(bm("history", "list", "--db", db, "--format", "json", cwd=r).stdout)) == 3


def test_deterministic_change_points_are_exact(db, repo, tmp_path):
    r, revs = repo
    logs = [put(tmp_path, f"r{i}.log", icount(rev[:12], extra=3 if i >= 4 else 0)) for i, rev in enumerate(revs)]
    # stored out of order: the store orders them by the repository's history
    add(db, *reversed(logs), cwd=r)
    got = changes(db, cwd=r)
    assert {(c["benchmark"], c["after_revision"]) for c in got} == {("known_loop", revs[4])}
    p50 = next(c for c in got if c["figure"] == "p50")
    assert p50["before_revision"] == revs[3] and p50["commits"] == 1 and p50["method"] == "exact"
    assert p50["before"] == 2001 and p50["after"] == 2004 and p50["delta"] == 3
    assert sorted(c["figure"] for c in got) == sorted(["min", "p50", "p90", "p99", "p999", "max", "mean"])
    # a figure list, a board and a benchmark filter
    assert [c["figure"] for c in changes(db, "--figure", "p50", cwd=r)] == ["p50"]
    assert changes(db, "--bench", "^crc32$", cwd=r) == []
    other = bm("history", "changes", "--db", db, "--board", "hifive1", cwd=r)
    assert other.returncode == 2 and "no runs" in other.stderr
    table = bm("history", "changes", "--db", db, cwd=r)
    assert "1 change point (7 figure changes) in 3 series" in table.stdout
    assert "min,p50,p90,p99,p999,max,mean" in table.stdout and "+3 (+0.15%)" in table.stdout


def test_a_change_with_the_kit_is_the_kits(db, repo, tmp_path):
    """A change point where the kit changed (the same version from another commit) is named as
    the kit's, and so is a gate it fails; one where a benchmark's iters changed says so."""
    r, revs = repo
    logs = [put(tmp_path, f"k{i}.log", icount(rev[:12], extra=2 if i >= 3 else 0, crc_iters=2 if i >= 5 else 1,
                                              meta={"kit_vcs": "0123456789ab"} if i >= 3 else None))
            for i, rev in enumerate(revs)]
    add(db, *logs, cwd=r)
    got = changes(db, "--figure", "p50", cwd=r)
    kl = next(c for c in got if c["benchmark"] == "known_loop")
    assert kl["after_revision"] == revs[3] and kl["cause"] == "kit", kl
    assert "the kit changed here (kit_vcs e8ad533 -> 0123456789ab): the kit's change, not the code's" in kl["note"]
    crc = next(c for c in got if c["benchmark"] == "crc32")
    assert crc["after_revision"] == revs[5] and crc["cause"] == "iters" and "iters 1 -> 2" in crc["note"], crc
    g = bm("history", "changes", "--db", db, "--gate", "p50:+0%", "--baseline", revs[0][:12], cwd=r)
    assert g.returncode == 1 and "the kit changed between them (kit_vcs e8ad533 -> 0123456789ab)" in g.stderr, g.stderr


def test_gate_against_last_change_point_and_baseline(db, repo, tmp_path):
    r, revs = repo
    logs = [put(tmp_path, f"r{i}.log", icount(rev[:12], extra=3 if i >= 4 else 0)) for i, rev in enumerate(revs)]
    add(db, *logs[:5], cwd=r)
    # the newest revision is the change: a gate of 0.1% fails, exactly, naming the baseline
    g = bm("history", "changes", "--db", db, "--gate", "p50:+0.1%", cwd=r)
    assert g.returncode == 1 and "gate failed" in g.stderr and "known_loop" in g.stderr and "(exact)" in g.stderr
    assert f"against 4 revisions {revs[0][:12]}..{revs[3][:12]}" in g.stderr
    assert bm("history", "changes", "--db", db, "--gate", "p50:+1%", cwd=r).returncode == 0
    # later revisions are judged against the level since that change point: the gate passes
    add(db, *logs[5:], cwd=r)
    later = bm("history", "changes", "--db", db, "--gate", "p50:+0%", cwd=r)
    assert later.returncode == 0 and "gate passed" in later.stderr
    # against a named baseline before the change it fails again
    base = bm("history", "changes", "--db", db, "--gate", "p50:+0%", "--baseline", revs[1][:10], cwd=r)
    assert base.returncode == 1 and f"against {revs[1][:12]}" in base.stderr
    assert bm("history", "changes", "--db", db, "--baseline", revs[1], cwd=r).returncode == 2
    # a name git knows (a tag) as the baseline
    git(r, "tag", "v1.0", revs[1])
    tag = bm("history", "changes", "--db", db, "--gate", "p50:+0%", "--baseline", "v1.0", cwd=r)
    assert tag.returncode == 1 and f"against {revs[1][:12]}" in tag.stderr


def test_status_change_is_a_change_point(db, repo, tmp_path):
    r, revs = repo
    logs = [put(tmp_path, f"r{i}.log", icount(rev[:12], fail=(i == 3))) for i, rev in enumerate(revs[:6])]
    add(db, *logs, cwd=r)
    got = changes(db, cwd=r)
    st = [(c["after_revision"], c["before"], c["after"]) for c in got if c["figure"] == "status"]
    assert st == [(revs[3], "ok", "trap"), (revs[4], "trap", "ok")]
    # crc32's figures did not change across the failure: no figure change point
    assert all(c["figure"] == "status" for c in got)


def test_noisy_change_points(db, repo, tmp_path):
    r, revs = repo
    # 8 revisions, 3 hosted runs each; 10% slower from the 5th on
    logs = [put(tmp_path, f"h{i}.log", hosted(rev[:12], shift=1.10 if i >= 4 else 1.0, seed=i, reps=3))
            for i, rev in enumerate(revs)]
    add(db, *logs, cwd=r)
    got = changes(db, cwd=r)
    assert {(c["benchmark"], c["after_revision"], c["figure"]) for c in got} == \
        {("crc32", revs[4], "p50"), ("memcpy_4k", revs[4], "p50")}
    for c in got:
        assert c["method"] == "rank" and c["p"] <= 0.001 and 0.08 < c["rel"] < 0.12


def test_noisy_series_without_change_has_none(db, repo, tmp_path):
    r, revs = repo
    logs = [put(tmp_path, f"h{i}.log", hosted(rev[:12], seed=i, reps=3)) for i, rev in enumerate(revs)]
    add(db, *logs, cwd=r)
    assert changes(db, cwd=r) == []
    t = bm("history", "changes", "--db", db, cwd=r)
    assert "0 change points" in t.stdout and "Mann-Whitney U" in t.stdout


def test_show_and_export(db, repo, tmp_path):
    r, revs = repo
    add(db, put(tmp_path, "a.log", icount(revs[0][:12])), put(tmp_path, "b.log", icount(revs[1][:12], extra=1)), cwd=r)
    show = bm("history", "show", "2", "--db", db, "--format", "json", cwd=r)
    rows = {x["benchmark"]: x for x in json.loads(show.stdout)}
    assert rows["known_loop"]["p50"] == 2002 and rows["known_loop"]["status"] == "ok"
    by_rev = bm("history", "show", revs[0][:8], "--db", db, cwd=r)
    assert by_rev.returncode == 0 and "run 1: revision " + revs[0] in by_rev.stdout
    # --records gives back the boot, which bm check reads as clean
    rec = bm("history", "show", "1", "--db", db, "--records", cwd=r)
    out = put(tmp_path, "back.log", rec.stdout.encode())
    assert bm("check", out).returncode == 0
    assert open(out, "rb").read() == b"".join(l + b"\n" for l in icount(revs[0][:12]).splitlines() if l.startswith(b"{"))
    csv = bm("history", "export", "--db", db, cwd=r)
    lines = csv.stdout.splitlines()
    assert lines[0].startswith("run,revision,rev_order,rev_time,run_time,board") and len(lines) == 1 + 2 * 3
    js = json.loads(bm("history", "export", "--db", db, "--format", "json", "--bench", "known", cwd=r).stdout)
    assert [x["p50"] for x in js] == [2001, 2002] and js[0]["hist"]["n"] == 200 and js[0]["rev_order"] == 1
    assert bm("history", "show", "99", "--db", db, cwd=r).returncode == 2


def test_report_writes_the_page(db, repo, tmp_path):
    r, revs = repo
    add(db, *[put(tmp_path, f"r{i}.log", icount(rev[:12], extra=3 if i >= 4 else 0)) for i, rev in enumerate(revs)],
        cwd=r)
    site = tmp_path / "site"
    p = bm("history", "report", "--db", db, "-o", site, cwd=r)
    assert p.returncode == 0, p.stderr
    assert sorted(os.listdir(site)) == ["chart.js-copyright.txt", "chart.min.js", "history_page.js", "index.html"]
    assert (site / "chart.min.js").read_bytes() == open("/usr/share/javascript/chart.js/chart.min.js", "rb").read()
    text = (site / "index.html").read_text()
    data = json.loads(text.split('<script id="bm-data" type="application/json">')[1].split("</script>")[0])
    marked = {(c["bench"], c["points"][m["index"]]["revision"]) for c in data["charts"] for m in c["changes"]}
    assert marked == {("known_loop", revs[4])}
    assert "http" not in text.replace("https://www.chartjs.org", "")
    # again into the same folder: its own files are rewritten; a folder with other files is refused
    assert bm("history", "report", "--db", db, "-o", site, cwd=r).returncode == 0
    (site / "mine.txt").write_text("x")
    q = bm("history", "report", "--db", db, "-o", site, cwd=r)
    assert q.returncode == 2 and "holds other files" in q.stderr


def test_bad_input(tmp_path):
    for action in ("add", "list", "show", "export", "changes", "report"):
        h = bm("history", action, "--help")
        assert h.returncode == 0 and "usage: bm history " + action in h.stdout, h.stderr
    assert bm("bisect", "--help").returncode == 0
    assert bm("history").returncode == 2
    missing = str(tmp_path / "none.db")
    p = bm("history", "list", "--db", missing)
    assert p.returncode == 2 and "no store at" in p.stderr and not os.path.exists(missing)
    (tmp_path / "other.db").write_bytes(b"not a database at all, just text" * 10)
    q = bm("history", "list", "--db", str(tmp_path / "other.db"))
    assert q.returncode == 2 and "other.db" in q.stderr
    no_crash(q)
    r = bm("history", "changes", "--db", missing, "--figure", "p42")
    assert r.returncode == 2
    s = bm("history", "changes", "--db", missing, "--window", "0")
    assert s.returncode == 2 and "whole number" in s.stderr
    t = bm("history", "add", "--db", "postgresql://nobody@/none?host=/nonexistent", str(tmp_path / "x"))
    assert t.returncode == 2 and "cannot connect" in t.stderr
    no_crash(t)
