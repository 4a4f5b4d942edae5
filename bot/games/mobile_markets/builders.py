"""Mobile Markets' step-by-step decisions (:class:`bot.games.base.SecretBuilder`s).

* :class:`PlanBuilder`, Phase 2: a plan chosen **by goal**. The engine's plan prompt
  lists every different effect a plan can have (price change, Technology and Marketing
  Points, Goods) with a plan giving it; the player picks the price change first, then
  one of the effects with that price change (best first). The preview shows the Pads.
* :class:`ProductBuilder`, Phase 7: the product, card by card. Every slot offered for
  a card shows what the product would then do (net profit per sale, buyers, money),
  computed by the engine from the seat's view; the seal button builds and sells.

Drafts are short texts of digits and letters (no card ids): indexes into the prompt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.choices import Choice, page, picked, tagged
from bot.games.mobile_markets import words
from engine import IllegalAction
from engine.mobile_markets.data import FEATURES
from engine.mobile_markets.preview import preview_from_view

# ------------------------------------------------------------------------------ plan


@dataclass(frozen=True)
class PlanCtx:
    choices: tuple[Mapping[str, Any], ...]  # the engine's distinct plan effects


@dataclass(frozen=True)
class PlanDraft:
    price: int | None = None
    choice: int | None = None
    pg: int = 0

    def encode(self) -> str:
        return ".".join(tagged(("p", self.price), ("c", self.choice), ("g", self.pg or None))) or "-"

    @classmethod
    def decode(cls, code: str | None) -> PlanDraft:
        kw: dict[str, int] = {}
        try:
            for part in (code or "").split("."):
                if part[:1] in ("p", "c", "g") and part[1:]:
                    kw[{"p": "price", "c": "choice", "g": "pg"}[part[0]]] = int(part[1:])
        except ValueError:
            return cls()
        return cls(**kw)


def _goal(c: Mapping[str, Any]) -> str:
    return f"{c['tech']} Technology · {c['mkt']} Marketing · {words.plural(c['goods'], 'Goods')}"


class Builder:
    """What the game's two builders share: no buttons beyond back/reset/seal, and the
    prompt read from the seat's view (which holds it in full) before the one given."""

    extra_ops: Sequence[tuple[str, str]] = ()

    @staticmethod
    def full_prompt(prompt: Mapping[str, Any] | None, view: Mapping[str, Any]) -> Mapping[str, Any]:
        return view.get("prompt") or prompt or {}


class PlanBuilder(Builder):
    noun = "plan"
    seal_label = "Seal plan 🔒"

    def context(self, prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str) -> PlanCtx:
        full = self.full_prompt(prompt, view)  # with the engine's list of plan effects
        return PlanCtx(tuple(full.get("choices") or ()))

    def decode(self, code: str | None) -> PlanDraft:
        return PlanDraft.decode(code)

    def encode(self, draft: PlanDraft) -> str:
        return draft.encode()

    def _chosen(self, draft: PlanDraft, ctx: PlanCtx) -> Mapping[str, Any] | None:
        if draft.choice is None or not 0 <= draft.choice < len(ctx.choices):
            return None
        return ctx.choices[draft.choice]

    def choices(self, draft: PlanDraft, ctx: PlanCtx) -> list[Choice]:
        if draft.price is None:
            prices = sorted({int(c["price"]) for c in ctx.choices})
            out = []
            for p in prices:
                group = [c for c in ctx.choices if c["price"] == p]
                most_goods = max(c["goods"] for c in group)
                most_pts = max(c["tech"] + c["mkt"] for c in group)
                out.append(
                    Choice(
                        f"p{p}",
                        f"Price {p:+d}",
                        f"{words.plural(len(group), 'plan')}: up to {most_pts} Technology + Marketing Points, "
                        f"up to {most_goods} Goods",
                    )
                )
            return out
        group = sorted(
            (i for i, c in enumerate(ctx.choices) if c["price"] == draft.price),
            key=lambda i: (-ctx.choices[i]["tech"] - ctx.choices[i]["mkt"] - ctx.choices[i]["goods"], i),
        )
        items = [
            Choice(f"c{i}", _goal(ctx.choices[i]), f"price {draft.price:+d}, {ctx.choices[i]['tech'] + ctx.choices[i]['mkt'] + ctx.choices[i]['goods']} in all")
            for i in group
        ]
        return page(items, draft.pg)

    def placeholder(self, draft: PlanDraft) -> str:
        if draft.price is None:
            return "First: how should your price move?"
        return f"Price {draft.price:+d}: what do you want from the plan?"

    def step(self, draft: PlanDraft, ctx: PlanCtx, op: str, value: str) -> PlanDraft:
        if op == "reset":
            return PlanDraft()
        if op == "back":
            return PlanDraft() if draft.choice is None else replace(draft, choice=None)
        kind, n = picked(op, value, draft.pg, "That button is from an older version; open your planner again.")
        if kind == "@":
            return replace(draft, pg=n)
        if kind == "p" and any(c["price"] == n for c in ctx.choices):
            return PlanDraft(price=n)
        if kind == "c" and 0 <= n < len(ctx.choices):
            return replace(draft, price=int(ctx.choices[n]["price"]), choice=n)
        raise IllegalAction("That choice is not on the list any more.")

    def can_back(self, draft: PlanDraft) -> bool:
        return draft.price is not None

    def action(self, draft: PlanDraft, ctx: PlanCtx) -> dict[str, Any] | None:
        c = self._chosen(draft, ctx)
        return None if c is None else {"type": "plan", "plan": dict(c["plan"])}

    def problem(self, draft: PlanDraft, ctx: PlanCtx) -> str | None:
        return None if self._chosen(draft, ctx) is not None else "choose what the plan gives first"

    def describe(self, draft: PlanDraft, ctx: PlanCtx, *, sealed: bool = False) -> str:
        c = self._chosen(draft, ctx)
        if c is None:
            head = "Choose your plan by what it gives: first the price change, then the points and Goods."
            if draft.price is not None:
                head = f"Price {draft.price:+d}. Now choose the Technology, Marketing and Goods you want."
            return head + f"\n{len(ctx.choices)} different plans are possible."
        got = words.outcome_text(c["price"], c["tech"], c["mkt"], c["goods"])
        if sealed:
            return f"Your plan: **{got}**. It is revealed when every company has sealed."
        return f"Your plan: **{got}**.\nThe picture shows how to lay your Pads. Seal it, or go back to change it."

    def preview(self, draft: PlanDraft, ctx: PlanCtx) -> dict[str, Any] | None:
        action = self.action(draft, ctx)
        return None if action is None else action["plan"]


