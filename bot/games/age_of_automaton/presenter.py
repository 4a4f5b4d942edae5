"""Age of Automaton's presenter: lobby facts, words with the engine's labels, the draft
in DMs (the generic select, one Specialist per option), ``/rules`` topics."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.choices import ActionPath, Step, Words
from bot.games.age_of_automaton import rules as topics
from bot.games.age_of_automaton import turns, words
from bot.games.base import Automaton, Option, Presenter

OPTIONS = (
    Option(
        "limited_common_specialists",
        "Limited Common Specialists",
        "the rulebook's variant: only a player's first discarded Specialist joins the common ones",
        {False: "off (the standard game)", True: "on (only a first discarded Specialist joins the common ones)"},
    ),
)

# The rulebook has no solo mode and no automa: the AI seats are boardroom's own players.
BOT = Automaton("bot", "Bot", "boardroom's own rule-following bot (the rulebook has no AI opponent)")
RANDOM = Automaton("random", "Random bot", "boardroom's own bot playing random legal moves")
AI_NOTE = "AI seats: boardroom's own bots (the rulebook has no solo mode)"


def _key(action: Mapping[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class ViewWords:
    """The presenter's words, with the engine's labels (cost and gain) of the seat's
    current choices, and each draft option with its Specialist's ability."""

    def __init__(self, presenter: AgeOfAutomaton, view: Mapping[str, Any]) -> None:
        self.presenter = presenter
        self.labels = {_key(c["action"]): str(c["label"]) for c in view.get("choices") or [] if "action" in c}
        self.details = {_key(c["action"]): str(c["detail"]) for c in view.get("choices") or [] if c.get("detail")}
        draft = view.get("draft") or {}
        self.cards = {c.get("id"): c for c in draft.get("hand") or []}
        seats, you = list(view.get("seats") or []), view.get("you")
        # the draft passes to the next seat (engine.age_of_automaton.draft): the player on the left
        self.pass_to = seats[(seats.index(you) + 1) % len(seats)] if you in seats and len(seats) > 1 else None

    def describe_action(self, action: dict[str, Any]) -> str:
        if action.get("type") == "draft" and action.get("card") in self.cards:
            return "Keep " + words.specialist_parts(self.cards[action["card"]])[0]
        if action.get("end") and action.get("type") == "main":  # "Confirm and end the turn"
            plain = {k: v for k, v in action.items() if k != "end"}
            return self.describe_action(plain) + ", then end the turn"
        return self.labels.get(_key(action)) or self.presenter.describe_action(action)

    def describe_detail(self, action: dict[str, Any]) -> str:
        """The rest of an option's numbers (its select description), "" if none."""
        if action.get("type") == "draft" and action.get("card") in self.cards:  # what playing needs, discarding gives
            return words.specialist_parts(self.cards[action["card"]])[1]
        return self.details.get(_key(action), "")

    def describe_key(self, key: str) -> str:
        return self.presenter.describe_key(key)

    def describe_value(self, key: str, value: Any) -> str:
        return self.presenter.describe_value(key, value)


