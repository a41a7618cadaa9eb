# SPDX-License-Identifier: Apache-2.0
"""The documents against the kit. docs/records.md's keys against the records the default board's
image, its fault image and its third-party image emit, with those of the kit's image and fault
image of OTHER_BOARDS where their preset builds are there (test_record_keys, below). And every command shown in README.md
and docs/*.md, read from the documents (not copied here), run as written in a scratch copy of the tree (its entries linked, its own build/), in document order:
a command that fails, or whose comment states an exit status it does not give, fails the test.
Which commands run (every shown command falls under exactly one rule, printed with its reason):
  - a line in an unlabelled ``` block starting with tools/<name>, cmake or ctest (`\\` continues
    it; docs/history.md's commands, in sh blocks, are run by tests/tools/test_history_e2e.py);
  - hardware: a serial device, -DBM_FOR_HARDWARE=ON, a -hw build or a flash target: not run;
  - suite: tools/setup and tools/test-all (apt, and the suite this test is in), ctest (the
    suite), tools/bench/power-figures (minutes of host timing), bm lava run (a LAVA dispatcher,
    minutes): not run;
  - interactive: the debug target (QEMU waits for gdb): not run;
  - other board: builds or reads a preset other than the default qemu-virt-riscv64 (each is a
    full cross build: boards/*/ and ctest test them): not run;
  - synopsis: a usage line with placeholders (F, LOG..., [options]): its command's --help runs;
  - needs input: reads a file no earlier shown command made (lava.log, base1.jsonl): not run;
  - everything else runs, after the default board's image and fault image (all that the shown
    commands boot) are built as tools/setup builds them.
Expected status: 0; a comment "exit status N when ..." allows 0 or N.
And every path the documents, the tests' CMake files and the host tools' comments name exists
(test_paths_exist, below: a file moved or renamed must not leave its old name behind)."""
import glob
import json
import os
import re
import shlex
import subprocess

import pytest

from conftest import ROOT

DOCS = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
DEFAULT = "qemu-virt-riscv64"
PRESETS = set(re.findall(r'"name":\s*"([\w-]+)"', open(os.path.join(ROOT, "CMakePresets.json")).read()))
OUTPUT_OPTS = {"-o", "--write", "--raw", "--save", "--keep", "-B", ">"}
INPUT_FILE = re.compile(r"\.(log|jsonl|yaml|csv)$|[?*]")


def shown_commands():
    """(document, line, command, comment) for every command line of an unlabelled block."""
    out = []
    for doc in DOCS:
        lines = open(os.path.join(ROOT, doc), encoding="utf-8").read().split("\n")
        block, i = None, 0
        while i < len(lines):
            ln = lines[i]
            if ln.startswith("```"):
                block = None if block is not None else ln[3:].strip()
            elif block == "" and re.match(r"(tools/\S|cmake |ctest )", ln):
                start, text = i + 1, ln
                while text.rstrip().endswith("\\") and i + 1 < len(lines):
                    i += 1
                    text = text.rstrip()[:-1] + " " + lines[i].strip()
                cmd, _, comment = text.partition("  #")
                out.append((doc, start, cmd.strip(), comment.strip()))
            i += 1
    return out


def other_board(cmd):
    named = set(re.findall(r"--preset\s+([\w-]+)", cmd)) | set(re.findall(r"build/([\w-]+)", cmd))
    return any(n in PRESETS and n != DEFAULT for n in named)


def synopsis(cmd):
    """A usage line: placeholders (F, LOG|EXPORT, RUN..., [options]) and maybe a description."""
    return any(w.endswith("...") or w.startswith("[") or re.fullmatch(r"[A-Z][A-Z|.]*", w) for w in cmd.split())


def rule(cmd, made):
    """Why a shown command is not run as written (None: it runs), given the files made so far."""
    if re.search(r"/dev/tty|/dev/pts|BM_FOR_HARDWARE=ON|-hw\b|--target flash", cmd):
        return "hardware"
    if re.match(r"tools/(setup|test-all|bench/power-figures)\b|ctest\b|tools/bm lava run\b", cmd):
        return "suite"
    if "--target debug" in cmd:
        return "interactive"
    if other_board(cmd):
        return "other board"
    if synopsis(cmd):
        return "synopsis"
    words = shlex.split(cmd.split("||")[0])
    prev = None
    for w in words:
        if INPUT_FILE.search(w) and prev not in OUTPUT_OPTS and not any(
                glob.fnmatch.fnmatch(m, w) for m in made):
            return "needs input"
        prev = w
    return None


