"""Phase 3. Production (SI-PROD-01..04, SI-PLAN-10/11, SI-TECH-03/12, SI-STEVE-05)."""

from __future__ import annotations

from engine.smartphone_inc import hardcore, new_technologies
from engine.smartphone_inc.common import State, add_goods, say
from engine.smartphone_inc.outcome_yields import yields


def produced(state: State, seat: str) -> int:
    """How many Goods ``seat`` must produce this Phase 3 (exactly that, SI-PROD-04):
    see :func:`planning.yields` for the sources."""
    return yields(state, seat, state["players"][seat]["outcome"])["goods"]


def produce(state: State) -> None:
    for seat in state["seats"]:
        want = produced(state, seat)
        got = add_goods(state, seat, want)
        short = f" (only {got}: the supply ran out)" if got < want else ""
        say(state, f"{seat} produces {got} Goods{short}.")
        hardcore.pay_for_production(state, seat, got)
    new_technologies.after_production(state)  # SU-TEC-10: Blitz Goods onto the Pads
