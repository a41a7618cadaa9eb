# SPDX-License-Identifier: Apache-2.0
"""ctest tools.shared: the documents state what tools/bmlib/shared.py says. The C and the build
take shared.py's facts from generated files (tools/gen-shared, host.shared_current); the pages
that state them in words are read here, so a fact changed in one place and not in the other fails:
the event names and their maximum, the options' defaults, the built_for values, the quantiles, the
drift limit and the cache model's marker area and generic cache."""
import os
import re

from bmlib import shared
from conftest import ROOT


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def ticked(text):
    return re.findall(r"`([^`]+)`", text)


def test_the_event_names():
    """docs/events.md's table of names and docs/records.md's list: shared.EVENTS, in its order;
    and the most -DBM_EVENTS takes."""
    page = read("docs/events.md")
    table = page[page.index("## Names"):]
    table = table[:table.index("\n## ")]
    rows = [ln.split("|")[1] for ln in table.splitlines() if ln.startswith("| `")]
    assert [n for r in rows for n in ticked(r)] == list(shared.EVENTS)
    m = re.search(r"or more than\s+(\d+)\s+is a configuration error", page)
    assert m and int(m.group(1)) == shared.EVENTS_MAX, m
    rec = read("docs/records.md")
    listed = rec[rec.index("each with its meaning:"):]
    assert ticked(listed[:listed.index(")")]) == list(shared.EVENTS)


def test_the_options_defaults():
    """docs/building.md's table of options: each BM_<option>'s default is shared.DEFAULTS'."""
    page = read("docs/building.md")
    for k, v in shared.DEFAULTS.items():
        m = re.search(rf"^\| `BM_{k}` \| `([^`]+)` \|", page, re.M)
        want = ("ON" if v else "OFF") if isinstance(v, bool) else str(v)
        assert m and m.group(1) == want, (k, m and m.group(1), want)


def test_built_for_and_the_quantiles():
    """docs/records.md: the meta record's built_for values, the result's quantiles and bound_ppm."""
    rec = read("docs/records.md")
    row = re.search(r"^\| `built_for` \| string \| (.*)$", rec, re.M)
    assert row and [w for w in ticked(row.group(1)) if not w.startswith("-")] == list(shared.BUILT_FOR), row
    row = re.search(r"^\| (`p50`[^|]*) \| decimal", rec, re.M)
    assert row and ticked(row.group(1)) == list(shared.RANKS), row
    row = re.search(r"^\| `bound_ppm` \| object: ([^|]*) \|", rec, re.M)
    assert row and ticked(row.group(1)) == list(shared.RANKS), row


def test_the_drift_limit():
    """Every page that gives the limit of `unstable` (ok~) gives shared.DRIFT_UNSTABLE_PPM: as ppm
    ("over 50,000") or as a share ("more than 5%")."""
    pages = ["README.md"] + [os.path.join("docs", f) for f in sorted(os.listdir(os.path.join(ROOT, "docs")))
                             if f.endswith(".md")]
    pages += [os.path.join("boards", b, "README.md") for b in sorted(os.listdir(os.path.join(ROOT, "boards")))
              if os.path.exists(os.path.join(ROOT, "boards", b, "README.md"))]
    pct = shared.DRIFT_UNSTABLE_PPM / 10000
    said = 0
    for rel in pages:
        for ln in read(rel).splitlines():
            if not re.search(r"ok~|unstable|drift", ln):
                continue
            for n in re.findall(r"\bover (\d[\d,]*)\b(?![\d.,]*%)", ln):
                assert int(n.replace(",", "")) == shared.DRIFT_UNSTABLE_PPM, (rel, ln)
                said += 1
            for n in re.findall(r"(?:over|more than|past) (\d+(?:\.\d+)?)%", ln):
                assert float(n) == pct, (rel, ln)
                said += 1
    assert said >= 4   # (docs/records.md, docs/firmware.md, docs/tools.md, README.md at least)


def test_the_cache_model():
    """docs/cache-model.md: the marker area's size and the generic cache."""
    page = read("docs/cache-model.md")
    m = re.search(r"stores to a (\d+)-byte marker area", page)
    assert m and int(m.group(1)) == shared.MODEL_AREA_BYTES, m
    size, ways, line = shared.MODEL_GENERIC_CACHE
    assert f"generic {size // 1024} KiB {ways}-way L1I\nand L1D with {line}-byte lines" in page


def test_the_ports_name_only_portable_events():
    """The arches' event tables (arch/*/events.c) and the boards' encodings (BM_EVENT_CODES in
    board.cmake) name events by shared.EVENTS' names: one renamed there would otherwise never be
    counted, silently."""
    named = []
    for arch in sorted(os.listdir(os.path.join(ROOT, "arch"))):
        rel = os.path.join("arch", arch, "events.c")
        if os.path.exists(os.path.join(ROOT, rel)):
            src = read(rel)
            named += [(rel, n) for n in re.findall(r'\{"([a-z0-9_]+)", (?:0x|PERF_)', src)]
            named += [(rel, n) for n in re.findall(r'bm_event_name_is\([^,]+, "([a-z0-9_]+)"\)', src)]
    for board in sorted(os.listdir(os.path.join(ROOT, "boards"))):
        rel = os.path.join("boards", board, "board.cmake")
        if os.path.exists(os.path.join(ROOT, rel)):
            for codes in re.findall(r"^set\(BM_EVENT_CODES ([^)]*)\)", read(rel), re.M):
                named += [(rel, c.split("=")[0]) for c in codes.split()]
    assert len({n for _, n in named}) >= 15
    assert [(rel, n) for rel, n in named if n not in shared.EVENTS] == []
