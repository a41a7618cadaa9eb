# SPDX-License-Identifier: Apache-2.0
"""The LAVA job of an image from its <name>.board.json (a qemu job running the board's own QEMU
line, or a flasher deploy and serial console), with the monitor that makes each result a test
case; the device dictionary a lab needs, rendered with LAVA's templates to check LAVA's line."""
import hashlib
import os
import re
import shlex
import sys
from urllib.parse import urlparse

from .. import FORMAT
from ..errors import UsageError
from ..records import rules
from ..records.joblog import need_yaml
from .cases import SUITE
from .qemu import memory_text, nic_model, option_groups, option_text, qemu_facts, size_bytes


def _opening(rtype):
    """The opening of a record of this type as the firmware prints it (docs/records.md)."""
    return r'\{"type":"' + rtype + r'","format":' + str(FORMAT) + ","


# Each monitor string is a regex (pexpect, DOTALL): `[^\n]` keeps a match inside one line.
START = _opening("meta") + r'"seq":0,'
# The end record whole, to its checksum: a record cut by a reset or a lost line is no end.
END = _opening("end") + r'[^\n]*,"crc":"[0-9a-f]{8}"\}'
# One result record, either shape. LAVA reports every named group, an unmatched one as None, and
# lava-server drops a case whose units are None (its units column is NOT NULL): so `units` is
# empty, never None, for a failed record (which has no unit); `measurement` stays None there (a
# NULL measurement is allowed). An ok record must show its unit and a complete p50 (the `,` after
# it) before it matches, so a record still arriving is never taken for a failed one. The match
# ends there, early in the line: LAVA's pexpect looks only at the last 4000 characters of what it
# has not consumed, so the sooner a match ends, the less a burst of console output can hide.
PATTERN = (_opening("result") + r'"seq":[0-9]+,"name":"(?P<test_case_id>[^"\n]+)",'
           r'"status":"(?P<result>(?P<ok>ok)|(?!ok")[a-z_]+)"'
           r'(?(ok)[^\n]*?,"unit":")(?P<units>(?(ok)[a-z_]+|))'
           r'(?(ok)"[^\n]*?,"p50":(?P<measurement>[0-9]+\.[0-9]{3}),)')
# qemu.jinja2 (lava-server 2023.01) writes `-machine {{machine}}` and `-cpu {{cpu}}` only for
# these architectures (with defaults that may not be the board's); elsewhere both stay options.
TEMPLATE_MACHINE_CPU = ("riscv64", "aarch64", "arm64", "arm")
URL_SCHEMES = ("http", "https", "file", "scp")     # what LAVA's download action fetches
TEMPLATE_DIRS = ("/etc/lava-server/dispatcher-config/device-types", "/usr/share/lava-server/device-types",
                 "/var/cache/baremark/lava-server/device-types")
SETUP_HINT = "tools/setup --lava installs lava-dispatcher and fetches lava-server's device-type templates"


