"""Smartphone Inc.'s presenter: lobby facts, words, the planner, ``/rules`` topics."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot import text
from bot.choices import Choice
from bot.games.base import BOT, RANDOM, Automaton, Option, PlanningPresenter
from bot.games.smartphone_inc import planner, words
from bot.games.smartphone_inc import rules as topics
from bot.records import make_seat_id
from engine import IllegalAction
from engine.smartphone_inc import pads
from engine.smartphone_inc.data import COLOURS
from engine.smartphone_inc.preparation import normalize_options, technology_sides

STEVE = Automaton("steve", "Steve", "the rulebook's AI opponent (1-4 players)", seat_name="Steve")

OPTIONS = (
    Option(
        "tech_sides",
        "Technology sides",
        "which side of each Technology tile is used",
        {"up": "the printed starting side", "random": "random"},
    ),
    Option(
        "block_size",
        "Improvement Block",
        "how many Improvements the Block offers each round",
        {5: "5 Improvements", 3: "3 Improvements (2-3 player board)"},
    ),
    Option("hardcore", "Hardcore Mode", "Update 1.1's Hardcore Mode", {True: "on", False: "off"}),
    Option(
        "colours",
        "Company colours",
        'each player\'s colour, in JSON options: {"colours": {"Ann": "red", "Bob": "blue"}}',
    ),
    Option(
        "directives",
        "Directives",
        "Update 1.1's Directives: common goals, each taken by one company",
        {True: "on (Update 1.1)", False: "off"},
    ),
    Option(
        "technologies",
        "Technologies",
        "the base Technologies, a recommended set of Update 1.1's New Technologies, or 6 of your "
        "choice joined by + (one per symbol)",
        {
            "base": "the base game's",
            "first-add-on-game": "New Technologies, set First Add-on Game",
            "overproduction": "New Technologies, set Overproduction",
            "i-want-some-space": "New Technologies, set I Want Some Space",
        },
    ),
    Option(
        "board",
        "Board",
        "the standard board, or Update 1.1's 2-3 player board (1-3 seats)",
        {"big": "the standard board", "small": "the 2-3 player board (1-3 seats)"},
    ),
)
OPTIONS_BY_NAME = {o.name: o for o in OPTIONS}
SET_CHOICES = ("base", "first-add-on-game", "overproduction", "i-want-some-space")
SET_TITLES = {
    "first-add-on-game": "First Add-on Game",
    "overproduction": "Overproduction",
    "i-want-some-space": "I Want Some Space",
}
CUSTOM_EXAMPLE = ("spatial-vp", "ceo-wi-fi", "gamepad:0", "world-nfc", "blitz-li-ion", "4g:1")
# (the end of a one-sentence refusal: the names of the New Technologies are in the
# options' autocomplete and in /rules)
CUSTOM_HELP = (
    "6 Technologies joined by +, one per symbol (a New Technology, or a base side such as gps:0),"
    " for example technologies=" + "+".join(CUSTOM_EXAMPLE)
)


def technology_choice(value: Any) -> Any:
    """The ``technologies`` option as the engine takes it: a set's name, or a custom
    list (typed as names joined by "+", or a JSON list)."""
    if isinstance(value, str) and "+" in value:
        return [v.strip().lower() for v in value.split("+") if v.strip()]
    return value


def technologies_in_words(value: Any) -> str:
    """``technologies`` for the lobby: the set's name and the 6 Technologies in play."""
    try:
        sides = technology_sides(technology_choice(value))
    except IllegalAction:
        return "Technologies: ?"
    names = [words.tech_side_name(t, side) for t, side in sides.items()]
    title = SET_TITLES.get(value, "your own mix") if isinstance(value, str) and "+" not in value else "your own mix"
    return f"Technologies: {title}: " + ", ".join(names)


