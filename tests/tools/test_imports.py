# SPDX-License-Identifier: Apache-2.0
"""ctest tools.imports: the modules of tools/bmlib import one way, with no cycle, and its packages
only downwards (LAYERS below), counting the imports inside functions too (a lazy import only hides
a cycle until that function runs). Read with `ast`, nothing of bmlib is imported here."""
import ast
import os

from conftest import ROOT

BMLIB = os.path.join(ROOT, "tools", "bmlib")

# The top-level modules every package may import: the one error and what the firmware shares.
BASE = {"__init__", "errors", "shared", "layout"}
# Which layers each layer may import (besides itself). A layer is a package of bmlib, "base" (the
# modules above), or "cli" (the command line, which picks a command by name). A new package or
# a new top-level module has to be placed here before this test passes.
LAYERS = {
    "base": set(),
    "records": {"base"},
    "analysis": {"base", "records"},
    "lava": {"base", "records"},
    "history": {"base", "records", "analysis"},
    "commands": {"base", "records", "analysis", "history", "lava"},
    "cli": {"base", "records", "commands"},
}


def modules(folder):
    """{dotted name: path} of every module under folder: `records.frame`; a package's own
    __init__ is `records.__init__`, the top one `__init__`."""
    out = {}
    for top, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if os.path.exists(os.path.join(top, d, "__init__.py")))
        rel = os.path.relpath(top, folder)
        prefix = "" if rel == "." else rel.replace(os.sep, ".") + "."
        for f in files:
            if f.endswith(".py"):
                out[prefix + f[:-3]] = os.path.join(top, f)
    return out


def imports(folder, package="bmlib"):
    """{module: {module it imports: line of the first such import}}, from every import statement
    anywhere in each file (module level, functions, classes, try and if blocks). A name imported
    from a package (`from . import FORMAT`, `from ..records import frame`) is an import of that
    module when there is one, else of the package's __init__."""
    mods = modules(folder)

    def resolve(parts, name=None):
        if name is not None and ".".join(parts + [name]) in mods:
            return ".".join(parts + [name])
        if ".".join(parts) in mods:
            return ".".join(parts)
        return ".".join(parts + ["__init__"]) if parts else "__init__"

    out = {}
    for m, path in sorted(mods.items()):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
        here = m.split(".")[:-1]    # the package the module is in
        deps = {}
        for node in ast.walk(tree):
            found = []
            if isinstance(node, ast.Import):
                for a in node.names:
                    parts = a.name.split(".")
                    if parts[0] == package:
                        found.append(resolve(parts[1:]))
            elif isinstance(node, ast.ImportFrom):
                parts = node.module.split(".") if node.module else []
                if node.level == 0:
                    if not parts or parts[0] != package:
                        continue
                    base = parts[1:]
                elif node.level - 1 > len(here):
                    continue   # (above the package: not one of its modules)
                else:
                    base = here[:len(here) - (node.level - 1)] + parts
                found += [resolve(base, a.name) for a in node.names]
            for d in found:
                if d != m:   # (a module naming itself is not a cycle of modules)
                    deps.setdefault(d, node.lineno)
        out[m] = deps
    return out


def import_graph(folder, package="bmlib"):
    """{module: set of the package's modules it imports}."""
    return {m: set(d) for m, d in imports(folder, package).items()}


def layer(module):
    """The layer of a module: its package, else base or cli; None for a top-level module that
    LAYERS does not place."""
    if "." in module:
        return module.split(".")[0]
    if module in BASE:
        return "base"
    return "cli" if module == "cli" else None


def wrong_way(found, layers=LAYERS):
    """[message] for every import that LAYERS does not allow, naming the file, the line and the
    import, and every module in no layer."""
    out = []
    for m, deps in sorted(found.items()):
        lm = layer(m)
        if lm not in layers:
            out.append(f"{m.replace('.', '/')}.py is in no layer of the table: move it into a package, or "
                       f"give its layer in LAYERS (tests/tools/test_imports.py)")
            continue
        for d, line in sorted(deps.items()):
            ld = layer(d)
            if ld != lm and ld not in layers[lm]:
                out.append(f"{m.replace('.', '/')}.py:{line} imports {d} ({ld}): {lm} may import only "
                           f"{', '.join(sorted(layers[lm])) or 'nothing of bmlib'}")
    return out


