"""The seam between the generic bot and one game: :class:`Presenter`.

A presenter says everything about a game that the bot shows or asks, and nothing about
Discord: its lobby facts (title, seat range, options with validation, parsing, words
and autocomplete, the automata a host can add), how its prompts, actions and results
read, its secret-decision builder (:class:`SecretBuilder`) where it has one, its
``/rules`` topics, and which pictures a round adds. The generic bot (lobby, turns,
reminders, storage, pictures) asks only this.

Every method has a default that works for any engine game, so a new game's presenter
starts as a title and a seat range and specialises what it wants. A prompt the
presenter does not specialise (``secret_builder`` returns None) is answered with the
generic "pick one of the legal actions" select (:func:`bot.choices.action_step`),
labelled by the presenter's :meth:`Presenter.describe_action` /
:meth:`~Presenter.describe_key` / :meth:`~Presenter.describe_value`: a card draft
with a handful of legal actions needs nothing more.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from bot import choices, text
from bot.choices import Choice, Words
from bot.limits import text_too_deep, too_deep

# --------------------------------------------------------------------------- lobby


@dataclass(frozen=True)
class Automaton:
    """An AI player a host can add to a seat in the lobby.

    ``kind`` is stored as the seat's ``ai_kind``. The kinds "bot" and "random" are the
    app's own players (``engine.ai``) and exist for every game; any other kind is the
    game's own automaton, played inside the engine (``setup`` gets its seats in
    ``options["automata"]``), like Steve."""

    kind: str
    label: str  # how the lobby names it: "Steve", "Random bot"
    description: str  # one line for the Add-AI select
    seat_name: str = ""  # the seat's display name; empty: numbered "Bot 1", "Bot 2"...

    @property
    def by_engine(self) -> bool:
        return self.kind not in ("bot", "random")


BOT = Automaton("bot", "Bot", "a rule-following bot that plays like a player")
RANDOM = Automaton("random", "Random bot", "plays random legal moves")


@dataclass(frozen=True)
class Option:
    """One lobby option, as the engine's ``setup`` takes it (``name=value`` in /game new)."""

    name: str  # the engine's key: "block_size"
    label: str  # in words: "Improvement Block"
    help: str  # one line: what it does and how to set it
    values: Mapping[Any, str] = field(default_factory=dict)  # allowed value -> its words; empty: the engine checks

    def check(self, value: Any) -> None:
        """Raise ValueError (a message for the player) if ``value`` is not allowed."""
        if not self.values:
            return
        try:
            ok = value in self.values and type(value) is type(next(v for v in self.values if v == value))
        except TypeError:  # an unhashable value (a map): only games that say so take one
            ok = False
        if not ok:
            allowed = ", ".join(f"{self.name}={text.describe_value(self.name, v)}" for v in self.values)
            raise ValueError(f"{self.label} can be {allowed}.")

    def in_words(self, value: Any) -> str:
        try:
            shown = self.values.get(value) if self.values else None
        except TypeError:
            shown = None
        return f"{self.label}: {shown if shown is not None else text.describe_value(self.name, value)}"


