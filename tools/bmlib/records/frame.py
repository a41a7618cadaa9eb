# SPDX-License-Identifier: Apache-2.0
"""Framing of baremark records (docs/records.md): split console bytes into lines, find the
records in them, check each CRC and read its values as exact decimals. Also the writer that
emits records exactly as the firmware does (used by the tests' corpus and by host tools), and
the escaping of a record's text (and a file name) for a terminal or a table."""
import json
import re
import unicodedata
import zlib
from dataclasses import dataclass, field
from decimal import Decimal

U64_MAX = 2**64 - 1
DEC_MAX = Decimal(U64_MAX)

# Terminal noise that a serial console carries: ANSI CSI/OSC sequences, two-byte escapes and
# stray control bytes. A valid record holds none of them (JSON escapes control characters), so
# removing them can only restore a record, never forge one: its CRC still has to match.
_ANSI = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?")
_CTRL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_START = b'{"type":"'
_TAIL = re.compile(rb'"crc":"([0-9a-f]{8})"\}')
_SEQ = re.compile(rb'"seq":(\d{1,20})[,}]')
_TYPE = re.compile(rb'^\{"type":"([a-z_]{1,20})"')


class NonFinite(str):
    """NaN or Infinity where a number should be: kept (not raised) so the rules name the key."""


def crc_hex(body: bytes) -> str:
    """The CRC a record carries: CRC-32 (zlib's) of every byte before `"crc":`."""
    return "%08x" % (zlib.crc32(body) & 0xFFFFFFFF)