def image_url(board, image, path):
    """The URL LAVA downloads the image from, and its sha256 when it is a local file (LAVA then
    checks what it downloaded)."""
    if image and "://" in image:
        u = urlparse(image)
        if u.scheme not in URL_SCHEMES or not (u.netloc or u.path):
            raise UsageError(f"--image {image}: LAVA downloads {', '.join(URL_SCHEMES)} URLs")
        if u.scheme != "file":
            return image, None
        image = u.path
    image = image or board.get("image")
    if not image:
        raise UsageError(f"{path}: no \"image\" and no --image given")
    image = os.path.abspath(image)
    if not os.path.isfile(image):
        raise UsageError(f"image {image} does not exist (build it first, or give --image URL)")
    h = hashlib.sha256()
    with open(image, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return "file://" + image, h.hexdigest()


def qemu_context(board, path, cpu=None, memory=None):
    """The job context that makes LAVA's qemu device type run the board's own QEMU line: the
    architecture from the binary's name, machine and CPU where the template writes them, the
    RAM size as -m, and every other option of the line as extra_options (deterministic -icount,
    -bios none, -semihosting, the exit device, ...). -nographic and -kernel are LAVA's own."""
    argv = board["qemu"]
    m = re.fullmatch(r"qemu-system-([a-z0-9_]+)", os.path.basename(argv[0]))
    if not m:
        raise UsageError(f"{path}: the QEMU line starts with {argv[0]!r}, not qemu-system-ARCH")
    arch = m.group(1)
    groups = option_groups(argv[1:])
    if not any(o == "-kernel" for o, _ in groups):
        raise UsageError(f"{path}: the QEMU line has no -kernel; LAVA's qemu boot passes the image with -kernel")
    machine = next((v for o, v in groups if o in ("-machine", "-M")), None)
    line_cpu = next((v for o, v in groups if o == "-cpu"), None)
    templ = arch in TEMPLATE_MACHINE_CPU
    ctx = {"arch": arch, "no_kvm": True}
    extra = []
    for o, v in groups:
        if o in ("-kernel", "-nographic", "-m"):
            continue
        if o == "-monitor":
            ctx["monitor"] = v
            continue
        if templ and o in ("-machine", "-M", "-cpu"):
            continue
        extra.append(option_text(o, v))
    given_cpu = cpu
    if memory is None or (templ and cpu is None and line_cpu is None):
        ram, qcpu = qemu_facts(argv[0], groups, board.get("qemu_package"))
        memory = memory if memory is not None else memory_text(ram)
        cpu = cpu or qcpu
    if templ:
        if not machine:
            raise UsageError(f"{path}: the QEMU line has no -machine (LAVA's template would pick one)")
        ctx["machine"] = machine
        ctx["cpu"] = line_cpu or cpu
        if not ctx["cpu"]:
            raise UsageError(f"cannot tell the CPU model of machine {machine}: give --cpu")
    elif given_cpu and not line_cpu:
        extra.insert(0, option_text("-cpu", given_cpu))     # only when asked: QEMU's default otherwise
    ctx["memory"] = memory
    model = nic_model(argv[0], groups)
    if model:
        ctx["model"] = model
    if extra:
        ctx["extra_options"] = extra
    return ctx


def monitor():
    return {"name": SUITE, "start": START, "end": END, "pattern": PATTERN,
            "fixupdict": {s: "pass" if s == "ok" else "fail" for s in rules.STATUSES}}


def flashed_file(board, path):
    """The file the flash command writes (the .elf, or a .hex/.bin made from it) and the
    command with that file as LAVA's {IMAGE} placeholder."""
    flash = board.get("flash") or []
    stem = os.path.splitext(board.get("image", ""))[0]
    pat = re.compile(re.escape(stem) + r"\.[A-Za-z0-9]+") if stem else None
    target = None
    for a in flash:
        m = pat.search(a) if pat else None
        if m:
            target = m.group(0)
            break
    if target is None:
        raise UsageError(f"{path}: the flash command does not name the image ({stem}.*)")
    # (a Tcl-braced path, openocd's "program {PATH}" for paths with spaces, is LAVA's bare {IMAGE})
    return target, shlex.join([a.replace("{" + target + "}", target).replace(target, "{IMAGE}") for a in flash])


def build_job(board, path, args):
    """The LAVA job (a dict) for the board: `qemu` for a QEMU board, or a flasher deploy and a
    minimal boot (serial console) for hardware."""
    target = args.target
    if target == "auto":
        if board.get("qemu") and board.get("built_for") != "hardware":
            target = "qemu"
        elif board.get("flash"):
            target = "hardware"
        elif board.get("qemu"):
            target = "qemu"
        else:
            raise UsageError(f"{path}: board {board['board']} has neither a QEMU line nor a flash command: "
                             f"nothing LAVA can run")
    if target == "qemu" and not board.get("qemu"):
        raise UsageError(f"{path}: board {board['board']} has no QEMU line (a hardware board: --target hardware)")
    if target == "hardware" and not board.get("flash"):
        raise UsageError(f"{path}: board {board['board']} has no flash command (board.cmake BM_FLASH)")
    if target == "hardware" and board.get("built_for", "hardware") != "hardware":
        print(f"bm lava job: note: {os.path.basename(board.get('image', '?'))} was built for "
              f"{board.get('built_for')}; its records will say so (-DBM_FOR_HARDWARE=ON builds for the board)",
              file=sys.stderr)
    tmin = args.timeout_min
    if target == "hardware":
        url, sha = image_url(board, args.image or flashed_file(board, path)[0], path)
    else:
        url, sha = image_url(board, args.image, path)
    name = args.name or f"baremark {board['board']} {os.path.basename(urlparse(url).path)}"
    image = {"url": url}
    if sha:
        image["sha256sum"] = sha
    job = {"job_name": name[:200], "device_type": args.device_type or ("qemu" if target == "qemu" else board["board"]),
           "visibility": "public", "priority": "medium",
           "timeouts": {"job": {"minutes": tmin + 10}, "action": {"minutes": tmin},
                        "connection": {"minutes": 2}}}
    if target == "qemu":
        job["context"] = qemu_context(board, path, args.cpu, args.memory)
        deploy = {"to": "tmpfs", "timeout": {"minutes": 5},
                  "images": {"kernel": dict(image_arg="-kernel {kernel}", **image)}}
        boot = {"method": "qemu", "media": "tmpfs", "timeout": {"minutes": 2}}
    else:
        deploy = {"to": "flasher", "timeout": {"minutes": 5}, "images": {"image": image}}
        # reset: the device's hard_reset_command restarts the board once LAVA reads its console,
        # so the meta record is not printed before anyone listens.
        boot = {"method": "minimal", "reset": True, "timeout": {"minutes": 2}}
    job["metadata"] = {"baremark.board": board["board"], "baremark.built_for": board.get("built_for", ""),
                       "baremark.image": os.path.basename(urlparse(url).path), "baremark.target": target}
    job["actions"] = [{"deploy": deploy}, {"boot": boot},
                      {"test": {"timeout": {"minutes": tmin}, "monitors": [monitor()]}}]
    return job, target


def validate_job(job, quiet=False):
    """LAVA's own job schema (lava_common), strict. Returns False when lava_common is missing."""
    try:
        from lava_common.schemas import validate
        from voluptuous import Invalid
    except ImportError:
        return False
    try:
        validate(job, strict=True)
    except Invalid as e:
        raise UsageError(f"LAVA's job schema refuses the job: {e}")
    return True


def lava_version():
    try:
        from lava_common.version import __version__
        return __version__
    except ImportError:
        return None


def dump_yaml(doc):
    yaml = need_yaml()
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=False, width=1000)


