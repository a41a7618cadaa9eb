# SPDX-License-Identifier: Apache-2.0
"""What bm run shows and keeps (tests/tools/fake_board.py as the board): --show table hides the
records and keeps the header, table, summary and verdict; the saved console holds every record;
auto shows everything when the output is a pipe and hides records on a terminal (a pty); BM_SHOW
chooses for the run target; --board-json runs an image's QEMU command with its exit map and
saves <name>.run.log beside it, returning the firmware's status as it is."""
import json
import os
import pty
import subprocess

from conftest import BM, FAKE, PY, bm, no_crash


def is_record(line):
    return line.lstrip().startswith('{"type":')


def test_table_hides_records_and_save_keeps_them(tmp_path):
    log = tmp_path / "run.log"
    p = bm("run", "--show", "table", "--save", log, "--", PY, FAKE, "--log", "r14", "--status", "0")
    no_crash(p)
    assert p.returncode == 0, p.stderr
    shown = p.stdout.splitlines()
    assert shown and not any(is_record(x) for x in shown), p.stdout
    assert any(x.startswith("baremark: ") for x in shown)          # the verdict line
    saved = log.read_text().splitlines()
    records = [x for x in saved if is_record(x)]
    assert len(records) == 44
    # Everything else the board printed is shown, in order.
    assert [x for x in saved if not is_record(x)] == shown
    assert f"console saved to {log} (44 records)" in p.stderr
    assert bm("check", log).returncode == 0


def test_all_and_auto_on_a_pipe_show_records(tmp_path):
    for args, env in ((["--show", "all"], {}), ([], {}), ([], {"BM_SHOW": "all"})):
        p = bm("run", *args, "--", PY, FAKE, "--log", "r14", "--status", "0",
               env={**os.environ, **env})
        assert p.returncode == 0 and sum(map(is_record, p.stdout.splitlines())) == 44, (args, env)
    p = bm("run", "--", PY, FAKE, "--log", "r14", "--status", "0", env={**os.environ, "BM_SHOW": "table"})
    assert p.returncode == 0 and not any(map(is_record, p.stdout.splitlines()))
    bad = bm("run", "--", PY, FAKE, env={**os.environ, "BM_SHOW": "json"})
    no_crash(bad)
    assert bad.returncode == 2 and "BM_SHOW='json': use one of auto, table, all" in bad.stderr


def test_auto_on_a_terminal_hides_records():
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(PY, [PY, BM, "run", "--", PY, FAKE, "--log", "r14", "--status", "0"])
    out = bytearray()
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, st = os.waitpid(pid, 0)
    text = out.decode("utf-8", "replace").replace("\r\n", "\n")
    assert os.waitstatus_to_exitcode(st) == 0, text
    assert "baremark: " in text and '{"type":' not in text


def board_json(tmp_path, qemu, exit_map="direct"):
    path = tmp_path / "img.board.json"
    (tmp_path / "img.elf").touch()
    path.write_text(json.dumps({"board": "fake", "image": str(tmp_path / "img.elf"), "built_for": "qemu-icount",
                                "qemu": qemu, "exit_map": exit_map, "qemu_package": "qemu-fake", "flash": []}))
    return path


def test_board_json_runs_the_image_and_returns_its_status(tmp_path):
    for status in (0, 1, 3):
        p = bm("run", "--board-json", board_json(tmp_path, [PY, FAKE, "--log", "r14", "--status", str(status)]))
        no_crash(p)
        assert p.returncode == status, p.stderr
    assert (tmp_path / "img.run.log").exists()
    # The exit map comes from the board.json: isa-debug-exit's (v << 1) | 1.
    p = bm("run", "--board-json", board_json(tmp_path, [PY, FAKE, "--log", "r14", "--isa-exit"], "isa-debug-exit"))
    assert p.returncode == 0, p.stderr


def test_board_json_refusals(tmp_path):
    p = bm("run", "--board-json", board_json(tmp_path, []))
    no_crash(p)
    assert p.returncode == 2 and "no QEMU command for this image" in p.stderr
    p = bm("run", "--board-json", board_json(tmp_path, ["qemu-system-nonesuch"]))
    assert p.returncode == 2 and "install the Debian package qemu-fake" in p.stderr
    p = bm("run", "--board-json", tmp_path / "missing.board.json")
    assert p.returncode == 2 and "cannot read" in p.stderr
    p = bm("run", "--board-json", board_json(tmp_path, [PY]), "--", PY, FAKE)
    assert p.returncode == 2 and "give no command with it" in p.stderr


def test_board_json_not_built(tmp_path):
    """An image the build left unbuilt (tools/bm-size wrote <name>.not-built, the image is gone):
    status 2, the fit plan's reason and plan, nothing run, the console saved before kept."""
    path = board_json(tmp_path, [PY, FAKE, "--log", "r14"])
    (tmp_path / "img.run.log").write_text("the last run's console\n")
    (tmp_path / "img.elf").unlink()
    (tmp_path / "img.not-built").write_text("not built: RAM overflowed by 1234 B\nfit plan: what each selected "
                                            "benchmark needs\nBM_SELECT='^(small)$' would fit\n")
    p = bm("run", "--board-json", path)
    no_crash(p)
    assert p.returncode == 2, p.stderr
    assert "img.elf: not built: RAM overflowed by 1234 B" in p.stderr and "BM_SELECT='^(small)$'" in p.stderr
    assert "nothing run; the console saved before" in p.stderr
    assert (tmp_path / "img.run.log").read_text() == "the last run's console\n"
    # No marker and no image: not built either (nothing to boot), and said so.
    (tmp_path / "img.not-built").unlink()
    p = bm("run", "--board-json", path)
    assert p.returncode == 2 and "not built (no such file" in p.stderr, p.stderr
    assert (tmp_path / "img.run.log").read_text() == "the last run's console\n"
