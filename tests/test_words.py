"""No internal id, slug or code reaches a player (issue 7, "Words").

``ID_PATTERNS`` is the list of what internal ids look like. Every text the bot sends in
a played game through the fake Discord (message content, embeds, button and select
labels, placeholders, autocomplete names: everything a player reads, not the custom ids
and select values the client keeps to itself) is checked against it. The whole-game
tests of ``test_discord_e2e.py`` run the same check over five rounds.

``KNOWN_LEFTOVERS`` is the TODO list of internal ids that still reach players in one
known place (with the reason); it is empty now: the engines' log lines name every
Improvement, Mini-upgrade, Technology, Retailer and region by its name.

Besides the games played through the fake Discord, whole games of every engine are played
by the random player with every module of Smartphone Inc.'s Update 1.1 (Directives, New
Technologies with their Mini-upgrades, the 2-3 player board, Hardcore, Steve), Mobile
Markets (with Steve Jr.) and Age of Automaton; every log line, prompt description, option
label and step of the step-by-step select, planner choice, status and result line, and
the lobby's options in words are checked (:func:`played_texts`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from tests.app_support import fake_fixture
from tests.discord_support import SpyRenderer, running
from tests.fake_discord import FakeDiscord, iter_components, message_text

ID_PATTERNS: dict[str, str] = {
    "Improvement id": r"\bI\d\d\b",
    "starting Improvement id": r"\bS-(?:green|blue|black|yellow|red)\b",
    "game slug": r"\b(?:smartphone-inc|mobile-markets|age-of-automaton)\b",
    "JSON": r"\{\"|\"\s*:",
    "plan code": r"plan code",
    "Pad code": r"\b[AB][01]/[AB][01]\b|\br[0-3] @-?\d",
    "region id": r"\b(?:north-africa|south-america|caribbean|emirates|australia|canada|china|europe|india|usa|rsa|cis)\b",
    # the 2-3 player board of the Update 1.1
    "small board region id": r"\b(?:north-america|latin-america|africa|south-asia|east-asia|middle-east|oceania|scandinavia)\b",
    "Technology id": r"\b(?:wi-fi|li-ion|gamepad|gps|nfc|4g)\b",
    "engine key": r"\b[a-z]+_[a-z_]+\b",
    # Age of Automaton: Equipment E01, R&D D01, Sale Order S01, Specialist P01, Starter T1,
    # Achievement H11, Blocked Action K1, Sponsorship tile L1 / R1 (not the "R1-R2" of the
    # rulebook's tile backs). A Mobile Markets card number followed by its title ("T6
    # Integrated Design") is a name, not an id. Audit cards A1 / B1 are not listed: "A1"
    # is also a cell of the planner's grid, which players are meant to read.
    "Age of Automaton card id": r"(?:\b[EDSPH]\d\d\b|\b[TKL]\d\b|(?<![\w-])R\d(?![\w-]))(?! [A-Z0-9])",
    # Mobile Markets: Feature cards and Customers carry no printed number, Steve Jr.'s
    # cards neither; Technology, Marketing and Event cards are named by their printed
    # number WITH their title ("T6 Integrated Design"), never by the number alone
    # (not a cell of the Smartphone Inc. planner's grid, columns A-I: "on D2–F3", "on E2
    # and F2", "on C3 and C4")
    "Mobile Markets Feature id": r"(?<![oO]n )(?<!–)(?<!and )\bFS?\d{1,2}\b(?!–| and [A-I]\d)",
    "Mobile Markets Customer id": r"(?<![oO]n )(?<!–)(?<!and )(?<![\w-])[RVC]\d{1,3}(?![\w-]|–| and [A-I]\d)",  # not "R1-R2" tiles
    "Steve Jr. card id": r"\bSJ\d{1,2}\b",
    "Mobile Markets card number alone": r"(?<![oO]n )(?<!–)(?<!and )\b(?:TS|T|M|E)\d{1,2}\b(?! [A-Z0-9]|–)",
}

# Internal ids that still reach players in one known place, each (pattern name, a regex of
# the line around it, why it is not fixed yet). Empty: every text is checked in full.
KNOWN_LEFTOVERS: list[tuple[str, str, str]] = []

OPEN_BUTTON = "Open my turn"  # the one name of the button that opens a player's decision


def _embed_texts(embed: dict[str, Any]) -> Iterable[str]:
    yield embed.get("title") or ""
    yield embed.get("description") or ""
    for f in embed.get("fields") or []:
        yield f.get("name") or ""
        yield f.get("value") or ""
    yield (embed.get("footer") or {}).get("text") or ""
    yield (embed.get("author") or {}).get("name") or ""


def _component_texts(payload: dict[str, Any]) -> Iterable[str]:
    for c in iter_components(payload):
        yield c.get("label") or ""
        yield c.get("placeholder") or ""
        for o in c.get("options") or []:
            yield o.get("label") or ""
            yield o.get("description") or ""


def player_texts(fake: FakeDiscord) -> list[str]:
    """Every text the bot sent that a player reads (not custom ids or select values)."""
    out: list[str] = []
    for rec in fake.requests:
        body = rec.json
        if not isinstance(body, dict) or "/commands" in rec.path:
            continue
        data = body.get("data") if "/callback" in rec.path else body
        if not isinstance(data, dict):
            continue
        out.append(data.get("content") or "")
        for embed in data.get("embeds") or []:
            out.extend(_embed_texts(embed))
        out.extend(_component_texts(data))
        out.extend(str(c.get("name", "")) for c in data.get("choices") or [])  # autocomplete
    return [t for t in out if t]


_COMPILED = {name: re.compile(pattern) for name, pattern in ID_PATTERNS.items()}
# any pattern's match anywhere in a text is a match of this one: a text it finds nothing
# in is clear of every pattern, and only the others are scanned pattern by pattern
_ANY_ID = re.compile("|".join(f"(?:{pattern})" for pattern in ID_PATTERNS.values()))


def internal_ids(texts: Iterable[str]) -> list[str]:
    """"pattern name: the text" for every internal id found outside the known leftovers
    (each distinct text scanned once)."""
    found = []
    for t in dict.fromkeys(texts):
        if _ANY_ID.search(t) is None:
            continue
        for name, pattern in _COMPILED.items():
            for m in pattern.finditer(t):
                line = t[t.rfind("\n", 0, m.start()) + 1 : (t.find("\n", m.end()) + 1 or len(t) + 1) - 1]
                if any(n == name and re.search(around, line) for n, around, _why in KNOWN_LEFTOVERS):
                    continue
                found.append(f"{name}: {m.group(0)!r} in {line[:160]!r}")
    return sorted(set(found))


def open_button_labels(fake: FakeDiscord) -> set[str]:
    """The labels of every button that opens a player's decision (custom id br:open:)."""
    labels = set()
    for rec in fake.requests:
        body = rec.json if isinstance(rec.json, dict) else {}
        data = body.get("data") if "/callback" in rec.path else body
        for c in iter_components(data if isinstance(data, dict) else {}):
            if c.get("custom_id", "").startswith("br:open:"):
                labels.add(c.get("label"))
    return labels


