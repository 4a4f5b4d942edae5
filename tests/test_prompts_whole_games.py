"""Whole games of all three games through the fake Discord, as issue 21 and issue 20 part 2
want them (tests/prompt_driver.py plays them and counts):

- every "↩ Undo" the bot offers is accepted when pressed (each pressed once; the redo
  right after an undo is not undone again);
- each seat has at most one live prompt (a message with a live control of a decision)
  after every step;
- a Confirm (and "Yes, seal") clicked twice, the second time on the message as it was,
  never applies twice and says "already done";
- at most one DM per turn.

benchmarks/bench_prompts.py prints the same figures."""

from __future__ import annotations

from typing import Any

import pytest

from tests.app_support import fake_fixture
from tests.fake_discord import FakeDiscord
from tests.prompt_driver import play_whole_game

fake = fake_fixture()


@pytest.mark.parametrize("game", ["smartphone-inc", "mobile-markets", "age-of-automaton"])
async def test_a_whole_game_every_undo_works_one_live_prompt_no_double_click(
    fake: FakeDiscord, tmp_path: Any, game: str, capsys: Any
) -> None:
    stats = await play_whole_game(fake, str(tmp_path / "g.db"), game, seed=1)
    figures = stats.figures()
    with capsys.disabled():
        print(f"\nPROMPTS {figures}")
    assert (await_finished := stats.rounds) >= 5, await_finished
    # every Undo offered works (and there were some to press, in every game)
    assert stats.undo_pressed > 3 and stats.undo_accepted == stats.undo_pressed, stats.undo_refusals[:3]
    # one live prompt per seat, at every step
    assert stats.most_live <= 1 and stats.over_one == 0, stats.examples[:3]
    # a repeated click never applies twice, and says so
    assert stats.repeats > 10 and stats.repeats_applied == 0, stats.repeat_applied_what[:3]
    assert not stats.trouble, stats.trouble[:3]
    if game == "age-of-automaton":  # the moves that leave the decision as it was (issue 20 part 2)
        assert stats.repeated_kinds.get("Overbuilt", 0) + stats.repeated_kinds.get("Overclock", 0) > 0, dict(stats.repeated_kinds)
    # one DM per turn (a redo after an undo edits the turn's DM back)
    assert stats.dm_posts_max_per_turn <= 1, stats.dm_posts_max_per_turn
