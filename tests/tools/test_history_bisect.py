# SPDX-License-Identifier: Apache-2.0
"""bm bisect against a fake build: a script that prints a boot's records (tests/tools/corpus.py)
whose figure comes from a file of the checked-out commit, so the answer is known. Deterministic
runs: the commit in at most ceil(log2(12)) + 1 runs; noisy runs repeated until decided; a noise
it cannot see through said so; commits that do not build skipped; the repository as it was found
on every way out (Ctrl-C and SIGTERM included); bad starts refused."""
import math
import os
import re
import signal
import subprocess
import time

import pytest
from conftest import BM, HERE, PY, bm, no_crash
from history_git import git

FAKE = r'''
import os, random, sys
sys.path.insert(0, {here!r})
import corpus
mode = sys.argv[1]
with open({count!r}, "a") as f:
    f.write("x")
v = open("value.txt").read().strip()
if v == "broken":
    print("error: this commit does not build")
    sys.exit(1)
if mode == "sleep":
    print("building...", flush=True)
    import time
    time.sleep(600)
if mode in ("exact", "stale", "moved"):
    b = [corpus.Bench("known_loop", [2001 + int(v)] * 100), corpus.Bench("crc32", [11273] * 100)]
    lines = corpus.write_log(b, 100, meta={{"board": "mps2-an386"}} if mode == "moved" and v == "10" else None)
    if mode == "stale":
        old = [corpus.Bench("known_loop", [2099] * 100), corpus.Bench("crc32", [11273] * 100)]
        lines = corpus.write_log(old, 100, meta={{"board": "qemu-sifive-u"}}) + lines
else:
    noise = float(os.environ.get("FAKE_JITTER", "0.003"))
    lines = corpus.hosted_runs(1 + int(v) / 100, seed=random.SystemRandom().randrange(1 << 30), jitter=noise)
print("[100%] Built target demo")
print("\n".join(lines))
'''


def make_proj(tmp_path, broken=None):
    """12 commits; value.txt (the figure's offset) 0 up to the 7th, 10 from the 8th on; `broken`
    in commit number `broken` (one that does not build). Returns (repo, commits, fake command,
    its counter of runs)."""
    r = tmp_path / "proj"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    for i in range(1, 13):
        (r / "value.txt").write_text("broken\n" if i == broken else "10\n" if i >= 8 else "0\n")
        (r / "notes.txt").write_text(f"commit {i}\n")
        git(r, "add", "-A")
        when = f"2024-01-01T00:{i:02d}:00Z"   # (the same commits, so the same choices of git bisect, each time)
        os.environ.update(GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)
        git(r, "commit", "-q", "-m", f"commit {i}")
    count = tmp_path / "count"
    fake = tmp_path / "fake_build.py"
    fake.write_text(FAKE.format(here=HERE, count=str(count)))
    return r, git(r, "log", "--reverse", "--format=%H").split(), [PY, str(fake)], count


@pytest.fixture
def proj(tmp_path):
    return make_proj(tmp_path)


def runs(count):
    return len(count.read_text()) if count.exists() else 0


def state(repo):
    """What bisect must leave as it found: the branch, the commit, the status, no bisect."""
    return (git(repo, "symbolic-ref", "-q", "HEAD"), git(repo, "rev-parse", "HEAD"),
            git(repo, "status", "--porcelain"), os.path.exists(repo / ".git" / "BISECT_START"))


def bisect(proj, good, bad, bench, mode, status=0, *opts, **kw):
    """bm bisect GOOD BAD --bench BENCH [opts] -- the fake build in MODE, its exit status checked."""
    r, revs, fake, count = proj
    p = bm("bisect", revs[good], revs[bad], "--bench", bench, *opts, "--", *fake, mode, cwd=r, timeout=600, **kw)
    no_crash(p)
    assert p.returncode == status, p.stderr
    return p


def test_deterministic_finds_the_commit_in_few_runs(proj):
    r, revs, fake, count = proj
    before = state(r)
    p = bisect(proj, 0, -1, "known_loop", "exact")
    assert f"first commit whose p50 of known_loop changed: {revs[7]} commit 8" in p.stdout
    assert f"p50 2001 at {revs[6][:12]} (before) -> p50 2011 at {revs[7][:12]} (+10, +0.50%)" in p.stdout
    assert runs(count) <= math.ceil(math.log2(12)) + 1
    assert f"{runs(count)} runs of COMMAND" in p.stderr
    assert state(r) == before
    # a figure that did not change between GOOD and BAD: said, exit 1
    q = bisect(proj, 0, 4, "known_loop", "exact", 1)
    assert "no change" in q.stderr
    assert state(r) == before


