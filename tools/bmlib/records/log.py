# SPDX-License-Identifier: Apache-2.0
"""A console log as boots (a meta record starts one): lost, repeated and displaced records, each
boot checked by boot.py, each problem named once. Also reads log files (a LAVA job log as the
console it holds) and loads their clean boots as runs for report, compare and plot."""
import os
import sys
from dataclasses import dataclass, field

from .. import FORMAT
from ..errors import UsageError
from . import frame, joblog, rules
from .boot import Boot, Problem, check, plural, span
from .figures import deterministic


@dataclass
class Log:
    name: str
    boots: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    scan: object = None

    @property
    def clean(self):
        return bool(self.boots) and not self.problems

    def last_complete(self):
        """The last complete boot, preferring one without problems."""
        done = [b for b in self.boots if b.complete]
        good = [b for b in done if b.clean]
        return (good or done or [None])[-1]


def _ranges(nums):
    out = []
    for n in sorted(nums):
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return out


def _displaced(seqs):
    """Indexes of the records that are out of order: those off one longest increasing run
    (so one record moved far away is one problem, not one per record it jumped over)."""
    import bisect
    tails, tails_i, parent = [], [], [None] * len(seqs)
    for i, s in enumerate(seqs):
        k = bisect.bisect_left(tails, s)
        parent[i] = tails_i[k - 1] if k else None
        if k == len(tails):
            tails.append(s)
            tails_i.append(i)
        else:
            tails[k], tails_i[k] = s, i
    keep, i = set(), tails_i[-1] if tails_i else None
    while i is not None:
        keep.add(i)
        i = parent[i]
    return [i for i in range(len(seqs)) if i not in keep]


def _blame(bad):
    """Why records were lost, from the damaged lines found where they should be."""
    if not bad:
        return "no line for it arrived"
    lines = sorted({b.line for b in bad})
    where = f"line {lines[0]}" if len(lines) == 1 else f"lines {lines[0]}-{lines[-1]}"
    return f"{where}: {bad[0].reason}"


