# SPDX-License-Identifier: Apache-2.0
"""A served image of the board ctest names (BM_SERVE_BOARD), built here with -DBM_SERVE=ON in a
folder of its own (BM_SERVE_WORK), against the enclosing build's own image (BM_SERVE_NORMAL_JSON):
`bm run --list` names the image's benchmarks; `--bench crc32 --samples 50` gives one ok crc32
with n = 50 and the p50 of the normal image's run (both deterministic, -icount); `--bench
crc32,matmul_16` both; one benchmark run twice in one boot gives the same records; every command
of a fuzz list (empty, too long, unknown, bad names and numbers, control and high bytes, QEMU's
monitor escape) gets one error record and the loop goes on; bm check accepts every console, and
finds what an edit of one breaks; docs/records.md names every key the served records carry."""
import json
import os
import re
import subprocess
import sys
from decimal import Decimal

import pytest

# tests/tools/conftest.py: the kit's paths, bmlib importable, no bytecode written, and tools/bm
# run as a user runs it
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from conftest import ROOT, bm  # noqa: E402
from bmlib.commands.run import map_status  # noqa: E402
from bmlib.records import frame, log, session  # noqa: E402
from bmlib.records.board import load_board  # noqa: E402

CLOCK = {"cycle_hz", "p50_ns", "mean_ns", "ops_per_s"}   # follow the clock's phase (tools/bench/record-diff)
# A counter coarser than an instruction (Cortex-M SysTick: 40 instructions a tick under -icount)
# gives every figure the phase of the kit's code before it: which batches straddle one more tick
# edge. Between two boots, or two runs in one, the same there means what tools/bench/record-diff
# holds invariant, and a p50 within one tick of a batch.
COARSE = {"systick_ticks", "timer_ticks"}
INVARIANT = {"type", "format", "name", "status", "unit", "iters", "n", "flags", "div", "topk", "bytes",
             "short_interval"}


def env(name):
    v = os.environ.get(name)
    if not v:
        pytest.fail(f"{name} is not set (ctest sets it: tests/serve/CMakeLists.txt)")
    return v


@pytest.fixture(scope="module")
def served():
    """The served image's board.json, built here (with the enclosing build's C library)."""
    work, board = env("BM_SERVE_WORK"), env("BM_SERVE_BOARD")
    cmake = os.environ.get("BM_SERVE_CMAKE", "cmake")
    libc = os.environ.get("BM_SERVE_LIBC", "")
    for cmd in ([cmake, "-S", ROOT, "-B", work, "-G", "Ninja", f"-DBM_BOARD={board}", f"-DBM_LIBC={libc}",
                 "-DBM_SERVE=ON"],
                [cmake, "--build", work, "--target", "baremark", "-j2"]):
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return os.path.join(work, "baremark.board.json")


@pytest.fixture(scope="module")
def normal(tmp_path_factory):
    """The enclosing build's image's run: its results by name."""
    path = tmp_path_factory.mktemp("normal") / "normal.log"
    p = bm("run", "--quiet", "--save", path, "--board-json", env("BM_SERVE_NORMAL_JSON"), timeout=600)
    assert p.returncode == 0, p.stderr
    bt = log.analyze(path.read_bytes(), str(path)).last_complete()
    return {b.name: b.result for b in bt.benches}


def same_p50(a, b):
    """Two ok results' p50 alike: equal, or on a coarse counter within a tick of a batch."""
    if a.get("unit") not in COARSE:
        return a.get("p50") == b.get("p50")
    if a.get("iters") != b.get("iters"):
        return abs(a.get("p50") - b.get("p50")) <= a.get("p50") / 100
    return abs(a.get("p50") - b.get("p50")) <= Decimal(1) / a.get("iters") + Decimal("0.001")


def results(path):
    """(the boot's results in order, bm check's problems) of a saved console."""
    lg = log.analyze(open(path, "rb").read(), str(path))
    bt = lg.last_complete()
    return ([b.result for b in bt.benches if b.result is not None] if bt else []), [p.msg for p in lg.problems]


