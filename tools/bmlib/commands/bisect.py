# SPDX-License-Identifier: Apache-2.0
"""Find the first commit whose benchmark figure changed: drives `git bisect` in the current git
work tree, running COMMAND (which builds the image and prints its console, e.g. `cmake --build b
--target run`) at the commits it picks. Deterministic runs (built_for qemu-icount) decide with one
run a commit: the figure equals GOOD's or it changed. Noisy runs are repeated until a rank test
tells the commit's runs from GOOD's or BAD's, or bisect says it cannot decide. The repository is
left as it was found: `git bisect reset` on every way out, Ctrl-C included.

Exit status: 0 the commit was found; 1 it cannot be decided (noise, only skipped commits left, no
change between GOOD and BAD); 2 usage (not a work tree, uncommitted changes, a bisect already
under way); 130 interrupted."""
import argparse
import os
import shutil
import signal
import sys
from dataclasses import dataclass, field

from ..analysis import stats
from ..errors import UsageError
from ..history.changes import FIGURE_CHOICES
from ..history.git import work_tree
from ..records import log as logmod
from ..records import stream
from ..records.figures import deterministic
from .options import alpha, count, seconds


def _options(p):
    p.add_argument("--bench", metavar="NAME", help="the benchmark whose figure changed (required)")
    p.add_argument("--figure", default="p50", choices=FIGURE_CHOICES, help="the figure (default p50)")
    p.add_argument("--runs", type=count, default=5,
                   help="noisy runs: runs of each commit before the first test (default 5; deterministic runs: 1)")
    p.add_argument("--max-runs", type=count, default=20,
                   help="noisy runs: at most this many runs of a commit before it is called undecidable (default 20)")
    p.add_argument("--alpha", type=alpha, default=0.01, help="noisy runs: the rank test's level (default 0.01)")
    p.add_argument("--timeout", type=seconds, default=1800, help="seconds one run of COMMAND may go without a new record (default 1800)")
    p.add_argument("--verbose", action="store_true", help="show each run's output (build and console)")


def add_arguments(p):
    p.add_argument("good", metavar="GOOD", help="a revision with the old figure")
    p.add_argument("bad", metavar="BAD", help="a later revision with the new figure")
    _options(p)
    p.add_argument("cmd", nargs=argparse.REMAINDER, metavar="-- COMMAND...",
                   help="the command that builds the image, runs it and prints its console")


def _split(args):
    """GOOD BAD --bench NAME -- COMMAND: argparse hands everything after BAD to COMMAND, the
    options before `--` included; those are read here, with the same definitions."""
    rest = list(args.cmd)
    if "--" in rest:
        i = rest.index("--")
        pre, cmd = rest[:i], rest[i + 1:]
    elif rest and rest[0].startswith("-"):
        pre, cmd = rest, []     # options only: the command is missing (said below)
    else:
        pre, cmd = [], rest
    if pre:
        inner = argparse.ArgumentParser(prog="bm bisect GOOD BAD")
        _options(inner)
        inner.parse_args(pre, namespace=args)
    return cmd


def say(msg):
    print(f"bm bisect: {msg}", file=sys.stderr, flush=True)


@dataclass
class Measure:
    """The runs at one commit: the figure of each clean run ('status' when the benchmark was
    not ok), and whether they were deterministic."""
    sha: str
    values: list = field(default_factory=list)
    statuses: list = field(default_factory=list)
    exact: bool = None

    @property
    def value(self):
        return stats.median(self.values) if self.values else None

    def text(self, fig):
        if not self.values:
            return f"not ok ({'/'.join(sorted(set(self.statuses)))})"
        v = self.value
        s = format(v, "f").rstrip("0").rstrip(".") if "." in format(v, "f") else format(v, "f")
        return f"{fig} {s}" + (f" (median of {len(self.values)} runs)" if len(self.values) > 1 else "")


# What makes two boots the same build for bisect: the board, what it was built for, the core.
BUILD_KEYS = ("board", "built_for", "isa")


