"""Export a game as JSON (never a secret before its reveal) and replay an export."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.app.core import canonical_input, is_undo, replay_row
from bot.app.replay import ReplayOps
from bot.exports import check_export
from bot.limits import clip_input
from bot.records import AppError, Conflict, ReplayMismatch, canonical
from engine import Game, IllegalAction
from engine.versions import export_edition, setup_as


class ExportOps(ReplayOps):
    """Export calls of :class:`bot.app.App`."""

    async def public_view_at(self, game_id: int, step: int) -> tuple[dict[str, Any], list[str], int]:
        """(the public board, the log lines so far, the number of steps) after ``step``
        steps of the game's public record (0: the opening board), clamped: each step of
        the live table's replay. It reads the same record as ``/game replay``
        (:meth:`record`, the engine's ``shown_action``): a secret decision stays hidden
        until it is public; once the game is over each one is spelled out."""
        info = await self.info(game_id)
        if info.status == "lobby":
            raise Conflict("The game has not started yet.")
        rec = await self.record(game_id)
        step = max(0, min(int(step), len(rec.steps)))
        lines = list(rec.opening)
        for s in rec.steps[:step]:
            lines.extend(s.lines)
            if s.detail:
                lines.append(s.detail)
        return await self.step_view(game_id, rec, step - 1), lines, len(rec.steps)

    async def export(
        self, game_id: int, *, with_seed: bool | None = None, viewer: str | None = None
    ) -> dict[str, Any]:
        """The game as JSON-able data: game, options, seed, seats, action log, result.
        Discord ids are left out; display names stay. Each action is shown as the engine
        says ``viewer`` (None: the public, any bystander) may see it now
        (``shown_action``, through :mod:`bot.app.replay`): a sealed plan until the
        reveal, an Age of Automaton drafted Specialist until it is played, is left as
        ``{"type": ..., "hidden": true}`` (the row says ``"hidden": true``; ``redacted``
        counts them, ``note`` says why). Once the game is over everything is shown.

        The seed fixes every shuffle (the order of the decks), so by default it is given
        only once the game has ended; ``with_seed=True`` (the operator's CLI) always
        includes it. An export replays (``replay_export``) up to its first hidden row."""
        async with self.storage.read() as q:
            info = await self._info_q(q, game_id)
            rows = await q.actions(game_id)
        steps = []
        if rows and info.seed is not None and info.status != "lobby":
            rec = await self.record(game_id, viewer)
            steps = rec.steps
        actions = []
        for r, step in zip(rows, steps or [None] * len(rows), strict=False):
            row: dict[str, Any] = {"seq": r.seq, "seat": r.seat, "action": r.action, "actor": r.actor}
            if step is not None and step.hidden:
                row["action"], row["hidden"] = step.action, True
            actions.append(row)
        hidden = sum(1 for a in actions if a.get("hidden"))
        data: dict[str, Any] = {
            "format": "boardroom-game",
            "format_version": 3,
            "id": info.id,
            "game": info.game,
            "rules": info.rules,  # the rules version and generator the game runs under
            "rng": info.rng,
            "status": info.status,
            "options": info.options,
            "seed": info.seed if (with_seed or info.status in ("finished", "abandoned")) else None,
            "seats": [
                {"seat": s.seat, "position": s.position, "name": s.display_name,
                 "kind": s.ai_kind or "human", "ai_takeover": s.ai_takeover}
                for s in info.seats
            ],
            "actions": actions,
            "version": info.version,
            "redacted": hidden,
            "result": info.result,
        }
        notes = []
        if hidden:
            notes.append(
                f"{hidden} action(s) carry something still secret (a sealed plan, a hidden hand)"
                " and are shown by their kind only until it is public."
            )
        if data["seed"] is None and info.seed is not None:
            data["seed_withheld"] = True
            notes.append("The seed is given once the game is over: it fixes the order of the cards still hidden.")
        if notes:
            data["note"] = " ".join(notes)
        return data


def replay_export(
    data: Mapping[str, Any], *, games: Mapping[str, Game] | None = None, verify: bool = True
) -> dict[str, Any]:
    """Replay an :meth:`App.export` dict from its seed and log, up to its first hidden
    row; return the result (``{"over": False, "version": n}`` for an unfinished game). With ``verify``, a
    recorded result that differs raises :class:`ReplayMismatch`."""
    check_export(data)
    name = str(data["game"])
    game = (games or {}).get(name)
    if game is None:
        from engine import get_game

        game = get_game(name)
    if data.get("seed") is None:
        if data.get("seed_withheld"):
            raise AppError("This export of a running game has no seed; export it again once the game is over.")
        raise AppError("The game never started; there is nothing to replay.")
    seats = sorted(data["seats"], key=lambda s: s["position"])
    rules, rng_kind = export_edition(data)
    state = setup_as(
        game, [s["seat"] for s in seats], int(data["seed"]), dict(data["options"]), rules=rules, rng=rng_kind
    )
    before = None
    for row in sorted(data["actions"], key=lambda r: r["seq"]):
        if row.get("hidden") or (isinstance(row["action"], Mapping) and row["action"].get("hidden")):
            break  # the rest of a running game's log waits for what is still secret
        check_logged(game, state, row["seat"], row["action"], int(row["seq"]))
        try:
            state, before = replay_row(game, state, before, row["seat"], row["action"], int(row["seq"]))
        except RuntimeError as exc:
            raise ReplayMismatch(f"replaying seq {row['seq']}: {exc}") from None
    result = game.result(state) if game.is_over(state) else {"over": False, "version": state["version"]}
    recorded = data.get("result")
    if verify and recorded is not None and canonical(recorded) != canonical(result):
        raise ReplayMismatch("The replayed result differs from the recorded one.")
    return result


def check_logged(game: Game, state: dict[str, Any], seat: str, action: Mapping[str, Any], seq: int) -> None:
    """An exported action is replayed only as the log stores one: in the engine's canonical
    form, with no field the game does not know (the app refuses such a move, so a field
    like that was added by hand); else :class:`ReplayMismatch` names the field."""
    if is_undo(action):
        unknown = sorted(str(k) for k in action if k not in ("type", "undoes"))
    else:
        try:
            _canon, unknown = canonical_input(game, state, seat, dict(action))
        except IllegalAction as exc:
            raise ReplayMismatch(f"The action at seq {seq} is not a move of this game: {exc}") from None
    if unknown:
        names = clip_input(", ".join(repr(k) for k in unknown), 120)
        raise ReplayMismatch(
            f"The action at seq {seq} has field(s) this game does not know: {names}. No export holds them:"
            " the file was edited."
        )
