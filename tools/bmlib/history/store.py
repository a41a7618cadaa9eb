# SPDX-License-Identifier: Apache-2.0
"""The history store behind `bm history`: runs keyed by board, build identity, the user's revision
and time, with every benchmark's figures and hist, in SQLite (a file, Python's sqlite3) or
PostgreSQL (a URL, Debian's python3-psycopg2). The same SQL serves both (docs/history.md)."""
import datetime
import hashlib
import json
import os
import re
import sqlite3
from dataclasses import dataclass, field
from decimal import Decimal

from ..errors import UsageError
from ..records import log as logmod
from ..records.figures import SUMMARY

SCHEMA = 1
DEFAULT_DB = "bm-history.db"
FIGURES = SUMMARY + ("stddev", "insns")   # (the columns of bm_results, in this order)
# Build identity: what says which build a run is (docs/records.md, meta record).
BUILD = ("kit_version", "kit_vcs", "label", "cflags", "compiler", "opt", "libc")
# The user's revision inside a label: the whole label, or its last word after one of these
# separators, when that is 7 to 40 hex digits (`-DBM_LABEL=$(git rev-parse --short=12 HEAD)`,
# `O2@3f2a9c1d0e4b`). What is left of the label names the series (its "config").
_LABEL_REV = re.compile(r"^(?:(.*)[@ :=/,+])?([0-9a-f]{7,40})$")

_TABLES = [
    "CREATE TABLE IF NOT EXISTS bm_history (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS bm_runs (
        id {serial},
        boot_id TEXT NOT NULL,        -- sha256 of the boot's records: the same boot is stored once
        revision TEXT NOT NULL,       -- the user's revision (a full commit id when git knew it)
        rev_order BIGINT,             -- its ancestors (git rev-list --count): orders revisions
        rev_time TEXT,                -- its committer time, ISO 8601
        rev_subject TEXT,
        run_time TEXT NOT NULL,       -- when the run was saved (the log's time), ISO 8601 UTC
        added TEXT NOT NULL,
        board TEXT NOT NULL, built_for TEXT NOT NULL, config TEXT NOT NULL,
        cycle_unit TEXT NOT NULL, isa TEXT, cycle_counter TEXT, samples BIGINT,
        kit_version TEXT, kit_vcs TEXT, label TEXT, cflags TEXT, compiler TEXT, opt TEXT, libc TEXT,
        source TEXT NOT NULL,         -- the log it came from, and which boot of it
        records TEXT NOT NULL,        -- the boot's records, one a line: it reads back as a log
        UNIQUE (boot_id, revision))""",
    """CREATE TABLE IF NOT EXISTS bm_results (
        run_id BIGINT NOT NULL REFERENCES bm_runs (id) ON DELETE CASCADE,
        name TEXT NOT NULL, status TEXT NOT NULL, unit TEXT, iters BIGINT, n BIGINT,
        {figures},
        hist TEXT,                    -- the hist record's fields as JSON (ok results)
        PRIMARY KEY (run_id, name))""".replace("{figures}", ", ".join(f"{k} TEXT" for k in FIGURES)),
]
# (figures are exact decimals: kept as their text, read back as Decimal, on both databases)

RUN_COLUMNS = ("id", "boot_id", "revision", "rev_order", "rev_time", "rev_subject", "run_time", "added",
               "board", "built_for", "config", "cycle_unit", "isa", "cycle_counter", "samples") + BUILD + ("source",)


@dataclass
class Revision:
    """The user's revision of a run: as given, and what git says of it when it knows it."""
    name: str
    order: int = None
    time: str = None
    subject: str = None


@dataclass
class StoredRun:
    id: int
    revision: str
    board: str
    built_for: str
    config: str
    cycle_unit: str
    run_time: str
    rev_order: int = None
    rev_time: str = None
    rev_subject: str = None
    cols: dict = field(default_factory=dict)
    _boot: object = None
    _records: str = None

    @property
    def series(self):
        return (self.board, self.config, self.built_for, self.cycle_unit)


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()


def iso_time(text):
    """--time: an ISO 8601 time (UTC when it has no zone), normalised; a bad one is refused."""
    try:
        t = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--time {text!r}: use an ISO 8601 time, e.g. 2024-05-01T12:00:00Z")
    if t.tzinfo is None:
        t = t.replace(tzinfo=datetime.timezone.utc)
    return t.astimezone(datetime.timezone.utc).replace(microsecond=0).isoformat()


def file_time(path):
    if path == "-":
        return now_iso()
    t = datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc)
    return t.replace(microsecond=0).isoformat()


