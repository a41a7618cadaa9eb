# SPDX-License-Identifier: Apache-2.0
"""A LAVA job log read as the console it holds (lava-run's log stream, a server's output.yaml):
the board's lines recovered byte for byte, so every bm command reads a farm run as it reads a
local capture (log.read), and the results lines LAVA logged beside them (its test cases)."""
import json
import re
from dataclasses import dataclass, field

from ..errors import UsageError

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


def need_yaml():
    """PyYAML, which LAVA's files need (LAVA writes YAML)."""
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
    yaml = need_yaml()
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


def value_text(v):
    """A LAVA value as text, None for none (LAVA writes a missing one as the text None)."""
    return None if v is None or v == "None" else str(v)


def _case(msg, line):
    if not all(isinstance(msg.get(k), str) for k in ("definition", "case", "result")):
        return None
    extra = msg.get("extra")
    tcid = extra.get("test_case_id") if isinstance(extra, dict) else None
    return Case(suite=msg["definition"], name=msg["case"], result=msg["result"],
                measurement=value_text(msg.get("measurement")), units=value_text(msg.get("units")),
                test_case_id=tcid if isinstance(tcid, str) else None, line=line)
