"""What one caller may see of a game at the table: their own seat's view, or the public
view for a bystander; their legal actions labelled and numbered as the Discord prompts
label them; the game's table parts. Nothing from another seat's view ever goes in.

The labels are the Discord prompt's own, from the one labeller (:func:`bot.labels.action_words`:
the presenter's words from the seat's view, or each option with the numbers it changes),
in the engine's order, numbered from 1 as the select lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import labels
from bot.app import App
from bot.games import table_parts
from bot.records import GameInfo
from bot.table import drafts
from bot.table.decide import board_decisions

MAX_ACTIONS = 400  # more than any decision of the three games lists at once


def seat_entry(info: GameInfo, seat: Any, user_id: int) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "name": seat.display_name,
        "ai": seat.ai_kind is not None or bool(seat.ai_takeover),
        "you": seat.user_id == user_id and seat.ai_kind is None,
    }


async def table_payload(app: App, info: GameInfo, user_id: int) -> dict[str, Any]:
    """The page's whole picture of ``info``'s game for ``user_id`` (see the module doc)."""
    presenter = app.presenter(info.game)
    mine = info.seat_of(user_id)
    seat = mine.seat if mine is not None and mine.ai_kind is None else None
    out: dict[str, Any] = {
        "game_id": info.id,
        "game": info.game,
        "title": presenter.title,
        "status": info.status,
        "version": info.version,
        "you": seat,
        "seats": [seat_entry(info, s, user_id) for s in info.seats],
        "actions": [],
        "prompt": None,
        "prompt_text": "",
        "undo": False,
        "facts": {},
        "script": None,
        "board": {"moves": {}, "groups": {}},
        "secret": False,  # a secret decision is being collected (its end is the reveal)
        "draft": None,  # this seat's half-built decision, kept on the server (bot.table.drafts)
    }
    if info.status == "lobby":
        out["view"] = None
        return out
    view = await app.view(info.id, seat)
    out["view"] = view
    out["version"] = int(view.get("version", info.version))
    hooks, script = table_parts(info.game)
    out["script"] = f"games/{info.game}.js" if script is not None else None
    out["secret"] = info.status == "active" and presenter.secret_phase(view)
    if seat is None:
        return out
    prompt = view.get("prompt") if isinstance(view.get("prompt"), Mapping) else None
    if info.status == "active" and prompt is None:
        prompt = await app.prompt(info.id, seat)
    out["prompt"] = prompt
    if prompt is not None:
        out["prompt_text"] = presenter.describe_prompt(prompt)
    if info.status == "active" and prompt is not None and not (mine and mine.ai_takeover):
        actions = await app.legal_actions(info.id, seat)
        words = await labels.action_words(app, presenter, info.id, seat, view, prompt)  # Discord's own labeller
        out["actions"] = [
            {"n": i + 1, "label": words.describe_action(a), "action": a} for i, a in enumerate(actions[:MAX_ACTIONS])
        ]
        # the decisions on the board (bot.table.decide): the gestures each action means
        out["board"] = board_decisions(info.game, prompt, view, seat, out["actions"])
    if info.status == "active" and prompt is not None:
        out["draft"] = await drafts.load(app.storage, info.id, seat, drafts.decision_key(view, prompt))
    out["undo"] = await _may_undo(app, info, seat)
    if hooks is not None and hasattr(hooks, "facts"):
        out["facts"] = hooks.facts(prompt, view, seat)
    return out


async def _may_undo(app: App, info: GameInfo, seat: str) -> bool:
    """Whether Undo would take back this seat's last move now: the app's own check, the
    one behind Discord's ↩ Undo (same phase, nothing hidden revealed, no chance used), so
    the table offers it only where pressing it works."""
    return info.status == "active" and info.version >= 1 and await app.can_undo(info.id, seat)


def preview(app: App, game: str, prompt: Any, view: Mapping[str, Any], seat: str, action: Any) -> dict[str, Any] | None:
    """The game's preview of a draft decision (its ``table.preview``), or None."""
    hooks, _script = table_parts(game)
    if hooks is None or not hasattr(hooks, "preview"):
        return None
    result: dict[str, Any] | None = hooks.preview(prompt, view, seat, action)
    return result