def test_a_commit_that_does_not_build_is_skipped(tmp_path):
    proj = make_proj(tmp_path, broken=6)
    revs = proj[1]
    # between the 4th and the 8th: the 6th does not build, bisect skips it and still decides
    p = bisect(proj, 3, 7, "known_loop", "exact")
    assert f"{revs[7]} commit 8" in p.stdout
    # (git bisect tries the 6th first: the middle of 5..8)
    assert f"{revs[5][:12]}: COMMAND (status 1) printed no records: error: this commit does not build" in p.stderr
    assert "not measured: skipped" in p.stderr


def test_noisy_runs_are_repeated_until_decided(proj):
    r, revs, fake, count = proj
    before = state(r)
    p = bisect(proj, 0, -1, "crc32", "noisy")
    assert f"{revs[7]} commit 8" in p.stdout and re.search(r"median of [5-9] runs", p.stdout)
    assert "differs from GOOD's runs" in p.stderr and "differs from BAD's runs" in p.stderr
    assert state(r) == before


def test_noise_it_cannot_see_through(proj):
    r, revs, fake, count = proj
    before = state(r)
    # 6 runs a side cannot reach p 0.001 (the rank test's smallest p is 0.0022): never decided
    p = bisect(proj, 0, -1, "crc32", "noisy", 1, "--max-runs", "6", "--alpha", "0.001")
    assert "cannot decide: GOOD" in p.stderr and "after 6 runs each" in p.stderr
    assert runs(count) == 12
    assert state(r) == before


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_leaves_the_repository_as_found(proj, sig):
    r, revs, fake, count = proj
    before = state(r)
    p = subprocess.Popen([PY, BM, "bisect", revs[0], revs[-1], "--bench", "crc32", "--", *fake, "sleep"],
                         cwd=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while runs(count) == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "interrupted" in err
    assert state(r) == before


def test_boots_of_another_build_are_refused(proj):
    """A COMMAND that prints another board's stale log before its own, or whose build at some
    commit is of another board, gives figures bisect must not judge as the code's."""
    r, revs, fake, count = proj
    before = state(r)
    p = bisect(proj, 0, -1, "known_loop", "stale", 2)
    assert "COMMAND printed boots of different builds at" in p.stderr and "board qemu-sifive-u" in p.stderr, p.stderr
    assert "first commit" not in p.stdout and state(r) == before
    q = bisect(proj, 0, -1, "known_loop", "moved", 2)
    assert "is not of GOOD's build: board qemu-virt-riscv64 (GOOD) vs mps2-an386" in q.stderr, q.stderr
    assert "first commit" not in q.stdout and state(r) == before


def test_bad_starts_are_refused(proj, tmp_path):
    r, revs, fake, count = proj
    cases = [
        (["bisect", revs[0], revs[-1], "--bench", "crc32"], r, "no COMMAND"),
        (["bisect", revs[0], revs[-1], "--", *fake, "exact"], r, "--bench NAME is required"),
        (["bisect", revs[0], revs[-1], "--bench", "crc32", "--", "no-such-build"], r, "no-such-build: not found"),
        (["bisect", revs[-1], revs[0], "--bench", "crc32", "--", *fake, "exact"], r, "is not an ancestor"),
        (["bisect", "nope", revs[0], "--bench", "crc32", "--", *fake, "exact"], r, "nope is not a commit"),
        (["bisect", revs[0], revs[-1], "--bench", "crc32", "--", *fake, "exact"], tmp_path, "not in a git work tree"),
    ]
    for args, cwd, msg in cases:
        p = bm(*args, cwd=cwd)
        assert p.returncode == 2 and msg in p.stderr, (args, p.stderr)
    (r / "notes.txt").write_text("edited\n")
    p = bm("bisect", revs[0], revs[-1], "--bench", "crc32", "--", *fake, "exact", cwd=r)
    assert p.returncode == 2 and "uncommitted changes" in p.stderr
    git(r, "checkout", "notes.txt")
    git(r, "bisect", "start")
    p = bm("bisect", revs[0], revs[-1], "--bench", "crc32", "--", *fake, "exact", cwd=r)
    assert p.returncode == 2 and "under way" in p.stderr
    git(r, "bisect", "reset")
    assert runs(count) == 0