class AgeOfAutomaton(Presenter):
    name = "age-of-automaton"
    title = "Age of Automaton"
    min_seats = 2
    max_seats = 4
    automata = (BOT, RANDOM)
    options = OPTIONS
    wording = words  # phase titles, prompts, actions, keys and values in words
    rules = topics.topics(None)
    phase_topics = topics.PHASE_TOPIC
    view_labels = True

    def rules_for(self, rules: int | None) -> Mapping[str, str]:
        return topics.topics(rules)

    # -- lobby ------------------------------------------------------------------------

    def options_in_words(self, options: Mapping[str, Any], names: Mapping[str, str] | None = None) -> list[str]:
        chosen = {"limited_common_specialists": False, **options}
        return [*super().options_in_words(chosen, names), AI_NOTE]

    # -- words ------------------------------------------------------------------------

    def action_words(self, view: Mapping[str, Any]) -> ViewWords:
        return ViewWords(self, view)

    def action_step(
        self, prompt: Mapping[str, Any] | None, actions: Sequence[dict[str, Any]], path: ActionPath, words: Words
    ) -> Step:
        """The turn grouped by board column with its numbers (turns.py)."""
        return turns.step(prompt, actions, path, words)

    def prompt_picture(self, prompt: Mapping[str, Any] | None) -> str | None:
        """The private picture (hand, draft choices, own board; 800 px wide) goes with the
        draft and with the start of a turn, not with every step of it."""
        if not prompt:
            return None
        if prompt.get("type") == "draft" or (prompt.get("type") == "turn" and not prompt.get("main_done")):
            return "draw"
        return None

    def result_lines(self, result: Mapping[str, Any], name_of: Callable[[str], str]) -> list[str]:
        out = []
        for r in result.get("scores", []):
            b = r.get("breakdown") or {}
            parts = ", ".join(f"{SOURCES[k]} {v}" for k, v in b.items() if k in SOURCES and v)
            out.append(
                f"{r.get('rank', '?')}. **{name_of(str(r.get('seat', '')))}** {r.get('vp', 0)} VP "
                f"(Reputation {r.get('reputation', 0)}, Reliability {r.get('reliability', 0)})"
                + (f"\n   {parts}" if parts else "")
            )
        return out

    def score_sources(self, round_no: int, view_after: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """The VP each player scored in ``round_no`` by source, as the engine kept them
        (``last_round``, rules 4): "Equipment bonus +4, Reliability +1"."""
        last = view_after.get("last_round") or {}
        if last.get("round") != round_no:
            return {}
        return {str(s): {str(k): int(v) for k, v in by.items()} for s, by in (last.get("vp") or {}).items()}

    def status_bits(self, view: Mapping[str, Any], seat: str) -> list[str]:
        p = (view.get("players") or {}).get(seat) or {}
        credits = int(p.get("credits", 0))
        bits = [f"{p.get('vp', 0)} VP", f"{credits} credit{'' if credits == 1 else 's'}", f"{p.get('held', 0)}/10 resources"]
        if view.get("phase") == "draft":
            bits.append("choosing…" if seat in (view.get("draft_waiting") or []) else "🔒 chosen")
        elif p.get("passed"):
            bits.append("passed")
        return bits

    # -- secret decisions (the draft: the generic select, sealed n/N) --------------------

    def secret_phase(self, view: Mapping[str, Any]) -> bool:
        return view.get("phase") == "draft"

    def sealed_counts(self, view: Mapping[str, Any]) -> tuple[int, int, list[str]]:
        seats = list(view.get("seats") or [])
        waiting = [s for s in seats if s in (view.get("draft_waiting") or [])]
        return len(seats) - len(waiting), len(seats), waiting

    def sealed_words(self, view: Mapping[str, Any]) -> str:
        """"🔒 Draft pass 2 of 3 · Specialists picked 1/2": the draft is no plan."""
        return f"Draft pass {view.get('draft_pass') or 1} of 3 · Specialists picked"

    def sealed_done(self, view: Mapping[str, Any], total: int) -> str:
        """The kept Specialists stay secret: nothing is revealed when the draft ends."""
        return f"✅ Specialist draft over: each of the {total} players keeps 4 Specialists (secret until played)."

    def is_secret_action(self, action: Mapping[str, Any]) -> bool:
        return (action or {}).get("type") == "draft"


SOURCES = {
    "in_game": "in game",
    "prospect": "Prospect",
    "equipment": "Equipment",
    "rnd": "R&D",
    "sale": "Sale Orders",
    "reputation": "Reputation",
    "donation": "Donation",
    "relationships": "Relationships",
    "specialists": "Specialists",
    "audits": "Audits",
    "automatons": "automatons",
    "leftovers": "leftovers",
}

PRESENTER = AgeOfAutomaton()

__all__ = ["PRESENTER", "AgeOfAutomaton", "ViewWords"]
