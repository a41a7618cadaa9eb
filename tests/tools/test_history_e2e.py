# SPDX-License-Identifier: Apache-2.0
"""The issue's "done when", through docs/history.md itself: its shell blocks run in order, as
written (only /tmp paths moved under pytest's), in a user project of 12 commits
(tests/history/make-demo) whose 8th adds a few instructions to demo_mix, the kit built for
qemu-virt-riscv64 at each commit in one build tree. Checked: the change points mark exactly that
commit on that benchmark and nothing else, on SQLite and on a throwaway PostgreSQL server; the
CI gate fails at that commit only; bm bisect names it in at most ceil(log2 12) + 1 runs and leaves
the repository as it was; the trend page loads in headless Chromium with no console message and
no request off disk, its screenshot shows the charts and the change point where they are, its
tooltip and filters work; the LAVA recipe stores a lava-run log; the doc's outputs are what the
commands print; the false-alarm benchmark meets its target."""
import json
import math
import os
import re
import shutil
import subprocess

import pytest
from conftest import ROOT, bm, no_crash
from history_pg import pg_cluster  # noqa: F401 (fixture)

DOC = os.path.join(ROOT, "docs", "history.md")
CULPRIT = 8


def doc_blocks():
    """{name: text} of the doc's `<!-- test: NAME -->` and `<!-- output: NAME -->` blocks; every
    sh block must be one (nothing in the doc goes untested)."""
    text = open(DOC).read()
    out = {}
    for m in re.finditer(r"(?:<!-- (test|output): ([\w-]+) -->\n)?```(\w+)\n(.*?)```", text, re.S):
        kind, name, lang, body = m.groups()
        if lang == "sh":
            assert kind == "test", f"docs/history.md: a sh block with no test tag: {body[:60]!r}"
        if kind:
            out[(kind, name)] = body
    return out


BLOCKS = doc_blocks()


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo project after the doc's setup, replay and ci blocks; its history.db and logs."""
    tmp = tmp_path_factory.mktemp("history")
    env = dict(os.environ, PATH=os.path.join(ROOT, "tools") + os.pathsep + os.environ["PATH"])
    d = {"tmp": tmp, "env": env, "repo": tmp / "bm-demo", "out": {}}

    def run(name, cwd, ok=True):
        body = BLOCKS[("test", name)].replace("/tmp/bm-demo", str(d["repo"])) \
            .replace("/tmp/bm-host-linux", str(tmp / "host-linux"))
        p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", body], cwd=cwd, env=env, capture_output=True,
                           text=True, timeout=1500)
        no_crash(p)
        if ok:
            assert p.returncode == 0, f"docs block {name}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
        d["out"][name] = p
        return p
    d["run"] = run
    run("setup", ROOT)
    d["commits"] = subprocess.run(["git", "-C", str(d["repo"]), "log", "--reverse", "--format=%H"],
                                  capture_output=True, text=True, check=True).stdout.split()
    assert len(d["commits"]) == 12
    run("replay", d["repo"])
    run("ci", d["repo"])
    return d


def changes_of(db, cwd, *extra):
    p = bm("history", "changes", "--db", db, "--format", "json", *extra, cwd=cwd)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def only_the_culprit(changes, commits):
    got = {(c["benchmark"], c["after_revision"]) for c in changes}
    assert got == {("demo_mix", commits[CULPRIT - 1])}
    for c in changes:
        assert c["before_revision"] == commits[CULPRIT - 2] and c["commits"] == 1 and c["method"] == "exact"
        assert c["delta"] > 0


def test_replay_stores_every_commit_and_gates_once(demo):
    out = demo["out"]["replay"].stdout
    assert out.count("stored as run") == 12
    short = demo["commits"][CULPRIT - 1][:7]
    assert re.findall(r"gate failed at .*", out) == [f"gate failed at {short} demo_mix: one more mixing step"]
    ci = demo["out"]["ci"]
    assert "already stored" in ci.stdout and "gate passed" in ci.stderr


def test_changes_mark_exactly_the_commit(demo):
    r = demo["repo"]
    only_the_culprit(changes_of("history.db", r), demo["commits"])
    text = (r / "site" / "index.html").read_text()
    data = json.loads(text.split('<script id="bm-data" type="application/json">')[1].split("</script>")[0])
    marks = {(c["bench"], c["points"][m["index"]]["revision"]) for c in data["charts"] for m in c["changes"]}
    assert marks == {("demo_mix", demo["commits"][CULPRIT - 1])}
    assert sorted(c["bench"] for c in data["charts"]) == ["demo_bits", "demo_mix", "demo_sum"]
    assert all([p["revision"] for p in c["points"]] == demo["commits"] for c in data["charts"])


