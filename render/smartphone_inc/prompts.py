"""What the seat must decide now (``view["prompt"]``): a headline and the choices."""

from __future__ import annotations

from typing import Any

from engine.smartphone_inc.data import REGION_ORDER, REGIONS, RETAILERS, TECH_ORDER, TECHS
from render import kit
from render.smartphone_inc import frame, techs
from render.smartphone_inc import pads as padview
from render.smartphone_inc import theme as t
from render.smartphone_inc.kit import Canvas


def _region(rid: str) -> str:
    return REGIONS[rid]["name"] if rid in REGIONS else str(rid)


def _tech(tid: str) -> str:
    return TECHS[tid]["name"] if tid in TECHS else str(tid)


def headline_text(view: dict[str, Any]) -> tuple[str, bool]:
    """(sentence, is it your move)."""
    p = view.get("prompt")
    if p:
        kind = p.get("type")
        if kind == "plan":
            return "Your move: plan your Pads (secret until everyone has sealed)", True
        if kind == "improvement":
            return "Your move: take one Improvement from the Block", True
        if kind == "research":
            return f"Your move: place {p['markers']} Progress marker{'' if p['markers'] == 1 else 's'} on Technologies", True
        if kind == "logistics":
            return f"Your move: place {p['markers']} Progress marker{'' if p['markers'] == 1 else 's'} on regions", True
        if kind == "wifi":
            return "Your move: Wi-Fi - add a second Office, or skip", True
        if kind == "nfc":
            return f"Your move: NFC - sell 0 to {p['max']} Goods at {p['price']} each", True
        if kind == "sell":
            return f"Your move: sell {p['sell']} of your {p['goods']} Goods", True
        if kind == "retailer_bonus":
            return (
                f"Your move: Retailer bonus in {_region(p['region'])} ({t.bonus_text(p['bonus'])})",
                True,
            )
        if kind == "gamepad_office":
            return "Your move: Gamepad - place an Office in a small region", True
        module = module_headline(p)
        if module:
            return f"Your move: {module}", True
        return "Your move: decide", True
    if view.get("over"):
        return "The game is over.", False
    pending = [kit.player_name(view, s) for s in view.get("pending", []) if s != view.get("you")]
    if view.get("phase") == "planning":
        if pending:
            return "Your plan is sealed. Waiting for " + ", ".join(pending) + " to plan.", False
        return "Your plan is sealed.", False
    if pending:
        return f"Nothing to decide now: {pending[0]} is {frame.verb(view)}.", False
    return "Nothing to decide now.", False


def module_headline(p: dict[str, Any]) -> str | None:
    """What an Update 1.1 decision asks, in words (None for another kind): the one source
    of the picture's headline and of the bot's prompt line
    (:func:`bot.games.smartphone_inc.words.describe_prompt`)."""
    kind = p.get("type")
    if kind == "directive":
        return f"take Directive {p.get('number', '?')} ({p.get('vp', '?')} VP)? You meet its goal: {p.get('goal', '')}"
    if kind == "mini_upgrade":
        return "take a Mini-upgrade (place it on your Pads in Planning like an Improvement)"
    if kind == "place_retailer":
        return "place an unused Retailer in a region with your Office (4G World)"
    if kind == "blitz":
        return f"put up to 2 of your {p.get('goods', '?')} Goods on your Research/Logistics symbols (Blitz)"
    if kind == "ceo_sell":
        where = _region(str(p.get("region", "")))
        return f"sell up to {p.get('max', '?')} Goods in {where} with your CEO, at price {p.get('price', '?')}"
    if kind == "second_sell":
        return "sell second Goods to Buyers of your patented Technologies (Patent bonus)"
    if kind == "company":
        return "pick your company (the 2-3 player board's start)"
    if kind == "start_region":
        names = ", ".join(_region(str(r)) for r in p.get("regions") or [])
        return f"choose your starting region among the medium regions ({names})"
    if kind == "start_retailer":
        return f"place the drawn {retailer_text(str(p.get('retailer')), int(p.get('side', 0)))} in a free region of its size"
    return None


SIZE_WORDS = {"S": "small", "M": "medium", "L": "large"}


