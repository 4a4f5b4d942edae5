"""The Update 1.1 modules as the bot offers them (issue 12): lobby options with their
checks and words, the words of every new decision, the Mini-upgrade in the planner,
and the ``/rules`` topics. The whole games through Discord: ``test_su_bot_e2e.py``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import text
from bot.games.smartphone_inc import planner, words
from bot.games.smartphone_inc.presenter import PRESENTER
from engine import IllegalAction
from engine.smartphone_inc.game import GAME
from engine.smartphone_inc.legal import enumerate_actions
from tests.test_words import ID_PATTERNS

SLUGS = re.compile(r"\b(?:first-add-on-game|i-want-some-space|spatial-vp|ceo-wi-fi|world-nfc|blitz-li-ion|gamepad:0|4g:1)\b")


def ids_in(texts: list[str]) -> list[str]:
    return [f"{name}: {t!r}" for t in texts for name, pattern in ID_PATTERNS.items() if re.search(pattern, t)]


# ----------------------------------------------------------------------------- lobby


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("directives=true", {"directives": True}),
        ("board=small", {"board": "small"}),
        ("technologies=overproduction", {"technologies": "overproduction"}),
        ("technologies=base", {"technologies": "base"}),
        (
            "technologies=spatial-vp+ceo-wi-fi+gamepad:0+world-nfc+blitz-li-ion+4g:1",
            {"technologies": ["spatial-vp", "ceo-wi-fi", "gamepad:0", "world-nfc", "blitz-li-ion", "4g:1"]},
        ),
        (
            '{"technologies": ["spatial-vp", "ceo-wi-fi", "gamepad:0", "world-nfc", "blitz-li-ion", "4g:1"]}',
            {"technologies": ["spatial-vp", "ceo-wi-fi", "gamepad:0", "world-nfc", "blitz-li-ion", "4g:1"]},
        ),
        (
            "board=small directives=true technologies=i-want-some-space hardcore=true",
            {"board": "small", "directives": True, "technologies": "i-want-some-space", "hardcore": True},
        ),
    ],
)
def test_the_module_options_are_taken_in_any_combination(typed: str, expected: dict[str, Any]) -> None:
    """SU-DIR-01, SU-BRD-01, SU-TEC-12: the options the engine takes, as typed in /game new."""
    assert PRESENTER.parse_options(typed) == expected
    GAME.setup(["a", "b"], 1, PRESENTER.parse_options(typed))  # and the engine starts a game with them


def test_steve_plays_with_every_module() -> None:
    opts = PRESENTER.parse_options("board=small directives=true technologies=first-add-on-game hardcore=true")
    state = GAME.setup(["a", "steve"], 3, {**opts, "automata": ["steve"]})
    assert state["directives"] is not None and state["phase"] == "start"


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("technologies=everything", "Technologies can be base, first-add-on-game, overproduction, i-want-some-space or"),
        ("technologies=spatial-vp+ceo-wi-fi", "A custom mix lists 6 Technologies"),
        ("technologies=spatial-vp+spatial-goods+gamepad:0+world-nfc+blitz-li-ion+4g:1", "Two Technologies for the GPS symbol"),
        ("technologies=spatial-vp+ceo-wi-fi+gamepad:0+world-nfc+blitz-li-ion+phone", "Unknown Technology 'phone'"),
        ("technologies=overproduction tech_sides=random", "either with tech_sides or with technologies"),
        ("board=tiny", "Board can be"),
        ("directives=maybe", "Directives can be"),
        ('{"board": "small", "colours": {"a": "red"}}', "companies are picked at the table"),
    ],
)
def test_wrong_module_options_are_refused_with_a_message(typed: str, says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        PRESENTER.parse_options(typed)


def test_a_custom_mix_refused_shows_how_to_write_one() -> None:
    with pytest.raises(ValueError) as err:
        PRESENTER.parse_options("technologies=spatial-vp+ceo-wi-fi")
    assert "joined by +" in str(err.value) and "for example technologies=" in str(err.value)
    PRESENTER.parse_options(str(err.value).rsplit("for example ", 1)[1].rstrip("."))  # the example itself is taken


def test_the_small_board_takes_1_to_3_seats() -> None:
    """SU-BRD-01: the seat count is known at the start; the engine refuses a 4th seat."""
    opts = PRESENTER.parse_options("board=small")
    GAME.setup(["a", "b", "c"], 1, opts)
    with pytest.raises(IllegalAction, match="1 to 3 companies"):
        GAME.setup(["a", "b", "c", "d"], 1, opts)


def test_the_lobby_shows_the_modules_in_words() -> None:
    shown = PRESENTER.options_in_words(
        PRESENTER.parse_options("board=small directives=true technologies=overproduction hardcore=true")
    )
    assert "Directives: on (Update 1.1)" in shown
    assert "Board: the 2-3 player board (1-3 seats)" in shown
    assert "Improvement Block: 3 Improvements (2-3 player board)" in shown  # the board's default
    techs = next(line for line in shown if line.startswith("Technologies"))
    assert techs.startswith("Technologies: Overproduction: ")
    assert "Gamepad CEO" in techs and "NFC Marketing" in techs and "Li-Ion Patent" in techs and "Wi-Fi face down" in techs
    custom = PRESENTER.options_in_words(
        PRESENTER.parse_options("technologies=spatial-vp+ceo-wi-fi+gamepad:0+world-nfc+blitz-li-ion+4g:1")
    )
    assert custom == [
        "Technologies: your own mix: GPS Spatial (VP), Wi-Fi CEO, Gamepad face up, NFC Marketing, Li-Ion Blitz, 4G face down"
    ]
    assert not ids_in(shown + custom) and not SLUGS.search(" ".join(shown + custom))


def test_autocomplete_offers_the_module_values() -> None:
    values = {c.value: c.label for c in PRESENTER.option_choices("directives=true ")}
    for v in (
        "directives=true board=small",
        "directives=true technologies=first-add-on-game",
        "directives=true technologies=overproduction",
        "directives=true technologies=i-want-some-space",
    ):
        assert v in values, sorted(values)
    assert not any(v.startswith("directives=true directives=") for v in values)  # set already
    custom = PRESENTER.option_choices("technologies=sp")
    assert [c.value for c in custom] == ["technologies=spatial-vp+ceo-wi-fi+gamepad:0+world-nfc+blitz-li-ion+4g:1"]
    PRESENTER.parse_options(custom[0].value)
    assert not ids_in([c.label for c in PRESENTER.option_choices("")])


# ------------------------------------------------------------------- the decisions


def _state(**options: Any) -> dict[str, Any]:
    return GAME.setup(["a", "b"], 5, {"technologies": ["ceo-wi-fi", "ceo-gamepad", "world-nfc", "blitz-li-ion", "spatial-vp", "world-4g"], **options})


PROMPTS: list[dict[str, Any]] = [
    {"type": "directive", "number": 7, "vp": 7, "goal": "Have Offices in 2 large (L) regions.", "question": "take Directive 7 (7 VP)?"},
    {"type": "company", "colours": ["green", "blue", "black", "yellow", "red"]},
    {"type": "start_region", "regions": ["latin-america", "africa", "south-asia"]},
    {"type": "start_retailer", "retailer": "R4", "side": 0, "vp": [2, 1], "regions": ["oceania", "scandinavia"]},
    {"type": "mini_upgrade", "choices": {"M1": ["research", None], "M2": ["logistics", None]}},
    {"type": "place_retailer", "regions": {"china": ["R6", "R7"]}, "sides": {}},
    {"type": "blitz", "goods": 3, "symbols": ["research", "logistics"]},
    {"type": "ceo_sell", "region": "china", "max": 2, "price": 4},
    {"type": "second_sell", "goods": 2, "regions": {"china": 1, "india": 2}},
    {"type": "gamepad_office", "regions": ["rsa"]},
    {"type": "nfc", "max": 3, "price": 4},
    {"type": "logistics", "markers": 2, "needed": {"china": 3}, "ceo": "cis"},
    {"type": "research", "markers": 2, "needed": {"nfc": 6}, "token": [["china", 0], ["china", 4]]},
]


@pytest.mark.parametrize("prompt", PROMPTS, ids=[p["type"] for p in PROMPTS])
def test_every_new_decision_reads_in_words(prompt: dict[str, Any]) -> None:
    """Each new prompt says what is decided, and each of its options what it does, with
    no internal id and never the engine's own field names (the generic fallback)."""
    state = _state()
    said = words.describe_prompt(prompt)
    assert said != text.words(prompt["type"]) and not ids_in([said]), said
    actions = enumerate_actions(state, "a", prompt)
    assert actions
    labels = [words.describe_action(a) for a in actions]
    generic = [lbl for a, lbl in zip(actions, labels, strict=True) if lbl == text.describe_action(a)]
    assert not generic and not ids_in(labels), labels
    assert len(set(labels)) == len(labels) or prompt["type"] in ("place_retailer",), labels