DOUBLE_STOP = re.compile(r"(?<![.…])\.\.(?![.…])")  # "Jr.." or "after).." (not "...")


def assert_plain_words(fake: FakeDiscord) -> None:
    texts = list(dict.fromkeys(player_texts(fake)))  # each distinct text once
    assert texts, "no texts recorded"
    found = internal_ids(texts)
    assert not found, "internal ids reach players:\n" + "\n".join(found)
    doubled = sorted({t[max(0, m.start() - 60) : m.end() + 10] for t in texts for m in DOUBLE_STOP.finditer(t)})
    assert not doubled, "a sentence ends with two full stops:\n" + "\n".join(doubled)
    assert open_button_labels(fake) <= {OPEN_BUTTON}


# ------------------------------------------------------------------------------ tests


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Take I24 (Research + Logistics)", "Improvement id"),
        ("Face down (1 Goods each): S-green", "starting Improvement id"),
        ("Game #1 — smartphone-inc (active)", "game slug"),
        ('Options: {"automata":[]}', "JSON"),
        ("plan code: bA1 t0 r0", "plan code"),
        ("ann: A1/B0 r0 @1,1", "Pad code"),
        ("Markers: north-africa 2", "region id"),
        ("Research li-ion +2", "Technology id"),
        ("decide retailer_bonus", "engine key"),
        ("ann takes F19 for free", "Mobile Markets Feature id"),
        ("sold to R34", "Mobile Markets Customer id"),
        ("Steve Jr. reveals SJ8", "Steve Jr. card id"),
        ("buy T18 now", "Mobile Markets card number alone"),
    ],
)
def test_the_patterns_catch_the_ids_players_saw(text: str, name: str) -> None:
    hits = internal_ids([text])
    assert any(h.startswith(name + ":") for h in hits), hits


