# SPDX-License-Identifier: Apache-2.0
"""The QEMU cache model's side of `bm run` (docs/cache-model.md): load the plugin
(tools/qemu-plugins/bmcache.c) with the marker area's address and the code it watches (the kit's
marking function, the batch functions) read from the image, then merge its
per-window counts into the records (re-CRC'd): the meta record gets `"model"` (the geometry) and its
events listed in `"events"."counted"`, each ok result `"events"` (per-iteration figures of l1d/l1i/l2 accesses and misses, `"source":"model"`).
Also the checker's rules for those two keys: what no cache model can count is refused."""
import atexit
import json
import os
import tempfile
from decimal import ROUND_HALF_EVEN, Decimal

from .. import shared
from ..errors import UsageError
from . import frame

MARKER_SYMBOL = "bm_model_area"
MARK_FUNCTION = "bm_model_mark"
BATCH_PREFIX = "bm_batch_"      # (the batches' functions, BM_DEFINE_BATCH; C++ mangles the name around it)
LEVELS = ("l1d", "l1i", "l2")
# (what the plugin and the kit agree on is shared.py's: the counts in the plugin's order, the empty
# windows before a benchmark's samples, the counts file's format, the generic cache)
COUNTS = shared.MODEL_COUNTS
PROBES = shared.MODEL_PROBES
GENERIC = shared.cache_spec(shared.MODEL_GENERIC_CACHE)
MILLI = Decimal("0.001")


def add_arguments(p):
    p.add_argument("--model", metavar="PLUGIN", help="run under the cache model: the plugin's .so (bmcache)")
    p.add_argument("--model-geometry", metavar="GEO", default=f"l1d={GENERIC},l1i={GENERIC},l2=none",
                   type=geometry, help=f"caches as l1d=SIZE:WAYS:LINE,l1i=...,l2=...|none (default: {GENERIC} "
                   "for both L1s, no L2)")
    p.add_argument("--model-elf", metavar="ELF", help="the image (default: the command's argument ending in .elf)")


