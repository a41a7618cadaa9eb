# SPDX-License-Identifier: Apache-2.0
"""ctest lava.logs: LAVA's output read back. Consoles written by tests/tools/corpus.py are logged
by LAVA's own ShellLogger and YAMLLogger (so the escaping is LAVA's, not a copy of it) and read by
every bm command; LAVA's results exports are checked against records; the monitor pattern is
tried on whole and half-arrived records; and crafted consoles go through the real lava-run as a
flashed board whose serial console prints them (a trap, a corrupted line, a reset, a cut run)."""
import csv
import io
import json
import logging
import os
import random
import re

import pytest

import corpus
from conftest import bm, check_cases, no_crash, read_lava_log, require_lava, result_records


def lava_log(lines, output_yaml=False, chunk=(1, 3000), seed=0, job="pass"):
    """The log lava-run writes for a board that printed `lines`: LAVA's ShellLogger gets the
    console in chunks of random size, as pexpect hands it over."""
    require_lava()
    from lava_common.log import YAMLLogger
    from lava_dispatcher.shell import ShellLogger
    buf = io.StringIO()
    logger = YAMLLogger(f"bm-test-{random.random()}")
    logger.addHandler(logging.StreamHandler(buf))
    logger.setLevel(logging.DEBUG)
    logger.info("lava-dispatcher, installed at version: test")
    shell = ShellLogger(logger)
    text, rng, i = "\r\n".join(lines) + "\r\n", random.Random(seed), 0
    while i < len(text):
        n = rng.randint(*chunk)
        shell.write(text[i:i + n])
        i += n
    shell.flush(force=True)
    logger.results({"definition": "lava", "case": "job", "result": job})
    out = buf.getvalue()
    if output_yaml:        # lava-server's output.yaml: the same lines as a YAML list
        out = "".join("- " + l + "\n" for l in out.splitlines())
    return out.encode()


def records_of(lines):
    return [l for l in lines if l.startswith('{"type":"')]


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else corpus.text(data))
    return str(p)


# ---- reading a LAVA job log ----

@pytest.mark.parametrize("output_yaml", [False, True])
def test_console_comes_back_byte_for_byte(tmp_path, output_yaml):
    from bmlib.records.joblog import is_job_log, read_job_log
    lines = corpus.realistic14(hist=True)          # hist records: lines of several kB
    data = lava_log(lines, output_yaml=output_yaml)
    assert is_job_log(data) and not is_job_log(corpus.text(lines))
    console = read_job_log(data).console.decode().splitlines()
    assert records_of(console) == records_of(lines)
    path = write(tmp_path, "output.yaml" if output_yaml else "lava.log", data)
    c = bm("check", path)
    no_crash(c)
    assert c.returncode == 0 and "complete and clean" in c.stdout, c.stdout
    r = bm("report", path, "--format", "csv")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 15, r.stderr
    # The line numbers bm gives are the LAVA log's.
    meta_line = next(i for i, l in enumerate(data.decode().splitlines(), 1) if '"target"' in l and "kit_version" in l)
    assert f"(lines {meta_line}-" in c.stdout


def test_quotes_and_backslashes_survive(tmp_path):
    lines = corpus.write_log([corpus.Bench("crc32", [11273] * 50)], 50,
                             meta={"label": 'say "hi" \\ bye', "compiler": "GCC \"12\""})
    data = lava_log(lines)
    assert b'\\\\\\"hi\\\\\\"' in data          # LAVA wrote the quote as \" inside YAML's "..."
    c = bm("check", write(tmp_path, "lava.log", data))
    assert c.returncode == 0, c.stdout


def test_corrupted_record_is_caught_with_its_log_line(tmp_path):
    lines = corpus.realistic14(hist=False)
    data = lava_log(lines).decode().splitlines()
    n = next(i for i, l in enumerate(data) if '"target"' in l and "result" in l and "crc32" in l and "p50" in l)
    data[n] = data[n].replace('p50\\\\\\":11273.000', 'p50\\\\\\":11274.000', 1)
    assert "11274.000" in data[n]
    path = write(tmp_path, "lava.log", ("\n".join(data) + "\n").encode())
    c = bm("check", path)
    assert c.returncode == 1 and f"line {n + 1}: CRC mismatch" in c.stdout, c.stdout
    r = bm("report", path)
    assert r.returncode == 2 and "no complete, clean boot" in r.stderr


def test_two_boots_in_one_log(tmp_path):
    full = corpus.realistic14(hist=False)
    cut = full[:full.index(next(l for l in full if '"name":"list_walk"' in l))]   # reset mid-run
    path = write(tmp_path, "lava.log", lava_log(cut + full))
    c = bm("check", path)
    assert c.returncode == 1 and "board reset after" in c.stdout and "boot 2" in c.stdout, c.stdout
    r = bm("report", path, "--format", "csv")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 15 and "boot 1 skipped" in r.stderr


def test_not_a_lava_log_is_read_as_a_console(tmp_path):
    from bmlib.records.joblog import is_job_log
    lines = ['{"dt": "x"} is how a line of a LAVA log starts'] + corpus.realistic14(hist=False)
    assert not is_job_log(corpus.text(lines))
    assert bm("check", write(tmp_path, "c.log", lines)).returncode == 0