def outputs(cmd):
    words = shlex.split(cmd.replace(">", " > "))
    return {b for a, b in zip(words, words[1:]) if a in OUTPUT_OPTS}


def expected(comment):
    m = re.search(r"exit status (\d+) when", comment)
    return {0, int(m.group(1))} if m else {0}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A scratch copy of the tree (links to its entries, an empty build/) with the default board's
    image and fault image built (the whole build would double the test's time)."""
    work = tmp_path_factory.mktemp("docs")
    for name in os.listdir(ROOT):
        if name != "build":
            os.symlink(os.path.join(ROOT, name), work / name)
    env = {**os.environ, "CMAKE_BUILD_PARALLEL_LEVEL": "2"}
    for cmd in (f"cmake --preset {DEFAULT}",
                f"cmake --build build/{DEFAULT} --target baremark selftest_faults selftest_thirdparty selftest_stateful "
                f"selftest_heap"):
        p = subprocess.run(cmd, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    return work, env


def test_every_shown_command(tree):
    work, env = tree
    shown = shown_commands()
    assert len(shown) > 40, "the documents' commands were not found"
    made, ran, skipped, failed = set(), [], {}, []
    for doc, line, cmd, comment in shown:
        why = rule(cmd, made)
        if why == "synopsis":
            words = []
            for w in cmd.split():                # the program and its subcommands, up to a placeholder
                if not re.fullmatch(r"[a-z][\w/.-]*", w):
                    break
                words.append(w)
            cmd = " ".join(words) + " --help"
        elif why:
            skipped.setdefault(why, []).append(f"{doc}:{line}")
            continue
        p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True, text=True, timeout=300)
        ran.append(f"{doc}:{line}")
        made |= outputs(cmd)
        if p.returncode not in expected(comment):
            failed.append(f"{doc}:{line}: `{cmd}` exited {p.returncode} (expected {sorted(expected(comment))}):\n"
                          f"{p.stderr[-1500:]}")
    for why, where in sorted(skipped.items()):
        print(f"not run ({why}): {', '.join(where)}")
    print(f"ran {len(ran)}: {', '.join(ran)}")
    assert not failed, "\n".join(failed)
    # The README's own path must be among what ran: the run, the saved logs, check/report/compare/plot.
    readme = [r for r in ran if r.startswith("README.md:")]
    assert len(readme) >= 7, readme


# Other archs' and counters' records: aarch64, x86 (TSC: core_per_tick_ppm, core_cycles_*) and a
# Cortex-M board (SysTick: tick_insns), read from the kit's own build/<preset> when built (a full
# tools/test-all builds every board's preset before the host's tests, and names them in
# BM_BUILT_PRESETS: a board named there must be found built). Their six runs take ~23 s on 2 cores.
OTHER_BOARDS = ("qemu-virt-aarch64", "qemu-x86_64", "mps2-an386")
# Documented keys none of these images may emit, and why (another board's, or never on this run).
ELSEWHERE = {
    "meta": {"tick_insns": "qemu-icount builds whose counter is not the core clock (SysTick, TSC)",
             "model": "runs under the cache model (bm run --model)",
             "events": "images built with -DBM_EVENTS, and runs under the cache model"},
    "result": {"core_per_tick_ppm": "x86 only", "core_cycles_p50": "x86 only", "core_cycles_mean": "x86 only",
               "events": "images built with -DBM_EVENTS, and runs under the cache model (bm run --model)"},
}
FRAMING = {"type", "format", "seq", "crc"}      # every record's, documented under Framing


def documented_keys():
    """{record type: {key: meaning}} from docs/records.md's tables (a row's first cell may name
    several keys: `a`, `b`)."""
    text = open(os.path.join(ROOT, "docs", "records.md"), encoding="utf-8").read()
    framing = text.split("## `meta`")[0]
    assert all(f'`"{k}"`' in framing or f"`{k}`" in framing for k in FRAMING - {"crc"}) and '"crc":' in framing
    keys = {}
    for m in re.finditer(r"^## `(\w+)`.*?\n(.*?)(?=^## |\Z)", text, re.M | re.S):
        rows = {}
        for ln in m.group(2).split("\n"):
            cells = [c.strip() for c in ln.strip().strip("|").split(" | ")] if ln.startswith("| `") else []
            for k in re.findall(r"`(\w+)`", cells[0]) if cells else []:
                rows[k] = " | ".join(cells[1:])
        keys[m.group(1)] = rows
    return keys


def emitted(logs):
    """{record type: {key: [values]}} over every record of the logs."""
    out = {}
    for path in logs:
        for ln in open(path, encoding="utf-8"):
            if ln.startswith('{"type":'):
                r = json.loads(ln)
                for k, v in r.items():
                    out.setdefault(r["type"], {}).setdefault(k, []).append(v)
    return out


def test_record_keys(tree):
    work, env = tree
    images = [(work / "build" / DEFAULT, image, status) for image, status in
              (("baremark", 0), ("tests/firmware/selftest_faults", 1), ("tests/thirdparty/selftest_thirdparty", 0),
               ("tests/firmware/selftest_stateful", 1),    # (its sort_plain: state_dependent, state_reason)
               ("tests/heap/selftest_heap", 0))]           # (heap_used_bytes, heap_bytes)
    required = set(os.environ.get("BM_BUILT_PRESETS", "").split())
    for board in OTHER_BOARDS:
        build = os.path.join(ROOT, "build", board)
        built = all(os.path.exists(os.path.join(build, i + ".elf")) for i in ("baremark", "tests/firmware/selftest_faults"))
        assert built or board not in required, f"{build}: BM_BUILT_PRESETS names {board}, but its images are not there"
        if not built:
            print(f"not checked: {board} (no built images in {build}: cmake --preset {board} && "
                  f"cmake --build build/{board})")
            continue
        images += [(build, "baremark", 0), (build, "tests/firmware/selftest_faults", 1)]
    logs = []
    for build, image, status in images:
        log = work / f"keys-{os.path.basename(build)}-{os.path.basename(image)}.log"
        p = subprocess.run(["tools/bm", "run", "--quiet", "--save", str(log), "--board-json",
                            os.path.join(build, image + ".board.json")], cwd=work, env=env, capture_output=True,
                           text=True, timeout=300)
        assert p.returncode == status, f"{build}/{image}: status {p.returncode}, expected {status}\n{p.stderr}"
        logs.append(log)
    print("checked: " + ", ".join(f"{os.path.basename(b)}/{os.path.basename(i)}" for b, i, _ in images))
    doc, got = documented_keys(), emitted(logs)
    assert set(doc) == set(got) == {"meta", "start", "result", "hist", "end"}
    problems = []
    for rtype, keys in got.items():
        for k in sorted(set(keys) - set(doc[rtype]) - FRAMING):
            problems.append(f"{rtype}: `{k}` is emitted but not in docs/records.md")
        for k in sorted(set(doc[rtype]) - set(keys) - set(ELSEWHERE.get(rtype, {}))):
            problems.append(f"{rtype}: `{k}` is documented but no image emits it")
        # An object's keys are named in its row, unless the row says its keys are free (facts).
        for k, values in keys.items():
            row = doc[rtype].get(k, "")
            if "object of strings" in row or not isinstance(values[0], dict):
                continue
            for sub in sorted(set().union(*values)):
                if f"`{sub}`" not in row:
                    problems.append(f"{rtype}.{k}: `{sub}` is emitted but not named in its row")
    for rtype, keys in ELSEWHERE.items():
        problems += [f"{rtype}: `{k}` listed as elsewhere but not documented" for k in keys if k not in doc[rtype]]
    # The trap object: on which statuses it is, as the row says.
    with_trap = set()
    for path in logs:
        for ln in open(path, encoding="utf-8"):
            if ln.startswith('{"type":"result"') and '"trap":{' in ln:
                with_trap.add(json.loads(ln)["status"])
    for st in sorted(with_trap):
        if f"`{st}`" not in doc["result"]["trap"]:
            problems.append(f"result.trap is on `{st}` results, which its row does not say")
    assert with_trap >= {"trap", "timeout", "stack_overflow"}, with_trap
    assert not problems, "\n".join(problems)


# Where paths are checked: the documents, every README, the CMake modules and the tests' CMake
# files, the host tools' Python (modules and scripts).
PATH_SOURCES = ("README.md", "docs/*.md", "*/**/README.md", "cmake/*.cmake", "tests/**/*.cmake",
                "tests/**/CMakeLists.txt", "tools/**/*.py")
TOP = "arch|benchmarks|boards|cmake|core|docs|examples|linker|tests|toolchain|tools"
SOURCE_SUFFIX = r"\.(?:c|h|S|py|cmake|md|ld|cc|cpp)"
# A path: from a top folder of the kit (core/run/bm_run.c, boards/*/board.cmake), from ../, or any
# name with a source suffix (bm/services.h, derive.py); not inside a URL, a ${VAR}/ or a longer path.
PATH = re.compile(r"(?<![\w./$<>{}@%-])((?:\.\./)+[\w./*-]*[\w*]|(?:" + TOP + r")/[\w./*-]*[\w*]"
                  r"|(?:[\w-]+/)*[\w-]+" + SOURCE_SUFFIX + r")(?![\w(])")
# Names that are not the kit's files: a user's project in examples (upstream/..., a.c, the history
# demo's benchmarks/demo.c), QEMU's source (hw/arm/), scratch files tools write, the build facts
# each image's build generates (build_info.c).
NOT_KIT = re.compile(r"(upstream|path/to|hw/arm)/.*|a\.c|a\.cmake|dump\.cmake|build_info\.c|benchmarks/demo\.c"
                     r"|iso_walk\.c")


def path_sources():
    names = set()
    for pattern in PATH_SOURCES:
        names |= set(glob.glob(pattern, root_dir=ROOT, recursive=True))
    for name in glob.glob("tools/**", root_dir=ROOT, recursive=True):   # the Python scripts too
        if os.path.isfile(os.path.join(ROOT, name)) and not name.endswith(".py"):
            with open(os.path.join(ROOT, name), "rb") as f:
                if f.read(18) == b"#!/usr/bin/python3":
                    names.add(name)
    return sorted(n for n in names if not n.startswith("build/") and "__pycache__" not in n)


def kit_paths():
    """Every file and folder of the kit (no build/, no .git), and every tail of their paths
    (arch/arch.h is the tail of arch/riscv/include/arch/arch.h: an include path)."""
    tails = set()
    for top, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in (".git", "build", "__pycache__")]
        rel = os.path.relpath(top, ROOT)
        for name in dirs + files:
            parts = os.path.normpath(os.path.join(rel, name)).split(os.sep)
            tails |= {"/".join(parts[i:]) for i in range(len(parts))}
    return tails


