# SPDX-License-Identifier: Apache-2.0
"""ctest tools.licence: the kit is under the Apache License 2.0 (LICENSE), and every source it tracks
says so in an SPDX-License-Identifier line near its top: C, headers, assembly, linker scripts,
C++, JavaScript, CMake, Python and every script with a #! line. A new file without it fails here."""
import os
import subprocess

from conftest import ROOT

TAG = "SPDX-License-Identifier: Apache-2.0"
SOURCE_SUFFIXES = {".c", ".h", ".S", ".ld", ".cc", ".cpp", ".js", ".py", ".cmake", ".cfg"}


def sources():
    """The tracked files that are source code (by suffix, CMakeLists.txt, or a #! first line)."""
    names = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in filter(None, names.decode().split("\0")):
        path = os.path.join(ROOT, name)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        base = os.path.basename(name)
        with open(path, "rb") as f:
            head = f.read(400)
        if os.path.splitext(base)[1] in SOURCE_SUFFIXES or base == "CMakeLists.txt" or head.startswith(b"#!"):
            yield name, head


def test_licence_file():
    with open(os.path.join(ROOT, "LICENSE"), encoding="utf-8") as f:
        text = f.read()
    assert "Apache License" in text and "Version 2.0, January 2004" in text


def test_every_source_names_its_licence():
    files = list(sources())
    assert len(files) > 300, "the kit's sources were not found (git ls-files)"
    # (in its first three lines: after a #! line, before the module's own description)
    missing = [name for name, head in files if TAG.encode() not in b"\n".join(head.split(b"\n")[:3])]
    assert not missing, f"{len(missing)} of {len(files)} sources have no '{TAG}' line:\n" + "\n".join(missing)