# ---- LAVA's results exports against the records ----

def export_cases(lines):
    """Cases as lava-server exports them (lavacli results JOB --yaml): measurement as its
    decimal column gives it back (10 places), None as 'None', test_case_id in the metadata."""
    out = []
    for name, status, p50, unit in result_records(lines):
        out.append({"name": name, "job": "42", "suite": "baremark", "result": "pass" if status == "ok" else "fail",
                    "measurement": f"{p50}0000000" if p50 else "None", "unit": unit or "", "level": "3.1",
                    "metadata": {"case": name, "definition": "baremark", "extra": [{"test_case_id": name}]}})
    out.append({"name": "job", "job": "42", "suite": "lava", "result": "pass", "measurement": "None", "unit": "",
                "metadata": {}})
    return out


def test_results_export_yaml_and_csv(tmp_path):
    import yaml
    lines = corpus.failing_log()
    console = write(tmp_path, "console.log", lines)
    cases = export_cases(lines)
    y = write(tmp_path, "results.yaml", yaml.safe_dump(cases).encode())
    p = bm("lava", "results", y, "--records", console)
    no_crash(p)
    assert p.returncode == 0 and "5 of 5 benchmarks agree" in p.stderr, p.stdout + p.stderr
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=["job", "suite", "name", "result", "measurement", "unit"], extrasaction="ignore")
    w.writeheader()
    w.writerows(cases)
    c = write(tmp_path, "results.csv", buf.getvalue().encode())
    assert bm("lava", "results", c, "--records", console).returncode == 0
    alone = bm("lava", "results", y)
    assert alone.returncode == 0 and "crc32" in alone.stdout and "--records" in alone.stderr
    cases[2]["measurement"] = "11280.0000000000"      # crc32: another figure than the record's
    cases[1]["result"] = "pass"                         # bad_insn trapped: not a pass
    bad = write(tmp_path, "bad.yaml", yaml.safe_dump(cases).encode())
    p = bm("lava", "results", bad, "--records", console)
    assert p.returncode == 1, p.stdout
    assert "LAVA says pass, the record says trap" in p.stdout and "differs from the record's p50" in p.stdout
    assert bm("lava", "results", console).returncode == 2       # a console is no results export
    garbage = write(tmp_path, "garbage.bin", bytes(random.Random(7).randrange(256) for _ in range(100000)))
    g = bm("lava", "results", garbage)
    no_crash(g)
    assert g.returncode == 2 and "neither a LAVA job log nor a results export" in g.stderr, g.stderr


# ---- the monitor pattern ----

def test_pattern_on_whole_and_arriving_records():
    from bmlib.lava import job as lava_job
    rx = re.compile(lava_job.PATTERN, re.DOTALL)            # as pexpect compiles it
    lines = corpus.failing_log()
    for line in (l for l in lines if l.startswith('{"type":"result"')):
        d = json.loads(line)
        m = rx.search(line + "\r\n")
        assert m, line
        g = m.groupdict()
        assert g["test_case_id"] == d["name"] and g["result"] == d["status"]
        if d["status"] == "ok":
            assert g["measurement"] == re.search(r'"p50":([0-9.]+),', line).group(1) and g["units"] == d["unit"]
            # Half arrived: no match before the p50 is complete, never a failed-looking one.
            cut = line.index('"p50":') + 8
            for k in range(10, cut):
                assert rx.search(line[:k]) is None, line[:k]
        else:
            assert g["measurement"] is None and g["units"] == ""
            k = line.index('"status":"') + len('"status":"') + len(d["status"])
            assert rx.search(line[:k]) is None
    assert rx.search(lines[0]) is None and not any(rx.search(l) for l in lines if '"type":"hist"' in l)
    assert set(lava_job.monitor()["fixupdict"].values()) == {"pass", "fail"}
    # The end string matches the end record whole, and no cut of it (a reset or a lost tail
    # would otherwise end the job complete and passing).
    end = re.compile(lava_job.END, re.DOTALL)
    line = next(l for l in lines if l.startswith('{"type":"end"'))
    assert end.search(line + "\r\n")
    assert not any(end.search(line[:k] + "\r\n") for k in range(len(line)))


# ---- job generation: bad input ----

