"""Helpers for the live table's tests in a real browser: Debian's headless Chromium,
driven by Playwright for Python (launched with ``executable_path``; Playwright's own
browser download is not used). One Chromium per test process, shared by its tests, each
in browser contexts of its own (:func:`browser`).

A test needing the browser is marked :data:`needs_chromium` (the ``browser`` marker;
``tests/conftest.py`` acts on it before any fixture is built). Where no Chromium is
installed it is skipped, with a reason that names the browser and how to install it,
and the run ends with a banner counting those skips; in CI (the environment variable
``CI`` set, as ``.ci/run`` and CI services do) it fails instead: a CI run never passes
without the browser tests (``.ci/run`` installs Chromium: ``make browser``)."""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import inspect
import json
import os
import shutil
import threading
from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def chromium_path() -> str | None:
    explicit = os.environ.get("BOARDROOM_CHROMIUM")
    if explicit:
        return explicit
    return next((p for p in (shutil.which(n) for n in CHROMIUM_NAMES) if p), None)


INSTALL = "apt-get install chromium"
# the skip's reason (the missing browser first: a summary line is cut at the terminal's width)
MISSING = f"no Chromium browser installed: `{INSTALL}` (as root; `make browser`), or set BOARDROOM_CHROMIUM"

# the marker of a test that drives the browser (tests/conftest.py: skipped or, in CI, failed without one)
needs_chromium = pytest.mark.browser


def in_ci(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this run is CI's (``CI`` set to anything but empty, 0, false or no)."""
    return environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def browser_verdict(path: str | None, ci: bool) -> tuple[str, str] | None:
    """What a browser test does before it starts: None (run it), ("skip", reason) or, in
    CI, ("fail", reason)."""
    if path is not None:
        return None
    if ci:
        return "fail", f"CI: {MISSING}. A CI run may not skip the browser tests."
    return "skip", MISSING


# Playwright's own ``--disable-features`` (its chromiumSwitches, as of 1.65). Chromium reads
# only the last ``--disable-features`` of its command line, so the one given here repeats
# them (tests/test_table_chromium.py checks that it holds each one Playwright passes).
PLAYWRIGHT_DISABLED = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying",
    "AimEnabled", "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
)
# Each window of this headless Chromium (one per browser context) preloaded its address
# bar's popups, two WebUI pages in renderer processes of their own: about 0.7 s of CPU per
# page a test opened, for browser chrome no test sees. Pages are drawn as before.
NO_OMNIBOX_POPUPS = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-features=" + ",".join((*PLAYWRIGHT_DISABLED, *NO_OMNIBOX_POPUPS))]


class _Chromium:
    """The process's one Playwright driver and one Chromium, on a thread of their own with
    its own event loop (a test's loop lives for that test only, and Playwright's objects
    belong to the loop that made them). Started at the first :func:`browser`, kept for
    the next ones, closed when the process exits. Launching them is about 2 s of CPU (the
    driver, the browser and its first window); a test's own browser context is not."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.pw: Any = None
        self.browser: Any = None
        self.launches = 0  # (how many times Chromium was launched in this process)

    def home(self) -> asyncio.AbstractEventLoop:
        with self.lock:
            if self.loop is None:
                loop = asyncio.new_event_loop()
                self.thread = threading.Thread(target=loop.run_forever, name="playwright", daemon=True)
                self.thread.start()
                self.loop = loop
                atexit.register(self.close)
            return self.loop

    def submit(self, coro: Any) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coro, self.home())

    async def ready(self) -> Any:
        """(on the thread) The browser, launched again if it went away (crashed, or
        closed): a browser lost in one test is not every later test's failure."""
        if self.browser is not None and self.browser.is_connected():
            return self.browser
        self.browser = None
        for attempt in (1, 2):
            try:
                if self.pw is None:
                    from playwright.async_api import async_playwright

                    self.pw = await async_playwright().start()
                self.browser = await self.pw.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS)
                self.launches += 1
                return self.browser
            except Exception:
                await self._stop_driver()  # (the driver itself may be gone: a new one, once)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _stop_driver(self) -> None:
        pw, self.pw, self.browser = self.pw, None, None
        if pw is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pw.stop(), 30)

    async def drop(self) -> None:
        """(on the thread) Stop the driver, and with it its browser: the next block
        launches both again."""
        await self._stop_driver()

    async def _close(self) -> None:
        if self.browser is not None:
            with contextlib.suppress(Exception):
                await self.browser.close()
        await self._stop_driver()

    def close(self) -> None:
        with self.lock:
            loop, self.loop = self.loop, None
        if loop is None:
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self._close(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)


_CHROMIUM = _Chromium()


def _from_playwright(value: Any) -> bool:
    return type(value).__module__.startswith("playwright.") and not isinstance(value, BaseException)


