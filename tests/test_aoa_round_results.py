"""Round results list each player's VP change by source (issue 22, as Smartphone Inc.'s
"Round N results"): the engine keeps the round's VP by source (rules 4, ``round_vp``,
public as ``view["last_round"]``) and the presenter names them."""

from __future__ import annotations

from bot.games.age_of_automaton.presenter import PRESENTER
from engine.age_of_automaton.game import GAME
from tests.aoa_support import drafted


def test_each_players_round_vp_by_source_adds_up_to_the_change() -> None:
    state = drafted(2, seed=3)
    start = {s: p["vp"] for s, p in state["players"].items()}
    for _ in range(400):  # round 1 played; the results are read at the end of its Clean-up
        if state["round"] == 2:
            break
        seat = sorted(GAME.pending(state))[0]
        state = GAME.apply(state, seat, GAME.greedy_action(state, seat))
    view = GAME.view(state, None)
    last = view["last_round"]
    assert last["round"] == 1
    changes = {s: p["vp"] - start[s] for s, p in view["players"].items()}
    assert any(changes.values())
    for seat, change in changes.items():
        assert sum(last["vp"].get(seat, {}).values()) == change, (seat, last)
    text = PRESENTER.round_results(1, start, view, lambda s: s)
    assert text is not None and text.startswith("**Round 1 results**")
    lines = text.splitlines()
    for seat, by in last["vp"].items():
        line = next(x for x in lines if x.startswith(f"**{seat}**"))
        for source, vp in by.items():
            assert f"{source} {vp:+d}" in line, line
    assert "other" not in text  # every VP of the round has its source


def test_the_source_of_a_vp_gain() -> None:
    from engine.age_of_automaton.common import source_of

    assert source_of("Reliability section 4") == "Reliability"
    assert source_of("2-VP token on reputation space 5") == "Reputation tokens"
    assert source_of("Equipment bonus") == "Equipment bonus"
