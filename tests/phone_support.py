"""Measures of the live table on a phone (issue 35), read from the page in Chromium:
the smallest text as drawn (HTML by its computed size, SVG text by its size times the
scale it is drawn at), the lowest control, whether the page scrolls sideways, and where
the board's frame is; and a seeded local game at the table to measure (:func:`local_table`)."""

from __future__ import annotations

import contextlib
import secrets
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app import App
from bot.storage import Storage
from bot.table.config import TableConfig
from bot.table.local import LOCAL_USER, local_game
from bot.table.server import TableServer
from engine import ai, get_game

MEASURE = """() => {
  const seen = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden') return false;
      if (e.hidden) return false;
    }
    return true;
  };
  const texts = [];
  // HTML: every element with a text node of its own
  for (const el of document.body.querySelectorAll('*')) {
    if (el instanceof SVGElement) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !seen(el)) continue;
    texts.push([parseFloat(getComputedStyle(el).fontSize), el.tagName + '#' + el.id + '.' + el.className + ': ' + el.textContent.trim().slice(0, 40)]);
  }
  // SVG: the text's size in user units times the scale it is drawn at (Chromium's screen
  // matrix holds the CSS transforms of the HTML around it too: the board frame's zoom)
  for (const el of document.querySelectorAll('svg text')) {
    if (!el.textContent.trim() || !seen(el)) continue;
    const m = el.getScreenCTM();
    const scale = m ? Math.hypot(m.a, m.b) : 1;
    texts.push([parseFloat(getComputedStyle(el).fontSize) * scale, 'svg text: ' + el.textContent.trim().slice(0, 40)]);
  }
  const controls = [];
  for (const el of document.querySelectorAll('button, input, select, textarea, a[href], [role=button], .tap')) {
    if (!seen(el)) continue;
    controls.push([el.getBoundingClientRect().height, el.tagName + '#' + el.id + ': ' + (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40)]);
  }
  const frame = document.querySelector('#board-frame');
  const fr = frame ? frame.getBoundingClientRect() : null;
  texts.sort((a, b) => a[0] - b[0]);
  controls.sort((a, b) => a[0] - b[0]);
  return {
    smallest: texts.slice(0, 5), svgTexts: texts.filter((t) => t[1].startsWith('svg')).length,
    lowest: controls.slice(0, 5),
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    frameTop: fr ? fr.top + window.scrollY : null, frameHeight: fr ? fr.height : null,
  };
}"""


async def measure(page: Any) -> dict[str, Any]:
    """The page's measures now (see the module doc), scrolled to the top first."""
    await page.evaluate("window.scrollTo(0, 0)")
    out: dict[str, Any] = await page.evaluate(MEASURE)
    return out


@contextlib.asynccontextmanager
async def local_table(
    game: str, kind: str | None, *, players: int = 2, seed: int = 3, folder: Path | None = None
) -> AsyncIterator[LocalTable]:
    """A seeded local game (``boardroom table``'s own server and App, on 127.0.0.1) whose
    human seat has been played by the rule bot until its prompt is a ``kind`` (None: as
    it starts). ``table.link()`` signs a new browser context in (the link's code works
    once; each call makes it work again)."""
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(folder or tmp) / f"{game}.db")
        try:
            app = App(storage, clock=time.time)
            info = await local_game(app, game, players, seed)
            if kind is not None:
                await advance(app, info.id, kind)
            code = secrets.token_urlsafe(12)
            server = TableServer(app, TableConfig(port=0, local_code=code, local_user=LOCAL_USER))
            port = await server.start()
            try:
                yield LocalTable(app, info.id, server, f"http://127.0.0.1:{port}/#code={code}&game={info.id}")
            finally:
                await server.stop()
        finally:
            await storage.close()


@dataclass
class LocalTable:
    app: App
    game_id: int
    server: TableServer
    url: str

    def link(self) -> str:
        self.server.exchange.local_used = False
        return self.url

    @property
    def seat(self) -> str:
        return "you"


async def advance(app: App, gid: int, kind: str) -> None:
    """Play the human seat with the rule bot until its prompt is a ``kind``."""
    info = await app.info(gid)
    seat = info.seat_of(LOCAL_USER[0]).seat  # type: ignore[union-attr]
    for _ in range(500):
        prompt = await app.prompt(gid, seat)
        if prompt and prompt.get("type") == kind:
            return
        state = await app.state(gid)
        if seat not in get_game(info.game).pending(state):
            raise RuntimeError("the human seat has nothing to decide")
        await app.act(gid, LOCAL_USER[0], seat, ai.choose(info.game, state, seat, "greedy"), int(state["version"]))
    raise RuntimeError(f"no {kind} decision came")
