"""Bot pieces without Discord: the error texts, log filters, posting helpers."""

from __future__ import annotations

import logging

from bot import errors, games
from bot.cogs.play import history_views
from bot.games.smartphone_inc import PRESENTER
from engine import IllegalAction, get_game


def test_expected_errors_have_a_private_message() -> None:
    from bot.records import Forbidden

    assert errors.expected_message(IllegalAction("not your turn")) == "not your turn"
    assert errors.expected_message(Forbidden("Only the host")) == "Only the host"
    assert errors.expected_message(errors.Denied("nope")) == "nope"
    assert errors.expected_message(RuntimeError("boom")) is None


def test_token_is_redacted_from_log_records(caplog) -> None:
    token = "MTIz.secret-token-value-123456"
    log = logging.getLogger("boardroom.test.redact")
    log.addFilter(errors.RedactFilter(token))
    with caplog.at_level(logging.INFO):
        log.info("connecting with %s", token)
    assert token not in caplog.text and "[redacted]" in caplog.text


def test_secret_payloads_are_hidden_from_debug_logs(caplog) -> None:
    """Every private message's payload is hidden, whatever the game (no list of a game's
    words): a DM (its channel learnt when the DM is opened or from a gateway event), an
    ephemeral reply (the flag), and later edits of either (their channel, their
    interaction's token); a public post stays readable."""
    log = logging.getLogger("boardroom.test.secret")
    filt = errors.SecretFilter()
    log.addFilter(filt)
    token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQ"
    with caplog.at_level(logging.DEBUG):
        log.debug("%s %s has received %s", "POST", "/api/v10/users/@me/channels",
                  {"id": "777", "type": 1, "recipients": [{"id": "5"}]})
        log.debug("%s %s with %s has returned %s", "POST", "/api/v10/channels/777/messages",
                  '{"content": "Keep Architect Quinn (3 VP)"}', 200)
        log.debug("%s %s with %s has returned %s", "POST", f"/api/v10/interactions/99/{token}/callback",
                  '{"type": 4, "data": {"content": "Your hand: Engineer Ada", "flags": 64}}', 204)
        log.debug("%s %s with %s has returned %s", "PATCH", f"/api/v10/webhooks/1/{token}/messages/@original",
                  '{"content": "Bottom pad: Research 2"}', 200)
        log.debug("For Shard ID %s: WebSocket Event: %s", None,
                  {"op": 0, "t": "INTERACTION_CREATE", "d": {"token": "x" * 30, "channel_id": "888",
                   "message": {"content": "Draft pass 1 of 3: P10, P16"}, "data": {"values": ["P10"]}}})
        log.debug("%s %s with %s has returned %s", "PATCH", "/api/v10/channels/888/messages/1",
                  '{"content": "Kept Engineer Bo"}', 200)
        log.debug("%s %s with %s has returned %s", "POST", "/api/v10/channels/42/messages",
                  '{"content": "Round 1: Phase 2 begins"}', 200)
        log.info("plain info line stays")
    for secret in ("Architect Quinn", "Engineer Ada", "Research 2", "P10", "Engineer Bo"):
        assert secret not in caplog.text, secret
    assert caplog.text.count("payload is hidden") == 6
    assert "Round 1: Phase 2 begins" in caplog.text and "plain info line stays" in caplog.text


def _played_export(actions: int = 40) -> dict:
    from engine import ai

    game = get_game("smartphone-inc")
    seats = ["ann", "bob", "steve"]
    state = game.setup(seats, 3, {"automata": ["steve"]})
    log = []
    for seq in range(1, actions + 1):
        pending = game.pending(state)
        if not pending:
            break
        seat = sorted(pending)[0]
        action = ai.choose("smartphone-inc", state, seat, "greedy")
        state = game.apply(state, seat, action)
        log.append({"seq": seq, "seat": seat, "action": action, "actor": "bot"})
    from engine.versions import edition

    rules, rng = edition(state)
    return {
        "game": "smartphone-inc",
        "format_version": 2,  # as App.export: the rules and generator the game runs under
        "rules": rules,
        "rng": rng,
        "seed": 3,
        "options": {"automata": ["steve"]},
        "seats": [{"seat": s, "position": i} for i, s in enumerate(seats)],
        "actions": log,
    }


def test_history_views_cover_the_phases_of_one_round() -> None:
    export = _played_export()
    round1 = history_views(export, 1)
    assert round1, "round 1 has phases"
    assert all(lines is not None for _v, lines in round1)
    assert any("reveals" in " ".join(lines) for _v, lines in round1)
    assert history_views(export, 5) == [] or all(v["round"] >= 5 for v, _ in history_views(export, 5))


def test_sealed_counts_leave_steve_out() -> None:
    view = {
        "seats": ["ann", "bob", "steve"],
        "players": {"ann": {"sealed": True}, "bob": {"sealed": False}, "steve": {"steve": True, "sealed": True}},
    }
    assert PRESENTER.sealed_counts(view) == (1, 2, ["bob"])


def test_every_game_words_a_seat_without_a_prompt_the_same() -> None:
    """What a seat with nothing to decide reads is said once (the presenter), for every
    game, and a real prompt still gets the game's own words."""
    for name in games.names():
        presenter = games.presenter(name)
        assert presenter.describe_prompt(None) == presenter.describe_prompt({}) == "nothing to decide"
    assert PRESENTER.describe_prompt({"type": "plan"}) == "plan this round's decision (secret)"