def retailer_text(ret: str, side: int) -> str:
    """A Retailer side: "medium Retailer (3-2-1 VP spaces; bonus: produce 2 Goods)"."""
    r = RETAILERS.get(ret)
    if r is None:
        return "a Retailer"
    s = r["sides"][int(side)]
    vp = "-".join(str(v) for v in s["vp"])
    return f"{SIZE_WORDS.get(r['size'], '')} Retailer ({vp} VP spaces; {t.bonus_text(s['bonus'])})"


def retailer_words(ret: str, side: int) -> str:
    """A Retailer side in words: "VP 3/2/1, bonus: produce 2 Goods" (never its id)."""
    if ret not in RETAILERS:
        return "a Retailer"
    sd = RETAILERS[ret]["sides"][side]
    return f"VP {'/'.join(str(v) for v in sd['vp'])}, {t.bonus_text(sd['bonus'])}"


def headline(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    text, mine = headline_text(view)
    h = 48
    if mine:
        cv.box(x, y, x + w, y + h, fill="#fdf1d6", outline=t.ACCENT, width=3, radius=8)
    cv.text(
        x + 14,
        y + h / 2,
        cv.fit(text, t.LARGE + 1, mine, w - 28),
        t.LARGE + 1,
        bold=mine,
        anchor="lm",
    )
    return y + h


def panel(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    """The choices of the current prompt; returns the y below."""
    p = view["prompt"]
    kind = p.get("type")
    if kind == "improvement":
        return _improvement(cv, p, x, y, w)
    note, items = _choices(view, p)
    h = 44 + (30 if note else 0) + max(34, cv.chip_layout(items, w - 28)[1]) + 4
    top = cv.panel(x, y, w, h, "Your choices")
    if note:
        cv.text(x + 14, top, cv.fit(note, t.BODY, False, w - 28), t.BODY)
        top += 30
    cv.chips(items, x + 14, top, w - 28)
    return y + h


def _improvement(cv: Canvas, p: dict[str, Any], x: float, y: float, w: float) -> float:
    cell = 56
    h = 44 + cell + 40
    top = cv.panel(x, y, w, h, "Your choices: the Improvement Block")
    for i, imp in enumerate(p.get("block", [])):
        ix = x + 14 + i * (2 * cell + 24)
        if ix + 2 * cell > x + w:
            break
        padview.draw_domino(cv, imp, ix, top, cell)
    return y + h


def _choices(view: dict[str, Any], p: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    kind = p.get("type")
    me = view["players"][view["you"]]
    if kind == "research":
        n = int(p["markers"])
        items = []
        for tech, need in t.ordered(p.get("needed", {}), TECH_ORDER):
            have = me.get("research", {}).get(tech, 0)
            label = f"{techs.name(view, tech)}: {need} more" + (f" ({have} placed)" if have else "")
            items.append((label, "good" if need <= n else "plain"))
        for rid, i in p.get("token", []):  # NFC Marketing (Update 1.1)
            items.append((f"Marketing Token: {_region(rid)}, Buyer {int(i) + 1} (1 marker)", "warn"))
        return (
            f"{n} marker{'' if n == 1 else 's'} to place; green = you can finish it now. Unused markers are lost.",
            items,
        )
    if kind == "logistics":
        n = int(p["markers"])
        items = []
        for rid, need in t.ordered(p.get("needed", {}), REGION_ORDER):
            size = REGIONS[rid]["size"] if rid in REGIONS else "?"
            ret = " Retailer" if view["regions"].get(rid, {}).get("retailer") else ""
            items.append(
                (f"{_region(rid)} ({size}{ret}): {need} more", "good" if need <= n else "plain")
            )
        if "ceo" in p:  # CEO Technologies (Update 1.1)
            items.append((f"move your CEO from {_region(str(p['ceo']))} (1 marker)", "warn"))
        return f"{n} marker{'' if n == 1 else 's'} to place on linked regions; green = an Office opens now.", items
    if kind == "sell":
        items = [
            (f"{_region(r)}: up to {n}", "good")
            for r, n in t.ordered(p.get("regions", {}), REGION_ORDER)
        ]
        items += [
            (f"{_region(r)}: 1 (4G, no Office)", "warn")
            for r, _ in t.ordered(p.get("extra", {}), REGION_ORDER)
        ]
        return f"Price {me['price']}. Where your Goods can go (Buyers left to right):", items
    if kind == "wifi":
        return "A second Office (never a third, never on a Retailer) in:", [
            (_region(r), "good") for r in p.get("regions", [])
        ] + [("skip", "plain")]
    if kind == "nfc":
        return f"Sell without placing them; each scores {p['price']} VP at once.", [
            (f"sell {n}", "good" if n else "plain") for n in range(int(p["max"]), -1, -1)
        ]
    if kind == "gamepad_office":
        return "Small regions where you have no Office:", [
            (_region(r), "good") for r in p.get("regions", [])
        ]
    if kind == "retailer_bonus":
        bonus = p.get("bonus", {})
        bk = bonus.get("kind")
        items: list[tuple[str, str]] = []
        if bk == "progress":
            items = [(techs.name(view, x), "good") for x in p.get("techs", [])]
        elif bk == "second_office":
            items = [(_region(r), "good") for r in p.get("regions", [])]
        elif bk == "move_office":
            items = [(f"{_region(a)} -> {_region(b)}", "plain") for a, b in p.get("moves", [])[:24]]
        elif bk == "price":
            items = [
                (f"price {me['price'] + 1}", "good"),
                (f"price {max(1, me['price'] - 1)}", "good"),
            ]
        elif bk == "goods":
            items = [(f"produce {bonus.get('n', 0)} Goods", "good")]
        items.append(("decline", "plain"))
        return (
            f"Retailer in {_region(p.get('region', ''))}, {t.bonus_text(bonus)}. Use it or decline.",
            items,
        )
    return module_choices(view, p)


SYMBOL_WORD = {"research": "Research", "logistics": "Logistics"}


def module_choices(view: dict[str, Any], p: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """The choices of an Update 1.1 decision, in words."""
    kind = p.get("type")
    if kind == "directive":
        return f"Directive {p.get('number')}: {p.get('goal', '')} Decline to keep the chance for a later round.", [
            (f"take it: {p.get('vp')} VP", "good"),
            ("decline", "plain"),
        ]
    if kind == "mini_upgrade":
        return "Each has one symbol and an open half; it gives nothing unless placed on your Pads.", [
            (f"{mid}: {padview.improvement_words(mid)}", "good") for mid in p.get("choices", {})
        ]
    if kind == "place_retailer":
        items = [
            (f"{_region(r)}: {retailer_words(ret, side)}", "good")
            for r, ids in t.ordered(p.get("regions", {}), REGION_ORDER)
            for ret in ids
            for side in (0, 1)
        ]
        return "The Offices there move onto it; you gain its bonus. Choose region, Retailer and side:", items
    if kind == "blitz":
        return f"You have {p.get('goods', 0)} Goods; each put on a symbol is 1 more Progress marker of that kind.", [
            (f"1 Goods on {SYMBOL_WORD.get(k, k)}", "good") for k in p.get("symbols", [])
        ] + [("none", "plain")]
    if kind == "ceo_sell":
        return f"Each Goods scores your price ({p.get('price')}) in Phase 8, like a normal sale.", [
            (f"sell {n}", "good" if n else "plain") for n in range(int(p.get("max", 0)), -1, -1)
        ]
    if kind == "second_sell":
        return f"You have {p.get('goods', 0)} Goods. Second Goods count for control.", [
            (f"{_region(r)}: up to {n}", "good") for r, n in t.ordered(p.get("regions", {}), REGION_ORDER)
        ] + [("none", "plain")]
    if kind == "company":
        return "Free companies:", [(f"{c} ({t.COMPANY_LETTER.get(c, '?')})", "good") for c in p.get("colours", [])]
    if kind in ("start_region", "start_retailer"):
        note = "Free medium regions:" if kind == "start_region" else "Free regions of its size:"
        if kind == "start_retailer":
            note = f"Retailer VP {'/'.join(str(v) for v in p.get('vp', []))}. {note}"
        return note, [(_region(r), "good") for r in p.get("regions", [])]
    return "", [("decide", "plain")]
