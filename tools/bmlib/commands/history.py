# SPDX-License-Identifier: Apache-2.0
"""Results over time: a store of runs (SQLite file, or a PostgreSQL URL) keyed by board, build
identity, the user's revision and time, with every benchmark's figures and hist; its runs
listed, shown and exported; its change points over revisions (exact for deterministic runs, a
rank test over windows for noisy ones), gated; and a static trend page (docs/history.md).

  bm history add LOG... [--revision REV]   store the clean boots of logs (as bm check reads them)
  bm history list | show RUN|REV | export  what the store holds
  bm history changes [--gate METRIC:+LIMIT[%]] the change points; exit 1 when a gate fails
  bm history report -o DIR                 the trend page (opens from disk)

Exit status: 0 done; 1 a log refused by add, or a gate failed; 2 usage, unreadable, bad store."""
import os
import sys

from ..analysis.gate import parse_gate
from ..errors import UsageError
from ..history.changes import FIGURE_CHOICES, NOISY_FIGURES, Method, all_changes, build_series, gate, rows
from ..history.git import work_tree
from ..history.store import DEFAULT_DB, FIGURES, Revision, Store, file_time, iso_time, label_revision, short
from ..records import log as logmod
from ..records.figures import deterministic
from . import report
from .options import alpha as alpha_type
from .options import bench_pattern, count
from .output import FORMATS, num, render


def _db_arg(p):
    p.add_argument("--db", default=os.environ.get("BM_HISTORY_DB", DEFAULT_DB), metavar="FILE|URL",
                   help=f"the store: an SQLite file, or postgresql://... (default $BM_HISTORY_DB, else {DEFAULT_DB})")


def _fraction(text):
    import argparse
    t = text.strip().rstrip("%")
    try:
        v = float(t) / (100 if text.strip().endswith("%") else 1)
    except ValueError:
        v = -1
    if not 0 <= v < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a share such as 1% or 0.01")
    return v


def _detect_args(p):
    p.add_argument("--board", help="only this board")
    p.add_argument("--bench", metavar="REGEX", help="only benchmarks whose name matches REGEX")
    p.add_argument("--figure", metavar="LIST",
                   help=f"figures to watch, comma-separated, of {','.join(FIGURE_CHOICES)} (default: every "
                        f"figure of deterministic runs, {','.join(NOISY_FIGURES)} of noisy ones)")
    p.add_argument("--window", type=count, default=Method.window,
                   help=f"noisy series: revisions on each side of a boundary that the test compares (default {Method.window})")
    p.add_argument("--alpha", type=alpha_type, default=Method.alpha,
                   help=f"noisy series: the rank test's level at each boundary (default {Method.alpha})")
    p.add_argument("--min-change", type=_fraction, default=Method.min_change, metavar="SHARE",
                   help=f"noisy series: smaller changes of the median are not change points (default {Method.min_change * 100:g}%%)")