def test_the_new_options_name_what_they_do() -> None:
    label = words.describe_action
    assert label({"type": "logistics", "place": [], "ceo": "china"}) == "Move your CEO to China (1 Logistics marker)"
    assert label({"type": "research", "place": {}, "token": ["china", 0]}) == (
        "Put your Marketing Token on Buyer 1 (pays up to 5) in China (1 Research marker; only you sell to that Buyer)"
    )
    assert label({"type": "mini_upgrade", "id": "M1"}) == "Take the Mini-upgrade (Research)"
    assert label({"type": "blitz", "research": 1, "logistics": 0}) == (
        "Put 1 Goods on your Research symbol (+1 Progress marker each, this round)"
    )
    assert label({"type": "place_retailer", "region": "china", "retailer": "R6", "side": 1}) == (
        "Place a large Retailer (4-3-2-1 VP spaces; bonus: a 2nd Office where you have one) in China"
    )
    assert label({"type": "start_region", "region": "africa"}).startswith("Start in Africa (next to North America")
    assert label({"type": "company", "colour": "yellow"}) == (
        "Take the Yellow company (starting Improvement: Research + Logistics)"
    )


@pytest.mark.parametrize(("hardcore", "when"), [(False, "at the end of the game"), (True, "when this round ends (Hardcore)")])
def test_the_directive_is_offered_with_its_number_vp_and_goal_SU_DIR_02(hardcore: bool, when: str) -> None:
    """SU-DIR-02/04, SU-HC-07: "take Directive 7 (7 VP)?" with a decline that keeps it."""
    prompt = PROMPTS[0]
    view = {"options": {"hardcore": hardcore}, "prompt": prompt, "players": {"a": {"vp": 3}}}
    take = words.describe_option({"type": "directive", "take": True}, view, view, "a")
    assert take == f"Take Directive 7: +7 VP {when} (Have Offices in 2 large (L) regions)"
    leave = words.describe_option({"type": "directive", "take": False}, view, view, "a")
    assert leave.startswith("Not now: leave Directive 7") and "later round" in leave
    assert words.describe_prompt(prompt).startswith("take Directive 7 (7 VP)? You meet its goal")


