# SPDX-License-Identifier: Apache-2.0
"""LAVA's test cases: read from a job log or a results export, and set against the kit's records
benchmark by benchmark (in a job log as LAVA's monitor saw them, in stream order between a meta
and an end record; by name for a results export). Each pair says where LAVA and a record disagree."""
import csv
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from ..errors import UsageError
from ..records.joblog import Case, is_job_log, need_yaml, read_job_log, value_text

SUITE = "baremark"     # the monitor's name: LAVA's test suite ("definition") of the kit's cases


def read_results(data: bytes, path: str):
    """Test cases from a job log, from `lavacli results JOB --yaml` (lava-server's
    get_testjob_results_yaml) or from the web UI's CSV export. Returns (cases, JobLog or None)."""
    if is_job_log(data):
        jl = read_job_log(data)
        return jl.cases, jl
    text = data.decode("utf-8", "replace")
    head = text.lstrip()[:200]
    if head.startswith("- ") or head.startswith("["):
        yaml = need_yaml()
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
    unit = value_text(item.get("unit", item.get("units")))
    return Case(suite=str(item["suite"]), name=str(item["name"]), result=str(item["result"]),
                measurement=value_text(item.get("measurement")) or None, units=unit, test_case_id=tcid)


def case_name(name):
    """The case name LAVA makes of a test_case_id (lava_dispatcher's monitor action)."""
    return re.sub(r"\W+", "_", name.strip().lower())


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