def device_dict(board, target, args, path):
    """The device dictionary (jinja2) of a lab device that runs this board's jobs."""
    b = board["board"]
    if target == "qemu":
        binary = os.path.basename(board["qemu"][0])
        return (f"{{# LAVA device dictionary for a qemu device that runs baremark jobs for {b} (bm lava device).\n"
                f"   The job's context carries the machine, CPU, memory and options; the worker needs {binary}\n"
                f"   (Debian: {board.get('qemu_package') or 'qemu-system'}) and no KVM (the jobs say no_kvm).\n"
                f"   mac_addr must be unique among the lab's qemu devices. #}}\n"
                f"{{% extends '{args.device_type or 'qemu'}.jinja2' %}}\n"
                f"{{% set mac_addr = '{args.mac}' %}}\n")
    flashed, cmd = flashed_file(board, path)
    # Placeholders stay valid YAML once rendered (no ': '), so the dictionary renders as it is.
    conn = args.connection or "CHANGE-ME (the command that opens the board serial console, e.g. telnet localhost 7001 via ser2net)"
    reset = args.reset or "CHANGE-ME (the command that resets or power-cycles the board)"
    return (f"{{# LAVA device dictionary for {b} hardware (bm lava device), device type '{args.device_type or b}'.\n"
            f"   The flasher runs the board's flash command with {{IMAGE}} = the downloaded {os.path.basename(flashed)};\n"
            f"   files it names (configs, scripts) must exist on the worker at those paths.\n"
            f"   Boot 'minimal' opens connection_command, then runs hard_reset_command so the kit starts\n"
            f"   while LAVA listens. spawn_maxread: LAVA reads a serial console in chunks of 4092 bytes by\n"
            f"   default but searches only the last 4000 characters it holds, so a burst of output can hide\n"
            f"   a result record from its monitor; chunks under 4000 bytes cannot. #}}\n"
            f"{{% extends '{args.device_type or b}.jinja2' %}}\n"
            f"{{% set spawn_maxread = '2000' %}}\n"
            f"{{% set flasher_deploy_commands = [{_jinja_str(cmd)}] %}}\n"
            f"{{% set connection_command = {_jinja_str(conn)} %}}\n"
            f"{{% set hard_reset_command = {_jinja_str(reset)} %}}\n")


def device_type_template(name):
    """A device type for a flashed board: LAVA's flasher deploy and minimal boot on a serial
    console (what LAVA's own arduino-nano-33-ble.jinja2 holds), under the board's name."""
    return (f"{{# device_type: {name} -- flashed by the device dictionary's flasher_deploy_commands, booted by\n"
            f"   a reset while LAVA reads the serial console (bm lava device --device-type-template) #}}\n"
            "{% extends 'base.jinja2' %}\n{% block body %}\n\nactions:\n  deploy:\n    methods:\n"
            "      flasher:\n        commands: {{ flasher_deploy_commands }}\n\n  boot:\n    connections:\n"
            "      serial:\n    methods:\n      minimal:\n{% endblock body -%}\n")