# ---------------------------------------------------------------------------- product


@dataclass(frozen=True)
class ProductCtx:
    view: Mapping[str, Any]
    slots: tuple[str, ...]
    features: tuple[str, ...]
    tokens: int


PRODUCT_MARK = "P"  # the first part of every product draft's text


@dataclass(frozen=True)
class ProductDraft:
    placed: tuple[tuple[int, int], ...] = ()  # (slot index, card index)
    tokens: int = 0
    pick: int | None = None  # the card being placed
    pg: int = 0

    def encode(self) -> str:
        parts = [f"s{s}k{c}" for s, c in self.placed]
        if self.tokens:
            parts.append(f"t{self.tokens}")
        if self.pick is not None:
            parts.append(f"c{self.pick}")
        if self.pg:
            parts.append(f"g{self.pg}")
        return ".".join([PRODUCT_MARK, *parts])

    @classmethod
    def decode(cls, code: str | None) -> ProductDraft:
        """A product draft; a fresh one for anything else (the round's draft row first
        holds the plan's draft, "p1.c7": its "c7" is no card being placed)."""
        placed: list[tuple[int, int]] = []
        kw: dict[str, int] = {}
        head, _, rest = (code or "").partition(".")
        if head != PRODUCT_MARK:
            return cls()
        try:
            for part in rest.split("."):
                if part.startswith("s") and "k" in part:
                    s, c = part[1:].split("k", 1)
                    placed.append((int(s), int(c)))
                elif part[:1] in ("t", "c", "g") and part[1:]:
                    kw[{"t": "tokens", "c": "pick", "g": "pg"}[part[0]]] = int(part[1:])
        except ValueError:
            return cls()
        return cls(tuple(placed), **kw)