def option_text(value: Any) -> str:
    """A value as it is typed in ``name=value`` (what :func:`bot.text.parse_options` reads)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# --------------------------------------------------------------------- secret decisions


class SecretBuilder(Protocol):
    """Builds one secret decision step by step in a private message (the planner).

    The half-built decision (a "draft") is opaque to the bot: it is kept in the
    database (table ``drafts``, one per seat and decision; never in a message) as the
    short text :meth:`encode` gives and read back with :meth:`decode` (None: a fresh
    draft). Sealing asks one confirmation; a sealed decision is taken back with the
    engine action ``{"type": "unseal"}`` where the engine allows it. ``ctx`` is what the
    builder derives from the seat's prompt and private view (:meth:`context`)."""

    noun: str  # what is built: "plan" ("Your plan", "Plan sealed")
    seal_label: str  # the seal button: "Seal plan 🔒"
    extra_ops: Sequence[tuple[str, str]]  # more buttons (op, label) beyond back/reset/seal

    def context(self, prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str) -> Any: ...
    def decode(self, code: str | None) -> Any: ...  # a fresh draft for None or unreadable text
    def encode(self, draft: Any) -> str: ...
    def choices(self, draft: Any, ctx: Any) -> list[Choice]: ...  # the select's options (paged)
    def placeholder(self, draft: Any) -> str: ...
    def step(self, draft: Any, ctx: Any, op: str, value: str) -> Any: ...  # op: select, back, reset, extra
    def can_back(self, draft: Any) -> bool: ...
    def action(self, draft: Any, ctx: Any) -> dict[str, Any] | None: ...  # the engine action, once sealable
    def problem(self, draft: Any, ctx: Any) -> str | None: ...  # why it cannot be sealed yet
    def describe(self, draft: Any, ctx: Any, *, sealed: bool = False) -> str: ...
    def preview(self, draft: Any, ctx: Any) -> dict[str, Any] | None: ...  # for render.draw_plan, or None


# ------------------------------------------------------------------------- presenter


