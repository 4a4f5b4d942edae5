"""Message texts, /help, and small parsers for command input: the words every game shares.

A game's own words (its labels, prompts, rules topics) are its presenter's
(:mod:`bot.games`). The generic labels here (:func:`describe_action`,
:func:`describe_key`, :func:`describe_value`, :func:`describe_prompt`) put any action
in words without JSON; a presenter falls back to them for what it does not name.

Nothing here imports ``discord`` or a game: every function takes and returns plain
data, so the texts are tested without a client.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

# --------------------------------------------------------------------------- help

HELP = """\
**boardroom** runs asynchronous board games in this channel.

**Starting a game**
`/game new` (pick the game from the list) posts a lobby with **Join**, **Leave**, **Add AI** and
**Start**. Anyone can join; the host (or a member with Manage Server) adds AI players and starts.
`/game join`, `/game leave`, `/game start` do the same as the buttons.

**Playing**
A secret decision (like Planning) comes to every player as a private message with a picture and
a planner: build it step by step with a live preview, then seal it. Nobody sees a decision before
all are sealed; then they are revealed together in one picture.
If your DMs are closed, use `/plan` in the game's channel: it opens the same planner privately.
Other decisions come as a message with an **Open my turn** button; `/plan` opens whatever you
have to decide now.

**Keeping track**
`/game status` phase, whose move, who has sealed, deadlines. `/game history round:<n>` that
round's pictures. `/game replay` the game move by move. `/game export` the game record as JSON. `/rules [topic]` the rules in short.

**Hosting**
`/game settings` reminder hours, AI takeover, quiet hours. `/game pause`, `/game resume`,
`/game abandon`, `/game kick seat:<seat>` (lobby: removes the seat; running game: the AI plays
it) (host or Manage Server only). `/game reclaim` takes your seat back from the AI.
"""

# ----------------------------------------------------------------------- options


def parse_options(text: str | None) -> dict[str, Any]:
    """``"tech_sides=random block_size=3"`` (or JSON) -> ``{"tech_sides": "random", "block_size": 3}``.

    Separators: spaces, commas or semicolons. Values: integers, true/false, or text.
    Raises ValueError with a message for the player.
    """
    if text is None or not text.strip():
        return {}
    text = text.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text, object_pairs_hook=_no_twice)
        except ValueError as exc:
            if isinstance(exc, _Twice):
                raise ValueError(str(exc)) from None
            where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
            raise ValueError(f"Those options look like JSON but are not valid{where}.") from None
        if not isinstance(data, dict):
            raise ValueError("Options must be a JSON object.")
        return data
    out: dict[str, Any] = {}
    for part in text.replace(",", " ").replace(";", " ").split():
        if "=" not in part:
            raise ValueError(f"Write each option as name=value ({clip(part, QUOTED)!r} is not).")
        key, value = part.split("=", 1)
        key = key.strip().lower().replace("-", "_")
        if not key:
            raise ValueError(f"The option {clip(part, QUOTED)!r} has no name.")
        _put(out, key, _value(value.strip()))
    return out


QUOTED = 40  # how much of what the player typed a refusal quotes


class _Twice(ValueError):
    pass


def _put(out: dict[str, Any], key: str, value: Any) -> None:
    """One option, refused if it was given before with another value (it contradicts
    itself: ``difficulty=hard difficulty=easy``); the same value twice is harmless."""
    if key in out and out[key] != value:
        first, then = (clip(json.dumps(v) if not isinstance(v, str) else v, QUOTED) for v in (out[key], value))
        raise _Twice(f"The option {clip(key, QUOTED)} is given twice ({first}, then {then}): keep one.")
    out[key] = value


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        _put(out, key, value)
    return out


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text



# ------------------------------------------------------------------------ labels


def clip(text: str, n: int) -> str:
    """Discord limits: labels 80, select option labels/descriptions 100, content 2000."""
    return text if len(text) <= n else text[: n - 1] + "…"


def sentence(words: str) -> str:
    """``words`` ended with a full stop, unless they end with one already (or with "?", "!"
    or "…"): "Added Steve Jr." and "… before or after)." never get a second one."""
    words = words.rstrip()
    return words if words.endswith((".", "?", "!", "…")) else f"{words}."


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id else ""


def log_block(lines: Iterable[str], limit: int = 1700) -> str:
    """Log lines for a channel message, cut to fit Discord's 2000 characters."""
    lines = [str(x) for x in lines]
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 3 > limit:
            more = len(lines) - i
            out.append(f"… and {more} more line{'s' if more != 1 else ''} (`/game log` shows them all).")
            break
        out.append(f"• {line}")
        size += len(line) + 3
    return "\n".join(out)