def built_here(path):
    """tests/stats/test_hist, tests/firmware/selftest_faults.elf: what the CMake files of the path's
    folder build (the build tree's folders are the source's)."""
    folder, name = os.path.split(path)
    name = re.sub(r"\.(elf|bin|hex|map|board\.json)$", "", name)
    texts = [open(c, encoding="utf-8").read() for c in glob.glob(os.path.join(ROOT, folder, "*.cmake")) +
             glob.glob(os.path.join(ROOT, folder, "CMakeLists.txt"))]
    return any(re.search(r"\b" + re.escape(name) + r"\b", t) for t in texts)


def missing_paths():
    """(file, line, path) for each path named that does not exist (a document's link: from its
    folder; any other path: from the kit's top, from its file's folder, or the tail of one)."""
    tails, out = kit_paths(), []
    for src in path_sources():
        here = os.path.dirname(src)
        for n, ln in enumerate(open(os.path.join(ROOT, src), encoding="utf-8").read().split("\n"), 1):
            links = re.findall(r"\]\(([^)#\s:]+)[#)]", ln) if src.endswith(".md") else []
            out += [(src, n, p) for p in links if not os.path.exists(os.path.join(ROOT, here, p))]
            named = [m.group(1) for m in PATH.finditer(ln) if not re.search(r"://\S*$", ln[:m.start()])]
            for p in dict.fromkeys(p.rstrip("/") for p in named if p not in links):
                if NOT_KIT.fullmatch(p) or p in tails or any(
                        glob.glob(c, root_dir=ROOT) for c in (p, os.path.normpath(os.path.join(here, p)))):
                    continue
                if re.match(f"({TOP})/", p) and built_here(p):
                    continue
                out.append((src, n, p))
    return out


def test_paths_exist():
    missing = missing_paths()
    assert len(path_sources()) > 100, "the files to check were not found"
    stale = [f"{src}:{n}: {p}" for src, n, p in missing]
    assert not stale, "paths that do not exist (moved or renamed? name them as they are now):\n" + "\n".join(stale)
