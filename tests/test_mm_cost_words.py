"""Mobile Markets' card options say where a cost comes from (issue 34 §4): two alike
Feature cards read "cost 2" and "cost 1 (as printed)", and a discounted card "−1 Discount
token", without a reason a newcomer could follow. The rulebook (001, Preparation step 3,
Technology and Marketing phases): a Discount token lies on each card left in a display
when it is refilled, i.e. nobody bought it last round, and takes 1 off its printed cost;
Component Deals (T17, the company's own Technology): Feature cards cost it 1 less.

Printed costs (engine/mobile_markets/data): Volume Bonus (T24) 2; Multi-Camera Feature
cards F6 1 and F14 2; NFC with a cost icon (F5) 2; Flexible Display, 5G, 2 Stars and a
cost icon (F27) 4."""

from __future__ import annotations

from typing import Any

from bot.games.mobile_markets.words import ViewWords


def _words(*offers: dict[str, Any]) -> ViewWords:
    return ViewWords({"prompt": {"type": "technology", "offers": list(offers)}})


def _buy(card: str) -> dict[str, Any]:
    return {"type": "buy", "card": card}


def test_two_alike_cards_say_their_printed_costs_differ() -> None:
    said = _words(
        {"card": "F6", "display": "feature", "cost": 1, "discount": False},
        {"card": "F14", "display": "feature", "cost": 2, "discount": False},
    )
    assert said.describe_action(_buy("F6")) == "buy Feature (Multi-Camera) · cost 1 (printed 1, the other card alike is printed 2)"
    assert said.describe_action(_buy("F14")) == "buy Feature (Multi-Camera) · cost 2 (printed 2, the other card alike is printed 1)"
    assert said.describe_detail(_buy("F6")) == ""  # (the label says it all)


def test_a_discount_token_says_it_is_on_a_card_nobody_bought_last_round() -> None:
    said = _words({"card": "T24", "display": "technology", "cost": 1, "discount": True})
    assert said.describe_action(_buy("T24")) == "buy Volume Bonus · cost 1 (printed 2, −1 Discount token: not bought last round)"


def test_component_deals_is_named_as_the_companys_own() -> None:
    said = _words({"card": "F5", "display": "feature", "cost": 1, "discount": False})
    assert said.describe_action(_buy("F5")) == "buy Feature (NFC, 1 cost icon) · cost 1 (printed 2, −1 from your Component Deals)"


def test_a_long_label_leaves_the_discounts_to_the_description() -> None:
    said = _words({"card": "F27", "display": "feature", "cost": 2, "discount": True})
    label = said.describe_action(_buy("F27"))
    assert label == "buy Feature (Flexible Display, 5G, 2 Stars, 1 cost icon) · cost 2 (printed 4, discounts below)"
    assert len(label) <= 100
    assert said.describe_detail(_buy("F27")) == "Printed 4; −1 Discount token: not bought last round; −1 from your Component Deals"
