"""bm lava: run the kit in a LAVA board farm and read LAVA's output back (docs/farm.md).
`job` writes a LAVA job for an image from its <name>.board.json, `device` prints the device
dictionary a lab needs, `run` runs the job here with lava-run, `results` lines LAVA's test cases
up against the kit's own records. Also the reader that recovers a board's console from a LAVA job
log, through which every bm command reads farm runs (log.read)."""
import argparse
import csv
import hashlib
import io
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from urllib.parse import urlparse

from . import log as logmod
from . import rules
from .log import UsageError
from .output import FORMATS, render

SUITE = "baremark"     # the monitor's name: LAVA's test suite ("definition") of the kit's cases
# Each monitor string is a regex (pexpect, DOTALL): `[^\n]` keeps a match inside one line.
START = r'\{"type":"meta","format":2,"seq":0,'
# The end record whole, to its checksum: a record cut by a reset or a lost line is no end.
END = r'\{"type":"end","format":2,[^\n]*,"crc":"[0-9a-f]{8}"\}'
# One result record, either shape. LAVA reports every named group, an unmatched one as None, and
# lava-server drops a case whose units are None (its units column is NOT NULL): so `units` is
# empty, never None, for a failed record (which has no unit); `measurement` stays None there (a
# NULL measurement is allowed). An ok record must show its unit and a complete p50 (the `,` after
# it) before it matches, so a record still arriving is never taken for a failed one. The match
# ends there, early in the line: LAVA's pexpect looks only at the last 4000 characters of what it
# has not consumed, so the sooner a match ends, the less a burst of console output can hide.
PATTERN = (r'\{"type":"result","format":2,"seq":[0-9]+,"name":"(?P<test_case_id>[^"\n]+)",'
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
DEFAULT_MAC = "52:54:00:12:34:59"


# ---------------------------------------------------------------------------------------------
# Reading LAVA's output: a job log (lava-run's log stream, a server's output.yaml) and results.

_LOG_LINE = re.compile(rb'^(?:- )?\{"dt": "')


def is_job_log(data: bytes) -> bool:
    """A LAVA job log: one YAML mapping per line, `{"dt": ..., "lvl": ..., "msg": ...}`, in
    output.yaml as a list item. A kit console never has such a line (its records start with
    `{"type":"`), so the first few non-blank lines decide."""
    seen = 0
    for line in data[:65536].split(b"\n"):
        line = line.strip()
        if not line:
            continue
        if _LOG_LINE.match(line):
            d = _load_line(line[2:].decode("utf-8", "replace") if line.startswith(b"- ") else
                           line.decode("utf-8", "replace"))
            return isinstance(d, dict) and "lvl" in d and "msg" in d
        seen += 1
        if seen >= 5 or line.startswith(b'{"type":"'):
            return False
    return False


def _yaml():
    try:
        import yaml
    except ImportError:
        raise UsageError("reading a LAVA job log needs PyYAML: apt-get install python3-yaml")
    return yaml


def _load_line(text):
    """One log line. Most are valid JSON (LAVA writes every scalar double-quoted); YAML-only
    escapes (\\x.., \\e) and tags (`! "null"` for None) need the YAML parser."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    yaml = _yaml()
    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return None


@dataclass
class Case:
    """A LAVA test case. `measurement` is the text LAVA holds (None when it has none); `line`:
    where it is in the log (None for a results export)."""
    suite: str
    name: str
    result: str
    measurement: str = None
    units: str = None
    test_case_id: str = None
    line: int = None

    @property
    def id(self):
        return self.test_case_id or self.name


@dataclass
class JobLog:
    console: bytes                      # the board's console, one line per log line (line numbers match)
    cases: list = field(default_factory=list)      # every results line (LAVA's own suite too)
    job_result: str = None              # lava/job: pass or fail (None: the job never finished)
    errors: list = field(default_factory=list)     # what LAVA said went wrong
    unreadable: list = field(default_factory=list)  # log lines that are not a YAML mapping


def read_job_log(data: bytes) -> JobLog:
    """The console lines LAVA logged (lvl target; lvl feedback for what arrived after a test
    action stopped reading, as the end record often does), with LAVA's escaping undone: its
    ShellLogger writes every `"` as `\\"` and drops CR and ESC, none of which a record holds, so
    each record comes back byte for byte and its CRC still decides. Other lines become blank
    lines, so a line number in the console is a line number in the log."""
    out, jl = [], JobLog(console=b"")
    lines = data.split(b"\n")
    if lines and lines[-1].strip() == b"":
        lines.pop()
    for n, raw in enumerate(lines, 1):
        s = raw.strip()
        if s.startswith(b"- "):
            s = s[2:]
        d = _load_line(s.decode("utf-8", "replace")) if s.startswith(b"{") else None
        if not isinstance(d, dict):
            if s:
                jl.unreadable.append(n)
            out.append(b"")
            continue
        lvl, msg = d.get("lvl"), d.get("msg")
        if lvl in ("target", "feedback") and isinstance(msg, str):
            # Each inserted backslash precedes a quote, so `\"` -> `"` undoes exactly that.
            out.append(msg.replace('\\"', '"').replace("\n", " ").encode("utf-8", "replace"))
            continue
        out.append(b"")
        if lvl == "results" and isinstance(msg, dict):
            c = _case(msg, n)
            if c is not None:
                jl.cases.append(c)
                if c.suite == "lava" and c.name == "job":
                    jl.job_result = c.result
                    if msg.get("error_msg"):
                        jl.errors.append(f"{msg.get('error_type', 'error')}: {msg['error_msg']}")
        elif lvl in ("error", "exception") and msg:
            jl.errors.append(str(msg))
    jl.console = b"\n".join(out) + b"\n"
    return jl


def _text(v):
    return None if v is None or v == "None" else str(v)


def _case(msg, line):
    if not all(isinstance(msg.get(k), str) for k in ("definition", "case", "result")):
        return None
    extra = msg.get("extra")
    tcid = extra.get("test_case_id") if isinstance(extra, dict) else None
    return Case(suite=msg["definition"], name=msg["case"], result=msg["result"],
                measurement=_text(msg.get("measurement")), units=_text(msg.get("units")),
                test_case_id=tcid if isinstance(tcid, str) else None, line=line)


def read_results(data: bytes, path: str):
    """Test cases from a job log, from `lavacli results JOB --yaml` (lava-server's
    get_testjob_results_yaml) or from the web UI's CSV export. Returns (cases, JobLog or None)."""
    if is_job_log(data):
        jl = read_job_log(data)
        return jl.cases, jl
    text = data.decode("utf-8", "replace")
    head = text.lstrip()[:200]
    if head.startswith("- ") or head.startswith("["):
        yaml = _yaml()
        try:
            items = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.YAMLError as e:
            raise UsageError(f"{path}: not a LAVA results export ({str(e).splitlines()[0]})")
        if isinstance(items, list) and items and all(isinstance(i, dict) for i in items):
            return [_export_case(i, path) for i in items], None
    try:
        rows = list(csv.DictReader(io.StringIO(text)))
    except csv.Error:
        rows = []   # not CSV either (binary data, a NUL): said below
    if rows and {"suite", "name", "result"} <= set(rows[0]):
        return [_export_case(r, path) for r in rows], None
    raise UsageError(f"{path}: neither a LAVA job log nor a results export "
                     f"(lavacli results JOB --yaml, or the results CSV)")


def _export_case(item, path):
    if not all(k in item for k in ("suite", "name", "result")):
        raise UsageError(f"{path}: a test case without suite, name and result: {str(item)[:80]}")
    tcid = None
    meta = item.get("metadata")
    extra = meta.get("extra") if isinstance(meta, dict) else None
    for e in extra if isinstance(extra, list) else [extra] if isinstance(extra, dict) else []:
        if isinstance(e, dict) and isinstance(e.get("test_case_id"), str):
            tcid = e["test_case_id"]
    unit = _text(item.get("unit", item.get("units")))
    return Case(suite=str(item["suite"]), name=str(item["name"]), result=str(item["result"]),
                measurement=_text(item.get("measurement")) or None, units=unit, test_case_id=tcid)


def case_name(name):
    """The case name LAVA makes of a test_case_id (lava_dispatcher's monitor action)."""
    return re.sub(r"\W+", "_", name.strip().lower())


# ---------------------------------------------------------------------------------------------
# LAVA's cases against the kit's records.

@dataclass
class Pair:
    record: object = None          # records.Record of a result, or None
    case: Case = None              # its LAVA case, or None
    problems: list = field(default_factory=list)

    @property
    def name(self):
        return self.record.name if self.record is not None else self.case.id


def _p50_text(rec):
    v = rec.get("p50")
    return format(v, "f") if isinstance(v, Decimal) else None


def _same_number(a, b):
    try:
        return Decimal(a) == Decimal(b)
    except (InvalidOperation, TypeError):
        return False


def compare_pair(p, exact=True):
    """What LAVA's case should say for a result record: pass for ok, fail for anything else;
    measurement = the record's p50 (the same text in a job log; the same number in an export,
    where lava-server stored it as a decimal) and units = its unit; none for a failed one."""
    r, c = p.record.data, p.case
    ok = r.get("status") == "ok"
    want = "pass" if ok else "fail"
    if c.result != want:
        p.problems.append(f"LAVA says {c.result}, the record says {r.get('status')}")
    p50, unit = (_p50_text(r), r.get("unit")) if ok else (None, None)
    if p50 is None:
        if c.measurement is not None:
            p.problems.append(f"LAVA has measurement {c.measurement}, the record has no figures")
    elif c.measurement is None or (c.measurement != p50 if exact else not _same_number(c.measurement, p50)):
        p.problems.append(f"LAVA's measurement {c.measurement} differs from the record's p50 {p50}")
    if (c.units or None) != unit:
        p.problems.append(f"LAVA's units {c.units!r} differ from the record's unit {unit!r}")


def pair_in_log(console_log, cases, suite=SUITE):
    """Pairs in stream order, as LAVA's monitor saw them: in each job of the log (a log may
    hold several, concatenated) it starts at the first meta record and stops at the first end
    record after it, turning each result line in between into a case (a board reset in between
    does not restart it). The records are CRC-checked, LAVA's cases are not: a case whose line
    failed its CRC has no record to pair with, and is named with the damaged line."""
    sc = console_log.scan
    # A job ends with LAVA's own `job` result; a log cut short ends its last job.
    ends = [c.line for c in cases if c.suite == "lava" and c.name == "job" and c.line] + [float("inf")]
    pairs, lo_line = [], 0
    for hi_line in ends:
        recs = [r for r in sc.records if lo_line < r.line <= hi_line]
        mine = [c for c in cases if c.suite == suite and lo_line < (c.line or 0) <= hi_line]
        first = next((i for i, r in enumerate(recs) if r.type == "meta"), None)
        window, lo, hi = [], float("inf"), float("inf")
        if first is not None:
            lo = recs[first].pos
            for r in recs[first + 1:]:
                if r.type == "end":
                    hi = r.pos
                    break
                if r.type == "result":
                    window.append(r)
        bad = [b for b in sc.bad if lo < b.pos < hi]
        pairs += _pair_window(window, mine, bad)
        lo_line = hi_line
    return pairs


def _pair_window(window, cases, bad):
    pairs, i = [], 0
    for c in cases:
        j = next((k for k in range(i, len(window)) if case_name(window[k].name or "") == c.name), None)
        if j is None:
            p = Pair(case=c)
            hit = [b for b in bad if c.id in b.preview]
            why = f"line {hit[0].line}: {hit[0].reason}" if hit else "no result record for it in the console"
            p.problems.append(f"LAVA case {c.id} has no CRC-checked record ({why})")
            pairs.append(p)
            continue
        for k in range(i, j):
            pairs.append(Pair(record=window[k], problems=["no LAVA test case for this result record"]))
        p = Pair(record=window[j], case=c)
        compare_pair(p)
        pairs.append(p)
        i = j + 1
    for k in range(i, len(window)):
        pairs.append(Pair(record=window[k], problems=["no LAVA test case for this result record"]))
    return pairs


def pair_by_name(boot, cases, suite=SUITE):
    """Pairs for a results export (no console) against the records of one boot, by name."""
    mine = {c.name: c for c in cases if c.suite == suite}
    pairs = []
    for b in boot.benches:
        if b.result is None:
            continue
        c = mine.pop(case_name(b.name), None)
        p = Pair(record=b.result, case=c)
        if c is None:
            p.problems.append("no LAVA test case for this result record")
        else:
            compare_pair(p, exact=False)
        pairs.append(p)
    for c in mine.values():
        pairs.append(Pair(case=c, problems=[f"LAVA case {c.id} has no result record in the records given"]))
    return pairs


def pair_rows(pairs):
    rows = []
    for p in pairs:
        r = p.record.data if p.record is not None else {}
        c = p.case
        raw = {"benchmark": p.name, "status": r.get("status"), "p50": _p50_text(r) if r else None,
               "unit": r.get("unit"), "lava_case": c.name if c else None, "lava_result": c.result if c else None,
               "measurement": c.measurement if c else None, "units": c.units if c else None,
               "agree": not p.problems, "problems": "; ".join(p.problems)}
        cells = {k: ("-" if v is None or v == "" else str(v)) for k, v in raw.items()}
        cells["agree"] = "yes" if not p.problems else "NO: " + raw["problems"]
        cells["_raw"] = raw
        rows.append(cells)
    return rows


PAIR_COLUMNS = [("benchmark", "benchmark"), ("status", "status"), ("p50", "p50"), ("unit", "unit"),
                ("lava_result", "LAVA result"), ("measurement", "measurement"), ("units", "units"),
                ("agree", "agree")]


# ---------------------------------------------------------------------------------------------
# Job generation from <name>.board.json (cmake/Baremark.cmake writes it beside the image).

def load_board(path):
    if not path:
        raise UsageError("give --board-json F: the <name>.board.json beside a built image")
    try:
        with open(path, encoding="utf-8") as f:
            board = json.load(f)
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e} (cmake writes <name>.board.json "
                         f"beside <name>.elf when it builds the image)")
    except ValueError as e:
        raise UsageError(f"{path}: not JSON ({e})")
    if not isinstance(board, dict) or not isinstance(board.get("board"), str):
        raise UsageError(f"{path}: not a board.json (no \"board\" name)")
    for key, kind in (("qemu", list), ("flash", list), ("image", str), ("built_for", str)):
        if not isinstance(board.get(key, kind()), kind):
            raise UsageError(f"{path}: \"{key}\" is not a {kind.__name__}")
    return board


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