def add_arguments(p):
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    a = sub.add_parser("add", help="store the clean boots of console logs (plain, captured, LAVA)")
    a.add_argument("logs", nargs="+", metavar="LOG", help="console log, records file or LAVA job log ('-' = stdin)")
    _db_arg(a)
    a.add_argument("--revision", metavar="REV",
                   help="the user's revision these runs are of (a git commit); default: the one the label names")
    a.add_argument("--git", metavar="DIR",
                   help="the project's git work tree, which orders revisions (default: the one holding the current folder)")
    a.add_argument("--time", metavar="ISO", help="when the runs were made (default: each log's modification time)")

    ls = sub.add_parser("list", help="the stored runs")
    _db_arg(ls)
    ls.add_argument("--board", help="only this board")
    ls.add_argument("--revision", metavar="REV", help="only runs of this revision (a commit id's prefix will do)")
    ls.add_argument("--format", choices=FORMATS, default="table")

    sh = sub.add_parser("show", help="one run's results (by run id), or every run of a revision")
    sh.add_argument("what", metavar="RUN|REV")
    _db_arg(sh)
    sh.add_argument("--bench", metavar="REGEX", help="only benchmarks whose name matches REGEX")
    sh.add_argument("--format", choices=FORMATS, default="table")
    sh.add_argument("--records", action="store_true", help="print the run's records (a log every bm command reads)")

    ex = sub.add_parser("export", help="every run and benchmark as CSV or JSON (JSON with the hist)")
    _db_arg(ex)
    ex.add_argument("--format", choices=("csv", "json"), default="csv")
    ex.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    ex.add_argument("--board", help="only this board")
    ex.add_argument("--bench", metavar="REGEX", help="only benchmarks whose name matches REGEX")

    ch = sub.add_parser("changes", help="change points over revisions; --gate the newest revision")
    _db_arg(ch)
    _detect_args(ch)
    ch.add_argument("--format", choices=FORMATS, default="table")
    ch.add_argument("--gate", action="append", default=[], metavar="METRIC:+LIMIT[%]",
                    help="exit 1 when a series' newest revision is worse than its baseline past LIMIT (as bm "
                         "compare's --gate); repeatable")
    ch.add_argument("--baseline", metavar="REV",
                    help="the gate's baseline: this revision's runs (default: the revisions since the last change point)")

    rp = sub.add_parser("report", help="write the trend page (static HTML, opens from disk)")
    _db_arg(rp)
    _detect_args(rp)
    rp.add_argument("-o", "--output", required=True, metavar="DIR", help="folder for index.html and its scripts")
    p.set_defaults(_parser=p)


def say(msg):
    print(f"bm history: {msg}", file=sys.stderr)


def main(args):
    if not args.action:
        args._parser.print_help(sys.stderr)
        return 2
    return {"add": cmd_add, "list": cmd_list, "show": cmd_show, "export": cmd_export,
            "changes": cmd_changes, "report": cmd_report}[args.action](args)


# ---- add ----

class _Revisions:
    """The revision of each boot: --revision, else the one its label names; resolved in the
    project's git work tree when there is one (full id, order, time, subject)."""

    def __init__(self, args):
        self.given = args.revision
        self.git = work_tree(args.git or os.getcwd(), timeout=60)
        if args.git and not self.git:
            raise UsageError(f"--git {args.git}: not a git work tree")
        self.cache = {}
        self.told = False

    def resolve(self, name, strict):
        if name in self.cache:
            return self.cache[name]
        rev = self.git.revision(name) if self.git else None
        if rev is None:
            if self.git and strict:
                raise UsageError(f"--revision {name}: not a commit of the git work tree {self.git.top} (give the "
                                 "project's work tree with --git DIR)")
            if not self.told:
                say(f"note: {name} is not a commit of {'the work tree ' + self.git.top if self.git else 'any work tree here'}"
                    f": revisions are ordered by the time of their runs (--git DIR names the project's)")
                self.told = True
            rev = Revision(name)
        self.cache[name] = rev
        return rev

    def of(self, boot, where):
        from_label, _ = label_revision(boot.meta.get("label"))
        if self.given:
            rev = self.resolve(self.given, strict=True)
            if from_label:
                other = self.resolve(from_label, strict=False)
                if other.name != rev.name and not rev.name.startswith(from_label):
                    raise UsageError(f"{where}: its label {boot.meta.get('label')!r} names revision {from_label}, "
                                     f"--revision says {self.given}: which build is this?")
            return rev
        if not from_label:
            raise UsageError(f"{where}: no revision: its label {boot.meta.get('label')!r} names no commit; give "
                             "--revision REV, or build with -DBM_LABEL=$(git rev-parse --short=12 HEAD)")
        return self.resolve(from_label, strict=False)


