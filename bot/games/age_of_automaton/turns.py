"""A turn a player can take at a glance (issue 22): the Action-phase options grouped the
way the board groups them, each with its numbers, in as few clicks as the decision needs.

- The turn's first select lists the main actions column by column (Prospect, Funding |
  Equipment, Assembling | R&D, Sponsorship | Sale, Purchasing), each option with the
  automaton it uses and what it costs and gives (the engine's labels, ``view["choices"]``);
  special actions, free actions and Equipment-first variants are one entry each that
  opens their own list. When the main actions alone would not fit Discord's 25 options,
  the kind with the most options becomes one entry that opens its list.
- A main action is confirmed ("Confirm"), or confirmed with the end of the turn ("Confirm
  and end the turn": the same action with ``"end": true``, which the engine ends the turn
  with once the action and its questions are done; rules version 4, whose turn prompt
  says ``"can_end": true``; the engine lists each main action once), so a typical turn
  is open, pick, confirm (and end).
- "End the turn" and the answers to the questions inside a turn (the Prospect bonus, the
  dice, an upgrade, a column, a Donation) apply at once; ◀ Back stays until then.

The select values are the generic path's ("=<action index>", "<group index>")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot import text
from bot.choices import ActionPath, Choice, Step, Words, action_step
from engine import IllegalAction
from engine.age_of_automaton.data import COLUMN_OF, MAIN_ACTIONS

STALE = "that choice is out of date; open your prompt again"
LIMIT = 25
LIMIT_TEXT = 100  # Discord's most characters of an option's label or description
FREE = ("play_specialist", "use_specialist", "discard_specialist", "contract", "equipment")
GROUPS = {
    "special": "Special actions",
    "free": "Free actions: Specialists, contracts, Equipment",
    "before": "A main action using Equipment first",
}
AT_ONCE_ASKS = ("pick", "dice", "upgrade", "column", "discard", "donate", "extra", "resolve", "achievement")


def _key(action: Mapping[str, Any]) -> tuple[Any, ...]:
    kind = str(action.get("action"))
    return (COLUMN_OF.get(kind, 9), MAIN_ACTIONS.index(kind) if kind in MAIN_ACTIONS else 9, action.get("worker", 0))


class Menu:
    """The entries of a turn's first select: ("action", index) or ("group", name, indices)."""

    def __init__(self, actions: Sequence[dict[str, Any]], words: Words, can_end: bool = False) -> None:
        self.actions, self.words = actions, words
        self.can_end = can_end  # main actions accept "end": true (the turn prompt's "can_end")
        mains = [i for i, a in enumerate(actions) if a.get("type") == "main" and not a.get("before")]
        mains.sort(key=lambda i: _key(actions[i]))
        groups: dict[str, list[int]] = {"before": [], "special": [], "free": []}
        firsts: list[int] = []
        lasts: list[int] = []
        for i, a in enumerate(actions):
            t = a.get("type")
            if t == "main" and a.get("before"):
                groups["before"].append(i)
            elif t == "special":
                groups["special"].append(i)
            elif t in FREE:
                groups["free"].append(i)
            elif t in ("end", "achievement"):
                firsts.append(i)
            elif t != "main":
                lasts.append(i)
        self.entries: list[tuple[str, Any]] = [("action", i) for i in firsts]
        extra = [("group", g, ix) for g, ix in groups.items() if ix]
        room = LIMIT - len(self.entries) - len(extra) - len(lasts)
        by_kind: dict[str, list[int]] = {}
        for i in mains:
            by_kind.setdefault(str(actions[i]["action"]), []).append(i)
        # a list longer than one select becomes several entries ("1/2", "2/2")
        extra = [("group", g, ix[k : k + LIMIT]) for _, g, ix in extra for k in range(0, len(ix), LIMIT)]
        room = LIMIT - len(self.entries) - len(extra) - len(lasts)
        folded: set[str] = set()
        while sum(1 if k in folded else len(v) for k, v in by_kind.items()) > room:
            big = max((k for k in by_kind if k not in folded), key=lambda k: len(by_kind[k]), default=None)
            if big is None or len(by_kind[big]) <= 1:
                break
            folded.add(big)
        seen: set[str] = set()
        for i in mains:
            kind = str(actions[i]["action"])
            if kind in folded:
                if kind not in seen:
                    seen.add(kind)
                    ix = by_kind[kind]
                    self.entries += [("group", kind, ix[k : k + LIMIT]) for k in range(0, len(ix), LIMIT)]
            else:
                self.entries.append(("action", i))
        self.entries += [("action", i) for i in lasts] + extra

    def twin(self, i: int) -> dict[str, Any] | None:
        """Main action ``i`` that also ends the turn (``"end": true``), where the engine
        takes that option (rules 4 says so in the turn prompt); else None."""
        action = self.actions[i]
        if not self.can_end or action.get("type") != "main":
            return None
        return {**action, "end": True}

    def choice(self, n: int, entry: tuple[str, Any]) -> Choice:
        if entry[0] == "action":
            return option(entry[1], self.actions[entry[1]], self.words)
        _, name, ix = entry
        first = self.words.describe_action(self.actions[ix[0]])
        title = GROUPS.get(name) or first.split(" with ")[0].split(":")[0]
        return Choice(str(n), text.clip(f"{title} ({options_count(len(ix))}) ▸", 100), example(first))