def test_the_same_on_postgresql(demo, pg_cluster):  # noqa: F811
    r = demo["repo"]
    url = pg_cluster.new_database()
    logs = sorted(str(p) for p in r.glob("run-*.log"))
    assert len(logs) == 12
    p = bm("history", "add", *logs, "--db", url, cwd=r)
    assert p.returncode == 0 and p.stdout.count("stored as run") == 12, p.stderr
    assert "already stored" in bm("history", "add", logs[0], "--db", url, cwd=r).stdout
    pg = changes_of(url, r)
    only_the_culprit(pg, demo["commits"])
    assert pg == changes_of("history.db", r)
    gate = bm("history", "changes", "--db", url, "--gate", "p50:+1%", "--baseline", demo["commits"][0], cwd=r)
    assert gate.returncode == 1 and "demo_mix" in gate.stderr and "demo_sum" not in gate.stderr
    site = demo["tmp"] / "pg-site"
    assert bm("history", "report", "--db", url, "-o", site, cwd=r).returncode == 0
    assert (site / "index.html").read_text().count('"changes": [{"index": 7') == 1


def test_more_commands(demo):
    p = demo["run"]("more", demo["repo"])
    assert "CHANGES: release" in p.stdout and "demo_mix" in p.stdout
    csv = (demo["repo"] / "history.csv").read_text().splitlines()
    assert len(csv) == 1 + 12 * 3 and "wrote 36 rows to history.csv" in p.stderr


def doc_output_is(name, p):
    """Every line the doc shows for block `name` is a line the block printed (either stream)."""
    want = [x.rstrip() for x in BLOCKS[("output", name)].strip().splitlines()]
    got = [x.rstrip() for x in (p.stdout + p.stderr).splitlines()]
    for line in want:
        assert line in got, f"docs/history.md's output of {name}: {line!r} not in\n" + "\n".join(got)


def test_docs_show_what_the_commands_print(demo):
    doc_output_is("replay", demo["out"]["replay"])
    doc_output_is("changes", demo["run"]("changes", demo["repo"]))


def _state(repo):
    def git(*a):
        return subprocess.run(["git", "-C", str(repo)] + list(a), capture_output=True, text=True).stdout
    return git("symbolic-ref", "HEAD"), git("rev-parse", "HEAD"), git("status", "--porcelain"), \
        os.path.exists(repo / ".git" / "BISECT_START")


def test_bisect_names_the_commit(demo):
    r = demo["repo"]
    before = _state(r)
    p = demo["run"]("bisect", r)
    assert f"first commit whose p50 of demo_mix changed: {demo['commits'][CULPRIT - 1]} " \
           "demo_mix: one more mixing step" in p.stdout
    runs = int(re.search(r"(\d+) runs of COMMAND", p.stderr).group(1))
    assert runs <= math.ceil(math.log2(12)) + 1
    assert _state(r) == before
    doc_output_is("bisect", p)


def test_lava_recipe(demo):
    if shutil.which("lava-run") is None or os.getuid() != 0:
        pytest.skip("lava-run (tools/setup --lava) runs as root only")
    p = demo["run"]("lava", demo["repo"])
    assert "already stored" in p.stdout or "stored as run" in p.stdout
    only_the_culprit(changes_of("history.db", demo["repo"]), demo["commits"])


