"""The public board as SVG (render.svg, issue 35): the same facts as the Discord picture,
as text, checked against the engine's public view; the engine's ids on the places a
decision names; a seat's secret never changes a byte of it; the PNG unchanged."""

from __future__ import annotations

import gzip
import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import render
from engine import get_game
from engine.age_of_automaton.data import ACTION_NAMES, TRACKS, WORKER_ACTIONS
from engine.smartphone_inc.data import REGIONS, TECHS
from render import kit, svg
from render.age_of_automaton import board as aoa_board
from tests.render_support import record_texts

NS = "{http://www.w3.org/2000/svg}"
SEATS = ["ann", "bob", "cid"]


def played(game: str, seed: int, steps: int, stop: Any = None) -> Any:
    """A seeded game after ``steps`` random legal actions (or at the first state where
    ``stop(state, seat, actions)`` holds)."""
    g = get_game(game)
    s = g.setup(list(SEATS), seed, {})
    rng = random.Random(seed)
    for _ in range(steps):
        pending = g.pending(s)
        if not pending or g.is_over(s):
            break
        seat = sorted(pending)[0]
        acts = g.legal_actions(s, seat)
        if stop is not None and stop(s, seat, acts):
            return s
        s = g.apply(s, seat, rng.choice(acts))
    assert stop is None, "the seeded game never reached the state asked for"
    return s


def parse(doc: str) -> ET.Element:
    return ET.fromstring(doc)


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(NS + "text")]


def ids(root: ET.Element) -> set[str]:
    return {e.get("data-id", "") for e in root.iter() if e.get("data-id") is not None}


def group(root: ET.Element, ident: str) -> ET.Element:
    found = [e for e in root.iter(NS + "g") if e.get("data-id") == ident]
    assert len(found) == 1, ident
    return found[0]


# --- the same facts as the picture ------------------------------------------------------------