def test_plain_words_pass() -> None:
    assert internal_ids(["Take an Improvement (Research + Logistics)", "Markers: North Africa 2, Wi-Fi +1"]) == []
    # the Smartphone Inc. planner's cells (columns A-I): not Mobile Markets cards
    assert internal_ids(["4. price 3 · 7 Goods · on D2–F3", "e.g. on E2 and F2: price 4", "1. On F4 and G4", "4. On E3 and F3"]) == []


fake = fake_fixture(FakeDiscord.assert_no_unknown)


async def test_a_played_round_shows_no_internal_id(fake: FakeDiscord, tmp_path: Any) -> None:
    """Lobby with options, Steve, planning by hand and from outcomes, a round of turns,
    status, rules, help, history and export: all in words."""
    from tests.test_discord_e2e import (
        build_plan,
        new_game,
        planner_dm,
        play_turns,
        public_with,
        seal,
    )

    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "words.db"), renderer=SpyRenderer()):
        await fake.autocomplete(ann, "game new", {"game": ""}, "game")
        await fake.autocomplete(ann, "game new", {"game": "smartphone-inc", "options": ""}, "options")
        lobby = await new_game(fake, ann, [bob], "tech_sides=random block_size=3 hardcore=true")
        assert "Hardcore Mode: on" in message_text(lobby)
        ix = await fake.click(ann, lobby, "Add AI")
        await fake.click(ann, ix.original, "br:ai:", values=["steve"])
        await fake.click(ann, lobby, "Start")
        await public_with(fake, "Plans sealed 0/2")
        for u, outcomes in ((ann, True), (bob, False)):
            await fake.wait_for(lambda u=u: fake.dm_messages(u), what="a planner DM")
            msg = await build_plan(fake, u, planner_dm(fake, u), outcomes=outcomes)  # not "you are the last one"
            await seal(fake, u, msg)
        await play_turns(fake, [ann, bob], until="Round 2 · Planning")
        for command, options in (
            ("game status", {}), ("rules", {}), ("rules", {"topic": "research"}), ("help", {}),
            ("game history", {"round": 1}), ("game settings", {}),
        ):
            await fake.slash(bob, command, options)
        await fake.autocomplete(bob, "rules", {"topic": ""}, "topic")
        await fake.autocomplete(ann, "game kick", {"seat": ""}, "seat")
    assert_plain_words(fake)


# ----------------------------------------------------------- whole games, every module


def _builder_texts(builder: Any, prompt: dict[str, Any], view: dict[str, Any], seat: str, rng: Any) -> Iterable[str]:
    """A secret decision built step by step (random choices): every placeholder, choice,
    description and problem a player reads on the way."""
    ctx = builder.context(prompt, view, seat)
    draft = builder.decode(None)
    for _ in range(12):
        yield builder.placeholder(draft)
        yield builder.describe(draft, ctx)
        yield builder.problem(draft, ctx) or ""
        choices = builder.choices(draft, ctx)
        for c in choices:
            yield c.label
            yield c.description
        picks = [c.value for c in choices if not c.value.startswith("@")]
        if not picks or builder.action(draft, ctx) is not None:
            yield builder.describe(draft, ctx, sealed=True)
            return
        draft = builder.step(draft, ctx, "select", rng.choice(picks))