def _opt(o, v):
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


def _size_bytes(text):
    m = re.fullmatch(r"(\d+)([KMGT]?)B?", str(text).upper().replace("IB", ""))
    if not m:
        return None
    return int(m.group(1)) << {"": 20, "K": 10, "M": 20, "G": 30, "T": 40}[m.group(2)]


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
        extra.append(_opt(o, v))
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
        extra.insert(0, _opt("-cpu", given_cpu))     # only when asked: QEMU's default otherwise
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
    yaml = _yaml()
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=False, width=1000)


# ---------------------------------------------------------------------------------------------
# Device dictionaries, LAVA's device-type templates, and the QEMU line LAVA would run.

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
    yaml = _yaml()
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
            want = _size_bytes(g[1])
            hit = next((t for t in left if t[0] == "-m" and _size_bytes(t[1]) == want), None)
        else:
            hit = next((t for t in left if t == g), None)
        if hit is None:
            problems.append(f"LAVA's line lacks the board's {_opt(*g)}")
        else:
            left.remove(hit)
    for o, v in left:
        if o in ("-net", "-nographic") or (o == "-monitor" and v == ctx.get("monitor", "none")):
            continue
        if o == "-m" and str(v) == str(ctx.get("memory")):
            continue
        if o == "-cpu" and v == ctx.get("cpu"):
            continue
        problems.append(f"LAVA's line adds {_opt(o, v)}")
    return problems, notes