def label_revision(label):
    """(revision or None, config) from a label: `3f2a9c1d0e4b` -> (that, ""), `O2@3f2a9c1` ->
    (3f2a9c1, "O2"), `gcc12-O2` -> (None, "gcc12-O2")."""
    m = _LABEL_REV.match(label or "")
    if not m:
        return None, label or ""
    return m.group(2), (m.group(1) or "").strip()


def boot_id(boot):
    h = hashlib.sha256()
    for r in boot.records:
        h.update(r.text + b"\n")
    return h.hexdigest()


# ---- the database ----

def is_url(db):
    return db.startswith(("postgresql://", "postgres://"))


class Store:
    """A connection to a store, its tables made on first use (by `add`)."""

    def __init__(self, db, create=False):
        self.db = db
        self.pg = is_url(db)
        if self.pg:
            try:
                import psycopg2
            except ImportError:
                raise UsageError("a PostgreSQL store needs Debian's python3-psycopg2 "
                                 "(apt-get install python3-psycopg2; tools/setup --all installs it)")
            self._errors = (psycopg2.Error,)
            try:
                self.conn = psycopg2.connect(db)
            except psycopg2.Error as e:
                raise UsageError(f"cannot connect to {self.where()}: {str(e).strip().splitlines()[0]}")
        else:
            self._errors = (sqlite3.Error,)
            if not create and not os.path.exists(db):
                raise UsageError(f"no store at {db} (`bm history add LOG --db {db}` makes one)")
            try:
                self.conn = sqlite3.connect(db)
                self.conn.execute("PRAGMA foreign_keys = ON")
            except sqlite3.Error as e:
                raise UsageError(f"cannot open {db}: {e}")
        self._schema(create)

    def where(self):
        """The store's name for messages: a URL without its password."""
        return re.sub(r"://([^:/@]*):[^@/]*@", r"://\1:***@", self.db)

    def sql(self, text, args=(), fetch=True):
        if self.pg:
            text = text.replace("?", "%s")
        cur = self.conn.cursor()
        try:
            cur.execute(text, tuple(args))
            return cur.fetchall() if fetch and cur.description else []
        except self._errors as e:
            self.conn.rollback()
            raise UsageError(f"{self.where()}: {str(e).strip().splitlines()[0]}")
        finally:
            cur.close()

    def _schema(self, create):
        have = self.sql("SELECT 1 FROM information_schema.tables WHERE table_name = 'bm_history'") if self.pg \
            else self.sql("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bm_history'")
        if not have:
            if not create:
                raise UsageError(f"{self.where()} holds no bm history (`bm history add LOG --db ...` makes one)")
            serial = "BIGSERIAL PRIMARY KEY" if self.pg else "INTEGER PRIMARY KEY"
            for t in _TABLES:
                self.sql(t.replace("{serial}", serial), fetch=False)
            self.sql("INSERT INTO bm_history (key, value) VALUES ('schema', ?) ON CONFLICT (key) DO NOTHING",
                     [str(SCHEMA)], fetch=False)
            self.conn.commit()
        v = self.sql("SELECT value FROM bm_history WHERE key = 'schema'")
        if not v or v[0][0] != str(SCHEMA):
            raise UsageError(f"{self.where()}: a bm history of schema {v[0][0] if v else '?'}, not {SCHEMA} "
                             f"(this bm reads schema {SCHEMA})")

    def close(self):
        self.conn.close()

    # -- writing --

    def add_boot(self, boot, rev, run_time, source):
        """Store one clean boot at a revision: (run id, True) when new, (its id, False) when the
        same boot is already stored at that revision."""
        meta = boot.meta.data
        bid = boot_id(boot)
        _, config = label_revision(meta.get("label"))
        row = {"boot_id": bid, "revision": rev.name, "rev_order": rev.order, "rev_time": rev.time,
               "rev_subject": rev.subject, "run_time": run_time, "added": now_iso(),
               "board": meta.get("board"), "built_for": meta.get("built_for"), "config": config,
               "cycle_unit": meta.get("cycle_unit"), "isa": meta.get("isa"),
               "cycle_counter": meta.get("cycle_counter"), "samples": meta.get("samples"),
               "source": source, "records": "".join(r.text.decode() + "\n" for r in boot.records)}
        row.update({k: meta.get(k) for k in BUILD})
        keys = list(row)
        got = self.sql(f"INSERT INTO bm_runs ({', '.join(keys)}) VALUES ({', '.join('?' * len(keys))}) "
                       "ON CONFLICT (boot_id, revision) DO NOTHING RETURNING id", [row[k] for k in keys])
        if not got:
            old = self.sql("SELECT id FROM bm_runs WHERE boot_id = ? AND revision = ?", [bid, rev.name])
            return old[0][0], False
        run_id = got[0][0]
        for b in boot.benches:
            r = b.result.data
            hist = None
            if b.hist is not None:
                hist = {k: v for k, v in b.hist.data.items() if k not in ("type", "format", "seq", "crc")}
            vals = [run_id, b.name, r.get("status"), r.get("unit"), r.get("iters"), r.get("n")] + \
                [_text(r.get(k)) for k in FIGURES] + [json.dumps(hist) if hist else None]
            self.sql("INSERT INTO bm_results (run_id, name, status, unit, iters, n, " + ", ".join(FIGURES) +
                     ", hist) VALUES (" + ", ".join("?" * len(vals)) + ")", vals, fetch=False)
        return run_id, True

    def same_boot(self, boot):
        """Revisions at which this very boot is stored already."""
        return [r[0] for r in self.sql("SELECT revision FROM bm_runs WHERE boot_id = ?", [boot_id(boot)])]

    def commit(self):
        self.conn.commit()

    def rollback(self):
        self.conn.rollback()

    # -- reading --

    def runs(self, board=None, revision=None, ids=None):
        where, args = [], []
        if board:
            where.append("board = ?")
            args.append(board)
        if ids is not None:
            if not ids:
                return []
            where.append(f"id IN ({', '.join('?' * len(ids))})")
            args += list(ids)
        q = f"SELECT {', '.join(RUN_COLUMNS)} FROM bm_runs" + (" WHERE " + " AND ".join(where) if where else "") + \
            " ORDER BY id"
        out = [_stored(dict(zip(RUN_COLUMNS, row))) for row in self.sql(q, args)]
        if revision:
            out = [r for r in out if revision_matches(r.revision, revision)]
        return out

    def results(self, run_ids=None):
        """{run id: {benchmark: {status, unit, iters, n, figures (Decimal)...}}}"""
        q = "SELECT run_id, name, status, unit, iters, n, " + ", ".join(FIGURES) + " FROM bm_results"
        args = []
        if run_ids is not None:
            if not run_ids:
                return {}
            q += f" WHERE run_id IN ({', '.join('?' * len(run_ids))})"
            args = list(run_ids)
        out = {}
        for row in self.sql(q, args):
            d = dict(zip(("run_id", "name", "status", "unit", "iters", "n") + FIGURES, row))
            for k in FIGURES:
                d[k] = Decimal(d[k]) if d[k] is not None else None
            out.setdefault(d.pop("run_id"), {})[d["name"]] = d
        return out

    def hists(self, run_id):
        return {name: json.loads(h) for name, h in
                self.sql("SELECT name, hist FROM bm_results WHERE run_id = ? AND hist IS NOT NULL", [run_id])}

    def records(self, run):
        if run._records is None:
            run._records = self.sql("SELECT records FROM bm_runs WHERE id = ?", [run.id])[0][0]
        return run._records

    def boot(self, run):
        """The run's boot, read back through the same reader as any log (bm check's)."""
        if run._boot is None:
            lg = logmod.analyze(self.records(run).encode(), f"run {run.id}")
            if not lg.clean or len(lg.boots) != 1:
                raise UsageError(f"run {run.id} in {self.where()} no longer reads as a clean boot: "
                                 f"{lg.problems[0].msg if lg.problems else 'no boot'}")
            run._boot = lg.boots[0]
        return run._boot

    def as_log_run(self, run):
        """The run as log.Run, what report and compare take."""
        return logmod.Run(f"run {run.id}", self.boot(run), f"{short(run.revision)}#{run.id}")


def _text(v):
    if v is None:
        return None
    return format(v, "f") if isinstance(v, Decimal) else str(v)


def _stored(d):
    return StoredRun(d["id"], d["revision"], d["board"], d["built_for"], d["config"], d["cycle_unit"],
                     d["run_time"], d["rev_order"], d["rev_time"], d["rev_subject"], d)


def short(rev):
    return rev[:12] if re.fullmatch(r"[0-9a-f]{40}", rev or "") else rev


def revision_matches(stored, wanted):
    """A stored revision named by a user: in full, or by a commit id's prefix (7+ hex digits)."""
    if stored == wanted:
        return True
    return bool(re.fullmatch(r"[0-9a-f]{7,40}", wanted)) and stored.startswith(wanted)