class PlanBuilder:
    """The Phase 1 planner (:mod:`.planner`) as a :class:`bot.games.base.SecretBuilder`."""

    noun = "plan"
    seal_label = "Seal plan 🔒"
    extra_ops: tuple[tuple[str, str], ...] = ()  # goals and "by hand" are the first select's options

    def context(self, prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str) -> planner.PlanContext:
        return planner.PlanContext.from_prompt(dict(prompt or {}), dict(view), seat)

    def decode(self, code: str | None) -> planner.Draft:
        return planner.Draft.decode(code) if code else planner.Draft(step="start")

    def encode(self, draft: planner.Draft) -> str:
        return draft.encode()

    def choices(self, draft: planner.Draft, ctx: planner.PlanContext) -> list[Choice]:
        return planner.step_choices(draft, ctx)

    def placeholder(self, draft: planner.Draft) -> str:
        return planner.STEP_TITLES.get(draft.step, "Choose")

    def step(self, draft: planner.Draft, ctx: planner.PlanContext, op: str, value: str) -> planner.Draft:
        if op == "select":
            return planner.choose(draft, ctx, value)
        if op == "back":
            return planner.back(draft)
        if op == "reset":
            return planner.Draft(step="start")
        if op == "outcomes":
            return planner.goto(draft, "price")
        if op == "review":
            return planner.goto(draft, "review")
        raise IllegalAction("That button is from an older version; open your planner again.")

    def can_back(self, draft: planner.Draft) -> bool:
        return draft.step not in ("bottom", "start")

    def action(self, draft: planner.Draft, ctx: planner.PlanContext) -> dict[str, Any] | None:
        plan = draft.plan()
        if plan is None or planner.problem(draft, ctx) is not None:
            return None
        return {"type": "plan", "plan": plan}

    def problem(self, draft: planner.Draft, ctx: planner.PlanContext) -> str | None:
        return planner.problem(draft, ctx)

    def describe(self, draft: planner.Draft, ctx: planner.PlanContext, *, sealed: bool = False) -> str:
        return planner.describe_draft(replace(draft, step="sealed") if sealed else draft, ctx)

    def preview(self, draft: planner.Draft, ctx: planner.PlanContext) -> dict[str, Any] | None:
        """The plan to draw, with the cells of the piece placed last to highlight; while a
        piece is being placed, the first candidate of the list, highlighted."""
        original = draft
        draft = planner.candidate(draft, ctx)
        action = self.action(draft, ctx)
        if action is None:
            return None
        plan = dict(action["plan"])
        if draft.improvements:
            last = draft.improvements[-1]
            cells = pads.improvement_positions(last.x, last.y, last.rot)
        else:
            top = plan["top"]
            cells = pads.top_pad_positions(top["rot"], top["x"], top["y"])
        plan["highlight"] = [list(c) for c in cells]
        options = []  # while a piece is placed: every option of the list, numbered, drawn small
        for number, trial in planner.placing_options(original, ctx):
            shown = self.action(trial, ctx)
            if shown is None:
                continue
            if trial.improvements and trial.improvements != original.improvements:
                last = trial.improvements[-1]
                spot = pads.improvement_positions(last.x, last.y, last.rot)
            else:
                t_ = shown["plan"]["top"]
                spot = pads.top_pad_positions(t_["rot"], t_["x"], t_["y"])
            options.append({"n": number, "plan": shown["plan"], "highlight": [list(c) for c in spot]})
        if options:
            plan["options"] = options
        return plan


PLANNER = PlanBuilder()