def test_job_probes(tmp_path):
    img = tmp_path / "x.elf"
    img.write_bytes(b"\x7fELF")
    def board(**kw):
        b = {"board": "b", "image": str(img), "built_for": "hardware", "qemu": [], "flash": [], "exit_map": "direct"}
        b.update(kw)
        return write(tmp_path, "b.board.json", json.dumps(b).encode())
    p = bm("lava", "job", "--board-json", tmp_path / "missing.board.json")
    assert p.returncode == 2 and "cannot read" in p.stderr and "board.json" in p.stderr
    p = bm("lava", "job", "--board-json", board())
    assert p.returncode == 2 and "neither a QEMU line nor a flash command" in p.stderr
    p = bm("lava", "job", "--board-json", write(tmp_path, "bad.json", b"{nope"))
    assert p.returncode == 2 and "not JSON" in p.stderr
    hw = board(flash=["openocd", "-c", f"program {img} verify reset exit"])
    p = bm("lava", "job", "--board-json", hw, "--target", "qemu")
    assert p.returncode == 2 and "no QEMU line" in p.stderr
    p = bm("lava", "job", "--board-json", hw, "--image", "https://ci.example.org/7/x.elf")
    assert p.returncode == 0, p.stderr
    assert "url: https://ci.example.org/7/x.elf" in p.stdout and "sha256sum" not in p.stdout
    assert bm("lava", "job", "--board-json", hw, "--image", "ftp://h/x.elf").returncode == 2
    p = bm("lava", "job", "--board-json", hw, "--image", tmp_path / "nope.elf")
    assert p.returncode == 2 and "does not exist" in p.stderr
    p = bm("lava", "run", "--board-json", hw)
    assert p.returncode == 2 and "--connection" in p.stderr
    p = bm("lava", "device", "--board-json", hw, "--device-type-template")
    assert p.returncode == 0 and "flasher_deploy_commands" in p.stdout


# ---- the real lava-run, on a flashed board whose serial console prints a crafted log ----

def fake_board(tmp_path, lines, *extra):
    """A hardware board.json whose 'image' is a console: flashing copies it, the serial console
    (connection_command) prints it, the reset does nothing. bm lava run then runs the real
    lava-run: flasher deploy, minimal boot, monitors, with LAVA's serial connection settings."""
    require_lava()
    img = write(tmp_path, "console.elf", lines)
    flashed = str(tmp_path / "flashed.elf")
    b = {"board": "fakeboard", "image": img, "built_for": "hardware", "qemu": [], "flash": ["cp", img, flashed],
         "exit_map": "direct"}
    path = write(tmp_path, "fake.board.json", json.dumps(b).encode())
    work = str(tmp_path / "run")
    p = bm("lava", "run", "--board-json", path, "--connection", f"cat {flashed}", "--reset", "/bin/true",
           "--keep", work, "--quiet", "--timeout-min", "1", *extra)
    no_crash(p)
    return p, os.path.join(work, "lava.log")


def test_monitor_long_records(tmp_path):
    lines = corpus.realistic14(hist=True)
    p, log = fake_board(tmp_path, lines)
    assert p.returncode == 0, p.stderr
    console, cases, job = read_lava_log(log)
    check_cases(result_records(lines), cases)


def test_monitor_failed_benchmarks(tmp_path):
    lines = corpus.failing_log()
    p, log = fake_board(tmp_path, lines)
    assert p.returncode == 1, p.stderr             # benchmarks failed; LAVA and records agree
    console, cases, job = read_lava_log(log)
    assert job == "pass"
    check_cases(result_records(lines), cases)
    assert [c["result"] for c in cases] == ["pass", "fail", "pass", "fail", "fail"]


def test_monitor_corrupted_line(tmp_path):
    """LAVA's regex does not check CRCs: it makes a case of a damaged line. bm does."""
    lines = corpus.realistic14(hist=False)
    i = next(k for k, l in enumerate(lines) if l.startswith('{"type":"result"') and '"name":"matmul_16"' in l)
    lines[i] = lines[i].replace('"p50":30569.000', '"p50":30561.000', 1)
    p, log = fake_board(tmp_path, lines)
    assert p.returncode == 125, p.stderr
    assert "matmul_16" in p.stderr and "CRC mismatch" in p.stderr
    console, cases, job = read_lava_log(log)
    assert any(c["case"] == "matmul_16" and c["measurement"] == "30561.000" for c in cases)
    assert bm("lava", "results", log).returncode == 1


def test_monitor_board_reset(tmp_path):
    """A reset mid-run: LAVA's monitor does not restart at the second meta record, so its cases
    are the cut boot's results and then the whole second boot's; each still has its record."""
    full = corpus.realistic14(hist=False)
    cut = full[:full.index(next(l for l in full if '"name":"list_walk"' in l))]
    p, log = fake_board(tmp_path, cut + full)
    assert p.returncode == 125 and "board reset after" in p.stderr, p.stderr
    console, cases, job = read_lava_log(log)
    assert len(cases) == 4 + 14
    r = bm("lava", "results", log)
    assert r.returncode == 0 and "18 of 18 benchmarks agree" in r.stderr, r.stdout + r.stderr
    rep = bm("report", log, "--format", "csv")
    assert rep.returncode == 0 and len(rep.stdout.splitlines()) == 15


def test_monitor_cut_run(tmp_path):
    """No end record (the board hung): LAVA's job ends incomplete; what arrived is kept."""
    full = corpus.realistic14(hist=False)
    cut = full[:full.index(next(l for l in full if '"name":"matmul_16"' in l))]
    p, log = fake_board(tmp_path, cut)
    assert p.returncode == 125 and "the LAVA job did not finish" in p.stderr, p.stderr
    c = bm("check", log)
    assert c.returncode == 1 and "no end record" in c.stdout, c.stdout
