"""A tiny game implementing the engine protocol, for testing bot/ without a real engine.

Each round has two phases:
- "choose": every non-automaton seat secretly picks 1..3 at once (simultaneous,
  hidden until all chose); automata pick 2. At the reveal each seat scores its
  pick, and one random seat (the state's PRNG) gets a bonus point.
- "take": in seat order, each non-automaton seat takes 0..2 points.
After ``options["rounds"]`` rounds (default 2) the game is over.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

from engine import IllegalAction
from engine.rng import Rng, seed_state

State = dict[str, Any]


class FakeGame:
    name = "fake"
    max_players = 4

    def setup(self, players: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
        options = dict(options or {})
        if not 1 <= len(players) <= self.max_players:
            raise IllegalAction("fake needs 1 to 4 players")
        automata = list(options.get("automata", []))
        if len(automata) == len(players):
            raise IllegalAction("fake needs at least one player who is not an automaton")
        return {
            "version": 0,
            "players": list(players),
            "automata": automata,
            "rounds": int(options.get("rounds", 2)),
            "round": 1,
            "phase": "choose",
            "picks": {},
            "turn": 0,
            "score": {p: 0 for p in players},
            "rng": seed_state(seed),
            "events": [],
        }

    def _humans(self, state: State) -> list[str]:
        return [p for p in state["players"] if p not in state["automata"]]

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def pending(self, state: State) -> dict[str, dict[str, Any]]:
        if state["phase"] == "choose":
            return {
                p: {"kind": "pick", "secret": True, "round": state["round"]}
                for p in self._humans(state)
                if p not in state["picks"]
            }
        if state["phase"] == "take":
            seat = self._humans(state)[state["turn"]]
            return {seat: {"kind": "take", "secret": False, "round": state["round"]}}
        return {}

    def legal_actions(self, state: State, seat: str) -> list[dict[str, Any]]:
        if seat not in self.pending(state):
            return []
        if state["phase"] == "choose":
            return [{"pick": n} for n in (1, 2, 3)]
        return [{"take": n} for n in (0, 1, 2)]

    def apply(self, state: State, seat: str, action: dict[str, Any]) -> State:
        if seat not in self.pending(state):
            raise IllegalAction(f"{seat} has nothing to decide now")
        s = copy.deepcopy(state)
        s["events"] = []
        if s["phase"] == "choose":
            n = action.get("pick") if isinstance(action, dict) else None
            if n not in (1, 2, 3):
                raise IllegalAction("pick 1, 2 or 3")
            s["picks"][seat] = n
            if len(s["picks"]) == len(self._humans(s)):
                for p in s["automata"]:
                    s["picks"][p] = 2
                for p in s["players"]:
                    s["score"][p] += s["picks"][p]
                    s["events"].append(f"{p} picked {s['picks'][p]}")
                rng = Rng(s["rng"])
                lucky = rng.choice(s["players"])
                s["rng"] = rng.state
                s["score"][lucky] += 1
                s["events"].append(f"{lucky} gets a bonus point")
                s["picks"] = {}
                s["phase"], s["turn"] = "take", 0
        else:
            n = action.get("take") if isinstance(action, dict) else None
            if n not in (0, 1, 2):
                raise IllegalAction("take 0, 1 or 2")
            s["score"][seat] += n
            s["events"].append(f"{seat} took {n}")
            s["turn"] += 1
            if s["turn"] == len(self._humans(s)):
                if s["round"] == s["rounds"]:
                    s["phase"] = "over"
                    s["events"].append("game over")
                else:
                    s["round"] += 1
                    s["phase"], s["turn"] = "choose", 0
        s["version"] = state["version"] + 1
        return s

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        v = {
            "round": state["round"],
            "phase": state["phase"],
            "version": state["version"],
            "over": self.is_over(state),
            "score": dict(state["score"]),
            "chosen": sorted(state["picks"]),
        }
        if seat is not None and seat in state["picks"]:
            v["my_pick"] = state["picks"][seat]
        return v

    def events(self, state: State) -> list[str]:
        return list(state["events"])

    def result(self, state: State) -> dict[str, Any]:
        order = sorted(state["players"], key=lambda p: (-state["score"][p], state["players"].index(p)))
        return {
            "scores": [
                {"seat": p, "vp": state["score"][p], "rank": i + 1} for i, p in enumerate(order)
            ],
            "winner": order[0],
        }

    def dump(self, state: State) -> str:
        return json.dumps(state, sort_keys=True)

    def load(self, text: str) -> State:
        return json.loads(text)


GAME = FakeGame()


@functools.cache
def _presenter() -> Any:
    """The fake game's presenter: what ``bot/games/fake/`` would hold for a real game
    (imported lazily, so that the engine part stays free of the bot)."""
    from bot.games import BOT, RANDOM, Automaton, Option, Presenter

    class FakePresenter(Presenter):
        name = "fake"
        title = "Fake Game"
        max_seats = 4
        automata = (Automaton("steve", "Steve", "the fake game's automaton", seat_name="Steve"), BOT, RANDOM)
        options = (Option("rounds", "Rounds", "how many rounds are played", {1: "1 round", 2: "2 rounds", 3: "3 rounds"}),)
        rules = {"overview": "**Fake Game**: pick 1 to 3 in secret, then take 0 to 2.", "take": "Take 0, 1 or 2."}
        phase_topics = {"take": "take"}

    return FakePresenter()


def __getattr__(name: str) -> Any:
    if name == "PRESENTER":  # bot.games' registry reads PRESENTER of a registered module
        return _presenter()
    raise AttributeError(name)


def fake_ai(game_name: str, state: State, seat: str, kind: str) -> dict[str, Any]:
    """Deterministic from the state, like engine.ai.choose."""
    legal = GAME.legal_actions(state, seat)
    if kind == "greedy":
        return legal[-1]
    return legal[(state["version"] * 7 + len(seat)) % len(legal)]


class FakeClock:
    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


async def new_app(storage: Any, clock: FakeClock | None = None, **kw: Any) -> Any:
    from bot.app import App

    kw.setdefault("presenters", {"fake": _presenter()})
    return App(storage, games={"fake": GAME}, ai_choose=fake_ai, clock=clock or FakeClock(), **kw)


async def lobby(app: Any, humans: int = 2, bots: int = 0, steves: int = 0, channel: int = 100) -> Any:
    """A lobby with users 1..humans (user 1 hosts) and AI seats."""
    info = await app.create_game("fake", channel_id=channel, host_id=1, host_name="Ann", guild_id=7)
    names = ["Ann", "Bob", "Cid", "Dee"]
    for uid in range(2, humans + 1):
        info = await app.join(info.id, uid, names[uid - 1])
    for _ in range(bots):
        info = await app.add_ai(info.id, 1, "bot")
    for _ in range(steves):
        info = await app.add_ai(info.id, 1, "steve")
    return info