def cycles(graph):
    """[(a cycle, the modules of its group)] for every strongly connected group of modules
    (Tarjan): a cycle is a list of modules, the first repeated at the end, and the group every
    module on some cycle with it. [] when the graph has none."""
    index, low, stack, on, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    out = []
    for group in groups:
        # a path from the group's first module back to it, inside the group (breadth first)
        start = min(group)
        prev, todo = {start: None}, [start]
        found = None
        while todo and found is None:
            v = todo.pop(0)
            for w in sorted(graph[v] & group):
                if w == start:
                    found = v
                    break
                if w not in prev:
                    prev[w] = v
                    todo.append(w)
        path = [start]
        v = found
        while v is not None and v != start:
            path.insert(1, v)
            v = prev[v]
        out.append((path + [start], sorted(group)))
    return out


def test_bmlib_has_no_import_cycle():
    graph = import_graph(BMLIB)
    assert len(graph) > 10 and "records.log" in graph, sorted(graph)   # (the packages were found and read)
    found = cycles(graph)
    assert not found, "import cycles in tools/bmlib (imports inside functions count): " + \
        "; ".join(f"{' -> '.join(c)} (modules on its cycles: {', '.join(g)})" for c, g in found)


def test_bmlib_packages_import_downwards():
    found = imports(BMLIB)
    assert {layer(m) for m in found} >= {"records", "analysis", "history", "lava", "commands"}, sorted(found)
    assert not cycles({k: set(v) for k, v in LAYERS.items()})   # (the table itself is one way)
    bad = wrong_way(found)
    assert not bad, "imports against the layers of tools/bmlib:\n  " + "\n  ".join(bad)


def test_a_lazy_import_cycle_is_found(tmp_path):
    """The check itself: a cycle closed by an import inside a function, through `from . import`
    and `from .x import y`, is found and named; a package without one passes."""
    pkg = tmp_path / "bmlib"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("FORMAT = 2\n")
    (pkg / "a.py").write_text("from . import FORMAT, b\n")
    (pkg / "b.py").write_text("import os\n\n\ndef f():\n    from .c import g\n    return g\n")
    (pkg / "c.py").write_text("try:\n    import bmlib.a\nexcept ImportError:\n    pass\n")
    (pkg / "d.py").write_text("from .a import FORMAT\nfrom bmlib import b\n")
    graph = import_graph(str(pkg))
    assert graph == {"__init__": set(), "a": {"__init__", "b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "b"}}
    assert cycles(graph) == [(["a", "b", "c", "a"], ["a", "b", "c"])]
    (pkg / "b.py").write_text("import os\n")
    assert cycles(import_graph(str(pkg))) == []


def test_an_import_against_the_layers_is_named(tmp_path):
    """The check itself, on packages: `..` and `.` imports resolve to the module (or a package's
    __init__) they name; an import upwards, lazy or not, is named with its file and line; one
    downwards, and a module in no layer, as they are."""
    pkg = tmp_path / "bmlib"
    for d in ("records", "analysis"):
        (pkg / d).mkdir(parents=True)
        (pkg / d / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "errors.py").write_text("")
    (pkg / "records" / "frame.py").write_text("from ..errors import E\n")
    (pkg / "records" / "log.py").write_text("from . import frame\n\n\ndef f():\n    from ..analysis.stats import m\n")
    (pkg / "analysis" / "stats.py").write_text("from ..records import frame, log\nfrom .. import errors\n"
                                               "import bmlib.records\n")
    found = imports(str(pkg))
    assert found["records.log"] == {"records.frame": 1, "analysis.stats": 5}
    assert found["analysis.stats"] == {"records.frame": 1, "records.log": 1, "errors": 2, "records.__init__": 3}
    assert wrong_way(found) == ["records/log.py:5 imports analysis.stats (analysis): records may import only base"]
    (pkg / "records" / "log.py").write_text("from . import frame\n")
    (pkg / "tool.py").write_text("")
    assert wrong_way(imports(str(pkg))) == [
        "tool.py is in no layer of the table: move it into a package, or give its layer in LAYERS "
        "(tests/tools/test_imports.py)"]
