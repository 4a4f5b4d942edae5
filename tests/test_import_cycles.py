"""No import cycle among the modules of engine/, render/ and bot/ (issue 38).

The graph is built with ``ast`` from every ``import`` statement of every module of the
three packages, at module level and inside functions alike (and under
``TYPE_CHECKING``): an import moved into a function to dodge a cycle still makes the
cycle. An edge goes to the deepest project module named (``from engine.mobile_markets
import market`` -> ``engine.mobile_markets.market``; ``from engine.errors import
IllegalAction`` -> ``engine.errors``); the parent packages Python runs on the way are
not edges. Every strongly connected component of more than one module (Tarjan), and
every module importing itself, is a cycle, and the test names them all.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "render", "bot")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    return {
        module_name(p, root): p
        for package in PACKAGES
        for p in sorted((root / package).rglob("*.py"))
    }


def _deepest_known(target: str, known: set[str]) -> str | None:
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


def imports_of(name: str, source: str, is_package: bool, known: set[str]) -> set[str]:
    """The project modules that the module ``name`` (whose text is ``source``) imports,
    at any depth of its syntax tree."""
    out: set[str] = set()
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in known else base)
        for target in targets:
            found = _deepest_known(target, known)
            if found is not None and found != name:
                out.add(found)
    return out


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = project_modules(root)
    known = set(modules)
    return {
        name: imports_of(name, path.read_text(), path.name == "__init__.py", known)
        for name, path in modules.items()
    }


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph``, each sorted, iteratively
    (no recursion limit), in a stable order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph.get(start, ())))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            if successors:
                nxt = successors.pop(0)
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return sorted(components)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: its components of two modules or more, and the
    modules that import themselves."""
    return [
        c for c in strongly_connected(graph) if len(c) > 1 or c[0] in graph.get(c[0], ())
    ]


def test_tarjan_finds_every_cycle_and_nothing_else() -> None:
    graph = {
        "a": {"b"},
        "b": {"c"},
        "c": {"a", "d"},
        "d": {"e"},
        "e": set(),
        "f": {"g"},
        "g": {"f"},
        "h": {"h"},
    }
    assert cycles(graph) == [["a", "b", "c"], ["f", "g"], ["h"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_graph_counts_imports_inside_functions(tmp_path: Path) -> None:
    pkg = tmp_path / "engine" / "game"
    pkg.mkdir(parents=True)
    (tmp_path / "engine" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "flow.py").write_text("from engine.game.rules import x\n")
    (pkg / "rules.py").write_text("def f():\n    from . import flow\n    return flow\n")
    for package in ("render", "bot"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    graph = import_graph(tmp_path)
    assert graph["engine.game.rules"] == {"engine.game.flow"}
    assert graph["engine.game.flow"] == {"engine.game.rules"}
    assert cycles(graph) == [["engine.game.flow", "engine.game.rules"]]


def test_the_graph_reads_the_real_tree() -> None:
    graph = import_graph()
    assert "engine.errors" in graph["engine"]
    assert "engine.smartphone_inc.planning" in graph["render.smartphone_inc.plan"]
    assert "bot.app" in graph["bot.cli"]  # imported inside a function
    assert "engine.age_of_automaton.donation" in graph["engine.age_of_automaton.effects"]


def test_no_import_cycle_in_engine_render_or_bot() -> None:
    found = cycles(import_graph())
    assert not found, f"{len(found)} import cycle(s), each among the modules named:\n" + "\n".join(
        ", ".join(c) for c in found
    )


def test_no_import_inside_a_function_in_engine_or_render() -> None:
    """The engine and the pictures import everything at module level: with no cycle
    left there is nothing to defer, and a deferred import is how a cycle hides (bot/
    defers some of its start-up on purpose, and the graph above still sees them)."""
    found = []
    for package in ("engine", "render"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for fn in ast.walk(ast.parse(path.read_text())):
                if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                    found += [
                        f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}"
                        for node in ast.walk(fn)
                        if isinstance(node, ast.Import | ast.ImportFrom)
                    ]
    assert not found, "\n".join(sorted(set(found)))
