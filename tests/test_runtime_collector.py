"""The bot's garbage collector (``bot.runtime``, issue 25): run from the event loop on a
clock, the young and middle generations at every pass, a full pass only when the old
generation has doubled past a floor or a long time has gone by. A stand-in for the
``gc`` module records what is asked of it; one test runs the real one."""

from __future__ import annotations

import asyncio
import gc
import weakref

from bot.runtime import Collector


class FakeGc:
    def __init__(self, old: int = 0) -> None:
        self.old = old  # objects in the old generation
        self.collected: list[int] = []
        self.enabled = True

    def get_objects(self, generation: int) -> list[object]:
        assert generation == 2
        return [None] * self.old

    def collect(self, generation: int) -> int:
        self.collected.append(generation)
        return 0

    def disable(self) -> None:
        self.enabled = False

    def enable(self) -> None:
        self.enabled = True


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def collector(fake: FakeGc, clock: Clock | None = None, **kw) -> Collector:
    kw = {"full_check_every": 5, "full_growth": 2.0, "full_floor": 1000, "full_at_least": 600.0, **kw}
    return Collector(collector=fake, clock=clock or Clock(), **kw)


def test_every_pass_collects_the_young_and_middle_generations_only_while_the_heap_stays():
    fake = FakeGc(old=5000)
    c = collector(fake)
    for _ in range(40):
        c.step()
    assert fake.collected == [1] * 40


def test_a_full_pass_when_the_old_generation_doubled_past_the_floor():
    fake = FakeGc(old=5000)
    c = collector(fake)
    fake.old = 9999  # under twice what it was after the last full pass (the start)
    assert [c.step() for _ in range(5)] == [1, 1, 1, 1, 1]
    fake.old = 10_001
    assert [c.step() for _ in range(5)] == [1, 1, 1, 1, 2]  # looked at every 5th pass
    fake.old = 15_000  # measured again after the full pass: 10,001 is the new base
    assert [c.step() for _ in range(10)] == [1] * 10
    fake.old = 20_003
    assert [c.step() for _ in range(5)][-1] == 2


def test_a_small_heap_has_no_full_pass_however_it_grows():
    fake = FakeGc(old=10)
    c = collector(fake)
    fake.old = 999  # 100 times as many, under the floor of 1,000
    assert 2 not in [c.step() for _ in range(50)]
    fake.old = 1001
    assert [c.step() for _ in range(5)][-1] == 2


def test_a_full_pass_at_least_every_so_often():
    fake, clock = FakeGc(old=5000), Clock()
    c = collector(fake, clock)
    clock.t = 599.0
    assert 2 not in [c.step() for _ in range(5)]
    clock.t = 600.0
    assert [c.step() for _ in range(5)][-1] == 2
    clock.t = 1199.0
    assert 2 not in [c.step() for _ in range(5)]  # counted from the last full pass


async def test_it_runs_on_the_loop_with_automatic_collections_off_until_stopped():
    fake = FakeGc(old=5000)
    c = collector(fake, every=0.001)
    c.start()
    assert fake.enabled is False
    for _ in range(200):
        await asyncio.sleep(0.001)
        if len(fake.collected) >= 3:
            break
    c.stop()
    assert fake.enabled is True
    n = len(fake.collected)
    assert n >= 3
    await asyncio.sleep(0.01)
    assert len(fake.collected) == n  # no pass after stop


async def test_the_real_collector_frees_a_garbage_cycle():
    """With automatic collections off, a cycle dropped by the program is freed by the
    collector's next pass, not by reference counting."""
    was = gc.isenabled()
    c = Collector(every=0.001)
    c.start()
    try:
        class Node:
            pass

        a, b = Node(), Node()
        a.other, b.other = b, a  # type: ignore[attr-defined]
        freed = asyncio.Event()
        weakref.finalize(a, freed.set)
        del a, b
        await asyncio.wait_for(freed.wait(), 5)
        assert not gc.isenabled()
    finally:
        c.stop()
        if not was:
            gc.disable()


async def test_the_bot_runs_its_collector_while_it_runs(tmp_path):
    """``boardroom run`` hands the bot a collector: started with the bot, stopped with it."""
    from tests.discord_support import running
    from tests.fake_discord import FakeDiscord

    class Spy:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def start(self) -> None:
            self.calls.append("start")

        def stop(self) -> None:
            self.calls.append("stop")

    spy = Spy()
    async with FakeDiscord() as fake:
        async with running(fake, str(tmp_path / "gc.db"), renderer=None, collector=spy):
            assert spy.calls == ["start"]
        assert spy.calls == ["start", "stop"]
