"""Imports only go down: no module of symrow imports, directly or through others,
a module that imports it back.

The graph is read from the source (the AST of every module under ``symrow/``),
with every import counted wherever it stands: a function-level import that
closes a cycle is a cycle all the same.  ``from . import x`` where ``x`` is a
module is an edge to that module; an import of a name defined in a package's
``__init__`` is an edge to the package.

The one intended exception is :mod:`symrow.printable`, which reaches the
printers lazily (as SymPy's ``Printable`` does): its imports inside
functions are left out of the graph, and its module-level ones are not.

The layers of the reading and checking of a hand derivation are pinned too:
``reader/`` (the LaTeX grammar, the entry level included) imports nothing of
``checker/`` at all and nothing of ``derive/`` at module level; ``formula/``
imports nothing of ``checker/`` and ``derive/`` only inside functions;
``checker/`` reads with ``reader/`` and evaluates with ``formula/``, and holds
no grammar of its own.  An import under ``if TYPE_CHECKING:`` is an annotation,
not an edge.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "symrow"

#: modules whose imports inside functions are not edges (the lazy bridge)
LAZY = {"symrow.printable"}


def modules(root: Path = ROOT) -> dict:
    """Dotted name -> (path, is a package) of every module under ``root``."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, package)
    return out


def _owner(name: str, mods: dict) -> str | None:
    """The module that ``name`` is, or that defines it (its longest known prefix)."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def _type_checking(node) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        isinstance(test, ast.Name) and test.id == "TYPE_CHECKING" or
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _module_level(tree) -> list:
    """The statements that run on import: the module's own, and those of its top-level
    ``if``/``try`` blocks (not functions, classes' methods or ``if TYPE_CHECKING:``)."""
    out, todo = [], list(tree.body)
    while todo:
        node = todo.pop()
        if _type_checking(node):
            continue
        out.append(node)
        if isinstance(node, (ast.If, ast.Try)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                todo.extend(getattr(node, field, []))
        elif isinstance(node, ast.ExceptHandler):
            todo.extend(node.body)
    return out


def import_graph(root: Path = ROOT, lazy=LAZY, module_level: bool = False) -> dict:
    """Module -> the set of symrow modules it imports, at any level of its source
    (only those that run on import with ``module_level``)."""
    mods = modules(root)
    top = root.name
    graph: dict = {}
    for name, (path, package) in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        here = name if package else name.rpartition(".")[0]
        skip: set = set()
        for node in ast.walk(tree):
            if _type_checking(node):
                skip.update(id(n) for n in ast.walk(node))
        if module_level:
            skip.update(id(n) for n in ast.walk(tree))
            skip.difference_update(id(n) for n in _module_level(tree))
        if name in lazy:
            for fn in ast.walk(tree):
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    skip.update(id(n) for n in ast.walk(fn) if n is not fn)
        edges = graph.setdefault(name, set())
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[:len(here.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                # `from pkg import mod` imports the module; `from mod import name`, mod
                targets = [f"{target}.{a.name}" if f"{target}.{a.name}" in mods else target
                           for a in node.names]
            else:
                continue
            for target in targets:
                if target == top or target.startswith(top + "."):
                    owner = _owner(target, mods)
                    if owner is not None and owner != name:
                        edges.add(owner)
    return graph


def cycles(graph: dict) -> list:
    """The strongly connected components of more than one module (Tarjan), as sets."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    found: list = []
    counter = [0]

    def visit(v):
        # iterative, so that a deep graph cannot hit the recursion limit
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.add(w)
                        if w == node:
                            break
                    if len(component) > 1:
                        found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# -- the checker of the checks -----------------------------------------------------------

def _package(tmp_path: Path, files: dict) -> Path:
    root = tmp_path / "symrow"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_the_graph_sees_imports_inside_functions_and_relative_ones(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "", "render/__init__.py": "",
        "render/a.py": "from . import b\n",
        "render/b.py": "def f():\n    from .c import thing\n",
        "render/c.py": "import symrow.render.a\n",
        "d.py": "from .render import a\n",
        "printable.py": "from . import d\n\ndef g():\n    from .render import c\n",
    })
    graph = import_graph(root)
    assert graph["symrow.render.a"] == {"symrow.render.b"}
    assert graph["symrow.render.b"] == {"symrow.render.c"}
    assert graph["symrow.render.c"] == {"symrow.render.a"}
    assert graph["symrow.d"] == {"symrow.render.a"}
    assert graph["symrow.printable"] == {"symrow.d"}   # its lazy import is left out
    assert cycles(graph) == [{"symrow.render.a", "symrow.render.b", "symrow.render.c"}]
    assert import_graph(root, lazy=())["symrow.printable"] == {"symrow.d", "symrow.render.c"}


# -- symrow ------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def symrow_graph() -> dict:
    """symrow's import graph (read once: the package's AST takes a second or two)."""
    return import_graph()


def test_the_graph_covers_the_package():
    graph = symrow_graph()
    assert {"symrow.render.latex", "symrow.render.layout", "symrow.render.measure",
            "symrow.reader.entries.parse", "symrow.reader.entries.flatparse", "symrow.printable"} <= set(graph)
    assert "symrow.render.measure" in graph["symrow.render.latex"]
    assert "symrow.render.latex" in graph["symrow.render.layout"]
    # printable's lazy imports are the one way up, and they are real imports
    assert "symrow.render.bridge" not in graph["symrow.printable"]
    with open(ROOT / "printable.py", encoding="utf-8") as source:
        assert "from .render import bridge" in source.read()


def test_imports_only_go_down():
    found = cycles(symrow_graph())
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


# -- the layers of reading and checking --------------------------------------------------------

def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def layering_faults(graph: dict, module_level: dict) -> list:
    """What breaks the rule of the layers (see the module doc), one line each."""
    out = []
    for name in sorted(graph):
        for target in sorted(graph[name]):
            if _under(name, "symrow.reader") and _under(target, "symrow.checker"):
                out.append(f"{name} imports {target}: the reader does not know the checker")
            if _under(name, "symrow.formula") and _under(target, "symrow.checker"):
                out.append(f"{name} imports {target}: formulas do not know the checker")
        for target in sorted(module_level.get(name, ())):
            if (_under(name, "symrow.reader") or _under(name, "symrow.formula")) and \
                    _under(target, "symrow.derive"):
                out.append(f"{name} imports {target} on import: only inside a function")
    return out


#: what the checker must not hold again: the entry-level grammar lives in reader/entries/
GRAMMAR = ("translate", "constructs", "names", "indices", "patterns", "units", "notation",
           "layouts", "flatparse", "parse", "parse_errors", "gradients", "lexer", "vocab")


def test_the_layer_rule_can_fail(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "", "reader/__init__.py": "", "checker/__init__.py": "",
        "formula/__init__.py": "", "derive/__init__.py": "",
        "reader/a.py": "def f():\n    from ..checker import run\n",
        "reader/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                       "    from ..checker import run\nfrom ..derive import x\n",
        "reader/c.py": "def f():\n    from ..derive import x\n",
        "formula/d.py": "try:\n    from ..derive import x\nexcept ImportError:\n    pass\n",
        "checker/run.py": "from ..reader import a\n", "derive/x.py": "",
    })
    faults = layering_faults(import_graph(root), import_graph(root, module_level=True))
    assert faults == [
        "symrow.formula.d imports symrow.derive.x on import: only inside a function",
        "symrow.reader.a imports symrow.checker.run: the reader does not know the checker",
        "symrow.reader.b imports symrow.derive.x on import: only inside a function",
    ]


def test_the_layers_of_reading_and_checking():
    assert layering_faults(symrow_graph(), import_graph(module_level=True)) == []
    graph = symrow_graph()
    checker = {n for n in graph if _under(n, "symrow.checker")}
    held = sorted(n for n in checker if n.rpartition(".")[2] in GRAMMAR)
    assert held == [], f"grammar in the checker: {held}"
    # the checker does read with the reader and evaluate with formula/
    uses = set().union(*(graph[n] for n in checker))
    assert any(_under(t, "symrow.reader.entries") for t in uses)
    assert any(_under(t, "symrow.formula") for t in uses)