def checked(path):
    p = bm("check", path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "complete and clean" in p.stdout


def test_list_names_its_benchmarks(served, normal, tmp_path):
    p = bm("run", "--board-json", served, "--list", "--save", tmp_path / "list.log")
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == sorted(normal), p.stdout
    checked(tmp_path / "list.log")


def test_one_benchmark_50_samples(served, normal, tmp_path):
    p = bm("run", "--board-json", served, "--bench", "crc32", "--samples", 50, "--save", tmp_path / "one.log")
    assert p.returncode == 0, p.stderr
    got, problems = results(tmp_path / "one.log")
    assert not problems
    assert [(r.name, r.get("status"), r.get("n")) for r in got] == [("crc32", "ok", 50)]
    assert same_p50(got[0], normal["crc32"]), (got[0].get("p50"), normal["crc32"].get("p50"))
    assert normal["crc32"].get("n") != 50   # (the normal image's own samples: the p50 is not the count's)
    checked(tmp_path / "one.log")


def test_two_benchmarks(served, normal, tmp_path):
    p = bm("run", "--board-json", served, "--bench", "crc32,matmul_16", "--save", tmp_path / "two.log")
    assert p.returncode == 0, p.stderr
    got, problems = results(tmp_path / "two.log")
    assert not problems
    assert [(r.name, r.get("status")) for r in got] == [("crc32", "ok"), ("matmul_16", "ok")]
    for r in got:
        assert same_p50(r, normal[r.name]) and r.get("n") == normal[r.name].get("n"), r.name
    checked(tmp_path / "two.log")


class Served:
    """The served image's console, driven directly (bmlib.records.session); saved when ended."""

    def __init__(self, board_json, path):
        b = load_board(board_json)
        self.exit_map, self.path = b.get("exit_map"), path
        self.s = session.Session(session.serial_stdio(b["qemu"]))
        self.ready = self.s.ready(60)

    def reply(self, line):
        return self.s.command(line, 120)

    def end(self):
        try:
            end = self.s.command(b"end", 120)
            status = map_status(self.s.finish(30), self.exit_map)
        finally:
            self.s.stop()
        open(self.path, "wb").write(bytes(self.s.data))
        return end, status


def same(a, b, skip=()):
    """Two records alike but for their place (seq, crc), the clock's phase and `skip` (on a coarse
    counter: in what does not follow the tick's phase)."""
    drop = {"seq", "crc"} | CLOCK | set(skip)
    keep = (INVARIANT if a.get("unit") in COARSE else set(a.data) | set(b.data)) - drop
    return {k: v for k, v in a.data.items() if k in keep} == {k: v for k, v in b.data.items() if k in keep}


def test_one_benchmark_twice_in_one_boot(served, tmp_path):
    s = Served(served, tmp_path / "twice.log")
    first = s.reply(b"run crc32 samples 50")
    second = s.reply(b"run crc32 samples 50")
    _, status = s.end()
    assert status == 0
    assert [r.type for r in first] == [r.type for r in second] == ["start", "result", "hist", "done"]
    for a, b in zip(first, second):
        skip = ("run_cycles", "body_cycles", "user_cycles") if a.type == "done" else ()
        assert same(a, b, skip), (a.text, b.text)
    assert first[1].get("n") == 50
    checked(tmp_path / "twice.log")


# Each malformed command line and the reason its error record gives.
FUZZ = [
    (b"", "empty command"),
    (b"     ", "empty command"),
    (b"x" * 121, "line too long"),
    (b"run crc32 " + b"samples 5 " * 500, "line too long"),
    (b"LIST", "unknown command"),
    (b"lisT", "unknown command"),
    (b"{\"type\":\"meta\",\"format\":2,\"seq\":0,\"crc\":\"00000000\"}", "unknown command"),
    (b"list now", "unexpected word"),
    (b"id id", "unexpected word"),
    (b"end please", "unexpected word"),
    (b"run", "no benchmarks named"),
    (b"run nope", "unknown benchmark"),
    (b"run crc32,nope", "unknown benchmark"),
    (b"run crc32,", "not a benchmark name (an empty one)"),
    (b"run ,crc32", "not a benchmark name (an empty one)"),
    (b"run crc32,,matmul_16", "not a benchmark name (an empty one)"),
    (b"run 9lives", "not a benchmark name"),
    (b"run crc-32", "not a benchmark name"),
    (b"run *,crc32", "not a benchmark name"),
    (b"run crc32 samples", "option without its number"),
    (b"run crc32 samples 0", "number out of range"),
    (b"run crc32 samples 10000001", "number out of range"),
    (b"run crc32 samples 18446744073709551617", "number out of range"),
    (b"run crc32 samples -5", "not a number"),
    (b"run crc32 samples 5.0", "not a number"),
    (b"run crc32 samples 0x10", "not a number"),
    (b"run crc32 warmup 0", "number out of range"),
    (b"run crc32 warmup 257", "number out of range"),
    (b"run crc32 samples 5 samples 5", "option given twice"),
    (b"run crc32 fast", "unexpected word"),
    (b"\x00", "not printable"),
    (b"run crc32\t", "not printable"),
    (b"\x01x", "not printable"),                 # QEMU's monitor escape, Ctrl-A x: must reach the image
    (b"\x01c", "not printable"),
    (b"run \x1b[Acrc32", "not printable"),
    (bytes(range(0x80, 0x100)), "line too long"),
    (bytes(range(0xe0, 0x100)), "not printable"),
    (b"\xef\xbb\xbflist", "not printable"),       # a UTF-8 byte order mark
]


def test_fuzz_each_refused_and_the_loop_goes_on(served, tmp_path):
    s = Served(served, tmp_path / "fuzz.log")
    line_max = s.ready.get("line_max")
    assert line_max == 120
    for line, reason in FUZZ:
        reply = s.reply(line)
        assert [r.type for r in reply] == ["error"], (line, [r.text for r in reply])
        err = reply[0]
        assert err.get("reason") == reason, (line, err.text)
        cmd = err.get("command")
        assert len(cmd) <= line_max and all(" " <= c <= "~" for c in cmd), err.text
    # CR LF and a lone CR end a line as LF does; the loop still runs a benchmark
    assert [r.type for r in s.reply(b"list\r\n")] == ["list"]
    assert [r.type for r in s.reply(b"id\r")] == ["id"]
    reply = s.reply(b"run crc32 samples 5 warmup 12")
    assert [r.type for r in reply] == ["start", "result", "hist", "done"]
    assert reply[1].get("status") == "ok" and reply[1].get("n") == 5 and reply[1].get("warmup")["batches"] >= 12
    end, status = s.end()
    assert status == 0
    got, problems = results(tmp_path / "fuzz.log")
    assert not problems and [r.name for r in got] == ["crc32"]
    checked(tmp_path / "fuzz.log")


def test_refusals(served, tmp_path):
    p = bm("run", "--board-json", served, "--bench", "nope", "--save", tmp_path / "nope.log")
    assert p.returncode == 2 and "unknown benchmark 'nope'" in p.stderr, p.stderr
    p = bm("run", "--board-json", served, "--bench", "crc32", "--warmup", 300, "--save", tmp_path / "w.log")
    assert p.returncode == 2 and "number out of range '300'" in p.stderr, p.stderr
    # (an image that is not served: refused, and the console saved before, a real run's, kept)
    (tmp_path / "normal.log").write_text("the console of an earlier run\n")
    p = bm("run", "--board-json", env("BM_SERVE_NORMAL_JSON"), "--list", "--save", tmp_path / "normal.log",
           timeout=600)
    assert p.returncode == 2 and "not a served one" in p.stderr, p.stderr
    assert (tmp_path / "normal.log").read_text() == "the console of an earlier run\n", "the saved console was replaced"
    p = bm("run", "--board-json", served, "--samples", 5)
    assert p.returncode == 2 and "--samples and --warmup go with --bench" in p.stderr, p.stderr


def edited(path, out, edit):
    """The console at `path` with one record changed by edit(dict) (None: the record dropped),
    its CRC made right again: bm check must judge what it says, not the damage."""
    lines = []
    for ln in open(path, "rb").read().split(b"\n"):
        if ln.startswith(b'{"type":'):
            d = frame.loads(ln.decode())
            d.pop("crc")
            new = edit(d)
            if new is None:
                continue
            ln = frame.dump(new).encode()
        lines.append(ln)
    open(out, "wb").write(b"\n".join(lines))
    return [p.msg for p in log.analyze(open(out, "rb").read(), str(out)).problems]


def test_check_finds_edits(served, tmp_path):
    s = Served(served, tmp_path / "base.log")
    for line in (b"list", b"id", b"nope"):
        s.reply(line)
    s.reply(b"run crc32,matmul_16 samples 20")
    s.end()
    base = tmp_path / "base.log"
    checked(base)

    def at(rtype, key, value, when=lambda d: True):
        def edit(d):
            if d["type"] == rtype and when(d):
                d[key] = value
            return d
        return edit
    cases = [
        (at("done", "results", 1), "results = 1, but 2 result records came"),
        (at("done", "samples", 30), "n = 20, but its command's done record says samples = 30"),
        (at("done", "command", "run matmul_16,crc32 samples 20"), "its command names matmul_16, crc32, but crc32, "
                                                                  "matmul_16 ran"),
        (at("ready", "commands", 7, lambda d: d["seq"] == 1), "commands = 7, but it is ready record 1"),
        (at("list", "names", ["matmul_16", "crc32"]), "names are not in the run's order"),
        (at("list", "benchmarks", 3), "but the meta record's benchmarks"),
        (at("id", "board", "x"), "board = \"x\", but the meta record's board"),
        (at("error", "word", "zzz"), "word = \"zzz\" is not part of its command"),
        (at("error", "command", "ba\x01d"), "holds a character a command line cannot"),
        (at("end", "results", 3), "results = 3, but the boot's run commands gave 2 results"),
        (at("end", "exit_status", 2), "exit_status = 2 but 2 of 2 results are ok (expected 0)"),
        (at("start", "of", 3, lambda d: d["name"] == "crc32"), "of = 3: it is start 1 of the 2 of its command"),
    ]
    for i, (edit, want) in enumerate(cases):
        problems = edited(base, tmp_path / f"e{i}.log", edit)
        assert any(want in p for p in problems), (want, problems)
    # a record of a served boot's type in a boot that is not served
    problems = edited(base, tmp_path / "unserved.log", lambda d: {k: v for k, v in d.items() if k != "serve"})
    assert any("record type \"ready\" is not in format 2" in p for p in problems), problems


def served_docs():
    """{record type: {key}} of docs/records.md's "Served images" section (its ### tables)."""
    text = open(os.path.join(ROOT, "docs", "records.md"), encoding="utf-8").read()
    part = text.split("## Served images", 1)[1]
    out = {}
    for m in re.finditer(r"^### `(\w+)`.*?\n(.*?)(?=^##|\Z)", part, re.M | re.S):
        keys = set()
        for ln in m.group(2).split("\n"):
            if ln.startswith("| `"):
                keys |= set(re.findall(r"`(\w+)`", ln.strip("|").split(" | ")[0]))
        out[m.group(1)] = keys
    return out


def test_documented_keys(served, tmp_path):
    s = Served(served, tmp_path / "keys.log")
    for line in (b"list", b"id", b"run nope", b"run crc32 samples 3"):
        s.reply(line)
    s.end()
    got = {}
    for ln in open(tmp_path / "keys.log", encoding="utf-8"):
        if ln.startswith('{"type":'):
            r = json.loads(ln)
            got.setdefault(r["type"], set()).update(r)
    doc = served_docs()
    assert set(doc) == {"meta", "ready", "error", "list", "id", "done"}, sorted(doc)
    framing = {"type", "format", "seq", "crc"}
    for t in ("ready", "error", "list", "id", "done"):
        assert got[t] - framing == doc[t], (t, got[t] - framing, doc[t])
    assert doc["meta"] <= got["meta"], doc["meta"] - got["meta"]