def test_page_in_chromium(demo):
    import history_chromium as hc
    if not hc.available():
        pytest.fail("Debian's chromium is not installed (tools/setup --all installs it)")
    from matplotlib import image
    import numpy as np
    demo["run"]("report", demo["repo"])
    site = demo["repo"] / "site"
    url = (site / "index.html").as_uri()
    with hc.Browser(width=1280, height=1400) as b:
        b.open(url)
        assert b.eval("document.body.dataset.ready") == "1"
        assert b.eval("document.body.dataset.charts") == "3"
        rects = b.eval("Object.fromEntries([...document.querySelectorAll('section.card')].map(s => "
                       "[s.querySelector('h2').textContent, (r => [r.x, r.y, r.width, r.height])"
                       "(s.querySelector('canvas').getBoundingClientRect())]))")
        png = b.screenshot()
        shot = demo["tmp"] / "page.png"
        shot.write_bytes(png)
        # the tooltip at demo_mix's change point: the revision, its subject, its figures
        pos = b.eval("(() => { const c = document.querySelector('#' + [...document.querySelectorAll('section.card')]"
                     ".find(s => s.querySelector('h2').textContent === 'demo_mix').id + ' canvas');"
                     " const ch = Chart.getChart(c); const p = ch.getDatasetMeta(3).data[7];"
                     " const r = c.getBoundingClientRect(); return [r.x + p.x, r.y + p.y]; })()")
        b.mouse(*pos)
        tip = b.eval("(() => { const c = [...document.querySelectorAll('section.card')].find(s => "
                     "s.querySelector('h2').textContent === 'demo_mix').querySelector('canvas');"
                     " const t = Chart.getChart(c).tooltip; return [t.opacity, t.title, t.body.map(x => x.lines),"
                     " t.afterBody]; })()")
        # the filters
        shown = b.eval("(() => { const s = document.getElementById('bench'); s.value = 'demo_sum';"
                       " s.dispatchEvent(new Event('change')); return [...document.querySelectorAll('section.card')]"
                       ".filter(c => c.style.display !== 'none').map(c => c.querySelector('h2').textContent); })()")
        changed = b.eval("(() => { document.getElementById('bench').value = ''; const o ="
                         " document.getElementById('only-changed'); o.checked = true; o.dispatchEvent(new Event('change'));"
                         " return [...document.querySelectorAll('section.card')].filter(c => c.style.display !== 'none')"
                         ".map(c => c.querySelector('h2').textContent); })()")
        console, exceptions, requests = list(b.console), list(b.exceptions), list(b.requests)
    assert console == [] and exceptions == [], (console, exceptions)
    assert requests and all(u.startswith(site.as_uri() + "/") for u in requests), requests
    culprit = demo["commits"][CULPRIT - 1]
    assert tip[0] == 1 and tip[1] == [f"{culprit[:12]}  demo_mix: one more mixing step"]
    assert tip[2] == [["p50 520.5 cycles"]]
    assert any(x.startswith("change: min,p50,p90,p99,p999,max,mean +192.75 (+58.81%)") for x in tip[3])
    assert shown == ["demo_sum"] and changed == ["demo_mix"]
    # The screenshot: each chart's area holds the P50 line's blue; demo_mix's, and only it, the
    # change point's red; outside the cards the page is white.
    px = (image.imread(str(shot))[:, :, :3] * 255).round().astype(int)
    blue, red = np.array([31, 119, 180]), np.array([214, 39, 40])

    def count(rect, colour):
        x, y, w, h = (int(round(v)) for v in rect)
        area = px[y:y + h, x:x + w]
        return int((np.abs(area - colour).sum(axis=2) < 40).sum()), area

    assert set(rects) == {"demo_bits", "demo_mix", "demo_sum"}
    for name, rect in rects.items():
        n_blue, area = count(rect, blue)
        n_red, _ = count(rect, red)
        drawn = int((area.sum(axis=2) < 3 * 240).sum())
        assert n_blue > 300 and drawn > 0.02 * area.shape[0] * area.shape[1], (name, n_blue, drawn)
        assert (n_red > 150) == (name == "demo_mix"), (name, n_red)
    assert (px[-40:, :, :] >= 250).all(), "the bottom of the page is not blank"


def test_false_alarm_benchmark(demo):
    """The noisy method's own rate (the runs in shuffled orders) meets the target whatever the
    machine does; the run-order figure, which counts the machine's changes of speed, is printed."""
    p = demo["run"]("false-alarms", ROOT)
    rows = {order: (int(n), int(f)) for order, n, f in
            re.findall(r"^p50 +(run order|50 shuffles) +(\d+) +(\d+) ", p.stdout, re.M)}
    assert rows["run order"][0] == 126 and rows["50 shuffles"][0] == 6300, p.stdout
    assert rows["50 shuffles"][1] <= 63, p.stdout
    assert "in shuffled orders (the test's own rate) met" in p.stdout


def test_every_block_of_the_doc_ran(demo):
    skipped = {"lava"} if shutil.which("lava-run") is None or os.getuid() != 0 else set()
    assert {name for kind, name in BLOCKS if kind == "test"} - skipped == set(demo["out"])