class Bisect:
    def __init__(self, args, git, cmd):
        self.args, self.git, self.cmd = args, git, cmd
        self.builds = 0
        self.measured = {}
        self.build = None       # (what GOOD's boots ran on, GOOD's sha): every run must match it

    def same_build(self, boots, sha):
        """The boots COMMAND printed at sha ran one build, the one GOOD's did: a stale log of
        another board or build printed first, or a COMMAND that builds for another target at some
        commits, would otherwise be judged as the user's figure moving."""
        ids = {}
        for bt in boots:
            m = bt.meta
            ids.setdefault(tuple(str(m.get(k)) for k in BUILD_KEYS), bt.index)
        if len(ids) > 1:
            shown = "; ".join(f"boot {i}: " + ", ".join(f"{k} {v}" for k, v in zip(BUILD_KEYS, key))
                              for key, i in ids.items())
            raise UsageError(f"COMMAND printed boots of different builds at {sha[:12]} ({shown}): bisect judges one "
                             "board's runs (is an old log printed first?)")
        key = next(iter(ids), None)
        if key is None:
            return
        if self.build is None:
            self.build = (key, sha)
        elif key != self.build[0]:
            diff = ", ".join(f"{k} {a} (GOOD) vs {b}" for k, a, b in zip(BUILD_KEYS, self.build[0], key) if a != b)
            raise UsageError(f"the run at {sha[:12]} is not of GOOD's build: {diff}; bisect compares one board's "
                             "figures across commits")

    def run_once(self, m):
        """One run of COMMAND at the checked-out commit: its clean boots add to m. False when it
        gave nothing to measure (a build that failed, a log bm check refuses, no such benchmark)."""
        self.builds += 1
        echo = stream.echo_to(sys.stderr.buffer) if self.args.verbose else None
        res = stream.run_command(self.cmd, timeout=self.args.timeout, linger=2.0, echo=echo)
        if res.interrupted:
            raise KeyboardInterrupt
        if self.git("status", "--porcelain", "--untracked-files=no").stdout.strip():
            raise UsageError(f"COMMAND changed files git tracks at {m.sha[:12]}: bisect cannot check out the "
                             "next commit over them (build outside the tracked files)")
        lg = logmod.analyze(res.data, f"the output at {m.sha[:12]}")
        why = None
        if res.timed_out:
            why = f"COMMAND timed out after {self.args.timeout:g} s without a record"
        elif not lg.boots:
            tail = res.data.decode("utf-8", "replace").strip().splitlines()[-3:]
            why = f"COMMAND (status {res.returncode}) printed no records" + \
                (": " + " | ".join(tail) if tail else "")
        elif not lg.clean:
            why = "its records have problems: " + "; ".join(p.msg for p in lg.problems[:3])
        if why:
            say(f"  {m.sha[:12]}: {why}")
            return False
        self.same_build([bt for bt in lg.boots if bt.bench(self.args.bench) is not None], m.sha)
        got = False
        for bt in lg.boots:
            b = bt.bench(self.args.bench)
            if b is None:
                continue
            got = True
            exact = deterministic(bt.meta.get("built_for"))
            m.exact = exact if m.exact is None else (m.exact and exact)
            if b.status == "ok":
                m.values.append(b.result.get(self.args.figure))
            m.statuses.append(b.status)
        if not got:
            say(f"  {m.sha[:12]}: no benchmark {self.args.bench} in its run")
        return got

    def measure(self, sha, want):
        """Run at sha (checked out) until it has `want` runs; None when a run gave nothing."""
        m = self.measured.setdefault(sha, Measure(sha))
        while len(m.statuses) < want:
            if not self.run_once(m):
                return None
            if m.exact:
                break   # deterministic: one run is the figure
        return m

    def differ(self, a, b):
        """Do two commits' runs differ? True/False, or None when the test cannot tell yet."""
        if not a.values or not b.values:
            return set(a.statuses) != set(b.statuses) or a.value != b.value
        if a.exact and b.exact:
            return a.value != b.value
        if stats.min_p(len(a.values), len(b.values)) > self.args.alpha:
            return None
        p = stats.rank_test(a.values, b.values)[0]
        return True if p <= self.args.alpha else None


def main(args):
    cmd = _split(args)
    if not args.bench:
        raise UsageError("--bench NAME is required: the benchmark whose figure changed")
    if not cmd:
        raise UsageError("no COMMAND: give the command that builds and runs the image after --, e.g. "
                         "bm bisect GOOD BAD --bench crc32 -- cmake --build b --target run")
    if shutil.which(cmd[0]) is None:
        raise UsageError(f"COMMAND {cmd[0]}: not found (give the command that builds and runs the image)")
    git = work_tree(os.getcwd())
    if git is None:
        raise UsageError("not in a git work tree: run bm bisect in your project's repository")
    if os.path.exists(git.out("rev-parse", "--git-path", "BISECT_START")) or \
            os.path.exists(os.path.join(git.top, git.out("rev-parse", "--git-path", "BISECT_START"))):
        raise UsageError("a git bisect is under way in this repository: end it (git bisect reset) first")
    if git.out("status", "--porcelain", "--untracked-files=no"):
        raise UsageError("the work tree has uncommitted changes: commit or stash them first (bisect checks out commits)")
    good, bad = git.commit(args.good), git.commit(args.bad)
    if good == bad:
        raise UsageError("GOOD and BAD are the same commit")
    if git("merge-base", "--is-ancestor", good, bad, check=False).returncode != 0:
        raise UsageError(f"GOOD {args.good} is not an ancestor of BAD {args.bad}")
    if args.max_runs < args.runs:
        raise UsageError(f"--max-runs {args.max_runs} is below --runs {args.runs}")
    n = int(git.out("rev-list", "--count", f"{good}..{bad}"))
    say(f"{n} commits after GOOD up to BAD; {args.figure} of {args.bench}; COMMAND: {' '.join(cmd)}")

    def stop(signum, frame):
        raise KeyboardInterrupt
    old = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    b = Bisect(args, git, cmd)
    started = False
    try:
        git("bisect", "start")
        started = True
        return _bisect(b, git, good, bad, args)
    finally:
        if started:
            r = git("bisect", "reset", check=False)
            if r.returncode != 0:
                say(f"git bisect reset failed ({(r.stderr or r.stdout).strip()}): run `git bisect reset` yourself")
        for s, h in old.items():
            signal.signal(s, h)
        say(f"{b.builds} run{'s' if b.builds != 1 else ''} of COMMAND")