def cmd_add(args):
    if args.logs.count("-") > 1:
        raise UsageError("stdin ('-') can be read once: name it once, and the other logs by file")
    when = iso_time(args.time) if args.time else None
    revs = _Revisions(args)
    store = Store(args.db, create=True)
    status = 0
    try:
        for path in args.logs:
            status = max(status, _add_log(store, path, revs, when))
    finally:
        store.close()
    return status


def _add_log(store, path, revs, when):
    """One log, all or nothing: refused (status 1) when bm check would refuse it."""
    try:
        data = logmod.read(path)
    except UsageError as e:
        say(str(e))
        return 2
    lg = logmod.analyze(data, path)
    if not lg.clean:
        for p in lg.problems:
            say(f"{path}: problem: {p.msg}")
        say(f"{path}: refused, nothing of it stored (`bm check {path}` names the same problems)")
        return 1
    run_time = when or file_time(path)
    done = []
    try:
        for bt in lg.boots:
            where = f"{path}: boot {bt.index}"
            rev = revs.of(bt, where)
            if bt.meta.get("built_for") == "hosted":
                other = [r for r in store.same_boot(bt) if r != rev.name]
                if other:
                    raise UsageError(f"{where} is stored already at revision {short(other[0])}: a hosted run never "
                                     "repeats its timings, so it is one boot given twice")
            if deterministic(bt.meta.get("built_for")):
                _same_figures(store, bt, rev, where)
            src = path if len(lg.boots) == 1 else f"{path}#{bt.index}"
            run_id, new = store.add_boot(bt, rev, run_time, src)
            done.append((bt, run_id, new, rev))
        store.commit()
    except UsageError as e:
        store.rollback()
        say(f"{e}; nothing of {path} stored")
        return 2
    except BaseException:
        store.rollback()
        raise
    for bt, run_id, new, rev in done:
        what = "stored as run" if new else "already stored (the same boot at the same revision): run"
        print(f"{path}: boot {bt.index}: {what} {run_id} (board {bt.meta.get('board')}, revision "
              f"{short(rev.name)}, {len(bt.benches)} benchmarks)")
    return 0


def _same_figures(store, bt, rev, where):
    """A deterministic build repeats its figures exactly: a run of the same series and revision
    with other figures is another build (a stale image, or two configurations sharing a label)."""
    meta = bt.meta.data
    _, config = label_revision(meta.get("label"))
    key = (meta.get("board"), config, meta.get("built_for"), meta.get("cycle_unit"))
    others = [r for r in store.runs(board=meta.get("board")) if r.revision == rev.name and r.series == key]
    if not others:
        return
    res = store.results([r.id for r in others])
    for b in bt.benches:
        for r in others:
            old = res.get(r.id, {}).get(b.name)
            if old is None:
                continue
            new = {k: b.result.get(k) for k in ("status",) + FIGURES}
            diff = [k for k in new if old.get(k) != new[k]]
            if diff:
                raise UsageError(
                    f"{where}: {b.name}'s {diff[0]} is {new[diff[0]]}, run {r.id} of the same revision {short(rev.name)} "
                    f"has {old.get(diff[0])}: a deterministic build repeats exactly, so this is another build (an image "
                    f"not rebuilt at this revision? two configurations? label them apart: -DBM_LABEL=CONFIG@REV)")


# ---- list, show, export ----

def cmd_list(args):
    store = Store(args.db)
    runs = _runs_of_revision(store, args.revision, args.board) if args.revision else store.runs(board=args.board)
    res = store.results([r.id for r in runs])
    out = []
    for r in runs:
        benches = res.get(r.id, {})
        ok = sum(1 for b in benches.values() if b["status"] == "ok")
        raw = {"run": r.id, "revision": r.revision, "rev_time": r.rev_time, "run_time": r.run_time,
               "board": r.board, "config": r.config, "built_for": r.built_for,
               "kit_version": r.cols.get("kit_version"), "label": r.cols.get("label"),
               "benchmarks": len(benches), "ok": ok, "subject": r.rev_subject, "source": r.cols.get("source")}
        cells = {k: num(v) if v is not None else "" for k, v in raw.items()}
        cells["revision"] = short(r.revision)
        cells["ok"] = f"{ok}/{len(benches)}"
        cells["_raw"] = raw
        out.append(cells)
    if not out:
        raise UsageError(f"no runs in {store.where()}" + (" match" if args.board or args.revision else ""))
    cols = [("run", "run"), ("revision", "revision"), ("run_time", "time"), ("board", "board"),
            ("config", "config"), ("built_for", "built_for"), ("ok", "ok"), ("subject", "subject")]
    if args.format in ("json", "csv"):
        cols = [(k, k) for k in out[0]["_raw"]]
    render(out, cols, args.format, sys.stdout)
    return 0