class Remote:
    """A Playwright object that lives on :class:`_Chromium`'s thread, used from a test's
    loop as the object itself: a coroutine method runs there and is awaited here; any
    other method runs there too (this thread waits); what comes back from Playwright is
    a Remote in turn. Event handlers (``page.on``) are called on that thread."""

    __slots__ = ("_obj", "_home")

    def __init__(self, obj: Any, home: _Chromium) -> None:
        object.__setattr__(self, "_obj", obj)
        object.__setattr__(self, "_home", home)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._obj, name)
        if callable(value) and not _from_playwright(value):
            return _remote_call(value, self._home)
        return _wrap(value, self._home)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._obj, name, value)

    def __eq__(self, other: object) -> bool:
        return self._obj == (other._obj if isinstance(other, Remote) else other)

    def __hash__(self) -> int:
        return hash(self._obj)

    def __repr__(self) -> str:
        return f"Remote({self._obj!r})"


def _wrap(value: Any, home: _Chromium) -> Any:
    if _from_playwright(value):
        return Remote(value, home)
    if isinstance(value, list):
        return [_wrap(v, home) for v in value]
    return value


def _unwrap(value: Any) -> Any:
    if isinstance(value, Remote):
        return value._obj
    if isinstance(value, list | tuple):
        return type(value)(_unwrap(v) for v in value)
    return value


def _remote_call(fn: Any, home: _Chromium) -> Any:
    is_async = inspect.iscoroutinefunction(fn)

    def call(*args: Any, **kwargs: Any) -> Any:
        args = tuple(_unwrap(a) for a in args)
        kwargs = {k: _unwrap(v) for k, v in kwargs.items()}

        async def there() -> Any:
            out = fn(*args, **kwargs)
            return _wrap(await out if is_async else out, home)

        if threading.current_thread() is home.thread:  # (an event handler's call: it runs there already)
            return there() if is_async else _wrap(fn(*args, **kwargs), home)
        done = home.submit(there())
        return asyncio.wrap_future(done) if is_async else done.result(timeout=60)

    return call


class Browser(Remote):
    """A test's view of the shared Chromium: what it opens (``new_page``, ``new_context``)
    is a browser context of its own (cookies, storage, viewport), closed at the end of the
    :func:`browser` block."""

    __slots__ = ("_contexts",)

    def __init__(self, obj: Any, home: _Chromium) -> None:
        super().__init__(obj, home)
        object.__setattr__(self, "_contexts", [])

    async def new_context(self, **options: Any) -> Remote:
        ctx = await _remote_call(self._obj.new_context, self._home)(**options)
        self._contexts.append(ctx._obj)
        return ctx

    async def new_page(self, **options: Any) -> Remote:
        """A page in a new context of its own (as Playwright's ``Browser.new_page``)."""
        ctx = await self.new_context(**options)
        page: Remote = await ctx.new_page()
        return page

    async def close_contexts(self) -> None:
        contexts, self._contexts[:] = list(self._contexts), []
        home = self._home

        async def there() -> None:
            for ctx in contexts:
                try:
                    await asyncio.wait_for(ctx.close(), 30)
                except TimeoutError:  # a browser that hangs: the next block gets a new one
                    await home.drop()
                    return
                except Exception:  # noqa: BLE001 - a browser that crashed: nothing left to close
                    pass

        await asyncio.wrap_future(self._home.submit(there()))


@contextlib.asynccontextmanager
async def browser(chromium: _Chromium | None = None) -> AsyncIterator[Browser]:
    """Headless Chromium for one test (or one benchmark): the process's one Chromium
    (:class:`_Chromium`, launched at the first call and again if it went away), each page
    in a fresh browser context, every context closed at the end. (``chromium``: another
    than the process's, for tests/test_table_chromium.py.)"""
    home = chromium or _CHROMIUM
    b = Browser(await asyncio.wrap_future(home.submit(home.ready())), home)
    try:
        yield b
    finally:
        await b.close_contexts()