class _Analysis:
    """Analysis of one log; builds Log. Damaged lines are `used` once a problem names them."""

    def __init__(self, data, name):
        self.log = Log(name=name)
        self.sc = frame.scan(data)
        self.log.scan = self.sc
        self.used = set()

    def problem(self, where, kind, line, msg, seq=None):
        where.append(Problem(kind, line, msg, seq))

    def bad_between(self, lo, hi):
        found = [b for b in self.sc.bad if lo < b.pos < hi and id(b) not in self.used]
        for b in found:
            self.used.add(id(b))
        return found

    def run(self):
        log, sc = self.log, self.sc
        if not sc.records:
            what = f"; {plural(len(sc.bad), 'line')} looked like records but were not ({sc.bad[0].reason})" \
                if sc.bad else ""
            self.problem(log.problems, "empty", None, f"no records in {sc.lines} lines{what}")
            return log
        groups = self.group()
        ends = [g[0][0].pos for g in groups[1:]] + [float("inf")]
        prev_end = -1
        for (recs, dups, has_meta), limit in zip(groups, ends):
            if not has_meta:
                self.headless(recs, prev_end, limit)
            else:
                self.boot(recs, dups, limit)
            prev_end = max(r.pos for r in recs)
        self.collapse_formats()
        self.repeats()
        for b in sc.bad:
            if id(b) in self.used:
                continue
            if b.crc_ok:
                self.problem(log.problems, "record", b.line, f"line {b.line}: {b.reason}")
            else:
                log.notes.append(f"line {b.line}: not a record ({b.reason}), skipped: {b.preview}")
        for bt in log.boots:
            log.problems += bt.problems
        log.problems.sort(key=lambda p: (p.line or 0))
        return log

    def repeats(self):
        """A hosted boot never repeats an earlier one's timings: one that does, record for record,
        is that boot copied (a log appended to itself), not a run. (A deterministic core, or
        deterministic QEMU, can repeat a boot exactly: not said there.)"""
        seen = {}
        for bt in self.log.boots:
            if not bt.complete or bt.meta.get("built_for") != "hosted":
                continue
            key = tuple(r.text for r in bt.records)
            if key in seen:
                self.problem(bt.problems, "repeat", bt.meta.line,
                             f"boot {bt.index} (line {bt.meta.line}) repeats boot {seen[key].index} record for "
                             f"record: a hosted run never repeats its timings, so it is a copy of that boot")
            else:
                seen[key] = bt

    def group(self):
        """Split the records into boots at each meta; a seq seen before with other content also
        starts one (the board reset and its meta was lost). Exact repeats are duplicates."""
        groups, cur = [], None
        for r in self.sc.records:
            if r.type == "meta" or cur is None or (r.seq in cur[3] and cur[3][r.seq].text != r.text):
                cur = ([], [], r.type == "meta", {})
                groups.append(cur)
            if r.seq in cur[3]:
                cur[1].append(r)
                continue
            cur[3][r.seq] = r
            cur[0].append(r)
        return [(g[0], g[1], g[2]) for g in groups]

    def headless(self, recs, prev_end, limit):
        first = recs[0]
        lost = self.bad_between(prev_end, first.pos)
        seqs = sorted(r.seq for r in recs)
        what = f"{plural(len(recs), 'record')} ({span(seqs[0], seqs[-1])}, lines {first.line}-{recs[-1].line})"
        if lost:
            why = f"their meta record was lost ({_blame(lost)})"
        elif prev_end < 0:
            why = "the log starts in the middle of a boot"
        else:
            why = "they follow a reset whose meta record never arrived"
        self.problem(self.log.problems, "headless", first.line, f"{what} have no meta record: {why}; ignored",
                     seqs[0])
        self.bad_between(first.pos, limit)   # damage inside an ignored fragment is not news

    def boot(self, recs, dups, limit):
        log = self.log
        bt = Boot(index=len(log.boots) + 1, meta=recs[0])
        log.boots.append(bt)
        P = bt.problems
        # Its console lines: from its meta to the next boot (the first boot also owns the header).
        since = recs[0].pos if len(log.boots) > 1 else -1
        bt.human = [h for h in self.sc.human if since <= h.pos < limit]
        meta = recs[0]
        if meta.data is None:
            self.problem(P, "record", meta.line, f"line {meta.line}: meta record: {meta.error}", 0)
            bt.records = recs
            return
        fmt = meta.get("format")
        if fmt != FORMAT or not isinstance(fmt, int):
            self.problem(P, "format", meta.line,
                         f"format {rules.show(fmt)} records (this tool reads format {FORMAT}, docs/records.md)")
            bt.records = recs
            self.bad_between(meta.pos, limit)
            return
        # Displaced and repeated records, each named once; then work in seq order.
        for i in _displaced([r.seq for r in recs]):
            r = recs[i]
            where = f"after seq {recs[i - 1].seq}" if i else "first"
            self.problem(P, "order", r.line, f"line {r.line}: seq {r.seq} arrived out of order ({where})", r.seq)
        for a, b in _ranges(r.seq for r in dups):
            lines = sorted(r.line for r in dups if a <= r.seq <= b)
            self.problem(P, "duplicate", lines[0],
                         f"line {lines[0]}: {span(a, b)} repeated (the same record arrived twice)", a)
        recs = sorted(recs, key=lambda r: r.seq)
        bt.records = recs
        by_seq = {r.seq: r for r in recs}
        if meta.seq != 0:
            self.problem(P, "structure", meta.line, f"line {meta.line}: the meta record has seq {meta.seq}, not 0", meta.seq)
        # The gaps between the seqs that arrived, as ranges: never one entry per missing number
        # (a corrupted seq can be 1.5e9: an entry per number would take all the memory there is).
        seqs = [-1] + sorted(by_seq)
        missing = [(a + 1, b - 1) for a, b in zip(seqs, seqs[1:]) if b > a + 1]
        for a, b in missing:
            before = by_seq.get(a - 1)
            after = by_seq[b + 1]
            lost = self.bad_between(before.pos if before else -1, after.pos)
            self.problem(P, "missing", after.line,
                         f"{span(a, b)} missing before line {after.line} ({_blame(lost)})", a)
        bt.gaps = bool(missing)
        check(bt, meta.data)
        for b in bt.benches:
            b.meta = meta.data
        last = recs[-1]
        tail_bad = self.bad_between(max(r.pos for r in recs), limit)
        if bt.end is None:
            reset = limit != float("inf")
            what = f"record {last.seq} ({last.type}{' ' + last.name if last.name else ''}, line {last.line})"
            msg = (f"board reset after {what}" if reset else f"the log ends after {what}: no end record")
            if tail_bad:
                msg += f"; {_blame(tail_bad)}"
            if bt.running is not None:
                s = bt.running.start
                msg += f"; benchmark {bt.running.name} ({s.get('index')}/{s.get('of')}) was running"
                said = bt.kit_said(s.pos)
                if said:
                    msg += "; the kit said: " + " | ".join(said)
            self.problem(P, "reset" if reset else "incomplete", last.line, msg, last.seq)
        elif tail_bad and not any(r.seq > bt.end.seq for r in recs):
            log.notes.append(f"line {tail_bad[0].line}: after the end record: {tail_bad[0].reason}")

    def collapse_formats(self):
        """One message for a log of format 1 records, not one per boot."""
        fmt = [p for b in self.log.boots for p in b.problems if p.kind == "format"]
        if len(fmt) > 1:
            for b in self.log.boots[1:]:
                b.problems[:] = [p for p in b.problems if p.kind != "format"]
            fmt[0].msg = f"{len(fmt)} boots of " + fmt[0].msg