def _runs_of_revision(store, what, board=None):
    """The runs of a revision named as stored (or by a commit id's prefix), or by a name the
    git work tree here knows (HEAD, a branch, a tag)."""
    runs = store.runs(board=board, revision=what)
    git = work_tree(os.getcwd(), timeout=60)
    if not runs and git:
        rev = git.revision(what)
        runs = store.runs(board=board, revision=rev.name) if rev else []
    return runs


def _runs_named(store, what):
    if what.isdigit():
        runs = store.runs(ids=[int(what)])
        if not runs:
            raise UsageError(f"no run {what} in {store.where()} (bm history list names them)")
        return runs
    runs = _runs_of_revision(store, what)
    if not runs:
        raise UsageError(f"no run of revision {what} in {store.where()} (bm history list names them)")
    return runs


def cmd_show(args):
    store = Store(args.db)
    runs = _runs_named(store, args.what)
    if args.records:
        for r in runs:
            sys.stdout.write(store.records(r))
        return 0
    rx = bench_pattern(args.bench)
    pick = (lambda n: bool(rx.search(n))) if rx else (lambda n: True)
    if args.format == "table":
        for r in runs:
            print(f"run {r.id}: revision {r.revision}{' ' + repr(r.rev_subject) if r.rev_subject else ''}, "
                  f"board {r.board}, {r.built_for}, label {r.cols.get('label')!r}, kit {r.cols.get('kit_version')} "
                  f"({r.cols.get('kit_vcs')}), run {r.run_time}, from {r.cols.get('source')}")
    rows_ = report.per_run([store.as_log_run(r) for r in runs], pick)
    if not rows_:
        raise UsageError("no benchmark to show" + (f" matches {args.bench!r}" if args.bench else ""))
    cols = [("run", "run"), ("benchmark", "benchmark"), ("status", "status"), ("unit", "unit"),
            ("iters", "iters"), ("n", "n")] + [(k, k) for k in report.FIGS] + [("insns", "insn/it")]
    render(rows_, cols, args.format, sys.stdout)
    return 0


def cmd_export(args):
    store = Store(args.db)
    rx = bench_pattern(args.bench)
    runs = store.runs(board=args.board)
    res = store.results([r.id for r in runs])
    out = []
    for r in runs:
        hists = store.hists(r.id) if args.format == "json" else {}
        for name, b in sorted(res.get(r.id, {}).items()):
            if rx and not rx.search(name):
                continue
            raw = {"run": r.id, "revision": r.revision, "rev_order": r.rev_order, "rev_time": r.rev_time,
                   "run_time": r.run_time, "board": r.board, "config": r.config, "built_for": r.built_for}
            raw.update({k: r.cols.get(k) for k in ("cycle_unit", "isa", "kit_version", "kit_vcs", "label",
                                                   "cflags", "compiler", "opt", "libc", "samples", "source")})
            raw.update({"benchmark": name, "status": b["status"], "unit": b["unit"], "iters": b["iters"], "n": b["n"]})
            raw.update({k: b[k] for k in FIGURES})
            if args.format == "json":
                raw["hist"] = hists.get(name)
            out.append({"_raw": raw})
    if not out:
        raise UsageError(f"nothing to export from {store.where()}")
    cols = [(k, k) for k in out[0]["_raw"]]
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as f:
                render(out, cols, args.format, f)
        except OSError as e:
            raise UsageError(f"cannot write {args.output}: {e.strerror or e}")
        say(f"wrote {len(out)} rows to {args.output}")
    else:
        render(out, cols, args.format, sys.stdout)
    return 0