class Presenter:
    """A game as the bot presents it. Subclass per game and override what differs;
    ``Presenter(name)`` alone presents any engine game plainly."""

    name: str = ""  # the engine's name: "smartphone-inc"
    title: str = ""  # how players call it: "Smartphone Inc."
    min_seats: int = 1
    max_seats: int = 5
    automata: tuple[Automaton, ...] = (BOT, RANDOM)
    options: tuple[Option, ...] = ()
    rules: ClassVar[Mapping[str, str]] = {}  # /rules topic -> text
    phase_topics: ClassVar[Mapping[str, str]] = {}  # phase -> the topic /rules shows by default

    def __init__(self, name: str | None = None, *, title: str | None = None, max_seats: int | None = None) -> None:
        if name is not None:
            self.name = name
        if title is not None or not self.title:
            self.title = title or text.words(self.name).title() or "Game"
        if max_seats is not None:
            self.max_seats = int(max_seats)

    # -- lobby ------------------------------------------------------------------------

    def automaton(self, kind: str | None) -> Automaton | None:
        return next((a for a in self.automata if a.kind == kind), None)

    def parse_options(self, words: str | None) -> dict[str, Any]:
        """``/game new options:`` text -> checked engine options (ValueError: a message).
        Options nested deeper than any game needs are refused before they are parsed."""
        if words and text_too_deep(words):
            raise ValueError("Those options are nested too deeply; write them as name=value.")
        options = text.parse_options(words)
        if too_deep(options):
            raise ValueError("Those options are nested too deeply; write them as name=value.")
        return self.check_options(options)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options, checked against :attr:`options` (ValueError with a message).
        A game without declared options lets its engine check them at start."""
        if "automata" in options:
            raise ValueError("Add the game's own AI players with Add AI instead of setting automata.")
        if self.options:
            known = {o.name: o for o in self.options}
            for key, value in options.items():
                opt = known.get(key)
                if opt is None:
                    names = ", ".join(o.name for o in self.options)
                    raise ValueError(f"{self.title} has no option {text.clip(str(key), 40)!r} (its options: {names}).")
                opt.check(value)
        return dict(options)

    def options_in_words(self, options: Mapping[str, Any], names: Mapping[str, str] | None = None) -> list[str]:
        """How the lobby shows the chosen options: one line each, in words. ``names``: the
        seats of the lobby, seat id -> the player's name (an option about seats names the
        players, never the seat ids)."""
        known = {o.name: o for o in self.options}
        out = []
        for key, value in options.items():
            if key == "automata":
                continue  # shown as seats
            opt = known.get(key)
            out.append(opt.in_words(value) if opt else f"{text.words(key)}: {text.describe_value(key, value)}")
        return out

    def start_problem(self, options: Mapping[str, Any], names: Mapping[str, str]) -> str | None:
        """What keeps the lobby's options from starting with the seated players (``names``:
        seat id -> the player's name, in seat order), in words naming the players; None
        when nothing does. Asked before the start, so the host reads this rather than the
        engine's terse check (the engine still checks everything at the start)."""
        return None

    def option_choices(self, current: str) -> list[Choice]:
        """Autocomplete for the options text typed so far: each completion (value) with
        what it means (label)."""
        typed = current.split()
        done = typed[:-1] if typed and not current.endswith(" ") else typed
        partial = "" if current.endswith(" ") or not typed else typed[-1]
        set_names = {t.split("=", 1)[0] for t in done}
        prefix = " ".join(done) + (" " if done else "")
        out = []
        for o in self.options:
            if o.name in set_names:
                continue
            for value, shown in o.values.items():
                token = f"{o.name}={option_text(value)}"
                if token.startswith(partial):
                    out.append(Choice(text.clip(prefix + token, 100), text.clip(f"{o.label}: {shown}", 100)))
        return out[:25]

    # -- words ------------------------------------------------------------------------

    # The game's words module (``bot/games/<game>/words.py``: ``phase_title``,
    # ``describe_prompt``, ``describe_action``, ``describe_key``, ``describe_value``), which
    # the methods below speak through; None: the generic words of :mod:`bot.text`.
    wording: ClassVar[Any] = None

    def phase_title(self, phase: str | None) -> str:
        if self.wording is not None:
            return str(self.wording.phase_title(phase))
        return text.words(phase).capitalize() if phase else "?"

    def describe_prompt(self, prompt: Mapping[str, Any] | None) -> str:
        if not prompt:
            return text.NOTHING_TO_DECIDE
        if self.wording is not None:
            return str(self.wording.describe_prompt(prompt))
        return text.describe_prompt(prompt)

    def describe_action(self, action: dict[str, Any]) -> str:
        if self.wording is not None:
            return str(self.wording.describe_action(action))
        return text.describe_action(action)

    def describe_option(
        self, action: dict[str, Any], before: Mapping[str, Any], after: Mapping[str, Any], seat: str
    ) -> str:
        """An option of a turn with the numbers the decision needs: ``before``/``after``
        are the seat's views before and after the engine applied it (``App.previews``)."""
        return self.describe_action(action)

    def describe_key(self, key: str) -> str:
        if self.wording is not None:
            return str(self.wording.describe_key(key))
        return text.describe_key(key)

    def describe_value(self, key: str, value: Any) -> str:
        if self.wording is not None:
            return str(self.wording.describe_value(key, value))
        return text.describe_value(key, value)

    score_keys: tuple[str, ...] = ("vp",)  # where a score record or a player's view keeps the score
    score_word: str = "VP"  # what the game counts it in ("money" in Mobile Markets)

    def score_text(self, record: Mapping[str, Any]) -> str:
        """"12 VP": the score of a final-score record or of a player in a view."""
        value = next((record[k] for k in self.score_keys if k in record), 0)
        return f"{value} {self.score_word}"

    def result_details(self, record: Mapping[str, Any]) -> str:
        """What a game adds after a seat's final score (" (scored 10, …)"), or ""."""
        return ""

    def result_lines(self, result: Mapping[str, Any], name_of: Callable[[str], str]) -> list[str]:
        """The final scores, one line per seat, best first."""
        return [
            f"{r.get('rank', '?')}. **{name_of(str(r.get('seat', '')))}** {self.score_text(r)}{self.result_details(r)}"
            for r in result.get("scores", [])
        ]

    def status_bits(self, view: Mapping[str, Any], seat: str) -> list[str]:
        """What ``/game status`` shows of a seat after its name."""
        player = (view.get("players") or {}).get(seat) or {}
        if "vp" in player:
            return [f"{player['vp']} VP"]
        score = (view.get("score") or {}).get(seat)
        return [f"{score} points"] if score is not None else []

    view_labels: bool = False  # whether :meth:`action_words` needs the seat's view

    def action_words(self, view: Mapping[str, Any]) -> Words:
        """The words that label a seat's legal actions in the generic select, given the
        seat's view when :attr:`view_labels` (e.g. the engine's labels with costs and
        gains in ``view["choices"]``); by default the presenter's own words."""
        return self

    def action_step(
        self, prompt: Mapping[str, Any] | None, actions: Sequence[dict[str, Any]], path: choices.ActionPath, words: Words
    ) -> choices.Step:
        """The next select of a turn decision, or the chosen action: by default the generic
        narrowing (:func:`bot.choices.action_step`); a game may group its options its own
        way, apply a pick at once (``Step.at_once``) or offer "Confirm and end the turn"
        (``Step.finish``)."""
        return choices.action_step(actions, path, words)

    def prompt_picture(self, prompt: Mapping[str, Any] | None) -> str | None:
        """Which picture of the seat's view goes with the generic prompt for ``prompt``:
        the name of a ``render`` function (``"draw_compact"``: the phone-sized picture
        of the decision; ``"draw"``: the private picture), or None for no picture."""
        return None

    # -- secret decisions ---------------------------------------------------------------

    def secret_builder(self, prompt: Mapping[str, Any] | None) -> SecretBuilder | None:
        """The builder for this prompt, or None: the generic pick-a-legal-action select."""
        return None

    def secret_phase(self, view: Mapping[str, Any]) -> bool:
        """Whether the game now collects a secret decision whose seals are counted in one
        "sealed n/N" message (edited in place, nothing else posted per seal)."""
        return False

    def sealed_counts(self, view: Mapping[str, Any]) -> tuple[int, int, list[str]]:
        """(sealed, total, seats still deciding) of the secret decision in :meth:`secret_phase`."""
        return 0, 0, []

    def sealed_words(self, view: Mapping[str, Any]) -> str:
        """What the counter of the secret decision counts ("🔒 Plans sealed 1/3")."""
        return "Plans sealed"

    def sealed_done(self, view: Mapping[str, Any], total: int) -> str:
        """The status line once every secret decision is in and the phase moved on."""
        if total == 1:
            return "🔓 The plan is sealed — revealed below."
        return f"🔓 All {total} plans sealed — revealed below." if total else "🔓 Revealed below."

    def is_secret_action(self, action: Mapping[str, Any]) -> bool:
        """Whether ``action`` is a sealed secret decision (its phase's end shows the reveal)."""
        return False

    # -- pictures ---------------------------------------------------------------------

    def round_pictures(self, phase_views: Sequence[Mapping[str, Any]]) -> list[tuple[str, Mapping[str, Any]]]:
        """(filename, public view) of the extra pictures the phases an action completed
        need (e.g. the round's sales before they leave the map)."""
        return []

    # -- round results -----------------------------------------------------------------

    SCORE_KEYS: ClassVar[tuple[tuple[str, str], ...]] = (("vp", "VP"), ("points", "points"), ("money", "money"))

    def scores(self, view: Mapping[str, Any]) -> dict[str, int]:
        """Each seat's score in a public view (what a round's results compare): by
        default the first of ``players[seat]["vp"]`` / ``"points"`` / ``"money"`` that
        every seat has; {} if none."""
        key, _label = self._score_key(view)
        if key is None:
            return {}
        return {str(s): int(p[key]) for s, p in (view.get("players") or {}).items()}

    def _score_key(self, view: Mapping[str, Any]) -> tuple[str | None, str]:
        players = view.get("players") or {}
        if not isinstance(players, Mapping) or not players:
            return None, ""
        for key, label in self.SCORE_KEYS:
            if all(isinstance(p, Mapping) and type(p.get(key)) is int for p in players.values()):
                return key, label
        return None, ""

    def score_sources(self, round_no: int, view_after: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """seat -> {source: points} of what the round scored, where the view tells it (e.g.
        "control of regions", "sales"); by default nothing: the results show the change."""
        return {}

    def round_results(
        self, round_no: int, before: Mapping[str, int], view_after: Mapping[str, Any], name_of: Callable[[str], str]
    ) -> str | None:
        """The "Round N results" post: each seat's score change over the round, by source
        where :meth:`score_sources` knows them, best first; None when the scores are
        unknown (a game without a score in its view, or a round begun before the bot
        kept the scores)."""
        after = self.scores(view_after)
        _key, label = self._score_key(view_after)
        if not after or not before or set(before) != set(after):
            return None
        sources = self.score_sources(round_no, view_after)
        lines = [f"**Round {round_no} results**"]
        order = sorted(after, key=lambda s: (-(after[s] - before[s]), -after[s], name_of(s)))
        for seat in order:
            change = after[seat] - before[seat]
            parts = [f"{k} {v:+d}" for k, v in (sources.get(seat) or {}).items() if v]
            rest = change - sum((sources.get(seat) or {}).values())
            if parts and rest:
                parts.append(f"other {rest:+d}")
            why = f" ({', '.join(parts)})" if parts else ""
            lines.append(f"**{name_of(seat)}**: {change:+d} {label}{why} → {after[seat]} {label}")
        return "\n".join(lines)

    # -- rules ------------------------------------------------------------------------

    def rules_topics(self) -> list[str]:
        return list(self.rules)

    def rules_for(self, rules: int | None) -> Mapping[str, str]:
        """The ``/rules`` topics for a game of rules version ``rules`` (None: no game
        here); a game whose rules changed says the version's own rule."""
        return self.rules

    def rules_text(self, topic: str | None, phase: str | None = None, rules: int | None = None) -> str:
        """The rules in short for ``topic``; without a topic, the current ``phase``'s;
        ``rules``: the rules version of the game here (None: none known)."""
        table = self.rules_for(rules)
        if not table:
            return f"I have no rules summary for {self.title}."
        if not topic:
            topic = self.phase_topics.get(phase or "", next(iter(table)))
        topic = topic.strip().lower()
        if topic not in table:
            return f"Unknown topic {text.clip(topic, 40)!r}. Topics: " + ", ".join(f"`{t}`" for t in table)
        out = table[topic]
        if phase and topic != self.phase_topics.get(phase):
            out += f"\n_(The game here is in {self.phase_title(phase)}: `/rules` shows that phase.)_"
        return out


class PlanningPresenter(Presenter):
    """A game whose secret decision is the Planning phase's ``"plan"`` (Smartphone Inc.,
    Mobile Markets): the seats that plan are those the game's AI opponent does not play
    (``players[seat]["steve"]``), and the view says who has sealed."""

    def secret_phase(self, view: Mapping[str, Any]) -> bool:
        return view.get("phase") == "planning"

    def sealed_counts(self, view: Mapping[str, Any]) -> tuple[int, int, list[str]]:
        """(sealed, total, seats still planning) among the companies that plan."""
        players = view.get("players") or {}
        planners = [s for s in view.get("seats", []) if not players.get(s, {}).get("steve")]
        sealed = [s for s in planners if players.get(s, {}).get("sealed")]
        return len(sealed), len(planners), [s for s in planners if s not in sealed]

    def is_secret_action(self, action: Mapping[str, Any]) -> bool:
        return (action or {}).get("type") == "plan"

    def status_bits(self, view: Mapping[str, Any], seat: str) -> list[str]:
        """The company's score and price, and in Planning whether it has sealed."""
        p = (view.get("players") or {}).get(seat, {})
        bits = [self.score_text(p), f"price {p.get('price', '?')}"]
        if view.get("phase") == "planning" and not p.get("steve"):
            bits.append("🔒 sealed" if p.get("sealed") else "planning…")
        return bits