class ProductBuilder(Builder):
    noun = "product"
    seal_label = "Build and sell ✅"

    def context(self, prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str) -> ProductCtx:
        p = self.full_prompt(prompt, view)
        return ProductCtx(dict(view), tuple(p.get("slots") or ()), tuple(p.get("features") or ()), int(p.get("tokens") or 0))

    def decode(self, code: str | None) -> ProductDraft:
        return ProductDraft.decode(code)

    def encode(self, draft: ProductDraft) -> str:
        return draft.encode()

    def _valid(self, draft: ProductDraft, ctx: ProductCtx) -> ProductDraft:
        seen_s: set[int] = set()
        seen_c: set[int] = set()
        placed = []
        for s, c in draft.placed:
            if 0 <= s < len(ctx.slots) and 0 <= c < len(ctx.features) and s not in seen_s and c not in seen_c:
                placed.append((s, c))
                seen_s.add(s)
                seen_c.add(c)
        pick = draft.pick if draft.pick is not None and 0 <= draft.pick < len(ctx.features) and draft.pick not in seen_c else None
        return ProductDraft(tuple(placed), min(max(draft.tokens, 0), ctx.tokens), pick, draft.pg)

    def _action(self, placed: Sequence[tuple[int, int]], tokens: int, ctx: ProductCtx) -> dict[str, Any]:
        slots = {ctx.slots[s]: ctx.features[c] for s, c in sorted(placed)}
        action: dict[str, Any] = {"type": "product", "slots": slots}
        if tokens:
            action["tokens"] = tokens
        return action

    def _preview(self, action: dict[str, Any], ctx: ProductCtx) -> dict[str, Any] | None:
        try:
            return preview_from_view(dict(ctx.view), action)
        except (IllegalAction, KeyError, TypeError):
            return None

    @staticmethod
    def _sum(pv: Mapping[str, Any] | None) -> str:
        if pv is None:
            return "not possible"
        n = len(pv["buyers"])
        return f"net {pv['net']} per sale × {n} buyer{'s' if n != 1 else ''} = {pv['profit']} money"

    def choices(self, draft: ProductDraft, ctx: ProductCtx) -> list[Choice]:
        d = self._valid(draft, ctx)
        used_s = {s for s, _ in d.placed}
        used_c = {c for _, c in d.placed}
        items: list[Choice] = []
        if d.pick is not None:
            for s, slot in enumerate(ctx.slots):
                if s in used_s:
                    continue
                pv = self._preview(self._action([*d.placed, (s, d.pick)], d.tokens, ctx), ctx)
                items.append(Choice(f"s{s}", f"Into {words.slot_name(slot)}", self._sum(pv)))
            return page(items, d.pg)
        free = len(used_s) < len(ctx.slots)
        for c, fid in enumerate(ctx.features):
            if c not in used_c and free:
                items.append(Choice(f"c{c}", f"Place {words.feature_short(fid)}", "then choose its slot"))
        for s, c in d.placed:
            items.append(Choice(f"r{s}", f"Take back {words.feature_short(ctx.features[c])}", f"from {words.slot_name(ctx.slots[s])}"))
        for n in range(ctx.tokens + 1):
            if n != d.tokens:
                pv = self._preview(self._action(d.placed, n, ctx), ctx)
                items.append(Choice(f"t{n}", f"Turn {words.plural(n, 'Progress token')} into Goods", self._sum(pv)))
        return page(items, d.pg)

    def placeholder(self, draft: ProductDraft) -> str:
        return "Which slot?" if draft.pick is not None else "Place a Feature card (or sell as it is)"

    def step(self, draft: ProductDraft, ctx: ProductCtx, op: str, value: str) -> ProductDraft:
        d = self._valid(draft, ctx)
        if op == "reset":
            return ProductDraft()
        if op == "back":
            if d.pick is not None:
                return replace(d, pick=None, pg=0)
            return replace(d, placed=d.placed[:-1], pg=0)
        kind, n = picked(op, value, d.pg, "That button is from an older version; open your turn again.")
        if kind == "@":
            return replace(d, pg=n)
        if kind == "c" and 0 <= n < len(ctx.features):
            return replace(d, pick=n, pg=0)
        if kind == "s" and d.pick is not None and 0 <= n < len(ctx.slots):
            return replace(d, placed=(*d.placed, (n, d.pick)), pick=None, pg=0)
        if kind == "r":
            return replace(d, placed=tuple(p for p in d.placed if p[0] != n), pg=0)
        if kind == "t" and 0 <= n <= ctx.tokens:
            return replace(d, tokens=n, pg=0)
        raise IllegalAction("That choice is not on the list any more.")

    def can_back(self, draft: ProductDraft) -> bool:
        return bool(draft.placed) or draft.pick is not None

    def action(self, draft: ProductDraft, ctx: ProductCtx) -> dict[str, Any] | None:
        d = self._valid(draft, ctx)
        return self._action(d.placed, d.tokens, ctx)

    def problem(self, draft: ProductDraft, ctx: ProductCtx) -> str | None:
        return None

    def describe(self, draft: ProductDraft, ctx: ProductCtx, *, sealed: bool = False) -> str:
        d = self._valid(draft, ctx)
        action = self._action(d.placed, d.tokens, ctx)
        lines = []
        if d.placed:
            lines.append("Your product: " + "; ".join(
                f"{words.feature_short(ctx.features[c])} in {words.slot_name(ctx.slots[s])}" for s, c in sorted(d.placed)
            ))
        else:
            lines.append("Your product: no Feature card placed yet.")
        if d.tokens:
            lines.append(f"{words.plural(d.tokens, 'Progress token')} turned into Goods.")
        pv = self._preview(action, ctx)
        if pv is not None:
            icons = ", ".join(FEATURES.get(i, i) for i in pv["icons"]) or "no features"
            lines.append(
                f"**Net profit per sale {pv['net']}** (manufacturing cost {pv['cost']}) · {icons} · "
                f"{words.plural(pv['stars'], 'Star')} · {words.plural(pv['goods'], 'Goods')}"
            )
            if pv["buyers"]:
                who = [f"{i}. {b['text']}{' (private)' if b['where'] == 'private' else ''}" for i, b in enumerate(pv["buyers"], 1)]
                lines.append(f"{'Sold to' if sealed else 'Would buy'}, in sale order:\n" + "\n".join(who[:12]))
                if len(who) > 12:
                    lines.append(f"…and {len(who) - 12} more.")
            else:
                lines.append("Nobody would buy this product.")
            lines.append(f"Money from sales: **{pv['profit']}**.")
        if d.pick is not None and not sealed:
            lines.append(f"Placing {words.feature_short(ctx.features[d.pick])}: choose its slot.")
        return "\n".join(lines)

    def preview(self, draft: ProductDraft, ctx: ProductCtx) -> dict[str, Any] | None:
        return self.action(draft, ctx)


PLANNER = PlanBuilder()
PRODUCT = ProductBuilder()
