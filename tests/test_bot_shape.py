"""The shape of bot/: no import cycle among its modules, and no game package named
outside ``bot/games/`` (issue 7, "The game seam" and "Shape of bot/").

The import graph is built with ``ast`` from every ``import`` statement of every module,
including imports inside functions and under ``TYPE_CHECKING``: a cycle hidden behind
a lazy import is still a cycle of the design.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "bot"
GAME_PACKAGES = re.compile(r"smartphone_inc|mobile_markets|age_of_automaton")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def bot_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(BOT.rglob("*.py"))}


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The bot modules ``name`` imports (``from bot import text`` -> bot.text)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = _package_of(name, path).split(".")
                pkg = pkg[: len(pkg) - (node.level - 1)]
                base = ".".join(pkg + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in known else base)
        for t in targets:
            # the deepest bot module named (``import bot.app.core`` -> bot.app.core)
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != "bot" and t != name:
                out.add(t)
    return out


def import_graph() -> dict[str, set[str]]:
    mods = bot_modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path [a, b, ..., a], or None."""
    colour: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        colour[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if colour.get(m) == 1:
                return stack[stack.index(m) :] + [m]
            if colour.get(m) is None:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        colour[n] = 2
        return None

    for n in sorted(graph):
        if colour.get(n) is None:
            found = visit(n)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_lazy_and_type_checking_imports() -> None:
    graph = import_graph()
    assert "bot.app" in graph["bot.cli"]  # imported inside a function
    assert "bot.storage" in graph["bot.app.core"]
    assert "bot.games" in graph["bot.cogs.lobby"]


def test_no_import_cycle_among_bot_modules() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_game_package_is_named_outside_bot_games() -> None:
    """``grep -rE "smartphone_inc|mobile_markets|age_of_automaton" bot --include=*.py``
    finds only files under bot/games/: the rest of the bot works for every game."""
    offenders = []
    for path in sorted(BOT.rglob("*.py")):
        if path.is_relative_to(BOT / "games"):
            continue
        for no, line in enumerate(path.read_text().splitlines(), 1):
            if GAME_PACKAGES.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{no}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