def test_the_start_options_show_what_each_company_and_retailer_brings_SU_BRD_02() -> None:
    state = GAME.setup(["a", "b"], 2, {"board": "small"})
    seat = next(iter(GAME.pending(state)))
    before = GAME.view(state, seat)
    action = {"type": "company", "colour": "red"}
    after = GAME.view(GAME.apply(state, seat, action), seat)
    assert words.describe_option(action, before, after, seat) == (
        "Take the Red company (starting Improvement: Price Up + Logistics, starts with 5 VP)"
    )
    view = {"prompt": PROMPTS[3], "players": {"a": {}}}
    label = words.describe_option({"type": "start_retailer", "region": "oceania"}, view, view, "a")
    assert label == "Place the small Retailer (2-1 VP spaces; bonus: produce 1 Goods) in Oceania"


def test_a_long_logistics_list_is_narrowed_in_words_SU_TEC_01() -> None:
    """More than 25 options (markers and CEO moves): the first select asks what to do."""
    from bot.choices import ActionPath, action_step

    state = _state()
    prompt = {"type": "logistics", "markers": 4, "needed": {r: 4 for r in ("china", "india", "cis", "europe", "rsa")}, "ceo": "cis"}
    actions = enumerate_actions(state, "a", prompt)
    assert len(actions) > 25
    step = action_step(actions, ActionPath(), PRESENTER)
    assert step.title == "Choose what to do:"
    assert [c.label for c in step.choices] == [
        "what to do: place markers in a region",
        "what to do: no markers: move your CEO, or stop",
    ]
    step = action_step(actions, ActionPath(("1",)), PRESENTER)
    assert any(c.label == "Move your CEO to China (1 Logistics marker)" for c in step.choices)


