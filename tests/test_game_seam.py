"""The game seam: a game is its engine, pictures and presenter folders plus one registry
line. Registering the fake game's presenter (tests/fakegame.py) makes the lobby offer it,
with its own title, options in words, AI players and rules, and its secret decision is
answered with the generic "pick one of the legal actions" prompt; no other bot file
changes (issue 7, "The game seam")."""

from __future__ import annotations

from typing import Any

import pytest
from fakegame import fake_ai

import bot.games
import engine
from bot.games import BOT, RANDOM, Option, Presenter
from tests.app_support import fake_fixture
from tests.discord_support import running
from tests.fake_discord import FakeDiscord, iter_components, message_text


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake game's registry lines: its engine and its presenter (module ``fakegame``)."""
    monkeypatch.setitem(engine._PACKAGES, "fake", "fakegame")
    monkeypatch.setitem(bot.games._PRESENTERS, "fake", "fakegame")


def test_the_registry_offers_built_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    offered = bot.games.names()
    assert offered[0] == "smartphone-inc"
    assert set(offered) <= set(engine.game_names())  # an engine package is built for each
    assert all(bot.games.find(n) is not None for n in offered)  # and a presenter package
    assert bot.games.title("smartphone-inc") == "Smartphone Inc."
    assert bot.games.presenter("smartphone-inc").max_seats == 5
    monkeypatch.setitem(bot.games._PRESENTERS, "not-built-yet", "bot.games.not_built_yet")
    assert "not-built-yet" not in bot.games.names()  # no package yet: not offered
    assert bot.games.find("not-built-yet") is None


def test_registering_a_presenter_adds_the_game(registered: None) -> None:
    assert bot.games.names()[0] == "smartphone-inc" and bot.games.names()[-1] == "fake"
    fake = bot.games.presenter("fake")
    assert fake.title == "Fake Game" and fake.max_seats == 4
    assert [a.kind for a in fake.automata] == ["steve", "bot", "random"]


def test_a_plain_presenter_works_for_any_engine_game() -> None:
    plain = Presenter("card-draft", max_seats=3)
    assert plain.title == "Card Draft" and plain.automata == (BOT, RANDOM)
    assert plain.secret_builder({"type": "draft", "secret": True}) is None  # the generic select answers it
    assert plain.describe_action({"type": "take", "card": "red_dragon", "n": 2}) == "take: card red dragon, n 2"
    assert plain.options_in_words({"rounds": 3, "fast_mode": True}) == ["rounds: 3", "fast mode: yes"]
    assert plain.check_options({"anything": 1}) == {"anything": 1}  # the engine judges at start
    with pytest.raises(ValueError, match="automata"):
        plain.check_options({"automata": ["x"]})


def test_declared_options_are_checked_and_shown_in_words() -> None:
    class Small(Presenter):
        title = "Small"
        options = (Option("rounds", "Rounds", "how many rounds", {1: "one round", 2: "two rounds"}),)

    p = Small("small")
    assert p.parse_options("rounds=2") == {"rounds": 2}
    assert p.options_in_words({"rounds": 2}) == ["Rounds: two rounds"]
    with pytest.raises(ValueError, match="Rounds can be"):
        p.parse_options("rounds=7")
    with pytest.raises(ValueError, match="no option"):
        p.parse_options("speed=3")
    assert [c.value for c in p.option_choices("")] == ["rounds=1", "rounds=2"]
    assert p.option_choices("rounds=1 ") == []


fake = fake_fixture(FakeDiscord.assert_no_unknown)


async def test_the_lobby_offers_a_registered_game(registered: None, fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "seam.db"), renderer=None, ai_choose=fake_ai) as bot_:
        offered = await fake.autocomplete(ann, "game new", {"game": "fa"}, "game")
        assert {"name": "Fake Game", "value": "fake"} in offered
        completions = await fake.autocomplete(ann, "game new", {"game": "fake", "options": "ro"}, "options")
        assert [c["value"] for c in completions] == ["rounds=1", "rounds=2", "rounds=3"]
        assert completions[0]["name"] == "Rounds: 1 round"

        ix = await fake.slash(ann, "game new", {"game": "fake", "options": "rounds=1"})
        lobby = ix.original
        card = message_text(lobby)
        assert "Fake Game — game #1" in card and "Rounds: 1 round" in card and "{" not in card
        await fake.click(bob, lobby, "Join")
        ix = await fake.click(ann, lobby, "Add AI")
        offered_ai = [o["label"] for c in iter_components(ix.original) if c["type"] == 3 for o in c["options"]]
        assert offered_ai == ["Steve", "Bot", "Random bot"]
        await fake.click(ann, ix.original, "br:ai:", values=["steve"])
        await fake.click(ann, lobby, "Start")
        assert (await bot_.app.info(1)).options == {"rounds": 1, "automata": ["steve"]}

        # the fake game's secret pick has no planner: the generic select comes by DM
        dm = await fake.wait_for(lambda: fake.dm_messages(ann), what="ann's private prompt")
        msg = dm[-1]
        select = next(c for c in iter_components(msg) if c["type"] == 3)
        assert [o["label"] for o in select["options"]] == ["pick 1", "pick 2", "pick 3"]
        ix = await fake.click(ann, msg, select["custom_id"], values=[select["options"][2]["value"]])
        ix = await fake.click(ann, ix.original, "Confirm")
        assert "Done: pick 3" in ix.all_text()
        assert (await bot_.app.state(1))["picks"] == {"ann": 3}

        ix = await fake.slash(bob, "rules")
        assert "Fake Game" in ix.all_text()