def played_texts(
    game_name: str, seats: list[str], seed: int, options: dict[str, Any], kind: str = "random"
) -> set[str]:
    """Every text a player reads in a whole game played by the ``kind`` player: the log
    lines, each prompt in words, the options of the step-by-step select (with the numbers
    of each whole option, as the bot shows them), a walk through each secret decision's
    builder, the status of each seat, the result, and the lobby's options in words."""
    import json
    import random

    from bot.choices import ActionPath, action_step
    from bot.games import presenter
    from bot.labels import OptionWords
    from engine import get_game
    from engine.ai import choose

    game, shown = get_game(game_name), presenter(game_name)
    rng = random.Random(seed)
    state = game.setup(seats, seed, dict(options))
    texts = set(game.events(state))
    declared = {o.name for o in shown.options}  # the lobby shows only the options it takes
    texts.update(shown.options_in_words({k: v for k, v in options.items() if k in declared}))
    built: set[tuple[str, Any]] = set()
    while not game.is_over(state):
        pending = game.pending(state)
        for seat, prompt in pending.items():
            texts.add(shown.describe_prompt(prompt))
            builder = shown.secret_builder(prompt)
            key = (seat, (state.get("round"), prompt.get("type")))
            if builder is not None and key not in built:
                built.add(key)
                texts.update(_builder_texts(builder, prompt, game.view(state, seat), seat, rng))
        seat = sorted(pending)[0]
        before = game.view(state, seat)
        # a decision with a builder of its own is never shown as the generic select
        legal = [] if shown.secret_builder(pending[seat]) else game.legal_actions(state, seat)
        previews = []
        for a in legal[:8]:  # the numbers of a whole option, from the engine's own views
            try:
                previews.append((a, before, game.view(game.apply(state, seat, a), seat)))
            except Exception:  # an action of a step-by-step turn that needs more steps
                continue
        words = OptionWords(shown, previews, seat)
        step = action_step(legal, ActionPath(), words)
        texts.add(step.title)
        texts.update(c.label for c in step.choices)
        if legal and step.choices:  # one level deeper along a random pick
            deeper = action_step(legal, ActionPath((rng.choice(step.choices).value,)), words)
            texts.add(deeper.title)
            texts.update(c.label for c in deeper.choices)
        texts.update(shown.describe_action(a) for a in legal[:40])
        state = game.apply(state, seat, choose(game_name, state, seat, kind))
        texts.update(game.events(state))
        view = game.view(state, None)
        for s in seats:
            texts.update(shown.status_bits(view, s))
        texts.add(shown.phase_title(view.get("phase")))
    texts.update(shown.result_lines(game.result(state), str))
    assert json.dumps(sorted(texts))  # plain text only
    return {t for t in texts if t}


def _si_games() -> list[tuple[str, list[str], int, dict[str, Any], str]]:
    """Smartphone Inc. with the Update 1.1's modules: each recommended set of New
    Technologies and the other New Technologies in a mix (Blitz Li-Ion gives Mini-
    upgrades), Directives, Hardcore, the 2-3 player board, Steve."""
    mix = ["spatial-goods", "blitz-wi-fi", "patent-gamepad", "world-nfc", "blitz-li-ion", "world-4g"]
    other = ["spatial-vp", "ceo-wi-fi", "ceo-gamepad", "nfc:1", "patent-li-ion", "4g:0"]
    return [
        ("smartphone-inc", ["ann", "bob", "cid", "steve"], 1,
         {"directives": True, "hardcore": True, "technologies": "first-add-on-game", "automata": ["steve"]}, "random"),
        # the greedy player completes Li-Ion here: Blitz Li-Ion's Mini-upgrades are taken
        ("smartphone-inc", ["ann", "bob", "cid"], 2, {"directives": True, "technologies": mix}, "greedy"),
        ("smartphone-inc", ["ann", "bob", "cid", "dee", "eve"], 3, {"technologies": other, "hardcore": True}, "random"),
        ("smartphone-inc", ["ann", "bob"], 4,
         {"board": "small", "directives": True, "technologies": "overproduction"}, "random"),
        ("smartphone-inc", ["ann", "bob", "steve"], 5,
         {"board": "small", "hardcore": True, "technologies": "i-want-some-space", "automata": ["steve"]}, "greedy"),
        ("smartphone-inc", ["ann"], 6, {"board": "small", "directives": True, "technologies": mix}, "random"),
    ]