# ---- changes, report ----

def _series_and_changes(args, store):
    rx = bench_pattern(args.bench)
    series = build_series(store, board=args.board, pick=(lambda n: bool(rx.search(n))) if rx else None)
    if not series:
        raise UsageError(f"no runs in {store.where()}" + (" match" if args.board or args.bench else ""))
    figures = None
    if args.figure:
        figures = [f.strip() for f in args.figure.split(",") if f.strip()]
        bad = [f for f in figures if f not in FIGURE_CHOICES]
        if bad or not figures:
            raise UsageError(f"unknown --figure {','.join(bad) or '(none)'}: use {','.join(FIGURE_CHOICES)}")
    method = Method(args.window, args.alpha, args.min_change)
    return series, all_changes(series, figures, method), method


def method_text(method):
    return (f"Deterministic runs (built_for qemu-icount): every change of a figure is a change point. Noisy runs: "
            f"Mann-Whitney U of the runs of up to {method.window} revisions either side of each boundary, "
            f"p <= {method.alpha:g} and a change of the median of {method.min_change:.1%} or more "
            f"(at least {method.min_runs} runs a side).")


def cmd_changes(args):
    store = Store(args.db)
    try:
        gates = [parse_gate(g) for g in args.gate]
    except ValueError as e:
        raise UsageError(str(e))
    if args.baseline and not gates:
        raise UsageError("--baseline is the gate's: give --gate METRIC:+LIMIT with it")
    series, changes, method = _series_and_changes(args, store)
    table = rows(changes, group=args.format in ("table", "markdown"))
    cols = [("board", "board"), ("config", "config"), ("benchmark", "benchmark"), ("figure", "figure"),
            ("before_revision", "before"), ("after_revision", "after"), ("commits", "commits"),
            ("before", "was"), ("after", "is"), ("change", "change"), ("method", "method"), ("note", "note")]
    if args.format in ("table", "markdown"):
        cols = [c for c in cols if c[0] not in ("config", "note") or any(r[c[0]] for r in table)]
    if args.format == "json":
        cols = [(k, k) for k in table[0]["_raw"]] if table else []
    if table or args.format == "json":
        render(table, cols, args.format, sys.stdout)
    if args.format == "table":
        points = {(id(c.series), c.index) for c in changes}
        print(f"{len(points)} change point{'s' if len(points) != 1 else ''} ({len(changes)} figure changes) in "
              f"{len(series)} series")
        if any(not s.deterministic for s in series):
            print(method_text(method))
    if not gates:
        return 0
    baseline = args.baseline
    if baseline and not store.runs(revision=baseline):
        git = work_tree(os.getcwd(), timeout=60)
        rev = git.revision(baseline) if git else None
        baseline = rev.name if rev else baseline   # (a tag or branch: its commit)
    fails, notes = gate(store, series, gates, changes, method, baseline=baseline)
    for s, msg in notes:
        say(f"gate: {s.name} {s.bench}: {msg}")
    for s, msg in fails:
        say(f"gate failed: {s.name} {s.bench}: {msg}")
    if not fails:
        say(f"gate passed ({', '.join(g.text for g in gates)})")
    return 1 if fails else 0


def cmd_report(args):
    from ..history.page import write_site
    store = Store(args.db)
    series, changes, method = _series_and_changes(args, store)
    path = write_site(args.output, series, changes, store.where(), method_text(method))
    points = {(id(c.series), c.index) for c in changes}
    print(f"{path}: {len(series)} charts, {len(points)} change point{'s' if len(points) != 1 else ''} "
          "(open it from disk: no server needed)")
    return 0