class SmartphoneInc(PlanningPresenter):
    name = "smartphone-inc"
    title = "Smartphone Inc."
    min_seats = 1
    max_seats = 5
    automata = (STEVE, BOT, RANDOM)
    options = OPTIONS
    wording = words  # phase titles, prompts, actions, keys and values in words
    rules = topics.RULES
    phase_topics = topics.PHASE_TOPIC

    def prompt_picture(self, prompt: Mapping[str, Any] | None) -> str | None:
        """Every turn prompt comes with the compact picture of the decision (the
        regions or Technologies in play, with the numbers), readable on a phone."""
        return "draw_compact" if prompt else None

    # -- lobby ------------------------------------------------------------------------

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        checked = dict(options)
        if "technologies" in checked:
            checked["technologies"] = technology_choice(checked["technologies"])
        sides = checked.get("tech_sides")
        techs = checked.get("technologies")
        plain = {
            k: v
            for k, v in checked.items()
            if not (k == "tech_sides" and isinstance(sides, dict)) and not (k == "technologies" and isinstance(techs, list))
        }
        if isinstance(techs, str) and techs not in SET_CHOICES:
            raise ValueError(
                "Technologies can be base, first-add-on-game, overproduction, i-want-some-space or a custom mix of "
                + CUSTOM_HELP + "."
            )
        super().check_options(plain)
        if isinstance(techs, list):
            try:
                technology_sides(techs)
            except IllegalAction as exc:
                why = re.sub(r"the (\S+) symbol", lambda m: f"the {words.tech_name(m.group(1))} symbol", str(exc))
                raise ValueError(f"{why[0].upper()}{why[1:]}: write {CUSTOM_HELP}.") from None
        # the engine is the judge of the combinations (a Technology -> side map included);
        # the 2-3 player board's seat count is checked at the start, when the seats are known
        try:
            normalize_options(["_"], {k: v for k, v in checked.items() if k != "colours"})
        except IllegalAction as exc:
            raise ValueError(f"{str(exc)[0].upper()}{str(exc)[1:]}.") from None
        if checked.get("board") == "small" and checked.get("colours") is not None:
            raise ValueError("On the 2-3 player board the companies are picked at the table: leave out colours.")
        if checked.get("colours") is not None:
            checked["colours"] = colour_choice(checked["colours"])
        return checked

    def options_in_words(self, options: Mapping[str, Any], names: Mapping[str, str] | None = None) -> list[str]:
        sides = options.get("tech_sides")
        techs = options.get("technologies")
        colours = options.get("colours")
        out = super().options_in_words(
            {
                k: v
                for k, v in options.items()
                if k != "tech_sides" and not (k == "technologies" and techs != "base") and k != "colours"
            },
            names,
        )
        if isinstance(colours, Mapping):
            out.append(colours_in_words(colours, names or {}))
        if techs is not None and techs != "base":
            out.append(technologies_in_words(techs))
        if options.get("board") == "small" and "block_size" not in options:
            out.append(OPTIONS[1].in_words(3))
        if isinstance(sides, dict):
            chosen = ", ".join(words.tech_side_name(t, int(s)) for t, s in sides.items())
            out.insert(0, f"Technology sides: {chosen}")
        elif sides is not None:
            out.insert(0, OPTIONS[0].in_words(sides))
        return out

    def start_problem(self, options: Mapping[str, Any], names: Mapping[str, str]) -> str | None:
        colours = options.get("colours")
        return colours_problem(colours, names) if isinstance(colours, Mapping) else None

    def option_choices(self, current: str) -> list[Choice]:
        """The declared values, and an example of a custom mix of Technologies."""
        out = super().option_choices(current)
        typed = current.split()
        done = typed[:-1] if typed and not current.endswith(" ") else typed
        partial = "" if current.endswith(" ") or not typed else typed[-1]
        token = "technologies=" + "+".join(CUSTOM_EXAMPLE)
        if not any(t.startswith("technologies=") for t in done) and token.startswith(partial) and len(out) < 25:
            prefix = " ".join(done) + (" " if done else "")
            out.append(Choice(prefix + token, "Technologies: your own 6, one per symbol (edit this example)"))
        return out

    # -- words ------------------------------------------------------------------------

    def describe_option(
        self, action: dict[str, Any], before: Mapping[str, Any], after: Mapping[str, Any], seat: str
    ) -> str:
        return words.describe_option(action, before, after, seat)

    def result_details(self, record: Mapping[str, Any]) -> str:
        r = record
        return (
            f" (scored {r.get('scored', 0)}, Patents {r.get('patent_vp', 0)}, Retailers {r.get('retailer_vp', 0)}; "
            f"{r.get('technologies', 0)} Technologies)"
        )

    # -- secret decisions ---------------------------------------------------------------

    def secret_builder(self, prompt: Mapping[str, Any] | None) -> PlanBuilder | None:
        return PLANNER if prompt and prompt.get("type") == "plan" else None

    # -- pictures ---------------------------------------------------------------------

    def round_pictures(self, phase_views: Sequence[Mapping[str, Any]]) -> list[tuple[str, Mapping[str, Any]]]:
        """The public views at the start of Phase 8 among the phases an action completed:
        the only pictures of the round's sales on the map (Phase 8 scores and clears them
        at once). Other completed phases are summed up by the current board and the log."""
        out: list[tuple[str, Mapping[str, Any]]] = []
        for i, v in enumerate(phase_views):
            if v.get("phase") != "vp":
                continue
            after = phase_views[i + 1] if i + 1 < len(phase_views) else None
            out.append((f"round-{v.get('round')}-sales.png", scored(v, after)))
        return out[-2:]

    def score_sources(self, round_no: int, view_after: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """What Phase 8 of ``round_no`` scored, as the engine recorded it (``last_round``):
        the VP for controlling regions, and the rest of that phase (the Goods sold, with
        Spatial). VP scored elsewhere in the round (NFC, Directives...) show as "other"."""
        last = view_after.get("last_round") or {}
        if last.get("round") != round_no:
            return {}
        out: dict[str, dict[str, int]] = {}
        for seat, gain in (last.get("vp") or {}).items():
            control = sum(int(by.get(seat, 0)) for by in (last.get("control") or {}).values())
            out[str(seat)] = {"control of regions": control, "sales": int(gain) - control}
        return out


def scored(sales: Mapping[str, Any], after: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """The view of a round's sales (the start of Phase 8) with each company's VP after the
    phase scored them (from ``after``, the view that follows): the sales picture shows
    the VP the round ended with, not the VP before scoring."""
    if after is None or after.get("round") == sales.get("round") and after.get("phase") == "vp":
        return sales
    players = dict(sales.get("players") or {})
    for seat, p in (after.get("players") or {}).items():
        if seat in players and isinstance(p, Mapping) and "vp" in p:
            players[seat] = {**players[seat], "vp": p["vp"]}
    return {**sales, "players": players}


PRESENTER = SmartphoneInc()


def colour_choice(colours: Any) -> dict[str, str]:
    """``{"Ann Lee": "Red"}`` -> ``{"annlee": "red"}``: the players as the host names them
    (their names, or the seat ids made from the names), each to a company colour, all
    different (ValueError: a message). The seats are checked at the start, when known."""
    if not isinstance(colours, Mapping) or not colours:
        raise ValueError(
            "Company colours are given in JSON options, each player's name to a colour (Ann to red, Bob to blue)."
        )
    out: dict[str, str] = {}
    allowed = ", ".join(COLOURS[:-1]) + f" or {COLOURS[-1]}"
    for name, colour in colours.items():
        seat = make_seat_id(str(name), set())
        if seat in out:
            raise ValueError(f"Company colours: {text.clip(str(name), 40)} is named twice.")
        if not isinstance(colour, str) or colour.strip().lower() not in COLOURS:
            raise ValueError(f"Company colours: a company is {allowed}.")
        out[seat] = colour.strip().lower()
    if len(set(out.values())) != len(out):
        raise ValueError("Company colours: give each player a different colour.")
    return out


def colours_in_words(colours: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """"Company colours: Red for Ann Lee, Blue for a player who has not joined yet": the
    lobby's players by name, never by seat id."""
    bits = [
        f"{words.colour_name(str(colour))} for {names.get(str(seat)) or 'a player who has not joined yet'}"
        for seat, colour in colours.items()
    ]
    return f"{OPTIONS_BY_NAME['colours'].label}: {', '.join(bits)}"


def colours_problem(colours: Mapping[str, Any], names: Mapping[str, str]) -> str | None:
    """Company colours must give every seated player a colour and name nobody else
    (SI-SET: each company its colour): what is wrong, naming the players, or None."""
    unknown = [name_as_typed(str(seat)) for seat in colours if seat not in names]
    missing = [name for seat, name in names.items() if seat not in colours]
    if not unknown and not missing:
        return None
    if unknown:
        who = "who is" if len(unknown) == 1 else "who are"
        wrong = f"give a colour to {and_list(unknown)}, {who} not in this game"
        wrong += f", and none to {and_list(missing)}" if missing else ""
    else:
        wrong = f"give no colour to {and_list(missing)}"
    anew = "close this lobby with /game abandon and open a new one with /game new, with a colour for each seated player"
    if unknown and missing:
        fix = anew[0].upper() + anew[1:]
    else:
        fix = f"{and_list(unknown or missing)} can {'join' if unknown else 'leave'}, or {anew}"
    return f"Company colours {wrong}. The seated players are {and_list(list(names.values()))}. {fix}."


def name_as_typed(seat: str) -> str:
    """A name the host gave a colour to, as kept (the seat id made from it: "carl"): with
    its capital back ("Carl")."""
    return seat[:1].upper() + seat[1:]


def and_list(items: Sequence[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    items = [text.clip(i, 40) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"
