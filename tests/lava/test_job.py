# SPDX-License-Identifier: Apache-2.0
"""ctest lava.job (every board): the LAVA job `bm lava job` writes for the kit's image validates
against LAVA's own job schema, runs the board's QEMU line once LAVA's qemu.jinja2 has rendered it
(bm lava job --verify), and carries the monitor that makes each benchmark a test case. A board
with a flash command also gets its hardware job (flasher deploy, minimal boot)."""
import hashlib
import json
import os
import re

import pytest
import yaml

from conftest import bm, env_path, no_crash, require_lava


@pytest.fixture(scope="module")
def board():
    path = env_path("BM_LAVA_KIT_JSON")
    with open(path) as f:
        return path, json.load(f)


def validate(job):
    require_lava()
    from lava_common.schemas import validate as lava_validate
    lava_validate(job, strict=True)     # raises voluptuous.Invalid when LAVA refuses it


def test_qemu_job(board, tmp_path):
    path, b = board
    if not b["qemu"]:
        # A hardware-only board (test_hardware_job writes its job): no qemu job, said plainly.
        p = bm("lava", "job", "--board-json", path, "--target", "qemu")
        assert p.returncode == 2 and "has no QEMU line" in p.stderr, p.stderr
        assert b["flash"], f"{b['board']} has neither a QEMU line nor a flash command"
        return
    out = tmp_path / "job.yaml"
    p = bm("lava", "job", "--board-json", path, "--target", "qemu", "--verify", "-o", out)
    no_crash(p)
    assert p.returncode == 0, p.stderr
    assert "validates against LAVA's job schema" in p.stderr
    job = yaml.safe_load(out.read_text())
    validate(job)
    ctx = job["context"]
    assert job["device_type"] == "qemu" and ctx["no_kvm"] is True
    assert "qemu-system-" + ctx["arch"] == os.path.basename(b["qemu"][0])
    # Every option of the board's line is in the job: -bios none, -icount, -semihosting ...
    line = " ".join(b["qemu"])
    for opt in ctx.get("extra_options", []):
        assert opt.replace("'", "") in line, opt
    for flag in ("-icount", "-bios", "-semihosting"):
        if flag in b["qemu"]:
            assert any(o.startswith(flag + " ") or o == flag for o in ctx.get("extra_options", [])), flag
    if "machine" in ctx:
        assert ctx["machine"] == b["qemu"][b["qemu"].index("-machine") + 1]
    kernel = job["actions"][0]["deploy"]["images"]["kernel"]
    assert kernel["image_arg"] == "-kernel {kernel}" and kernel["url"] == "file://" + b["image"]
    with open(b["image"], "rb") as f:
        assert kernel["sha256sum"] == hashlib.sha256(f.read()).hexdigest()
    mon = job["actions"][2]["test"]["monitors"][0]
    assert set(mon["fixupdict"]) == {"ok", "fail", "trap", "timeout", "stack_overflow", "scratch_overrun"}
    re.compile(mon["pattern"])
    if "has no architecture" in p.stderr:
        # The stock qemu device type cannot run this architecture: say so, and be right about it.
        from bmlib.lava import job as lava_job
        _, dev = lava_job.render_device("{% extends 'qemu.jinja2' %}", ctx, lava_job.templates_dir())
        assert ctx["arch"] not in dev["available_architectures"]
    else:
        assert "LAVA runs the board's QEMU line" in p.stderr, p.stderr


def test_bad_option_values_are_refused(board):
    """A job or device dictionary never carries a value LAVA or QEMU would choke on later."""
    path, b = board
    for args, why in ((["job", "--memory", "-5"], "need a size > 0"), (["job", "--memory", "512MB"], "need a size > 0"),
                      (["job", "--name", ""], "non-blank"), (["device", "--mac", "zz"], "MAC address")):
        p = bm("lava", *args, "--board-json", path)
        no_crash(p)
        assert p.returncode == 2 and why in p.stderr and not p.stdout, (args, p.stderr)


def test_hardware_job(board, tmp_path):
    path, b = board
    if not b["flash"]:
        return      # a QEMU-only board: no hardware job to write
    out = tmp_path / "job.yaml"
    p = bm("lava", "job", "--board-json", path, "--target", "hardware", "--verify", "-o", out)
    no_crash(p)
    assert p.returncode == 0, p.stderr
    job = yaml.safe_load(out.read_text())
    validate(job)
    assert job["device_type"] == b["board"]
    assert job["actions"][0]["deploy"]["to"] == "flasher"
    assert job["actions"][1]["boot"] == {"method": "minimal", "reset": True, "timeout": {"minutes": 2}}
    d = bm("lava", "device", "--board-json", path, "--target", "hardware", "--connection", "telnet localhost 7001",
           "--reset", "pduclient --port 3 --command reboot", "--render")
    assert d.returncode == 0, d.stderr
    dev = yaml.safe_load(d.stdout)
    cmd = dev["actions"]["deploy"]["methods"]["flasher"]["commands"][0]
    assert "{IMAGE}" in cmd and b["image"] not in cmd
    assert dev["commands"]["connect"] == "telnet localhost 7001"
    assert "minimal" in dev["actions"]["boot"]["methods"]