def sealed_text(
    sealed: int, total: int, names_waiting: list[str], untouched: list[str] | None = None, words: str = "Plans sealed"
) -> str:
    """The sealed counter; ``untouched``: the players waited for who changed nothing in
    their planner yet (only said once somebody has sealed or started); ``words``: what the
    game's secret decision counts (the presenter's ``sealed_words``)."""
    text = f"🔒 {words} {sealed}/{total}"
    if names_waiting:
        text += " — waiting for " + ", ".join(names_waiting)
    if untouched and (sealed or len(untouched) < len(names_waiting)):
        text += " · nothing changed yet in the planner of " + ", ".join(untouched)
    return text



def compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)



def hours(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 48 and value % 24 == 0:
        return f"{int(value // 24)} days"
    return f"{value:g} h"


def words(key: str) -> str:
    """An engine key in words: ``"block_size"`` -> ``"block size"``, ``"card-draft"`` -> ``"card draft"``."""
    return str(key).replace("_", " ").replace("-", " ").strip()


def describe_value(key: str, value: Any) -> str:
    """One value of an action or option in words (no JSON)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    if isinstance(value, str):
        return words(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{words(k)} {describe_value(k, v)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        return ", ".join(describe_value(key, v) for v in value) or "none"
    return str(value)


def describe_key(key: str) -> str:
    """A dotted path of a step-by-step action in words: ``"place.0"`` -> ``"place #1"``."""
    parts = [p for p in str(key).split(".") if p and p != "#"]
    out = [f"#{int(p) + 1}" if p.isdigit() else words(p) for p in parts]
    if str(key).endswith(".#"):
        out.append("how many")
    return " ".join(out) or "choice"


def describe_action(action: Mapping[str, Any]) -> str:
    """Any engine action in words: ``{"type": "take", "n": 2}`` -> ``"take: n 2"``."""
    if not isinstance(action, Mapping):
        return describe_value("", action)
    head = words(action["type"]) if isinstance(action.get("type"), str) else ""
    rest = [f"{words(k)} {describe_value(k, v)}" for k, v in action.items() if k != "type"]
    if head and rest:
        return f"{head}: " + ", ".join(rest)
    return head or ", ".join(rest) or "pass"


NOTHING_TO_DECIDE = "nothing to decide"  # a seat without a prompt, in every game


def describe_prompt(prompt: Mapping[str, Any] | None) -> str:
    """One line for what a seat must decide now (any game)."""
    if not prompt:
        return NOTHING_TO_DECIDE
    kind = prompt.get("type") or prompt.get("kind")
    return words(str(kind)) if kind else "decide"


def with_player_names(lines: list[str], info: Any) -> list[str]:
    """Log lines with each seat called by its player's display name, as everywhere else
    (the engines name seats by their ids: "annlee sells ..." -> "Ann Lee sells ...").
    A seat id is replaced as a whole word; one of 1-2 letters only at a line's start
    (it could be a word of the line). ``info`` is a game record with ``seats``."""
    names = {s.seat: s.display_name for s in info.seats if s.display_name and s.display_name != s.seat}
    if not names:
        return list(lines)
    ids = sorted(names, key=len, reverse=True)
    long_ = [re.escape(i) for i in ids if len(i) >= 3]
    anywhere = re.compile(r"(?<![\w-])(" + "|".join(long_) + r")(?![\w-])") if long_ else None
    start = re.compile(r"^(" + "|".join(re.escape(i) for i in ids) + r")(?![\w-])")
    dotted = [n for n in names.values() if n.endswith(".")]  # "Turn order: Ann, Steve Jr.."
    out = []
    for line in lines:
        line = start.sub(lambda m: names[m.group(1)], line)
        if anywhere is not None:
            line = anywhere.sub(lambda m: names[m.group(1)], line)
        for n in dotted:
            line = line.replace(n + ".", n)
        out.append(line)
    return out