def analyze(data: bytes, name: str = "log") -> Log:
    """Everything bm check says about a console log (bytes as they came off the wire)."""
    return _Analysis(data, name).run()


def read(path: str) -> bytes:
    """A log's console bytes. A LAVA job log (lava-run's log stream, a server's output.yaml)
    holds the board's console as its target lines: they are recovered (joblog.py), so every
    command reads a farm run as it reads a local capture, and line numbers stay the log's."""
    data = read_raw(path)
    return joblog.read_job_log(data).console if joblog.is_job_log(data) else data


def read_raw(path: str) -> bytes:
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}")
    except MemoryError:
        raise UsageError(f"{path} is too large to read")


def write(path: str, data: bytes):
    """Write a file a command was asked for; one it cannot write is the user's to fix."""
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}")


def write_boot(path: str, bt: Boot):
    """A boot's records, one a line, as a records file (every command reads it as a log)."""
    write(path, b"".join(r.text + b"\n" for r in bt.records))


@dataclass
class Run:
    """One complete, clean boot used as a run by report, compare and plot."""
    path: str
    boot: Boot
    label: str

    @property
    def meta(self):
        return self.boot.meta.data

    def bench(self, name):
        return self.boot.bench(name)


def runs_of(data, path, warn):
    """The clean, complete boots of one log as runs. Boots with problems are skipped with a
    warning that names the first problem (bm check names them all)."""
    log = analyze(data, path)
    base = os.path.basename(path) if path != "-" else "stdin"
    good = [b for b in log.boots if b.clean]
    for b in log.boots:
        if not b.clean:
            why = b.problems[0].msg if b.problems else "no end record"
            warn(f"{path}: boot {b.index} skipped: {why} (bm check {path} names every problem)")
    other = [p for p in log.problems if not any(p in b.problems for b in log.boots)]
    if other and good:
        warn(f"{path}: {other[0].msg}")
    if not good:
        why = log.problems[0].msg if log.problems else "no complete boot"
        raise UsageError(f"{path}: no complete, clean boot to read ({why})")
    return [Run(path, b, base if len(good) == 1 else f"{base}#{b.index}") for b in good]


def same_file(a: str, b: str) -> bool:
    """True when two paths name one file (a symlink, ./x and x, a hard link): an output written
    over an input, or over another output, loses what that one held."""
    if a == "-" or b == "-":
        return False
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def load_runs(paths, warn):
    """Every clean, complete boot of each file, as runs. One file named twice, or a hosted boot
    that repeats another record for record (a log copied into itself), is refused: each would
    count one run as two, and a test across runs would claim what one run cannot show."""
    if sum(p == "-" for p in paths) > 1:
        raise UsageError("stdin ('-') can be read once: name it once, and the other runs by file")
    for i, p in enumerate(paths):
        twin = next((q for q in paths[:i] if same_file(p, q)), None)
        if twin is not None:
            raise UsageError(f"{p} and {twin} are one file: each boot is one run, name it once")
    runs = []
    for path in paths:
        runs += runs_of(read(path), path, warn)
    seen = {}
    for r in runs:
        key = tuple(rec.text for rec in r.boot.records)
        first = seen.setdefault(key, r)
        if first is r:
            continue
        if r.meta.get("built_for") == "hosted":
            raise UsageError(f"{r.label} repeats {first.label} record for record: a hosted run never repeats its "
                             "timings, so this is one boot given twice (a log copied into itself?)")
        if not deterministic(r.meta.get("built_for")):
            warn(f"{r.label} repeats {first.label} record for record: a deterministic core can, but if it is "
                 "one boot given twice, the tests across runs count it twice")
    return runs