@pytest.mark.parametrize("game", ["smartphone-inc", "mobile-markets", "age-of-automaton"])
def test_every_text_of_the_picture_is_svg_text(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    view = get_game(game).view(played(game, 5, 40), None)
    aoa_board._prospect_grid.cache_clear()  # (kept sub-pictures draw their texts again)
    aoa_board._track_strip.cache_clear()
    # no height kept from an earlier picture: a guess too short draws the picture twice
    # (kit.drawn_to_fit), and each text would be counted twice
    monkeypatch.setattr(kit, "_HEIGHTS", {})
    drawn = record_texts(monkeypatch)
    render.draw(game, view)
    monkeypatch.undo()
    in_png = Counter(s for s in drawn if s)
    assert len(in_png) > 50
    in_svg = Counter(texts(parse(svg.board(game, view))))
    missing = in_png - in_svg
    assert not missing, f"texts of the picture not in the SVG: {list(missing)[:10]}"


def test_smartphone_inc_names_and_each_companys_numbers() -> None:
    view = get_game("smartphone-inc").view(played("smartphone-inc", 3, 60), None)
    root = parse(svg.board("smartphone-inc", view))
    words = texts(root)
    for rid in view["regions"]:
        assert REGIONS[rid]["name"] in words, rid
    for tech in view["techs"]:
        assert any(w.startswith(TECHS[tech]["name"]) for w in words), tech
    rows = [(float(t.get("y", 0)), "".join(t.itertext())) for t in root.iter(NS + "text")]
    for seat in view["seats"]:
        p = view["players"][seat]
        y = next(y for y, s in rows if s == seat)  # the first: its row of the companies' table
        row = Counter(s for yy, s in rows if abs(yy - y) < 4)
        need = Counter(str(v) for v in (p["price"], p["vp"], p["goods"], p["tokens"], len(p["offices"])))
        assert not need - row, (seat, need, row)
    assert p["vp"] or p["goods"] or any(view["players"][s]["offices"] for s in view["seats"])  # a played game


def test_mobile_markets_each_companys_numbers_in_its_group() -> None:
    view = get_game("mobile-markets").view(played("mobile-markets", 4, 80), None)
    root = parse(svg.board("mobile-markets", view))
    for seat in view["seats"]:
        p = view["players"][seat]
        inside = " | ".join(texts(group(root, seat)))
        assert f"${p['money']} money · price {p['price']}" in inside, inside
        assert f"Goods {p['goods']} · net profit {p['net']} · Progress {p['progress']}" in inside, inside


def test_age_of_automaton_spaces_tracks_and_each_players_numbers() -> None:
    view = get_game("age-of-automaton").view(played("age-of-automaton", 6, 60), None)
    words = texts(parse(svg.board("age-of-automaton", view)))
    for act in WORKER_ACTIONS:
        assert ACTION_NAMES[act] in words, act
    for track in TRACKS.values():
        assert track["name"].capitalize() in words
    start = words.index("Player boards")
    boards = words[start:]
    heads = [i for i, w in enumerate(boards) if w.split("  ")[0] in view["seats"] and i > 0]
    assert len(heads) == len(view["seats"])
    for k, i in enumerate(heads):
        seat = boards[i].split("  ")[0]
        p = view["players"][seat]
        mine = " ".join(boards[i : heads[k + 1] if k + 1 < len(heads) else None])
        assert f"{p['vp']} VP · Reputation {p['reputation']} " in mine, mine[:200]
        assert f"Reliability {p['reliability']} " in mine and f"Donation {p['donation']}" in mine


# --- the engine's ids -------------------------------------------------------------------------------


def _targets(action: Any, top: bool = True) -> set[str]:
    """What table.js's targetsOf takes of an action: its string values and the keys of
    what it places, but its type."""
    out: set[str] = set()
    if isinstance(action, str):
        out.add(action)
    elif isinstance(action, list):
        for x in action:
            out |= _targets(x, False)
    elif isinstance(action, dict):
        for k, v in action.items():
            if top and k == "type":
                continue
            if not top:
                out.add(k)
            out |= _targets(v, False)
    return out


def test_smartphone_inc_ids_are_the_engines() -> None:
    view = get_game("smartphone-inc").view(played("smartphone-inc", 3, 60), None)
    found = ids(parse(svg.board("smartphone-inc", view)))
    assert found == set(view["regions"]) | set(view["techs"]) | set(view["block"])


def test_mobile_markets_ids_are_the_engines() -> None:
    view = get_game("mobile-markets").view(played("mobile-markets", 4, 80), None)
    found = ids(parse(svg.board("mobile-markets", view)))
    cards = {c["id"] for d in view["displays"].values() for c in d["cards"]}
    assert found == cards | set(view["seats"]) | {"market"}  # (where a Customer is put)


def test_age_of_automaton_ids_are_the_engines() -> None:
    view = get_game("age-of-automaton").view(played("age-of-automaton", 6, 60), None)
    found = ids(parse(svg.board("age-of-automaton", view)))
    rows = {c["id"] for cards in view["rows"].values() for c in cards[:4]}
    others = {x["id"] for key in ("sponsorship", "achievements", "commons") for x in view.get(key) or []}
    assert found == set(WORKER_ACTIONS) | set(TRACKS) | rows | others


@pytest.mark.parametrize(
    ("game", "seed", "kind", "key"),
    [
        ("smartphone-inc", 3, "improvement", "id"),
        ("smartphone-inc", 3, "research", "place"),
        ("smartphone-inc", 3, "logistics", "place"),
        ("mobile-markets", 4, "buy", "card"),
        ("age-of-automaton", 6, "main", "action"),  # (a worker placed on an action space)
    ],
)
def test_the_places_a_decision_names_carry_its_ids(game: str, seed: int, kind: str, key: str) -> None:
    """At a decision of ``kind``, what each legal action names by ``key`` (a region, a
    Technology, a card, an action space) is a place of the board with that data-id."""
    g = get_game(game)

    def on_board(a: Any) -> bool:  # (Funding is taken with no worker, from no space)
        return a.get("type") == kind and bool(a.get(key)) and (game != "age-of-automaton" or "worker" in a)

    def there(s: Any, seat: str, acts: list[Any]) -> bool:
        return any(on_board(a) for a in acts)

    s = played(game, seed, 600, there)
    seat = sorted(g.pending(s))[0]
    found = ids(parse(svg.board(game, g.view(s, None))))
    named = [a for a in g.legal_actions(s, seat) if on_board(a)]
    assert named
    for a in named:
        wanted = _targets({key: a[key]}) - {str(v) for v in range(10)}
        assert wanted and wanted <= found, (a, wanted - found)


# --- secrets and the PNG -------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["smartphone-inc", "mobile-markets"])
def test_a_seats_sealed_plan_changes_no_byte_of_the_public_svg(game: str) -> None:
    g = get_game(game)
    s = g.setup(list(SEATS), 9, {})
    plans = [a for a in g.legal_actions(s, "ann") if a["type"] == "plan"]
    one, other = g.apply(s, "ann", plans[0]), g.apply(s, "ann", plans[-1])
    assert g.view(one, "ann") != g.view(other, "ann")  # the secret differs...
    assert svg.board(game, g.view(one, None)) == svg.board(game, g.view(other, None))  # ...the board not
    assert svg.board(game, g.view(one, None)) != svg.board(game, g.view(s, None))  # (sealed shows)


def test_a_seats_view_is_refused() -> None:
    g = get_game("smartphone-inc")
    s = g.setup(list(SEATS), 9, {})
    with pytest.raises(ValueError):
        svg.board("smartphone-inc", g.view(s, "ann"))


@pytest.mark.parametrize("game", ["smartphone-inc", "mobile-markets", "age-of-automaton"])
def test_drawing_the_svg_leaves_the_png_byte_for_byte(game: str) -> None:
    view = get_game(game).view(played(game, 5, 40), None)
    before = kit.png_bytes(render.draw(game, view))
    svg.board(game, view)
    assert kit.png_bytes(render.draw(game, view)) == before
    assert kit.Canvas(4, 4).tag("x").__enter__() is None  # a picture's tag does nothing


def test_the_5_player_board_is_small_and_its_icons_embedded_once() -> None:
    data = json.loads((Path(__file__).parent / "reference" / "board-end-5p.json").read_text("utf-8"))
    doc = svg.board("smartphone-inc", data.get("view", data))
    assert len(gzip.compress(doc.encode())) <= 150 * 1024
    root = parse(doc)
    images = [e.get("href") for e in root.iter(NS + "image")]
    assert images and len(images) == len(set(images))
    assert len(list(root.iter(NS + "use"))) > len(images)


def test_any_name_makes_a_well_formed_document() -> None:
    """A player's name with markup or control characters stays text in a valid SVG."""
    view = get_game("mobile-markets").view(played("mobile-markets", 4, 10), None)
    odd = 'a<b>&"c\x01\x1f'
    view["players"]["ann"]["company"] = odd
    root = parse(svg.board("mobile-markets", view))
    assert any('a<b>&"c' in w for w in texts(root))


def test_a_picture_pasted_twice_as_two_equal_objects_is_embedded_once() -> None:
    """The document depends on the pixels only, not on whether the kit's caches handed the
    drawing one object or two equal copies (the table's board differed between a
    process's first drawing and the next, and between the bot and a test)."""
    from PIL import Image

    one = Image.new("RGBA", (12, 12), (200, 30, 30, 255))
    copy_of_one = one.copy()
    other = Image.new("RGBA", (12, 12), (30, 30, 200, 255))
    defs = svg.Defs()
    assert defs.ref(one) == defs.ref(copy_of_one) == "p0" and defs.ref(other) == "p1"
    assert len(defs.parts) == 2

