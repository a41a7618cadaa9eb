# SPDX-License-Identifier: Apache-2.0
"""The records of a served boot (meta "serve": true, docs/records.md "Served images"), checked
after boot.py's own pass: a ready record before every command, each command's reply (an error,
the list, the identity, or a run's start/result/hist records ended by its done record), the
end record after the last ready; each record's values, each run's results against its done
record and its command, and the end against the whole boot."""
from .. import shared
from . import rules

TYPES = ("ready", "error", "list", "id", "done")
IDENTITY = ("kit", "kit_version", "kit_vcs", "label", "built_for", "opt", "board")


def check_ready(d):
    f = rules.Fields(d)
    f.int("commands")
    f.int("line_max", lo=1)
    return f.errs


def check_error(d, line_max=None):
    f = rules.Fields(d)
    f.str("reason", nonempty=True)
    cmd = f.str("command")
    f.str("word", required=False, nonempty=True)
    if cmd is not None and isinstance(line_max, int) and len(cmd) > line_max:
        f.errs.append(f"command holds {len(cmd)} characters, more than the ready record's line_max = {line_max}")
    if cmd is not None and not all(" " <= c <= "~" for c in cmd):
        f.errs.append(f"command = {rules.show(cmd)} holds a character a command line cannot (the firmware "
                      "writes any byte outside ' '..'~' as '?')")
    word = d.get("word")
    if isinstance(word, str) and isinstance(cmd, str) and word not in cmd:
        f.errs.append(f"word = {rules.show(word)} is not part of its command")
    return f.errs


def check_list(d, meta):
    f = rules.Fields(d)
    n = f.int("benchmarks")
    names = d.get("names")
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        f.errs.append("names is missing or not an array of strings")
        return f.errs
    if n is not None and n != len(names):
        f.errs.append(f"benchmarks = {n}, but names holds {len(names)}")
    if n is not None and n != meta.get("benchmarks"):
        f.errs.append(f"benchmarks = {n}, but the meta record's benchmarks = {rules.show(meta.get('benchmarks'))}")
    for x in names:
        why = rules.name_problem(x)
        if why:
            f.errs.append(f"names: {rules.show(x)}: {why}")
    if any(a >= b for a, b in zip(names, names[1:])):
        f.errs.append("names are not in the run's order (by name, each once)")
    return f.errs


def check_id(d, meta):
    f = rules.Fields(d)
    for k in IDENTITY:
        v = f.str(k)
        if v is not None and v != meta.get(k):
            f.errs.append(f"{k} = {rules.show(v)}, but the meta record's {k} = {rules.show(meta.get(k))}")
    n = f.int("benchmarks")
    if n is not None and n != meta.get("benchmarks"):
        f.errs.append(f"benchmarks = {n}, but the meta record's benchmarks = {rules.show(meta.get('benchmarks'))}")
    return f.errs


def check_done(d):
    """A run command's end: its end record's keys (rules.check_end) but the clock's, and what it
    asked for."""
    f = rules.Fields(d)
    f.str("command", nonempty=True)
    f.int("samples", lo=1, hi=rules.U32_MAX)
    f.int("warmup_min", lo=1, hi=shared.WARMUP_MAX)
    errs = f.errs + rules.check_end(d, served=True)
    if d.get("results") == 0:
        errs.append("results = 0: a run command runs at least one benchmark")
    return errs


def run_command(text):
    """(names or "*", samples or None, warmup or None) of a run command line as the firmware took
    it, or None."""
    w = text.split()
    if len(w) < 2 or w[0] != "run":
        return None
    opts = dict(zip(w[2::2], w[3::2]))
    num = {k: int(v) for k, v in opts.items() if v.isdigit()}
    return (w[1] if w[1] == "*" else w[1].split(",")), num.get("samples"), num.get("warmup")


