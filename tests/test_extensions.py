"""Every bot extension imports, has setup/teardown, and registers its commands; every
persistent component id fits Discord's limit and matches its template."""

from __future__ import annotations

import importlib
import pkgutil
import re

import discord
import pytest

import bot.cogs
from bot import views
from bot.choices import Choice
from bot.discord_bot import EXTENSIONS, create_bot


def all_extensions() -> list[str]:
    return sorted(
        f"bot.cogs.{m.name}" for m in pkgutil.iter_modules(bot.cogs.__path__) if not m.name.startswith("_")
    )


def test_every_cog_module_is_loaded_by_the_bot() -> None:
    assert sorted(EXTENSIONS) == all_extensions()


@pytest.mark.parametrize("name", all_extensions())
def test_extension_imports(name: str) -> None:
    module = importlib.import_module(name)
    assert callable(module.setup) and callable(module.teardown)


async def test_extensions_register_the_commands(tmp_path) -> None:
    client = create_bot(db_path=str(tmp_path / "x.db"), renderer=None)
    try:
        for name in EXTENSIONS:
            await client.load_extension(name)
        client.tree.add_command(client.game_group)
        top = {c.name for c in client.tree.get_commands()}
        assert top == {"game", "plan", "rules", "help", "games", "profile", "leaderboard", "away"}
        subs = {c.name for c in client.game_group.commands}
        assert subs >= {"new", "join", "leave", "start", "status", "settings", "abandon", "kick", "history", "export"}
        assert {c.qualified_name for c in client.game_group.commands} >= {"game new", "game status"}
        assert {"Lobby", "Play", "Admin", "Help"} <= set(client.cogs)
        for name in EXTENSIONS:
            await client.unload_extension(name)
        assert not client.game_group.commands
    finally:
        await client.close()


def _ids(view: discord.ui.View) -> list[str]:
    return [item.custom_id for item in view.children if hasattr(item, "custom_id")]  # type: ignore[attr-defined]


def test_component_ids_are_short_and_match_their_templates() -> None:
    choices = [Choice(str(i), f"choice {i}") for i in range(30)]
    long_seat = "abcdefghijklmnop99"
    built = [
        views.lobby_view(123456789),
        views.add_ai_view(123456789, choices[:3]),
        views.open_view(123456789),
        views.planner_view(123456789, long_seat, 99999, choices, "x", can_seal=True, can_back=True),
        views.planner_view(
            123456789, long_seat, 99999, choices, "x", can_seal=False, can_back=False, extra=[("outcomes", "More")]
        ),
        views.action_view(123456789, long_seat, 99999, "1.2.=17", choices, "x", done=False),
        views.action_view(123456789, long_seat, 99999, "1.2.=17", [], "x", done=True),
        views.abandon_view(123456789),
    ]
    templates = [cls.__discord_ui_compiled_template__ for cls in views.DYNAMIC_ITEMS]
    for view in built:
        assert len(view.children) <= 25
        for cid in _ids(view):
            assert len(cid) <= 100, cid
            assert sum(1 for t in templates if re.fullmatch(t, cid)) == 1, cid