WHOLE_GAMES = [
    *_si_games(),
    ("mobile-markets", ["ann", "bob", "cid"], 7, {"difficulty": "hard"}, "random"),
    ("mobile-markets", ["ann", "bob", "steve"], 8, {"automata": ["steve"]}, "greedy"),
    ("age-of-automaton", ["ann", "bob", "cid"], 9, {}, "random"),
    ("age-of-automaton", ["ann", "bob"], 10, {"limited_common_specialists": True}, "greedy"),
]


@pytest.fixture(scope="module")
def played() -> Callable[[int], set[str]]:
    """``played(i)``: :func:`played_texts` of ``WHOLE_GAMES[i]``, each game played once in
    the module (the test of the lines that named ids reads two of the games the test of
    every module plays; the module's tests that use it share a pytest-xdist worker)."""
    cache: dict[int, set[str]] = {}

    def get(i: int) -> set[str]:
        if i not in cache:
            game, seats, seed, options, kind = WHOLE_GAMES[i]
            cache[i] = played_texts(game, seats, seed, options, kind)
        return cache[i]

    return get


@pytest.mark.parametrize("i", range(len(WHOLE_GAMES)), ids=["-".join(str(x)[:20] for x in g) for g in WHOLE_GAMES])
def test_whole_games_with_every_module_show_no_internal_id(played: Callable[[int], set[str]], i: int) -> None:
    texts = played(i)
    assert len(texts) > 100
    found = internal_ids(texts)
    assert not found, "internal ids reach players:\n" + "\n".join(found[:40])


def test_the_module_games_reach_the_lines_that_named_ids(played: Callable[[int], set[str]]) -> None:
    """The lines that named Improvements and Mini-upgrades by id are played above (so the
    test above would see an id there): Improvements taken, Steve's Delayed Improvement,
    a Mini-upgrade taken, a plan revealed."""
    from engine.smartphone_inc.data import improvement_name

    assert WHOLE_GAMES[:2] == _si_games()[:2]
    texts = played(0) | played(1)
    assert any(re.search(r"^\w+ takes (?:starting )?Improvement \(", t) for t in texts)
    assert any(re.search(r"^steve (?:moves|takes) (?:starting )?Improvement \(", t) for t in texts)
    assert any(t.startswith("steve takes") and "(Delayed Improvement)" in t for t in texts)
    assert any(re.search(r"takes Mini-upgrade \((?:Research|Logistics|Production|Price Up|Price Down)\)", t) for t in texts)
    assert any(" reveals: " in t and "Production" in t for t in texts)
    assert improvement_name("M1") == "Mini-upgrade (Research)"


# ------------------------------------------------- names, sides, options, one button


def drawn_texts(monkeypatch: pytest.MonkeyPatch, draw: Any, *args: Any) -> list[str]:
    """The texts a Smartphone Inc. picture draws (its Canvas.text calls)."""
    from render.smartphone_inc import kit

    seen: list[str] = []
    real = kit.Canvas.text

    def spy(self: Any, x: float, y: float, s: str, *a: Any, **kw: Any) -> Any:
        seen.append(str(s))
        return real(self, x, y, s, *a, **kw)

    monkeypatch.setattr(kit.Canvas, "text", spy)
    draw(*args)
    return seen