class Session:
    """The served structure of one boot; its problems go to boot.py's checker (say, bench_say)."""

    def __init__(self, chk):
        self.chk, self.bt, self.meta = chk, chk.bt, chk.meta

    def say(self, rec, msg):
        self.chk.say(("served", rec.seq), rec, f"seq {rec.seq} ({rec.type})", msg)

    def check(self):
        recs = [r for r in self.bt.records[1:] if r.data is not None]
        readies = [r for r in recs if r.type == "ready"]
        line_max = readies[0].get("line_max") if readies else None
        for r in recs:
            for m in {"ready": check_ready, "done": check_done}.get(r.type, lambda d: [])(r.data):
                self.say(r, m)
            if r.type == "error":
                for m in check_error(r.data, line_max):
                    self.say(r, m)
            elif r.type == "list":
                for m in check_list(r.data, self.meta):
                    self.say(r, m)
            elif r.type == "id":
                for m in check_id(r.data, self.meta):
                    self.say(r, m)
        for k, r in enumerate(readies):
            if r.get("commands") != k:
                self.say(r, f"commands = {rules.show(r.get('commands'))}, but it is ready record {k + 1} of its boot "
                            f"(it counts the commands before it: {k})")
            if r.get("line_max") != line_max:
                self.say(r, f"line_max = {rules.show(r.get('line_max'))}, but the first ready record's = "
                            f"{rules.show(line_max)}")
        if self.bt.gaps:
            return   # (a lost record is said already: the replies cannot be told apart)
        replies, cur = [], None
        for r in recs:
            if r.type == "ready":
                cur = (r, [])
                replies.append(cur)
            elif cur is None:
                self.say(r, "comes before the first ready record (a served boot waits for its first command "
                            "right after its meta record)")
            else:
                cur[1].append(r)
        results = 0
        for i, (ready, reply) in enumerate(replies):
            results += self.reply(ready, reply, last=i == len(replies) - 1)
        self.end(results)

    def reply(self, ready, recs, last):
        """One command's reply (the records after a ready): returns its results."""
        types = [r.type for r in recs]
        if not recs:
            if not last:
                self.say(ready, "no reply follows it before the next ready record")
            return 0
        if types in (["error"], ["list"], ["id"]) or (last and types == ["end"]):
            return 0
        if "end" in types:
            self.say(recs[types.index("end")], "the end record follows a ready record alone (the end command "
                                               "has no other reply)")
            return 0
        if recs[0].type not in ("start", "result", "hist", "done"):
            shown = ", ".join(types[:5]) + (", ..." if len(types) > 5 else "")
            self.say(recs[0], f"a reply of {shown}: a command gets one error, list or id record, or a run's "
                              f"records ended by its done record")
            return 0
        return self.run_reply(recs, last)

    def run_reply(self, recs, last):
        hist_on = self.meta.get("hist") is True
        done = recs[-1] if recs[-1].type == "done" else None
        body = recs[:-1] if done else recs
        if done is None and not last:
            self.say(recs[-1], "a run command's records end without its done record")
        starts = [r for r in body if r.type == "start"]
        results = [r for r in body if r.type == "result"]
        for k, r in enumerate(body):
            nxt = body[k + 1] if k + 1 < len(body) else None
            if r.type not in ("start", "result", "hist"):
                self.say(r, "inside a run command's reply (only start, result and hist records, then done)")
            elif r.type == "result" and r.get("status") == "ok" and hist_on and (nxt is None or nxt.type != "hist") \
                    and (done is not None or nxt is not None):
                self.say(r, "no hist record follows this ok result (meta says hist:true)")
            elif r.type == "start" and (nxt is None or nxt.type != "result") and (done is not None or nxt is not None):
                self.say(r, f"benchmark {r.name} has no result")
        for k, s in enumerate(starts, 1):
            if s.get("index") != k or (s.get("of") != len(starts) and done is not None):
                self.say(s, f"index = {rules.show(s.get('index'))}, of = {rules.show(s.get('of'))}: it is start {k} "
                            f"of the {len(starts)} of its command")
        if done is None:
            return len(results)
        self.against_done(done, starts, results)
        return len(results)

    def against_done(self, done, starts, results):
        d = done.data
        counted = {s: 0 for s in rules.STATUSES}
        for r in results:
            if r.get("status") in counted:
                counted[r.get("status")] += 1
        if d.get("results") != len(results):
            self.say(done, f"results = {rules.show(d.get('results'))}, but {len(results)} result records came")
        diff = [f"{s} = {d.get(s)} (counted {c})" for s, c in counted.items() if isinstance(d.get(s), int)
                and d.get(s) != c]
        if diff:
            self.say(done, "totals differ from its results: " + ", ".join(diff))
        samples, least = d.get("samples"), d.get("warmup_min")
        for r in results:
            if r.get("status") != "ok":
                continue
            if isinstance(samples, int) and r.get("n") != samples:
                self.say(r, f"n = {rules.show(r.get('n'))}, but its command's done record says samples = {samples}")
            w = r.get("warmup")
            batches = w.get("batches") if isinstance(w, dict) else None
            if isinstance(least, int) and isinstance(batches, int) and batches < least:
                self.say(r, f"warmup.batches = {batches}, fewer than its command's warmup_min = {least}")
        cmd = run_command(d.get("command")) if isinstance(d.get("command"), str) else None
        if cmd is None:
            self.say(done, f"command = {rules.show(d.get('command'))} is not a run command")
            return
        names, asked_samples, asked_warmup = cmd
        got = [s.name for s in starts]
        if names == "*":
            if len(got) != self.meta.get("benchmarks") or got != sorted(got):
                self.say(done, f"run * ran {len(got)} benchmarks, not the image's {self.meta.get('benchmarks')} "
                               f"in name order")
        elif got != names:
            self.say(done, f"its command names {', '.join(names)}, but {', '.join(map(str, got)) or 'none'} ran")
        want = (asked_samples or self.meta.get("samples"), asked_warmup or shared.WARMUP_MIN)
        if (samples, least) != want:
            self.say(done, f"samples = {rules.show(samples)}, warmup_min = {rules.show(least)}, but its command "
                           f"gives {want[0]} and {want[1]}")

    def end(self, results):
        end = self.bt.end
        if end is None:
            return
        if end.get("results") != results:
            self.chk.say(("end",), end, "end record", f"results = {rules.show(end.get('results'))}, but the boot's "
                                                      f"run commands gave {results} results")
        counted = {s: 0 for s in rules.STATUSES}
        for b in self.bt.benches:
            st = b.status
            if st in counted:
                counted[st] += 1
        diff = [f"{s} = {end.get(s)} (counted {c})" for s, c in counted.items()
                if isinstance(end.get(s), int) and end.get(s) != c]
        if diff:
            self.chk.say(("end",), end, "end record", "totals differ from the results: " + ", ".join(diff))