def _at(git, sha):
    git("checkout", "-q", sha)


def _bisect(b, git, good, bad, args):
    fig = args.figure
    _at(git, good)
    g = b.measure(good, args.runs)
    if g is None:
        say(f"GOOD {git.describe(good)} gives no {args.bench}: nothing to compare with")
        return 1
    say(f"GOOD {git.describe(good)}: {g.text(fig)}" + (" (deterministic: one run a commit)" if g.exact else ""))
    ref = [g]
    if not g.exact:
        _at(git, bad)
        bm = b.measure(bad, args.runs)
        if bm is None:
            say(f"BAD {git.describe(bad)} gives no {args.bench}")
            return 1
        while b.differ(g, bm) is None:
            if len(g.statuses) >= args.max_runs:
                say(f"cannot decide: GOOD ({g.text(fig)}) and BAD ({bm.text(fig)}) do not differ at alpha "
                    f"{args.alpha} after {len(g.statuses)} runs each")
                return 1
            for sha, m in ((good, g), (bad, bm)):
                _at(git, sha)
                b.measure(sha, len(m.statuses) + 1)
        say(f"BAD {git.describe(bad)}: {bm.text(fig)}")
        ref.append(bm)
    git("bisect", "good", good)
    out = git("bisect", "bad", bad).stdout
    while True:
        if "is the first bad commit" in out:
            first = out.split()[0]
            return _found(b, git, first, good, g, args)
        if "only 'skip'ped commits left" in out:
            print(out.strip())
            say("cannot decide: the commits left could not be measured (see above)")
            return 1
        sha = git.out("rev-parse", "HEAD")
        verdict = _judge(b, git, sha, ref, args)
        say(f"[{b.builds}] {git.describe(sha)}: {verdict[1]}")
        if verdict[0] == "undecided":
            say(f"cannot decide at {sha[:12]}: its runs are told apart from neither GOOD's nor BAD's at alpha "
                f"{args.alpha} after {args.max_runs} runs (raise --max-runs, or quiet the machine)")
            return 1
        out = git("bisect", verdict[0]).stdout


def _judge(b, git, sha, ref, args):
    fig = args.figure
    g = ref[0]
    m = b.measure(sha, args.runs)
    if m is None:
        return "skip", "not measured: skipped"
    if g.exact and m.exact:
        changed = b.differ(g, m)
        return ("bad" if changed else "good"), m.text(fig) + (": changed" if changed else ": as GOOD")
    bad = ref[1] if len(ref) > 1 else None
    while True:
        from_good = b.differ(g, m)
        from_bad = b.differ(bad, m) if bad is not None else None
        if from_good and not from_bad:
            return "bad", m.text(fig) + ": differs from GOOD's runs"
        if from_bad and not from_good:
            return "good", m.text(fig) + ": differs from BAD's runs"
        if len(m.statuses) >= args.max_runs:
            return "undecided", m.text(fig) + ": undecided"
        if b.measure(sha, len(m.statuses) + 1) is None:
            return "skip", "a rerun gave nothing to measure: skipped"


def _found(b, git, first, good, g, args):
    """The first bad commit, its figure and its parent's. When bisect never ran it (all the
    commits it tried were as GOOD, so it is BAD itself), it is run now: it must differ."""
    fig = args.figure
    m = b.measured.get(first)
    if m is None:
        _at(git, first)
        m = b.measure(first, args.runs)
        if m is None:
            say(f"{git.describe(first)} could not be measured: the change lies at it or was not there")
            return 1
        if b.differ(g, m) is not True:
            say(f"no change: {args.bench}'s {fig} at BAD ({m.text(fig)}) is as at GOOD ({g.text(fig)})")
            return 1
    parents = git.out("rev-list", "--parents", "-n", "1", first).split()[1:]
    parent = next((p for p in parents if p in b.measured), good)
    pm = b.measured.get(parent, g)
    print(f"first commit whose {fig} of {args.bench} changed: {git.out('show', '-s', '--format=%H %s', first)}")
    delta = ""
    if pm.values and m.values:
        d = m.value - pm.value
        ds = format(d, "f").rstrip("0").rstrip(".") if "." in format(d, "f") else format(d, "f")
        delta = f" ({'' if ds.startswith('-') else '+'}{ds}" + \
            (f", {float(d) / float(pm.value) * 100:+.2f}%)" if pm.value else ")")
    print(f"  {pm.text(fig)} at {parent[:12]} (before) -> {m.text(fig)} at {first[:12]}{delta}")
    return 0
