# SPDX-License-Identifier: Apache-2.0
"""A board's QEMU line as LAVA needs it: its options as (option, value) pairs, sizes as -m takes
them, and what QEMU itself says of the machine when the line does not (RAM size, CPU model, the
NIC models it takes), asked over QMP with the machine paused and no image."""
import json
import re
import shlex
import shutil
import subprocess

from ..errors import UsageError


def option_groups(argv):
    """A QEMU argument list as (option, value or None): an option's value is the next argument
    when that does not start with '-' (true of every QEMU line the boards write)."""
    out, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("-") and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            out.append((a, argv[i + 1]))
            i += 2
        else:
            out.append((a, None))
            i += 1
    return out


def option_text(o, v):
    return o if v is None else f"{o} {shlex.quote(v)}"


def _cpu_name(qom_type):
    """A QOM CPU type (cortex-a53-arm-cpu, rv64-riscv-cpu) as -cpu takes it."""
    m = re.fullmatch(r"(.+)-[a-z0-9_]+-cpu", qom_type or "")
    return m.group(1) if m else None


def qemu_facts(binary, groups, package):
    """What the board's QEMU line gives when it does not say: its RAM size and CPU model. Asked
    of QEMU itself (QMP, machine paused, no image), so no board's defaults are copied here:
    LAVA's template always writes -m (and -cpu on some architectures), so they must be exact."""
    if shutil.which(binary) is None:
        raise UsageError(f"{binary} is not installed (apt-get install {package or 'qemu-system'}): bm lava "
                         f"asks it for the machine's RAM and CPU model; or give --memory and --cpu")
    keep = [g for g in groups if g[0] not in ("-kernel", "-nographic", "-serial", "-monitor", "-display",
                                              "-qmp", "-S", "-s", "-gdb", "-daemonize")]
    argv = [binary] + [x for o, v in keep for x in ((o,) if v is None else (o, v))]
    argv += ["-S", "-display", "none", "-monitor", "none", "-serial", "none", "-qmp", "stdio"]
    machine = next((v for o, v in groups if o in ("-machine", "-M") and v), "")
    script = [{"execute": "qmp_capabilities"}, {"execute": "query-memory-size-summary"},
              {"execute": "query-machines"}, {"execute": "query-cpus-fast"}]
    replies = _qmp(argv, script)
    ram = replies[1].get("base-memory") if isinstance(replies[1], dict) else None
    name = machine.split(",")[0]
    cpu = None
    for m in replies[2] if isinstance(replies[2], list) else []:
        if name in (m.get("name"), m.get("alias")) or (not name and m.get("is-default")):
            cpu = _cpu_name(m.get("default-cpu-type"))
    if cpu is None and isinstance(replies[3], list) and replies[3]:
        # A machine with a fixed CPU (raspi3b, microbit) ignores -cpu: name the one it has.
        path = replies[3][0].get("qom-path")
        t = _qmp(argv, [script[0], {"execute": "qom-get", "arguments": {"path": path, "property": "type"}}])
        cpu = _cpu_name(t[1] if isinstance(t[1], str) else None)
    if not isinstance(ram, int) or ram <= 0:
        raise UsageError(f"{binary} did not report machine {machine or '(default)'}'s RAM size")
    return ram, cpu


def nic_model(binary, groups):
    """LAVA's template always adds `-net nic,model=virtio`, which QEMU refuses on a machine
    whose only NIC is on board (sifive_u: cadence_gem; mps2: lan9118). QEMU lists the models a
    machine takes: None when virtio is one of them (or the machine takes none: QEMU then only
    warns), else the machine's own, which is also what it gets with no network options."""
    keep = [g for g in groups if g[0] in ("-machine", "-M", "-cpu")]
    argv = [binary] + [x for o, v in keep for x in ((o,) if v is None else (o, v))]
    argv += ["-S", "-display", "none", "-monitor", "none", "-serial", "none", "-net", "nic,model=help",
             "-qmp", "stdio"]
    try:
        p = subprocess.run(argv, input=b'{"execute":"qmp_capabilities"}\n{"execute":"quit"}\n',
                           capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = p.stdout.decode("utf-8", "replace").splitlines()
    if "Supported NIC models:" not in out:
        return None
    models = [m.strip() for m in out[out.index("Supported NIC models:") + 1:] if m.strip() and not m.startswith("{")]
    if not models or any(m.startswith("virtio-net") for m in models):
        return None
    return "model=" + models[0]


def _qmp(argv, commands):
    text = "".join(json.dumps(c) + "\n" for c in commands + [{"execute": "quit"}])
    try:
        p = subprocess.run(argv, input=text.encode(), capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise UsageError(f"{argv[0]} did not answer its QMP queries within 60 s")
    replies = []
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if "return" in d:
            replies.append(d["return"])
        elif "error" in d:
            replies.append(None)
    if len(replies) < len(commands):
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UsageError(f"{' '.join(argv[:4])} ... failed: {err[-1] if err else 'no QMP answer'}")
    return replies


def memory_text(size):
    """-m as LAVA writes it (`-m {{memory}}`: a plain number means MiB)."""
    if size % (1 << 20) == 0:
        return size >> 20
    if size % 1024 == 0:
        return f"{size >> 10}K"
    return f"{size}B"


def size_bytes(text):
    m = re.fullmatch(r"(\d+)([KMGT]?)B?", str(text).upper().replace("IB", ""))
    if not m:
        return None
    return int(m.group(1)) << {"": 20, "K": 10, "M": 20, "G": 30, "T": 40}[m.group(2)]
