"""The palette canvas (render.kit.PaletteCanvas) draws the very picture the RGB canvas
draws and maps to the palette: the same bytes, the same palette, for the public boards
of seeded games (modules too) and for drawings made to hit its corner cases (text over
a box's edge, over another text, colours that are not in the palette, boxes of every
size, shapes cut by the canvas's edges)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import Image, ImageDraw

from engine.simulate import module_mix, play_game
from engine.smartphone_inc.game import GAME
from render import kit
from render.smartphone_inc import board
from render.smartphone_inc import kit as si
from render.smartphone_inc import theme as t


def same(a: Image.Image, b: Image.Image) -> bool:
    return (a.mode, a.size, a.getpalette(), a.tobytes()) == (b.mode, b.size, b.getpalette(), b.tobytes())


def public_views(seed: int, every: int) -> list[dict[str, Any]]:
    n, options, steve = module_mix(seed, 0)
    seats = [f"p{i + 1}" for i in range(n)]
    if steve and n >= 2:
        options["automata"] = [seats[-1]]
    states: list[dict[str, Any]] = []
    play_game("smartphone-inc", seats, seed, options, "random", on_state=states.append)
    return [GAME.view(s, None) for s in states[::every]]


@pytest.mark.parametrize("seed", [3, 11, 24, 40])
def test_the_board_on_the_palette_is_the_rgb_board_mapped(seed: int) -> None:
    for view in public_views(seed, 9):
        on_palette = board._draw_on(si.PaletteCanvas(t.WIDTH, 3600), view)  # (no Inexact: no RGB)
        on_rgb = board._draw_on(si.Canvas(t.WIDTH, 3600), view)
        assert same(on_palette, on_rgb)
        assert same(board.draw(view), on_rgb)  # the board as drawn: a canvas as high as needed


def draw_both(steps: Any, size: tuple[int, int] = (300, 200)) -> tuple[Image.Image | None, Image.Image]:
    """``steps(canvas)`` on both canvases: (palette picture or None if Inexact, RGB picture)."""
    rgb = si.Canvas(*size)
    steps(rgb)
    expected = rgb.finish(size[1])
    try:
        pal = si.PaletteCanvas(*size)
        steps(pal)
        got: Image.Image | None = pal.finish(size[1])
    except kit.Inexact:
        got = None
    return got, expected


def test_boxes_text_and_icons_as_the_rgb_canvas_draws_them() -> None:
    def steps(cv: si.Canvas) -> None:
        cv.box(10, 10, 290, 190, fill=t.PANEL, outline=t.PANEL_EDGE, radius=8)  # a large one
        cv.box(20.5, 20, 66.5, 64, fill=t.BUYER_PRICE, radius=6)
        cv.text(43.5, 42, "5", t.LARGE + 3, bold=True, fill="#ffffff", anchor="mm")
        cv.box_paste((80, 20, 124, 54), si.token_image("blue", 28), 88, 23, fill=t.SLOT, outline=t.ACCENT, width=4, radius=6)
        cv.icon_box((140, 20, 184, 64), 4, 36, "prod", t.PAD_TOP, "#a9b2bd")
        cv.text(20, 80, "a text over the panel", t.BODY)
        cv.box(20, 110, 120, 120, fill=t.FAINT)  # a text over a box's edge:
        cv.text(24, 104, "over the edge", t.SMALL, bold=True, fill=t.INK)
        cv.token(200, 100, 30, "yellow")
        cv.box(192, 94, 214, 112, fill=t.INK)  # a box over part of the token, text inside it
        cv.text(203, 103, "x2", t.SMALL, bold=True, fill="#ffffff", anchor="mm")
        cv.d.line((150, 150, 280, 180), fill=t.LINK, width=6, joint="curve")
        cv.box(-5, 170, 40, 210, fill=t.HEADER, radius=5)  # cut by the canvas's edges
        cv.text(280, 195, "cut", t.LARGE, anchor="la")

    for _ in range(3):  # (the boxes are tiles from the second time they are drawn)
        got, expected = draw_both(steps)
        assert got is not None and same(got, expected)


def test_colours_out_of_the_palette_and_text_over_text() -> None:
    def steps(cv: si.Canvas) -> None:
        cv.box(0, 0, 300, 200, fill="#123456")  # not a colour of the palette
        cv.text(10, 10, "on an odd ground", t.BODY)
        cv.box(10, 40, 60, 80, fill="#f1efe9", outline="grey")  # shares an index with the ground
        cv.d.rectangle((70, 40, 120, 80), fill="#888")

    got, expected = draw_both(steps)
    assert got is None or same(got, expected)

    def over_text(cv: si.Canvas) -> None:
        cv.text(10, 10, "Goods", t.LARGE, bold=True)
        cv.text(14, 14, "Goods", t.LARGE, bold=True)  # its own blend under it: RGB only

    got, expected = draw_both(over_text)
    assert got is None  # the caller draws the picture in RGB (board._draw)


def test_random_drawings() -> None:
    rnd = random.Random(5)
    colours = [t.PANEL, t.BG, t.INK, t.MUTED, t.ACCENT, t.SLOT, t.BUYER_PRICE, t.BUYER_TECH, t.REGION, "#efe6f7"]
    for _ in range(150):
        ops = []
        for _ in range(rnd.randint(1, 25)):
            kind = rnd.choice(["box", "round", "text", "token", "line", "icon_box"])
            width = rnd.randint(1, 4)
            x0, y0 = rnd.uniform(-10, 280), rnd.uniform(-10, 180)
            # (a box at least twice as wide and high as its outline: a thinner one's outline
            # spills out of it, and the tiles of render.kit hold only what is inside)
            x1, y1 = x0 + 2 * width + rnd.uniform(0, 120), y0 + 2 * width + rnd.uniform(0, 90)
            ops.append((kind, x0, y0, x1, y1, rnd.choice(colours), rnd.choice(colours + [None]), width))

        def steps(cv: si.Canvas, ops: list[Any] = ops) -> None:
            for kind, x0, y0, x1, y1, fill, edge, width in ops:
                if kind == "box":
                    cv.box(x0, y0, x1, y1, fill=fill, outline=edge, width=width)
                elif kind == "round":
                    cv.box(x0, y0, x1, y1, fill=fill, outline=edge, width=width, radius=width * 2)
                elif kind == "text":
                    cv.text(x0, y0, f"{x1:.0f} VP", t.BODY, bold=width > 2, fill=fill, anchor="lm")
                elif kind == "token":
                    cv.token(x0, y0, 26, "green")
                elif kind == "line":
                    cv.d.line((x0, y0, x1, y1), fill=fill, width=width * 2, joint="curve")
                else:
                    cv.icon_box((x0, y0, x0 + 34, y0 + 34), 3, 28, "research", fill, edge or "#a9b2bd")

        got, expected = draw_both(steps)
        assert got is None or same(got, expected)


def test_a_line_of_text_is_masked_as_imagedraw_draws_it() -> None:
    rnd = random.Random(9)
    letters = "abcdefgh ijklmnop QRSTUVW 0123456789 .,:;/+-()·★⌂…"
    for _ in range(200):
        s = "".join(rnd.choice(letters) for _ in range(rnd.randint(1, 24)))
        size, bold, anchor = rnd.choice([15, 17, 21, 28]), rnd.random() < 0.5, rnd.choice(["la", "lm", "mm", "rm", "ra", "md"])
        mask, left, top = kit.glyphs.__wrapped__(s, size, bold, anchor)
        f = kit.font(size, bold)
        x0, y0, x1, y1 = f.getbbox(s, anchor=anchor)
        drawn = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
        ImageDraw.Draw(drawn).text((-x0, -y0), s, font=f, fill=255, anchor=anchor)
        assert (left, top, mask.size, mask.tobytes()) == (x0, y0, drawn.size, drawn.tobytes())