def draft_title(prompt: Mapping[str, Any], words: Words) -> str:
    """Who gets the Specialists passed on, by seat (the bot says the player's name): "bob,
    on your left, gets the other 3: keep one." (the engine's prompt said "to the player on
    your left"); "" without a seat to name or nothing to pass."""
    to = getattr(words, "pass_to", None)
    passed = len(prompt.get("hand") or []) - 1
    if not to or passed < 1:
        return ""
    other = "the other one" if passed == 1 else f"the other {passed}"
    return f"{to}, on your left, gets {other}: keep one."


def options_count(n: int) -> str:
    """"1 option", "3 options": how many an entry of the first select opens."""
    return f"{n} option{'' if n == 1 else 's'}"


def example(first: str) -> str:
    """A list's description: its first option ("e.g. …"), whole or not at all."""
    for words in ("e.g. " + first, first):
        if len(words) <= LIMIT_TEXT:
            return words
    return ""


def option(i: int, action: dict[str, Any], words: Words) -> Choice:
    detail = getattr(words, "describe_detail", None)
    desc = detail(action) if detail is not None else ""
    return Choice(f"={i}", text.clip(words.describe_action(action), 100), text.clip(desc, 100))


def _list(ix: Sequence[int], actions: Sequence[dict[str, Any]], words: Words, title: str) -> Step:
    opts = [option(i, actions[i], words) for i in ix]
    return Step(title, opts[:LIMIT])


def _pick(p: str, allowed: Sequence[int]) -> int:
    if not p.startswith("=") or not p[1:].isdigit() or int(p[1:]) not in allowed:
        raise IllegalAction(STALE)
    return int(p[1:])


def turn_step(actions: Sequence[dict[str, Any]], path: ActionPath, words: Words, can_end: bool = False) -> Step:
    menu = Menu(actions, words, can_end)
    picks = list(path.picks)
    if not picks:
        if len(menu.entries) == 1 and menu.entries[0][0] == "action":
            return _chosen(menu, menu.entries[0][1], at_once=False)
        return Step("Choose an action (main actions by board column):", [menu.choice(n, e) for n, e in enumerate(menu.entries)])
    p = picks.pop(0)
    if p.startswith("="):
        i = _pick(p, [e[1] for e in menu.entries if e[0] == "action"])
        return _chosen(menu, i, at_once=True)
    if not p.isdigit() or int(p) >= len(menu.entries) or menu.entries[int(p)][0] != "group":
        raise IllegalAction(STALE)
    _, name, ix = menu.entries[int(p)]
    if not picks:
        return _list(ix, actions, words, f"Choose: {GROUPS.get(name, 'which one')}:")
    return _chosen(menu, _pick(picks.pop(0), ix), at_once=True)


def _chosen(menu: Menu, i: int, at_once: bool) -> Step:
    """A main action waits for Confirm (or Confirm and end the turn); others apply at once."""
    action = menu.actions[i]
    if action.get("type") == "main":
        return Step("", action=action, finish=menu.twin(i))
    return Step("", action=action, at_once=at_once)