# --------------------------------------------------------------------- the planner


def _ctx(owned: tuple[str, ...], rules: int = 1) -> planner.PlanContext:
    state = GAME.setup(["a", "b"], 3, {})
    view = {**GAME.view(state, "a"), "rules": rules}
    return planner.PlanContext.from_prompt({"improvements": list(owned), "has_4g": False}, view, "a")


def test_a_mini_upgrade_is_placed_in_the_planner_like_an_improvement_SU_TEC_11() -> None:
    ctx = _ctx(("S-green", "M1"))
    d = planner.Draft(step="start")
    d = planner.choose(d, ctx, next(c.value for c in planner.step_choices(d, ctx) if c.value.startswith("hand:")))
    d = planner.choose(d, ctx, next(c.value for c in planner.step_choices(d, ctx) if not c.value.startswith("@")))
    assert d.step == "review"
    shown = planner.describe_draft(d, ctx)
    assert "Face down (1 Goods each): starting Improvement (Production + Research)" in shown
    assert "Not placed (a Mini-upgrade gives nothing then): Mini-upgrade (Research)" in shown
    offers = [c for c in planner.step_choices(d, ctx) if c.value.startswith("+M1")]
    assert offers and all(c.label.startswith("Place the Mini-upgrade ") and "Research" in c.label for c in offers)
    d = planner.choose(d, ctx, offers[0].value)
    d = planner.choose(d, ctx, next(c.value for c in planner.step_choices(d, ctx) if not c.value.startswith("@")))
    assert [p.id for p in d.improvements] == ["M1"]
    shown = planner.describe_draft(d, ctx)
    assert re.search(r"Mini-upgrade \(Research\) on [A-I]\d and [A-I]\d", shown) and "Not placed" not in shown
    assert PRESENTER.secret_builder({"type": "plan"}).action(d, ctx)["plan"]["improvements"][0]["id"] == "M1"


@pytest.mark.parametrize("owned", [("S-green", "M1"), ("S-blue", "I07", "M3", "M5")])
def test_the_goal_lists_count_no_goods_for_a_face_down_mini_upgrade_SU_TEC_11(owned: tuple[str, ...]) -> None:
    """The whole decisions listed by goal give the Goods the engine will give them."""
    ctx = _ctx(owned)
    listed = planner.outcomes(ctx)
    assert listed
    for summary, ref in listed[:: max(1, len(listed) // 150)]:
        ev = planner.evaluate(planner.Draft.from_plan(planner.plan_of(ctx, ref)), ctx)
        assert ev is not None and ev["yields"]["goods"] == summary["goods"], (summary["label"], ev and ev["yields"])


# ------------------------------------------------------------------------- /rules


@pytest.mark.parametrize(
    ("topic", "needles"),
    [
        ("directives", ("take Directive 7 (12 VP)?", "unless you took one earlier this round", "lowest price", "Hardcore")),
        ("small-board", ("3 medium (M) regions", "1 small and 1 medium Retailer", "Mixed Buyers", "3 Improvements")),
        ("new-technologies", ("CEO", "Marketing Token", "Mini-upgrade", "first-add-on-game")),
        ("ceo", ("1 Progress marker", "any region", "Office")),
        ("marketing", ("leftmost or rightmost", "only you sell", "once per round")),
        ("mini-upgrade", ("like an Improvement", "no Goods")),
        ("blitz", ("up to 2 Goods", "Progress marker")),
    ],
)
def test_rules_topics_for_the_update_modules(topic: str, needles: tuple[str, ...]) -> None:
    said = PRESENTER.rules_text(topic)
    for needle in needles:
        assert needle in said, (topic, needle)
    assert len(said) <= 2000 and not ids_in([said])


def test_rules_during_the_small_board_start_shows_its_topic() -> None:
    assert PRESENTER.rules_text(None, "start").startswith("**2-3 player board**")
    assert len(PRESENTER.rules_topics()) <= 25  # the /rules topic choices