def test_pad_sides_are_counted_alike_in_text_and_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planner's text and the pictures both say "Pad A side 1" / "side 2" for the
    engine's sides 0 / 1 (never 0-based, never A/B for a side)."""
    from bot.games.smartphone_inc.planner import Draft, PlanContext, describe_draft
    from engine.smartphone_inc import decisions
    from engine.smartphone_inc.game import GAME
    from render import draw as draw_picture
    from render.smartphone_inc import plan as plan_picture

    ctx = PlanContext(("S-green",), False)
    pad_side = re.compile(r"Pad ([AB]),? side (\d)")
    plans = [o["plan"] for o in decisions.distinct_outcomes(["S-green"], False)]
    sides_seen = set()
    for plan in plans[:: max(1, len(plans) // 40)]:
        text = describe_draft(Draft.from_plan(plan), ctx)
        caption = plan_picture.describe(plan)  # the plan picture's caption
        assert pad_side.findall(text) == pad_side.findall(caption), (text, caption)
        b, t = plan["bottom"], plan["top"]
        top_pad = "B" if b["pad"] == "A" else "A"
        assert pad_side.findall(text) == [(b["pad"], str(b["side"] + 1)), (top_pad, str(t["side"] + 1))]
        sides_seen |= {b["side"], t["side"]}
    assert sides_seen == {0, 1}
    # the private picture labels the four Pad sides the same way
    state = GAME.setup(["ann", "bob"], 1, {})
    drawn = drawn_texts(monkeypatch, draw_picture, "smartphone-inc", GAME.view(state, "ann"))
    assert {m for s in drawn for m in pad_side.findall(s)} == {("A", "1"), ("A", "2"), ("B", "1"), ("B", "2")}


def test_technology_sides_are_named_as_the_board_picture_names_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby's words for chosen Technology sides are the board picture's: "face up",
    "face down" (not "side 1" / "side 2")."""
    from bot.games.smartphone_inc import PRESENTER
    from engine.smartphone_inc.game import GAME
    from render import draw as draw_picture

    options = {"tech_sides": {"gps": 1, "nfc": 0, "wi-fi": 0, "gamepad": 0, "li-ion": 0, "4g": 0}}
    (line,) = PRESENTER.options_in_words(options)
    assert line.startswith("Technology sides: GPS face down, NFC face up")
    assert "side" not in line.removeprefix("Technology sides")
    drawn = drawn_texts(monkeypatch, draw_picture, "smartphone-inc", GAME.view(GAME.setup(["ann", "bob"], 1, options), None))
    assert drawn.count("face down") == 1 and drawn.count("face up") == 5


@pytest.mark.parametrize("game", ["smartphone-inc", "mobile-markets", "age-of-automaton"])
def test_every_lobby_option_is_shown_in_words(game: str) -> None:
    """Each value a lobby option offers, as the lobby card shows it: a label and words,
    no JSON, no engine key, no name=value."""
    from bot.games import presenter

    shown = presenter(game)
    assert shown.options or game != "smartphone-inc"
    for option in shown.options:
        for value in option.values:
            (line,) = [x for x in shown.options_in_words({option.name: value}) if x.startswith(option.label)][:1]
            assert line.startswith(f"{option.label}: ") and "=" not in line and "_" not in line, line
            assert not internal_ids([line]), line
    assert not internal_ids(shown.options_in_words({}))  # what a lobby without options says


def test_the_open_button_has_one_name() -> None:
    """The button that opens a player's decision cannot be given another label."""
    import inspect

    from bot import text, views

    # the game and the decision's version (issue 21: an old button answers in place), no label
    assert list(inspect.signature(views.open_view).parameters) == ["gid", "ver"]
    assert list(inspect.signature(views.OpenButton.__init__).parameters) == ["self", "gid", "ver"]
    for ver in (None, 12):
        (button,) = views.open_view(7, ver).children
        assert button.item.label == views.OPEN_LABEL == OPEN_BUTTON  # type: ignore[attr-defined]
    assert f"**{views.OPEN_LABEL}**" in text.HELP  # /help calls it by the same name