def geometry(text):
    """'l1d=S:W:L,l1i=S:W:L,l2=S:W:L|none' -> {level: (size, ways, line) or None}, every level named once."""
    import argparse
    geo = {}
    for part in text.split(","):
        key, sep, val = part.partition("=")
        if not sep or key not in LEVELS or key in geo:
            raise argparse.ArgumentTypeError(f"{part!r}: give each of {', '.join(LEVELS)} once as LEVEL=SIZE:WAYS:LINE")
        if val == "none" and key == "l2":
            geo[key] = None
            continue
        try:
            s, w, ln = (int(x) for x in val.split(":"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r}: SIZE:WAYS:LINE in bytes, e.g. {GENERIC}") from None
        problem = geometry_problem(s, w, ln)
        if problem:
            raise argparse.ArgumentTypeError(f"{part!r}: {problem}")
        geo[key] = (s, w, ln)
    missing = [k for k in LEVELS if k not in geo]
    if missing:
        raise argparse.ArgumentTypeError(f"{text!r}: {', '.join(missing)} not given")
    return geo


def _pow2(n):
    return n > 0 and n & (n - 1) == 0


def geometry_problem(size, ways, line):
    """Why a cache of this geometry cannot exist, or None (the plugin's own limits included)."""
    if not _pow2(line) or line < 4:
        return f"a line of {line} bytes: a power of two, at least 4"
    if not 1 <= ways <= shared.MODEL_MAX_WAYS:
        return f"{ways} ways: 1 to {shared.MODEL_MAX_WAYS}"
    if size <= 0 or size % (ways * line) or not _pow2(size // (ways * line)) or size > shared.MODEL_MAX_BYTES:
        return (f"{size} bytes over {ways} ways of {line}-byte lines is not a power-of-two number of sets (up to "
                f"{shared.MODEL_MAX_BYTES >> 30} GiB)")
    return None


def image_symbols(elf):
    """The marker area's address, the marking function's (address, size) and the batch functions'
    [(address, size)], from the image's symbols (a Thumb function's address without its mode bit)."""
    try:
        from elftools.elf.elffile import ELFFile
    except ImportError:
        raise UsageError("the cache model needs pyelftools: install the Debian package python3-pyelftools "
                         "(tools/setup does)") from None
    try:
        with open(elf, "rb") as f:
            ef = ELFFile(f)
            tab = ef.get_section_by_name(".symtab")
            thumb = ef["e_machine"] == "EM_ARM"
            syms = [(s.name, s["st_value"], s["st_size"], s["st_info"]["type"]) for s in tab.iter_symbols()] \
                if tab else []
    except (OSError, Exception) as e:   # (pyelftools raises its own ELFError on a file that is no ELF)
        raise UsageError(f"{elf}: cannot read the image's symbols ({e})") from None
    area = [v for n, v, _, _ in syms if n == MARKER_SYMBOL]
    if not area:
        raise UsageError(f"{elf} has no {MARKER_SYMBOL}: build it with -DBM_QEMU_MODEL=cache")
    funcs = [(n, v & ~1 if thumb else v, size) for n, v, size, t in syms if t == "STT_FUNC" and size]
    mark = [(v, size) for n, v, size in funcs if n == MARK_FUNCTION]
    batches = sorted({(v, size) for n, v, size in funcs if BATCH_PREFIX in n})
    if len(mark) != 1 or not batches:
        raise UsageError(f"{elf}: no {MARK_FUNCTION} or no batch functions ({BATCH_PREFIX}*) among its symbols: "
                         "an image of another kit version?")
    return area[0], mark[0], batches


def _remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def prepare(cmd, args):
    """The command with the plugin loaded, and the file it writes its counts to."""
    if not os.path.isfile(args.model):
        raise UsageError(f"--model {args.model}: no such plugin (built by the bm_qemu_model target)")
    elf = args.model_elf or next((a for a in cmd if a.endswith(".elf")), None)
    if elf is None:
        raise UsageError("--model: the command names no .elf image: give it with --model-elf")
    area, mark, batches = image_symbols(elf)
    fd, out = tempfile.mkstemp(prefix="bmcache-", suffix=".txt")
    os.close(fd)
    atexit.register(_remove, out)
    fd, code = tempfile.mkstemp(prefix="bmcache-code-", suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write(f"mark {mark[0]:#x} {mark[1]}\n" + "".join(f"batch {a:#x} {n}\n" for a, n in batches))
    atexit.register(_remove, code)
    geo = args.model_geometry
    spec = ",".join(f"{k}={':'.join(map(str, geo[k])) if geo[k] else 'none'}" for k in LEVELS)
    return cmd + ["-plugin", f"{args.model},marker={area:#x},code={code},out={out},{spec}"], out


def read_counts(path):
    """The plugin's file -> {benchmark index: [(samples, repeat, counts dict)]}; refuses a damaged one."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ValueError(f"the cache model wrote no counts ({e.strerror})") from None
    if not lines or not lines[0].startswith(f"bmcache {shared.MODEL_FILE_FORMAT} ") or not lines[-1].startswith("end "):
        raise ValueError("the cache model's counts are cut short (QEMU did not exit normally?)")
    windows = {}
    for ln in lines[1:-1]:
        f = ln.split()
        if len(f) != 4 + len(COUNTS) or f[0] != "w":
            raise ValueError(f"the cache model's line {ln[:60]!r} is not a window")
        idx, repeat, samples, *vals = (int(x) for x in f[1:])
        windows.setdefault(idx, []).append((samples, repeat, dict(zip(COUNTS, vals))))
    return windows


def _milli(num, den):
    return (Decimal(num) / Decimal(den)).quantize(MILLI, rounding=ROUND_HALF_EVEN)


def figures(wins, iters, geo, name, n=None):
    """Per-iteration mean and p50 (lower median over samples) of each count the geometry has, the
    window's own cost (the second probe window) subtracted like the read overhead from cycles.
    The windows must hold the result's n samples (when given), each at least one."""
    if any(s < 1 for s, _, _ in wins):
        raise ValueError(f"benchmark {name}: the cache model counted a window of 0 samples: its figures cannot be "
                         "given (a window the kit did not open, or one cut short)")
    if not wins or wins[0][1] < PROBES and (len(wins) < 2 or wins[0][1] + wins[1][1] < PROBES):
        return None
    # the first PROBES windows are the probe's (bm_model_bench); equal windows come as one line
    s0, r0, c0 = wins[0]
    if r0 >= PROBES:
        probe, wins = c0, ([(s0, r0 - PROBES, c0)] if r0 > PROBES else []) + wins[1:]
    else:
        s1, r1, c1 = wins[1]
        probe, wins = c1, ([(s1, r1 - 1, c1)] if r1 > 1 else []) + wins[2:]
    total = sum(s * r for s, r, _ in wins)
    if total == 0 or iters == 0:
        return None
    if n is not None and total != n:
        raise ValueError(f"benchmark {name}: the cache model's windows hold {total} samples, but its result has "
                         f"n = {n}: the model's counts are not this result's")
    out = {}
    for ev in COUNTS:
        if geo[ev.split("_")[0]] is None:
            continue                 # no L2: not counted, not a 0
        per, sum_ = [], 0
        for s, r, c in wins:
            net = c[ev] - probe[ev] * s          # (the probe's cost is a batch's: once per sample)
            if net < 0:
                raise ValueError(f"benchmark {name}: a window of {s} samples counted {c[ev]} {ev}, fewer than "
                                 f"the model's probe of an empty batch ({probe[ev]} each): its figures cannot be given")
            per.append((Decimal(net) / Decimal(s * iters), s * r))
            sum_ += net * r
        per.sort()
        want, seen, p50 = (total - 1) // 2, 0, None
        for v, n in per:
            seen += n
            if seen > want:
                p50 = v
                break
        out[ev] = {"mean": _milli(sum_, total * iters), "p50": p50.quantize(MILLI, rounding=ROUND_HALF_EVEN),
                   "source": "model"}
    return out


def _value_span(text, key):
    """(start, end) of a top-level key's value in a record's text, or None: the record is walked
    key by key (a nested object may hold the same key)."""
    dec, i = json.JSONDecoder(), 1
    while text[i:i + 1] == '"':
        k, i = dec.raw_decode(text, i)
        start = i + 1                                   # (after the colon: records hold no spaces)
        _, i = dec.raw_decode(text, start)
        if k == key:
            return start, i
        i += 1                                          # (the comma)
    return None


def _set(text, key, value):
    """A record's text with `key` set to value (replaced where it is, else added before the CRC),
    re-CRC'd; the rest kept byte for byte."""
    s = text.decode()
    enc = frame.dump({key: value}).split(',"crc":', 1)[0][1:]
    at = _value_span(s, key)
    body = s[:at[0]] + enc.split(":", 1)[1] + s[at[1]:s.rindex('"crc":"')] if at else \
        s[:s.rindex('"crc":"')] + enc + ","
    return (body + '"crc":"' + frame.crc_hex(body.encode()) + '"}').encode()


def _with(rec, key, value):
    """The record's text with `key` added (it must not be there yet)."""
    if key in rec.data:
        raise ValueError(f"the {rec.type} record (seq {rec.seq}) already has {key!r}: merged twice?")
    return _set(rec.text, key, value)


def _meta_events(meta, geo):
    """The meta record's "events" with the model's counts added as counted, source model (taken
    out of not_counted where the firmware had put them); refused if it counted one already."""
    ev = meta.get("events") if isinstance(meta.get("events"), dict) else {}
    have, nope = dict(ev.get("counted") or {}), dict(ev.get("not_counted") or {})
    for name in COUNTS:
        if geo[name.split("_")[0]] is None:
            continue
        if name in have:
            raise ValueError(f"the meta record counts {name} already (from {have[name].get('source')!r}): the "
                             f"cache model cannot count it too")
        have[name] = {"source": "model"}
        nope.pop(name, None)
    return {"counted": have, "not_counted": nope}


def merge(data, counts_path, geo):
    """Console bytes with the model's figures merged into the records of the last boot."""
    windows = read_counts(counts_path)
    scan = frame.scan(data)
    start_index, out, last = {}, [], 0
    for rec in scan.records:
        if rec.data is None:
            continue
        new = None
        if rec.type == "meta":
            new = _with(rec, "model", {k: ({"size_bytes": v[0], "ways": v[1], "line_bytes": v[2]} if v else None)
                                       for k, v in geo.items()})
            new = _set(new, "events", _meta_events(rec.data, geo))
        elif rec.type == "start" and isinstance(rec.get("index"), int):
            start_index[rec.get("name")] = rec.get("index") - 1   # (1-based; the plugin's is the registry's)
        elif rec.type == "result" and rec.get("status") == "ok":
            idx = start_index.get(rec.get("name"))
            ev = figures(windows.get(idx, []), rec.get("iters") or 0, geo, rec.get("name"),
                                      rec.get("n") if isinstance(rec.get("n"), int) else None) if idx is not None else None
            if ev is not None:
                # (beside the firmware's own events, counted by other sources)
                mine = rec.get("events") if isinstance(rec.get("events"), dict) else {}
                if set(mine) & set(ev) or (mine and any(isinstance(v, dict) and v.get("source") == "model"
                                                        for v in mine.values())):
                    raise ValueError(f"the result of {rec.get('name')} (seq {rec.seq}) has model events already: "
                                     "merged twice?")
                new = _set(rec.text, "events", {**mine, **ev})
        if new is not None:
            at = data.find(rec.text, last)
            out.append(data[last:at])
            out.append(new)
            last = at + len(rec.text)
    out.append(data[last:])
    return b"".join(out)


# ---- the checker's rules (called by rules.check_meta and rules.check_result) ----

def meta_problems(d):
    """The meta record's "model" (absent when the run had no model): the geometry of a cache that can exist."""
    if "model" not in d:
        return []
    m = d["model"]
    if not isinstance(m, dict) or set(m) != set(LEVELS):
        return [f"model must be an object with exactly {', '.join(LEVELS)}"]
    errs = []
    for lv in LEVELS:
        g = m[lv]
        if g is None and lv == "l2":
            continue
        if not isinstance(g, dict) or set(g) != {"size_bytes", "ways", "line_bytes"} or \
                not all(isinstance(v, int) and not isinstance(v, bool) for v in g.values()):
            errs.append(f"model.{lv} must be {{\"size_bytes\", \"ways\", \"line_bytes\"}} integers"
                        f"{' or null' if lv == 'l2' else ''}")
            continue
        why = geometry_problem(g["size_bytes"], g["ways"], g["line_bytes"])
        if why:
            errs.append(f"model.{lv}: {why}")
    ev = d.get("events") if isinstance(d.get("events"), dict) else {}
    for name, v in (ev.get("counted") if isinstance(ev.get("counted"), dict) else {}).items():
        if isinstance(v, dict) and v.get("source") == "model" and name in COUNTS and m[name.split("_")[0]] is None:
            errs.append(f"events.counted.{name}: counted by the cache model, but model.{name.split('_')[0]} is null "
                        "(not modelled)")
    return errs


def event_problems(d):
    """An ok result's "events" counted by the model (events.py checks every event's figures and
    that misses stay within accesses): the names it counts, and an L2 access per L1 miss."""
    ev = d.get("events")
    if not isinstance(ev, dict):
        return []
    errs, fig = [], {}
    for name, v in ev.items():
        if not isinstance(v, dict) or v.get("source") != "model":
            continue                     # (counted by another source: events.py's rules)
        if name not in COUNTS:
            errs.append(f"events.{name}: the cache model counts {', '.join(COUNTS)} only")
        elif set(v) != {"mean", "p50", "source"}:
            errs.append(f"events.{name} must hold exactly mean, p50 and source")
        elif all(isinstance(v[k], (Decimal, int)) and not isinstance(v[k], bool) for k in ("mean", "p50")):
            fig[name] = v
    if "l2_access" in fig and "l1d_miss" in fig and "l1i_miss" in fig:
        # every L1 miss is one L2 access: the means agree up to the rounding of three figures
        diff = abs(fig["l2_access"]["mean"] - fig["l1d_miss"]["mean"] - fig["l1i_miss"]["mean"])
        if diff > Decimal("0.0015"):
            errs.append(f"events.l2_access.mean = {fig['l2_access']['mean']}, but the L1 misses it counts sum "
                        f"to {fig['l1d_miss']['mean'] + fig['l1i_miss']['mean']}")
    if "l2_access" in fig and not ("l1d_miss" in fig and "l1i_miss" in fig):
        errs.append("events: l2 figures without both L1 miss counts")
    return errs
