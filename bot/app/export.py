"""Export a game as JSON (never a secret before its reveal) and replay an export."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.app.core import Core, _stage, replay_row
from bot.exports import check_export
from bot.records import AppError, Conflict, GameInfo, ReplayMismatch, canonical, is_secret
from bot.storage import ActionRow
from engine import Game
from engine.versions import export_edition, setup_as


class ExportOps(Core):
    """Export calls of :class:`bot.app.App`."""

    async def public_view_at(self, game_id: int, version: int) -> tuple[dict[str, Any], list[str]]:
        """(the public view, its log lines) right after action ``version`` (0: the opening
        board), clamped to the game's versions: each step of the live table's replay. What
        it holds is the engine's public view, as for the live board (a sealed plan stays
        hidden until its reveal; after the end, everything the game revealed)."""
        info = await self.info(game_id)
        if info.status == "lobby":
            raise Conflict("The game has not started yet.")
        version = max(0, min(int(version), info.version))
        state = await self._load(replace(info, version=version))
        game = self.engine(info.game)
        return game.view(state, None), [str(e) for e in game.events(state)]

    async def export(self, game_id: int, *, with_seed: bool | None = None) -> dict[str, Any]:
        """The game as JSON-able data: game, options, seed, seats, action log, result.
        Discord ids are left out; display names stay. While a secret simultaneous
        decision is open, the decisions already sealed in it are left out of the log
        (``redacted_open_decisions`` says how many, ``note`` says why): an export never
        shows a plan before the reveal.

        The seed fixes every shuffle (the order of the Improvement pile), so by default
        it is given only once the game has ended; ``with_seed=True`` (the operator's CLI,
        the bot's own replays for pictures) always includes it."""
        async with self.storage.read() as q:
            info = await self._info_q(q, game_id)
            rows = await q.actions(game_id)
        hidden = await self._sealed_open_decisions(info, rows)
        shown = rows[: len(rows) - hidden]
        data: dict[str, Any] = {
            "format": "boardroom-game",
            "format_version": 2,
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
            "actions": [
                {"seq": r.seq, "seat": r.seat, "action": r.action, "actor": r.actor}
                for r in shown
            ],
            "version": info.version,
            "redacted_open_decisions": hidden,
            "result": info.result,
        }
        notes = []
        if hidden:
            notes.append(
                f"{hidden} sealed decision(s) of the secret decision still open are left out"
                " until the reveal."
            )
        if data["seed"] is None and info.seed is not None:
            data["seed_withheld"] = True
            notes.append("The seed is given once the game is over: it fixes the order of the cards still hidden.")
        if notes:
            data["note"] = " ".join(notes)
        return data

    async def _sealed_open_decisions(self, info: GameInfo, rows: list[ActionRow]) -> int:
        """How many trailing log rows are decisions of a secret simultaneous decision that
        is still open (made, but not revealed yet).

        The open decision is the longest tail of the log in which each action answered a
        secret prompt (``is_secret``) at the stage (round, phase) the game is in now, by
        a seat that is no longer pending, each seat once. Anything older was revealed."""
        if info.seed is None or info.status == "lobby" or not rows:
            return 0
        game = self.engine(info.game)
        state = await self._state(info)
        if game.is_over(state):
            return 0
        pending = game.pending(state)
        if not any(is_secret(p, pending) for p in pending.values()):
            return 0
        stage = _stage(game.view(state, None))
        seen: set[str] = set()
        first = len(rows)
        while first > 0 and rows[first - 1].seat not in pending and rows[first - 1].seat not in seen:
            seen.add(rows[first - 1].seat)
            first -= 1
        if first == len(rows):
            return 0
        before = await self._load(replace(info, version=rows[first].seq - 1))
        secret: list[bool] = []
        for r in rows[first:]:
            now_pending = game.pending(before)
            prompt = now_pending.get(r.seat)
            secret.append(
                prompt is not None
                and is_secret(prompt, now_pending)
                and _stage(game.view(before, None)) == stage
            )
            before = game.apply(before, r.seat, r.action)
        hidden = 0
        for flag in reversed(secret):
            if not flag:
                break
            hidden += 1
        return hidden



def replay_export(
    data: Mapping[str, Any], *, games: Mapping[str, Game] | None = None, verify: bool = True
) -> dict[str, Any]:
    """Replay an :meth:`App.export` dict from its seed and log; return the result
    (``{"over": False, "version": n}`` for an unfinished game). With ``verify``, a
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
        try:
            state, before = replay_row(game, state, before, row["seat"], row["action"], int(row["seq"]))
        except RuntimeError as exc:
            raise ReplayMismatch(f"replaying seq {row['seq']}: {exc}") from None
    result = game.result(state) if game.is_over(state) else {"over": False, "version": state["version"]}
    recorded = data.get("result")
    if verify and recorded is not None and canonical(recorded) != canonical(result):
        raise ReplayMismatch("The replayed result differs from the recorded one.")
    return result