class Page:
    """One player's tab: the Playwright page and every JSON answer of the table's API it got."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.answers: list[tuple[str, Any]] = []
        self.errors: list[str] = []
        page.on("response", self._on_response)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    async def _on_response(self, resp: Any) -> None:
        # (only JSON is kept: the body of a drawing, /api/board.svg or /api/mine.svg, is not
        # fetched from the browser just to fail as JSON)
        if "/api/" not in resp.url or "json" not in resp.headers.get("content-type", ""):
            return
        try:
            self.answers.append((resp.url, await resp.json()))
        except Exception:
            pass

    def texts(self) -> str:
        return "\n".join(json.dumps(a) for _u, a in self.answers)

    async def open(self, url: str) -> None:
        await self.page.goto(url)
        await self.page.wait_for_selector("body[data-ready]", timeout=15_000)
        ready = await self.page.evaluate("document.body.dataset.ready")
        assert ready != "error", await self.page.inner_text("#note")

    async def assert_plain_words(self) -> None:
        """What the page shows holds no internal id, slug or card code (tests/test_words.py)."""
        from tests.test_words import internal_ids

        found = internal_ids([await self.page.inner_text("body")])
        assert not found, "internal ids on the table:\n" + "\n".join(found)

    async def version(self) -> int:
        return int(await self.page.evaluate("document.body.dataset.version"))

    async def wait_version_past(self, version: int, timeout: float = 30_000) -> None:
        # (a guard against a page that never moves on, not a measure: 5 s ran out once in
        # bench_table's smoke run with four test workers on the 2 cores)
        await self.page.wait_for_function(f"() => Number(document.body.dataset.version) > {version}", timeout=timeout)

    async def _geometry(self, piece: str, gx: int, gy: int) -> tuple[float, float, float, float]:
        """(x, y) of the middle of the top-left cell of ``piece`` (an id of the own area's
        drawing: the top Pad's letter or an Improvement's id, not laid yet) and (x, y) of
        the middle of grid cell (gx, gy) (``cell:gx,gy``), on the screen, read in one go
        with the piece scrolled into the own area's view first: a mouse gesture lands where
        the window shows it."""
        g = await self.page.evaluate(
            """([piece, cell]) => {
                const svg = document.getElementById('mine-board');
                const item = [...svg.querySelectorAll('[data-lay="piece"]')].find((e) => e.getAttribute('data-id') === piece);
                const target = [...svg.querySelectorAll('[data-kind="cell"]')].find((e) => e.getAttribute('data-id') === cell);
                target.scrollIntoView({block: 'center', inline: 'center'});
                const t = target.getBoundingClientRect();
                const rs = [...item.querySelectorAll('rect')].map((r) => r.getBoundingClientRect());  // (its cells, not its name)
                const bx = Math.min(...rs.map((b) => b.x)), by = Math.min(...rs.map((b) => b.y));
                return [bx + t.width / 2, by + t.height / 2, t.x + t.width / 2, t.y + t.height / 2];
            }""",
            [piece, f"cell:{gx},{gy}"],
        )
        return float(g[0]), float(g[1]), float(g[2]), float(g[3])

    async def drag_to_cell(self, piece: str, gx: int, gy: int) -> None:
        """Drag ``piece`` (the top Pad's letter, or an Improvement's id) from the own
        area's tray so that its top-left cell lies on grid cell (gx, gy) (the engine's
        grid: the bottom Pad at x 0..2, y 0..1): one gesture. Waits until the area is
        drawn again with it laid."""
        page = self.page
        await self.laying()
        before = await page.evaluate("document.body.dataset.laid || ''")
        # the area read until it stays put: a redraw or a scroll still under way when it
        # was read once sent a drag of a loaded machine beside its cells (1 run in 10)
        geometry = await self._geometry(piece, gx, gy)
        for _ in range(100):
            await asyncio.sleep(0.05)
            again = await self._geometry(piece, gx, gy)
            if again == geometry:
                break
            geometry = again
        x0, y0, tx, ty = geometry
        if not (0 <= y0 <= (page.viewport_size or {}).get("height", 800)):  # (the piece and its cell far apart: drag the page's way)
            raise AssertionError(f"the piece {piece} is out of sight while its cell is in it")
        await page.mouse.move(x0, y0)
        await page.mouse.down()
        await page.mouse.move((x0 + tx) / 2, (y0 + ty) / 2, steps=4)
        await page.mouse.move(tx, ty, steps=4)
        await page.mouse.up()
        await page.wait_for_function("(old) => (document.body.dataset.laid || '') !== old", arg=before)
        await self.laying()

    async def laying(self) -> None:
        """Until the own area shows the plan laid so far, its places known (the preview
        answered and the area drawn with it)."""
        await self.page.wait_for_function(
            """() => { const s = document.getElementById('mine-board');
                return s && s.dataset.lay && s.querySelector('[data-lay]') && (document.body.dataset.busy || '0') === '0'
                  && (document.body.dataset.mineDraft || '').includes(encodeURIComponent(document.body.dataset.laid || '')); }""")
        await self.settled()

    async def tray(self) -> list[str]:
        """The ids of the pieces not laid yet, in the own area's tray (the top Pad's letter first)."""
        out: list[str] = await self.page.evaluate(
            "[...document.querySelectorAll('#mine-board [data-lay=\"piece\"]')].map((e) => e.getAttribute('data-id'))")
        return out

    async def settled(self) -> None:
        """Until the page has no request out but the long-poll (a preview, a move)."""
        await self.page.wait_for_function("() => (document.body.dataset.busy || '0') === '0'")


def table_answers(page: Page) -> list[dict[str, Any]]:
    """Every table payload the page received (from /api/table, and inside act answers)."""
    out = []
    for _url, a in page.answers:
        if isinstance(a, dict) and "view" in a and "seats" in a:
            out.append(a)
        elif isinstance(a, dict) and isinstance(a.get("table"), dict):
            out.append(a["table"])
    return out
