"""Phase 3. Production (SI-PROD-01..04, SI-PLAN-10/11, SI-TECH-03/12, SI-STEVE-05)."""

from __future__ import annotations

from engine.smartphone_inc.common import State, add_goods, has_effect, is_steve, say


def produced(state: State, seat: str) -> int:
    """How many Goods ``seat`` must produce this Phase 3 (exactly that, SI-PROD-04)."""
    p = state["players"][seat]
    o = p["outcome"]
    n = o["active"]["prod"] + p["tokens"]
    if is_steve(state, seat):
        return n  # Steve: active Production symbols + Goods tokens
    n += o["covered"] + len(o["face_down"])
    if has_effect(state, seat, "improve_gives_2_goods"):
        n += 2 * o["active"]["improve"]
    if has_effect(state, seat, "goods_per_2_techs"):
        n += len(p["techs"]) // 2
    return n


def produce(state: State) -> None:
    for seat in state["seats"]:
        want = produced(state, seat)
        got = add_goods(state, seat, want)
        short = f" (only {got}: the supply ran out)" if got < want else ""
        say(state, f"{seat} produces {got} Goods{short}.")