AMOUNTS = {"pick": "take", "discard": "drop", "donate": "give"}  # a question answered by a mix of amounts
KINDS = {1: "one kind", 2: "two kinds", 3: "three kinds", 4: "four kinds"}


def _kinds(action: Mapping[str, Any]) -> int:
    """How many kinds (colours, credits) a mix of amounts holds; 0 for another action."""
    field = AMOUNTS.get(str(action.get("type")))
    mix = action.get(field) if field else None
    return sum(1 for v in mix.values() if v) if isinstance(mix, Mapping) else 0


def _total(action: Mapping[str, Any]) -> int:
    field = AMOUNTS.get(str(action.get("type")))
    mix = action.get(field) if field else None
    return sum(int(v) for v in mix.values()) if isinstance(mix, Mapping) else 0


def mix_step(actions: Sequence[dict[str, Any]], path: ActionPath, words: Words) -> Step:
    """A mix of amounts with more options than one select (an R&D bonus of 4 resources or
    credits: 35 mixes; a Donation of up to 4: 70): the simplest mixes (one kind, then two
    kinds, the largest first) are options of the first list, as many as fit; the rest
    are one entry per number of kinds ("Mixes of three kinds (12) ▸"), each opening its
    list. Other actions (a claim, "Donate nothing") come first."""
    order = sorted(range(len(actions)), key=lambda i: (_kinds(actions[i]) or 9 if _total(actions[i]) else 0,
                                                      -_total(actions[i])))
    by: dict[int, list[int]] = {}
    for i in order:
        by.setdefault(_kinds(actions[i]), []).append(i)
    direct: list[int] = []
    groups: list[tuple[str, list[int]]] = []
    for n in sorted(by, key=lambda n: (n != 0, n)):
        ix = by[n]
        later = sum(-(-len(by[m]) // LIMIT) for m in by if m > n)  # entries the bigger mixes need
        if len(ix) == 1 or not groups and len(direct) + len(ix) + later <= LIMIT:
            direct += ix  # (a mix alone of its kind is an option itself)
        else:
            name = f"Mixes of {KINDS.get(n, str(n) + ' kinds')}"
            chunks = [ix[k : k + LIMIT] for k in range(0, len(ix), LIMIT)]
            groups += [(name + (f", {c + 1}/{len(chunks)}" if len(chunks) > 1 else ""), chunk) for c, chunk in enumerate(chunks)]
    picks = list(path.picks)
    if not picks:
        opts = [option(i, actions[i], words) for i in direct]
        opts += [
            Choice(str(g), text.clip(f"{name} ({options_count(len(ix))}) ▸", 100), example(words.describe_action(actions[ix[0]])))
            for g, (name, ix) in enumerate(groups)
        ]
        return Step("Choose:", opts[:LIMIT])
    p = picks.pop(0)
    if p.startswith("="):
        return Step("", action=actions[_pick(p, direct)], at_once=True)
    if not p.isdigit() or int(p) >= len(groups):
        raise IllegalAction(STALE)
    name, ix = groups[int(p)]
    if not picks:
        return _list(ix, actions, words, f"Choose: {name}:")
    return Step("", action=actions[_pick(picks.pop(0), ix)], at_once=True)


def step(prompt: Mapping[str, Any] | None, actions: Sequence[dict[str, Any]], path: ActionPath, words: Words) -> Step:
    kind = (prompt or {}).get("type")
    if kind == "turn":
        return turn_step(actions, path, words, can_end=bool((prompt or {}).get("can_end")))
    if len(actions) > LIMIT and any(_kinds(a) for a in actions):
        return mix_step(actions, path, words)
    got = action_step(actions, path, words)
    if kind in AT_ONCE_ASKS and got.action is not None and path.picks:
        return replace(got, at_once=True)
    if kind == "draft" and got.choices:
        got = replace(got, title=draft_title(prompt or {}, words) or got.title)
    if not got.choices or got.action is not None:
        return got
    # each option with its description where the generic list shows whole actions
    return replace(got, choices=[
        replace(c, description=option(int(c.value[1:]), actions[int(c.value[1:])], words).description)
        if c.value.startswith("=") else c
        for c in got.choices
    ])