def _jinja_str(s):
    """A jinja2 string literal (Python's rules): double quotes, so shell quotes read as they are."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def templates_dir(required=True):
    """Where lava-server's device-type templates are: BM_LAVA_TEMPLATES, a server's own, or the
    copy tools/setup --lava keeps (/var/cache/baremark/lava-server)."""
    env = os.environ.get("BM_LAVA_TEMPLATES")
    if env:
        if not os.path.isfile(os.path.join(env, "qemu.jinja2")):
            raise UsageError(f"BM_LAVA_TEMPLATES={env}: no qemu.jinja2 there")
        return env
    for d in TEMPLATE_DIRS:
        if os.path.isfile(os.path.join(d, "qemu.jinja2")) and os.path.isfile(os.path.join(d, "base.jinja2")):
            return d
    if required:
        raise UsageError(f"LAVA's device-type templates (qemu.jinja2, from lava-server) are in none of "
                         f"{', '.join(TEMPLATE_DIRS)}: {SETUP_HINT} (or set BM_LAVA_TEMPLATES)")
    return None


def render_device(text, context, tdir, extra_templates=None):
    """The device configuration lava-server would send the worker: the device dictionary
    rendered with the job's context, as lava-server does it (sandboxed jinja2, trim_blocks)."""
    try:
        import jinja2
        from jinja2.sandbox import SandboxedEnvironment
    except ImportError:
        raise UsageError("rendering a device dictionary needs python3-jinja2")
    loader = jinja2.ChoiceLoader([jinja2.DictLoader(extra_templates or {}), jinja2.FileSystemLoader([tdir])])
    env = SandboxedEnvironment(loader=loader, autoescape=False, trim_blocks=True)
    try:
        out = env.from_string(text).render(**(context or {}))
    except jinja2.TemplateError as e:
        raise UsageError(f"LAVA's templates in {tdir} refuse the device dictionary: {e}")
    yaml = need_yaml()
    try:
        return out, yaml.safe_load(out)
    except yaml.YAMLError as e:
        raise UsageError(f"the rendered device configuration is not YAML: {str(e).splitlines()[0]}")


def lava_qemu_argv(device, image):
    """The QEMU command LAVA's qemu boot runs for this device and image (CallQemuAction joins
    command, options, extra and the image argument with spaces; pexpect splits the line)."""
    p = device["actions"]["boot"]["methods"]["qemu"]["parameters"]
    line = " ".join([str(p["command"])] + [str(o) for o in p.get("options", [])]
                    + [str(o) for o in p.get("extra", [])] + ["-kernel " + shlex.quote(image)])
    return shlex.split(line)


def verify_qemu(board, job, device, path):
    """Problems of the QEMU line LAVA would run against the board's own line: every option of
    the board's line must be there, and LAVA may add only its network, monitor, -nographic and
    the -m / -cpu that equal the machine's own."""
    problems, notes = [], []
    arch = job["context"]["arch"]
    if arch not in (device.get("available_architectures") or []):
        notes.append(f"LAVA's qemu device type has no architecture {arch} (available_architectures in "
                     f"qemu.jinja2): a lab needs its own device type for this board (docs/farm.md: qemu.jinja2 plus "
                     f"that one line, e.g. qemu-{arch}), named with --device-type qemu-{arch}")
        return problems, notes
    image = board.get("image", "IMAGE")
    mine = option_groups(board["qemu"][1:])
    theirs = option_groups(lava_qemu_argv(device, image)[1:])
    binary = device["actions"]["boot"]["methods"]["qemu"]["parameters"]["command"]
    if os.path.basename(str(binary)) != os.path.basename(board["qemu"][0]):
        problems.append(f"LAVA runs {binary}, the board {board['qemu'][0]}")
    left = list(theirs)
    ctx = job["context"]
    for g in mine:
        if g[0] == "-m":
            want = size_bytes(g[1])
            hit = next((t for t in left if t[0] == "-m" and size_bytes(t[1]) == want), None)
        else:
            hit = next((t for t in left if t == g), None)
        if hit is None:
            problems.append(f"LAVA's line lacks the board's {option_text(*g)}")
        else:
            left.remove(hit)
    for o, v in left:
        if o in ("-net", "-nographic") or (o == "-monitor" and v == ctx.get("monitor", "none")):
            continue
        if o == "-m" and str(v) == str(ctx.get("memory")):
            continue
        if o == "-cpu" and v == ctx.get("cpu"):
            continue
        problems.append(f"LAVA's line adds {option_text(o, v)}")
    return problems, notes