# ---------------------------------------------------------------------------------------------
# The subcommands.

def _positive(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: must be a whole number of minutes >= 1")
    return v


def _memory(text):
    """--memory as QEMU's -m size takes it: a number > 0, MiB unless a suffix says otherwise
    (512, 1536M, 1.5G; no B or iB: QEMU refuses those)."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kKMGTPE]?)", text)
    if not m or float(m.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: need a size > 0 as QEMU's -m takes it, e.g. 512 (MiB), "
                                         f"1536M or 1.5G")
    return text


def _mac(text):
    if not re.fullmatch(r"[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}", text):
        raise argparse.ArgumentTypeError(f"{text!r}: need a MAC address like {DEFAULT_MAC}")
    return text


def _name(text):
    if not text.strip() or any(c < " " for c in text):
        raise argparse.ArgumentTypeError(f"{text!r}: a job name needs a printable, non-blank text")
    return text


def _job_options(p):
    p.add_argument("--board-json", metavar="F", help="the image's <name>.board.json (beside <name>.elf)")
    p.add_argument("--image", metavar="URL|PATH",
                   help="where LAVA gets the image (http, https, file or scp URL, or a path); default: the board.json's")
    p.add_argument("--target", choices=("auto", "qemu", "hardware"), default="auto",
                   help="qemu device type or the board itself (flasher); auto: hardware when the image was built for it")
    p.add_argument("--name", type=_name, help="job name (default: baremark BOARD IMAGE)")
    p.add_argument("--timeout-min", type=_positive, default=10, metavar="M",
                   help="minutes the benchmarks may take (the test action; default 10)")
    p.add_argument("--device-type", help="device type of the job (default: qemu, or the board's name for hardware)")
    p.add_argument("--cpu", help="CPU model, where the QEMU line names none (default: asked of QEMU)")
    p.add_argument("--memory", type=_memory,
                   help="RAM as LAVA's -m takes it: 512 (MiB), 1536M, 2G (default: the machine's, asked of QEMU)")


def add_arguments(p):
    sub = p.add_subparsers(dest="lava_cmd", metavar="ACTION")
    j = sub.add_parser("job", help="write a LAVA job for an image (validated with lava_common)",
                       description="Write the LAVA job that runs an image: the qemu device type with the board's "
                                   "QEMU line, or (hardware) a flasher deploy, minimal boot and serial console. "
                                   "The test is a monitors action: one test case per benchmark.")
    _job_options(j)
    j.add_argument("-o", "--output", metavar="FILE", help="write the job here (default: standard output)")
    j.add_argument("--verify", action="store_true",
                   help="also render LAVA's device template and check the QEMU line it builds (needs the templates)")
    d = sub.add_parser("device", help="print the device dictionary a lab needs for the board")
    _job_options(d)
    d.add_argument("--mac", type=_mac, default=DEFAULT_MAC, help=f"QEMU devices: mac_addr (default {DEFAULT_MAC})")
    d.add_argument("--connection", metavar="CMD", help="hardware: the command that opens the serial console")
    d.add_argument("--reset", metavar="CMD", help="hardware: the command that resets the board")
    d.add_argument("--device-type-template", action="store_true",
                   help="hardware: print the device-type template (<device type>.jinja2) instead")
    d.add_argument("--render", action="store_true",
                   help="print the device configuration rendered with the job's context (needs the templates)")
    r = sub.add_parser("run", help="run the job here with lava-run and check what LAVA reports",
                       description="Generate the job, render the device with lava-server's templates (qemu.jinja2; "
                                   "for hardware the board's flash command, --connection and --reset), run "
                                   "lava-run (as root), and check that every benchmark's record came back as a "
                                   "LAVA test case with its measurement. Exit 0: job complete, records clean, "
                                   "every case agrees and passed; 1: the same, but a benchmark failed (0 with "
                                   "--allow-fail); 2: usage; 125: LAVA and the records disagree, or the job or "
                                   "records are broken.")
    _job_options(r)
    r.add_argument("--keep", metavar="DIR", help="keep job, device, LAVA's log (lava.log) and output here")
    r.add_argument("--connection", metavar="CMD", help="hardware: the command that opens the board's serial console")
    r.add_argument("--reset", metavar="CMD", help="hardware: the command that resets the board")
    r.add_argument("--mac", type=_mac, default=DEFAULT_MAC, help=argparse.SUPPRESS)
    r.add_argument("-o", "--output", metavar="FILE", help="write the kit's records of the run here")
    r.add_argument("--results", metavar="FILE", help="write the benchmark/test case table here (--format)")
    r.add_argument("--format", choices=FORMATS, default="table")
    r.add_argument("--allow-fail", action="store_true", help="failed benchmarks do not make the exit status 1")
    r.add_argument("--quiet", action="store_true", help="do not echo the board's console")
    s = sub.add_parser("results", help="LAVA's test cases against the kit's records (job log or results export)",
                       description="Read LAVA test cases from a job log (lava-run's log, output.yaml) or a results "
                                   "export (lavacli results JOB --yaml, the results CSV) and pair each with the kit's "
                                   "result record: from the log's own console, or from --records. Exit 0: every "
                                   "record has its case and they agree; 1: they do not; 2: usage.")
    s.add_argument("source", metavar="LOG|EXPORT")
    s.add_argument("--records", metavar="LOG", help="the kit's records to check an export against (any bm log)")
    s.add_argument("--suite", default=SUITE, help=f"LAVA test suite of the kit's cases (default {SUITE})")
    s.add_argument("--format", choices=FORMATS, default="table")
    p.set_defaults(_lava_parser=p)


def main(args):
    if not args.lava_cmd:
        args._lava_parser.print_help(sys.stderr)
        return 2
    return {"job": cmd_job, "device": cmd_device, "run": cmd_run, "results": cmd_results}[args.lava_cmd](args)


def say(msg):
    print(f"bm lava: {msg}", file=sys.stderr)


def write_out(path, text):
    if not path or path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}")


def cmd_job(args):
    board = load_board(args.board_json)
    job, target = build_job(board, args.board_json, args)
    if validate_job(job):
        say(f"the job validates against LAVA's job schema (lava_common {lava_version()}, strict)")
    else:
        say(f"lava_common is not installed: the job was NOT validated ({SETUP_HINT})")
    status = 0
    if args.verify:
        status = verify(board, job, target, args)
    write_out(args.output, dump_yaml(job))
    return status


def verify(board, job, target, args):
    tdir = templates_dir()
    ddict = device_dict(board, target, args_with_defaults(args), args.board_json)
    extra = {}
    if target == "hardware":
        name = job["device_type"]
        extra[f"{name}.jinja2"] = device_type_template(name)
    _, device = render_device(ddict, job.get("context"), tdir, extra)
    if target == "hardware":
        cmds = device["actions"]["deploy"]["methods"]["flasher"]["commands"]
        if not cmds or "{IMAGE}" not in cmds[0]:
            say("the rendered device has no flasher command with {IMAGE}")
            return 1
        say(f"rendered with {tdir}: flasher runs {cmds[0]}")
        return 0
    problems, notes = verify_qemu(board, job, device, args.board_json)
    for n in notes:
        say("note: " + n)
    for p in problems:
        say("problem: " + p)
    if problems:
        return 1
    if not notes:
        say(f"rendered with {tdir}: LAVA runs the board's QEMU line (plus its network and monitor options)")
    return 0


def args_with_defaults(args):
    for k, v in (("mac", DEFAULT_MAC), ("connection", None), ("reset", None)):
        if not hasattr(args, k):
            setattr(args, k, v)
    return args


def cmd_device(args):
    board = load_board(args.board_json)
    job, target = build_job(board, args.board_json, args)
    if args.device_type_template:
        if target != "hardware":
            raise UsageError("--device-type-template is for hardware boards (a QEMU board uses LAVA's qemu.jinja2)")
        write_out("-", device_type_template(job["device_type"]))
        return 0
    text = device_dict(board, target, args, args.board_json)
    tdir = templates_dir(required=False)
    if target == "qemu" and tdir:
        _, dev = render_device(text, job["context"], tdir)
        _, notes = verify_qemu(board, job, dev, args.board_json)
        for n in notes:
            say("note: " + n)
    if target == "hardware" and (not args.connection or not args.reset):
        say("fill in the CHANGE-ME lines (or give --connection and --reset)")
    if args.render:
        extra = {f"{job['device_type']}.jinja2": device_type_template(job["device_type"])} if target == "hardware" else {}
        out, _ = render_device(text, job.get("context"), templates_dir(), extra)
        write_out("-", out)
        return 0
    write_out("-", text)
    return 0


def _is_root():
    return os.geteuid() == 0


def cmd_run(args):
    board = load_board(args.board_json)
    job, target = build_job(board, args.board_json, args)
    if target == "hardware" and not (args.connection and args.reset):
        raise UsageError(f"board {board['board']}: a hardware job runs here only with --connection CMD (its "
                         f"serial console) and --reset CMD; else it needs a lab (bm lava job, then lavacli "
                         f"jobs submit: docs/farm.md)")
    if not validate_job(job):
        raise UsageError(f"lava_common is not installed: {SETUP_HINT}")
    lava_run = shutil.which("lava-run")
    if lava_run is None:
        raise UsageError(f"lava-run is not installed: {SETUP_HINT}")
    if not _is_root():
        raise UsageError("lava-run runs only as root (it is LAVA's dispatcher): run bm lava run as root")
    tdir = templates_dir()
    ddict = device_dict(board, target, args_with_defaults(args), args.board_json)
    extra = {f"{job['device_type']}.jinja2": device_type_template(job["device_type"])} if target == "hardware" else {}
    device_yaml, device = render_device(ddict, job.get("context"), tdir, extra)
    if target == "qemu":
        problems, notes = verify_qemu(board, job, device, args.board_json)
        if notes or problems:
            raise UsageError("; ".join(notes + problems))
    work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="bm-lava-")
    try:
        os.makedirs(work, exist_ok=True)
        files = {"job.yaml": dump_yaml(job), "device.jinja2": ddict, "device.yaml": device_yaml,
                 "dispatcher.yaml": "# lava-run without a server: no default route needed\ndispatcher_ip: 127.0.0.1\n"}
        for name, text in files.items():
            with open(os.path.join(work, name), "w", encoding="utf-8") as f:
                f.write(text)
        log_path = os.path.join(work, "lava.log")
        cmd = [lava_run, "--job-id", str(os.getpid()), "--output-dir", os.path.join(work, "out"),
               "--device", os.path.join(work, "device.yaml"), "--dispatcher", os.path.join(work, "dispatcher.yaml"),
               os.path.join(work, "job.yaml")]
        limit = (job["timeouts"]["job"]["minutes"] + 1) * 60
        t0 = time.monotonic()
        rc, timed_out = _lava_run(cmd, log_path, limit, args.quiet)
        took = time.monotonic() - t0
        with open(log_path, "rb") as f:
            data = f.read()
        return report_run(data, log_path, rc, timed_out, took, args, work if args.keep else None)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def _lava_run(cmd, log_path, limit, quiet):
    """Run lava-run, its log stream (standard error) into log_path; echo the board's console."""
    with open(log_path, "wb") as logf:
        # Its log stream is standard error; standard output (normally silent) joins it.
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + limit
        timed_out = False
        import selectors
        sel = selectors.DefaultSelector()
        sel.register(p.stdout, selectors.EVENT_READ)
        buf = b""
        while True:
            if time.monotonic() > deadline:
                timed_out = True
                os.killpg(p.pid, signal.SIGTERM)
                break
            if not sel.select(timeout=0.5):
                if p.poll() is not None:
                    break
                continue
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            logf.write(chunk)
            buf += chunk
            *whole, buf = buf.split(b"\n")
            if not quiet:
                for line in whole:
                    jl = read_job_log(line + b"\n")
                    text = jl.console.rstrip(b"\n")
                    if text:
                        sys.stderr.buffer.write(text + b"\n")
                sys.stderr.flush()
        try:
            rc = p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            rc = p.wait()
    return rc, timed_out


def _note_unreadable(jl, path):
    if jl.unreadable:
        say(f"{path}: {len(jl.unreadable)} lines are not LAVA log lines (first: line {jl.unreadable[0]}); "
            f"skipped (a log cut short, or edited)")


def report_run(data, log_path, rc, timed_out, took, args, kept):
    jl = read_job_log(data)
    _note_unreadable(jl, log_path)
    lg = logmod.analyze(jl.console, log_path)
    pairs = pair_in_log(lg, jl.cases)
    broken = []
    if timed_out:
        broken.append("lava-run did not finish in time; stopped")
    if jl.job_result != "pass":
        why = f": {jl.errors[-1]}" if jl.errors else ""
        broken.append(f"the LAVA job did not finish ({jl.job_result or 'no job result'}, lava-run status {rc}){why}")
    for p in lg.problems:
        broken.append(f"records: {p.msg}")
    bad = [p for p in pairs if p.problems]
    if not any(p.case for p in pairs):
        broken.append(f"LAVA reported no test case of suite {SUITE}"
                      + (f" ({len(bad)} result records in the console)" if bad else ""))
    else:
        for p in bad[:8]:
            broken.append(f"{p.name}: {'; '.join(p.problems)}")
        if len(bad) > 8:
            broken.append(f"... and {len(bad) - 8} more benchmarks where LAVA and the records disagree")
    rows = pair_rows(pairs)
    if args.results:
        buf = io.StringIO()
        render(rows, PAIR_COLUMNS, args.format, buf)
        write_out(args.results, buf.getvalue())
    else:
        render(rows, PAIR_COLUMNS, args.format, sys.stdout)
    if args.output:
        bt = lg.last_complete()
        if bt is None:
            broken.append(f"no complete boot to write to {args.output}")
        else:
            from .check import write_boot
            write_boot(args.output, bt)
    cases = [p for p in pairs if p.case is not None]
    failed = [p for p in cases if p.case.result != "pass"]
    say(f"LAVA job {jl.job_result or 'unfinished'} in {took:.1f} s: {len(cases)} test cases, "
        f"{len([p for p in pairs if p.record is not None])} result records, {len(failed)} failed"
        + (f"; files in {kept}" if kept else ""))
    for b in broken:
        say(b)
    if broken:
        return 125
    if failed and not args.allow_fail:
        return 1
    return 0


def cmd_results(args):
    data = logmod.read_raw(args.source)
    cases, jl = read_results(data, args.source)
    if args.records:
        rlog = logmod.analyze(logmod.read(args.records), args.records)
        bt = rlog.last_complete()
        if bt is None:
            raise UsageError(f"{args.records}: no complete boot of records")
        if rlog.problems:
            say(f"{args.records}: {rlog.problems[0].msg} (bm check names every problem)")
        pairs = pair_by_name(bt, cases, args.suite)
    elif jl is not None:
        _note_unreadable(jl, args.source)
        lg = logmod.analyze(jl.console, args.source)
        for p in lg.problems:
            say(f"records: {p.msg}")
        pairs = pair_in_log(lg, cases, args.suite)
    else:
        rows = [{"benchmark": c.id, "lava_result": c.result, "measurement": c.measurement or "-",
                 "units": c.units or "-", "_raw": {"benchmark": c.id, "lava_result": c.result,
                                                  "measurement": c.measurement, "units": c.units}}
                for c in cases if c.suite == args.suite]
        if not rows:
            raise UsageError(f"{args.source}: no test case of suite {args.suite}")
        render(rows, [("benchmark", "benchmark"), ("lava_result", "LAVA result"), ("measurement", "measurement"),
                      ("units", "units")], args.format, sys.stdout)
        say("no records to check them against (give --records LOG)")
        return 0
    if not pairs:
        raise UsageError(f"{args.source}: no test case of suite {args.suite} and no result record")
    render(pair_rows(pairs), PAIR_COLUMNS, args.format, sys.stdout)
    bad = [p for p in pairs if p.problems]
    say(f"{len(pairs) - len(bad)} of {len(pairs)} benchmarks agree with LAVA's test cases")
    return 1 if bad else 0