def _pairs(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            # json would keep the last silently; a record with a repeated key is malformed.
            raise ValueError(f"key {k!r} appears twice")
        d[k] = v
    return d


def _decimal(tok: str) -> Decimal:
    if "e" in tok or "E" in tok:
        # The firmware prints plain decimals; 2.059E3 would pass as 3 digits after the point,
        # and 1E+999999999 would be a gigabyte as text.
        raise ValueError(f"the number {tok[:40]} is in exponent notation (records print plain decimals)")
    return Decimal(tok)


def _integer(tok: str) -> int:
    if tok == "-0":
        # (int("-0") is 0: a sign the firmware never prints, on a value that would pass)
        raise ValueError("the number -0 has a sign no record prints")
    return int(tok)


def _no_surrogates(v):
    """A lone UTF-16 surrogate (\\ud800 with no pair) is valid JSON but no text: it cannot be
    printed or written as UTF-8, so a record holding one is refused here, not by a tool later."""
    if isinstance(v, str):
        if any("\ud800" <= c <= "\udfff" for c in v):
            raise ValueError(f"the string {v.encode('utf-8', 'backslashreplace').decode()[:40]!r} holds an "
                             "unpaired UTF-16 surrogate")
    elif isinstance(v, dict):
        for k, x in v.items():
            _no_surrogates(k)
            _no_surrogates(x)
    elif isinstance(v, list):
        for x in v:
            _no_surrogates(x)


def loads(text: str):
    """JSON with exact decimals (docs/records.md: never floats), as the firmware writes it."""
    v = json.loads(text, parse_float=_decimal, parse_int=_integer, parse_constant=NonFinite, object_pairs_hook=_pairs)
    _no_surrogates(v)
    return v


@dataclass
class Record:
    """A line (or part of one) whose CRC matched. `data` is None when its CRC is right but its
    text is not a usable JSON object (`error` says why): it still holds its place in the seq."""
    text: bytes
    line: int
    pos: int
    data: dict = None
    error: str = None
    seq: int = None
    type: str = None

    def get(self, key, default=None):
        return self.data.get(key, default) if self.data else default

    @property
    def name(self):
        n = self.get("name")
        return n if isinstance(n, str) else None


@dataclass
class BadLine:
    """A line that looks like a record (starts with `{` or holds `{"type":"`) but is not one.
    `crc_ok`: its CRC matched, so the sender wrote it that way (a bug, not line noise)."""
    line: int
    pos: int
    reason: str
    preview: str
    crc_ok: bool = False


@dataclass
class Human:
    """A console line that is not a record; kept for the `*** ` lines the kit prints."""
    line: int
    pos: int
    text: str


@dataclass
class Scan:
    """Everything found in a console log, in stream order (`pos` orders them)."""
    records: list = field(default_factory=list)
    bad: list = field(default_factory=list)
    human: list = field(default_factory=list)
    lines: int = 0


def clean(seg: bytes) -> bytes:
    return _CTRL.sub(b"", _ANSI.sub(b"", seg))


def _preview(b: bytes, n=60) -> str:
    s = b.decode("utf-8", "replace")
    return s if len(s) <= n else s[:n] + "..."


def parse_candidate(cand: bytes):
    """One candidate record text -> (Record-fields dict, None) or (None, reason)."""
    m = _TAIL.search(cand)
    if not m or m.end() != len(cand):
        return None, "no CRC at its end (cut short, or not a record)"
    cut = m.start()
    want = m.group(1).decode()
    got = crc_hex(cand[:cut])
    if got != want:
        return None, f"CRC mismatch (line says {want}, bytes give {got})"
    fields = {}
    try:
        data = loads(cand.decode("utf-8"))
        if not isinstance(data, dict):
            raise ValueError("not an object")
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        # The CRC matched, so this is what the sender wrote: keep its place if the seq reads.
        ms, mt = _SEQ.search(cand), _TYPE.search(cand)
        fields["error"] = f"CRC is right but the text is not a record ({str(e)[:100]})"
        if ms and mt:
            fields.update(seq=int(ms.group(1)), type=mt.group(1).decode())
        return fields, None
    seq, typ = data.get("seq"), data.get("type")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= U64_MAX \
            or not isinstance(typ, str):
        fields["error"] = "CRC is right but it has no usable \"type\" and \"seq\""
        return fields, None
    fields.update(data=data, seq=seq, type=typ)
    return fields, None


# Record starts tried per CRC tail: a record holds no other start, so the one that matches is the
# last before its tail or close to it; a long run of noise before one tail costs a CRC per start.
_STARTS_PER_TAIL = 64


def scan_segment(seg: bytes, line: int, pos: int, out: Scan):
    """Find the records in one cleaned line segment. A segment normally holds one record or
    none; a lost newline can glue two records, and noise can precede one: each record found
    is kept, and what is left that looks like a record becomes one BadLine. Linear in the
    segment's length: every start is matched with the next CRC tail, each tail searched for once,
    and at most _STARTS_PER_TAIL starts (the first and the last ones) are checked against it."""
    i, first_bad, found = 0, None, False
    while i < len(seg):
        if i == 0 and seg.startswith(b"{"):
            start = 0
        else:
            start = seg.find(_START, i)
            if start < 0:
                break
        m = _TAIL.search(seg, start)
        if m is None:
            # Nothing after `start` ends like a record, so no later start can either.
            if first_bad is None:
                first_bad = (start, "no CRC at its end (cut short, or not a record)", False)
            break
        end = m.end()
        starts = [start]
        k = seg.find(_START, start + 1, m.start())
        while k >= 0:
            starts.append(k)
            k = seg.find(_START, k + 1, m.start())
        if len(starts) > _STARTS_PER_TAIL:
            starts = starts[:1] + starts[-(_STARTS_PER_TAIL - 1):]
        for start in starts:
            fields, reason = parse_candidate(seg[start:end])
            if fields is not None and "seq" not in fields:
                # Right CRC, but nothing to place it by: report it like a damaged line.
                fields, reason = None, fields["error"]
                crc_ok = True
            else:
                crc_ok = False
            if fields is not None:
                out.records.append(Record(text=seg[start:end], line=line, pos=pos + start, **fields))
                found = True
                break
            if first_bad is None:
                first_bad = (start, reason, crc_ok)
        i = end
    if first_bad is not None:
        start, reason, crc_ok = first_bad
        out.bad.append(BadLine(line=line, pos=pos + start, reason=reason,
                               preview=_preview(seg[start:]), crc_ok=crc_ok))
    elif not found:
        out.human.append(Human(line=line, pos=pos, text=seg.decode("utf-8", "replace")))


def scan(data: bytes) -> Scan:
    """Split console bytes into lines (LF, CR LF, or a lone CR as a terminal would) and find
    every record. Positions are byte offsets in the cleaned stream, so they order everything."""
    out = Scan()
    pos = 0
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out.lines = len(lines)
    for lineno, raw in enumerate(lines, 1):
        for seg in raw.split(b"\r"):
            seg = clean(seg)
            if seg.strip():
                scan_segment(seg, lineno, pos, out)
            pos += len(seg) + 1
    return out


# ---- writing records (exactly the firmware's form) ----

def _enc(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Decimal):
        return format(v, "f")   # as given: the caller quantizes to 0.001 (tests write bad ones)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_enc(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k) + ":" + _enc(x) for k, x in v.items()) + "}"
    if v is None:
        return "null"
    raise TypeError(f"cannot write {type(v).__name__} in a record (use int or Decimal)")


def dump(fields: dict) -> str:
    """One record line (without newline): the fields in order, then the CRC of all before it."""
    body = "{" + ",".join(json.dumps(k) + ":" + _enc(v) for k, v in fields.items()) + ","
    return body + '"crc":"' + crc_hex(body.encode()) + '"}'


def dumps_json(v) -> str:
    """JSON for tools' own output: decimals stay exact numbers (not floats, not strings)."""
    if isinstance(v, Decimal):
        return format(v, "f")
    if isinstance(v, float):
        return json.dumps(v) if v == v and abs(v) != float("inf") else "null"
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(str(k)) + ": " + dumps_json(x) for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(dumps_json(x) for x in v) + "]"
    return json.dumps(v)


def printable(text) -> str:
    """text with every character a terminal or a line-based format would act on (controls,
    invisible format characters such as a bidirectional override, line separators) written as
    Python escapes it: ESC as \\x1b, a newline as \\n, U+202E as \\u202e. A label, a file name or
    a reason from a record is shown, never obeyed; applying it twice changes nothing more."""
    return "".join(c.encode("unicode_escape").decode("ascii")
                   if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") else c
                   for c in str(text))
