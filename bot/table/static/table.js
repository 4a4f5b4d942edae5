// boardroom's table: the page inside Discord's Activity iframe (or any browser for a
// local game). It signs in through the Embedded App SDK (outside Discord its mock
// stands in), shows the caller's own view of the game, and sends moves through the
// server, which plays them with the bot's own App. A game's drawing module
// (bot/games/<game>/table.js, served at games/<game>.js) draws its board and its
// by-hand decisions; without one, the generic drawing below lists the seats and the
// legal actions (numbered and labelled as in the Discord prompts).
import { DiscordSDK, DiscordSDKMock } from "./vendor/discord-sdk.js";
import * as decide from "./decide.js"; // decisions on the board and the own area (issue 35)

const query = new URLSearchParams(location.search);
const fragment = new URLSearchParams(location.hash.slice(1));
const $ = (id) => document.getElementById(id);

const state = { session: null, table: null, channel: null, game: fragment.get("game"), module: null, moduleFor: null, busy: false, chosen: null };
window.boardroom = state; // for the tests and the curious: what the page holds (its own seat's view only)

function url(path) { return new URL(path, location.href.split("#")[0]).toString(); }

let inFlight = 0; // requests but the long-poll, shown as body[data-busy] (the tests wait for 0)

async function call(method, path, body) {
  const counted = !path.startsWith("api/wait");
  if (counted) document.body.dataset.busy = String(++inFlight);
  try { return await send(method, path, body); } finally { if (counted) document.body.dataset.busy = String(--inFlight); }
}

async function send(method, path, body) {
  const headers = { "Accept": "application/json" };
  if (state.session) headers["Authorization"] = `Bearer ${state.session}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let resp;
  try {
    resp = await fetch(url(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new Error("The table cannot be reached; check your connection, it tries again by itself.");
  }
  let data = null;
  try { data = await resp.json(); } catch { data = null; }
  if (!resp.ok) { const err = new Error((data && data.error) || inWords(resp.status)); err.status = resp.status; throw err; }
  return data;
}

// what a refusal without words of its own means, for a player (never a bare status code)
function inWords(status) {
  if (status === 401 || status === 403) return "Please open the table again to sign in.";
  if (status === 404) return "This game is not here (or not one you may see).";
  if (status === 429) return "Too many requests just now; wait a moment.";
  if (status >= 500) return "The table had a problem answering; try again in a moment.";
  return "The table could not do that; try again.";
}

export function note(text, kind = "") {
  const n = $("note");
  n.textContent = text || "";
  n.className = kind;
}

export function el(tag, attrs = {}, ...children) {
  const svgTags = new Set(["svg", "g", "rect", "text", "line", "circle", "path", "polygon", "title", "tspan"]);
  const node = svgTags.has(tag) ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else if (k === "color") node.style.color = v; // CSSOM: a style attribute would break the CSP
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

export function showDetail(text) {
  $("detail-text").textContent = text;
  $("detail").hidden = false;
}
$("detail-close").addEventListener("click", () => { $("detail").hidden = true; });
document.addEventListener("click", (ev) => {
  const t = ev.target.closest && ev.target.closest("[data-detail]");
  if (t) showDetail(t.getAttribute("data-detail"));
});

// -- moves ------------------------------------------------------------------------------

async function act(action) {
  if (state.busy) return null;
  state.busy = true;
  try {
    const t = state.table;
    const out = await call("POST", "api/act", { game: t.game_id, action, version: t.version });
    const ok = out.status === "applied";
    note(ok ? "Done." : out.message || out.status, ok ? "good" : "bad");
    state.chosen = null;
    await show(out.table);
    return out;
  } catch (err) { note(err.message, "bad"); return null; } finally { state.busy = false; }
}

async function undo() {
  if (state.busy) return;
  state.busy = true;
  try {
    const out = await call("POST", "api/undo", { game: state.table.game_id });
    note(out.status === "applied" ? "Taken back." : out.message, out.status === "applied" ? "good" : "bad");
    await show(out.table);
  } catch (err) { note(err.message, "bad"); } finally { state.busy = false; }
}

async function preview(action) {
  const out = await call("POST", "api/preview", { game: state.table.game_id, action });
  return out.preview;
}

const helpers = { el, note, act, undo, preview, showDetail, get table() { return state.table; } };

// -- drawing ----------------------------------------------------------------------------

function nameOf(t, seat) { const s = t.seats.find((x) => x.seat === seat); return s ? s.name : seat; }
// a seat's name, marked "(you)" for the caller's own, unless the name says so already
function youSay(t, seat) {
  const name = nameOf(t, seat);
  return seat === t.you && !/^you$/i.test(name.trim()) ? `${name} (you)` : name;
}
helpers.nameOf = (seat) => nameOf(state.table, seat);
helpers.youSay = (seat) => youSay(state.table, seat);

function genericBoard(root, t) {
  const v = t.view || {};
  const players = v.players || {};
  const keys = ["vp", "money", "points", "price", "credits", "reputation", "goods"];
  const shown = keys.filter((k) => Object.values(players).some((p) => p && typeof p[k] === "number"));
  const head = el("tr", {}, el("th", { text: "Player" }), shown.map((k) => el("th", { text: k === "vp" ? "VP" : k[0].toUpperCase() + k.slice(1) })));
  const rows = (v.seats || Object.keys(players)).map((seat) => el("tr", { class: seat === t.you ? "you" : "" },
    el("td", { text: youSay(t, seat) }),
    shown.map((k) => el("td", { text: players[seat] && players[seat][k] !== undefined ? String(players[seat][k]) : "" }))));
  root.append(el("h2", { text: "Players" }), el("table", { class: "players" }, head, rows));
}

function genericDecision(root, t) {
  if (!t.you) { root.append(el("p", { class: "muted", text: "You are watching: you have no seat in this game." })); return; }
  if (!t.actions.length) {
    root.append(el("p", { class: "muted", text: t.status === "active" ? "Nothing to decide right now; the table updates by itself." : `The game is ${t.status}.` }));
    return;
  }
  root.append(el("h2", { text: "Your decision" }));
  if (t.prompt_text) root.append(el("p", { text: t.prompt_text }));
  const list = el("div", { class: "actions", role: "list" });
  for (const a of t.actions) {
    list.append(el("button", {
      type: "button", role: "listitem", class: state.chosen === a.n ? "chosen" : "", "data-n": a.n,
      onclick: () => { state.chosen = a.n; draw(); },
    }, `${a.n}. ${a.label}`));
  }
  root.append(list);
  const chosen = t.actions.find((a) => a.n === state.chosen);
  if (chosen) root.append(confirmBar(`${chosen.n}. ${chosen.label}`, () => act(chosen.action), () => { state.chosen = null; draw(); }));
}

export function confirmBar(label, onYes, onNo, yes = "Confirm") {
  return el("div", { class: "confirm row" },
    el("span", { text: label }),
    el("button", { type: "button", class: "primary", id: "confirm", onclick: onYes }, yes),
    onNo ? el("button", { type: "button", onclick: onNo }, "Cancel") : null);
}
helpers.confirmBar = confirmBar;
helpers.redraw = () => draw();
// while a finger or the mouse drags something, nothing is redrawn under it (a preview or
// another player's move coming back); the drawing waits for the drop
helpers.hold = (on) => { state.hold = on; if (!on && state.missed) { state.missed = false; draw(); } };
helpers.genericDecision = (root) => genericDecision(root, state.table);
helpers.genericBoard = (root) => genericBoard(root, state.table);

function draw() {
  const t = state.table;
  if (!t) return;
  if (state.hold) { state.missed = true; return; }
  $("title").textContent = t.title;
  const v = t.view || {};
  const bits = [];
  if (v.round) bits.push(`Round ${v.round}${v.rounds ? "/" + v.rounds : ""}`);
  if (v.phase_title) bits.push(v.phase_title);
  bits.push(t.you ? (/^you$/i.test(nameOf(t, t.you).trim()) ? "Your seat" : `You: ${nameOf(t, t.you)}`) : "Watching");
  $("stage").textContent = bits.join(" · ");
  for (const id of ["board", "decision", "mine"]) $(id).replaceChildren();
  const m = state.module;
  if (t.status === "lobby") { $("decision").append(el("p", { text: "The game has not started yet." })); return; }
  try {
    if (!decide.decision($("decision"), t, helpers) && !(m && m.decision && m.decision($("decision"), t, helpers))) genericDecision($("decision"), t);
  } catch (err) { console.error(err); $("decision").replaceChildren(); genericDecision($("decision"), t); }
  if (state.hits) { // the decisions about the place tapped on the board (whatever list drew them)
    for (const b of $("decision").querySelectorAll("[data-n]")) if (state.hits.has(Number(b.getAttribute("data-n")))) b.classList.add("hit");
  }
  if (t.undo) $("decision").append(el("div", { class: "row" }, el("button", { type: "button", id: "undo", onclick: undo }, "↩ Undo my last move")));
  try {
    if (m && m.board) m.board($("board"), t, helpers); else genericBoard($("board"), t);
    if (m && m.mine) m.mine($("mine"), t, helpers);
    // (a game's module may ask its own area with its half-built decision drawn on it, and
    // mark the area once drawn: Smartphone Inc.'s plan laid on its grid)
    decide.mineArea($("mine"), t, helpers, url, svgText, m && m.mineQuery ? m.mineQuery(t) : "");
    if (m && m.afterMine) m.afterMine(t, helpers);
  } catch (err) { console.error(err); $("board").replaceChildren(); genericBoard($("board"), t); }
  if (v.over && Array.isArray(t.result_lines)) $("board").prepend(el("p", { text: t.result_lines.join("\n") }));
  $("replay-open").hidden = t.status === "lobby";
  document.body.dataset.version = String(t.version);
  document.body.dataset.drawn = String(performance.now());
}

// -- replay: a slider over the whole game; every log line with the players' names (the
// step's own lines marked), and the public board (SVG) at each step, readable, scrolled
// inside its own frame ----------------------------------------------------------------

const replay = { seq: 0, timer: null, scale: null, step: 0, last: 0 };

function replayFrame(box) {
  const slider = el("input", { type: "range", id: "replay-step", min: 0, max: 0, value: 0, "aria-label": "Step of the game" });
  slider.addEventListener("input", () => { clearTimeout(replay.timer); replay.timer = setTimeout(() => replayAt(Number(slider.value)), 120); });
  box.replaceChildren(
    el("h2", { id: "replay-title", text: "Replay" }),
    slider,
    el("div", { class: "row" },
      el("button", { type: "button", id: "replay-back", onclick: () => replayAt(Math.max(0, replay.step - 1)) }, "◀ Back"),
      el("button", { type: "button", id: "replay-next", onclick: () => replayAt(Math.min(replay.last, replay.step + 1)) }, "Next ▶"),
      el("button", { type: "button", id: "replay-out", "aria-label": "Zoom out", onclick: () => replayZoom(1 / 1.25) }, "−"),
      el("button", { type: "button", id: "replay-in", "aria-label": "Zoom in", onclick: () => replayZoom(1.25) }, "+"),
      el("button", { type: "button", id: "replay-close", onclick: () => { box.hidden = true; } }, "Close")),
    el("div", { class: "replay-frame", id: "replay-board", tabindex: 0, "aria-label": "The board at this step" }),
    el("ol", { class: "replay-log", id: "replay-log", "aria-label": "The game's log up to this step" }));
}

async function replayAt(step) {
  const t = state.table;
  const seq = ++replay.seq;
  const box = $("replay");
  if (!box.querySelector("#replay-step")) replayFrame(box);
  box.hidden = false;
  let out;
  try { out = await call("GET", `api/replay?game=${t.game_id}&step=${step}`); } catch (err) { note(err.message, "bad"); return; }
  if (seq !== replay.seq) return;
  replay.step = out.step; replay.last = out.last;
  const where = [out.round ? `round ${out.round}` : "", out.phase].filter(Boolean).join(", ");
  $("replay-title").textContent = `Replay: move ${out.step} of ${out.last}${where ? " (" + where + ")" : ""}`;
  const slider = $("replay-step");
  slider.max = String(out.last); slider.value = String(out.step);
  const log = $("replay-log");
  const first = out.lines.length - out.added;
  log.replaceChildren(...out.lines.map((line, i) => el("li", { class: i >= first && out.step ? "new" : "", text: line })));
  const mark = log.querySelector(".new") || log.lastElementChild;
  if (mark) log.scrollTop = Math.max(0, mark.offsetTop - log.offsetTop - 8);
  await replayBoard(t, out.step, seq);
  if (step === t.version && seq === replay.seq) box.scrollIntoView({ block: "start" });
}

async function replayBoard(t, step, seq) {
  const headers = { "Accept": "image/svg+xml" };
  if (state.session) headers["Authorization"] = `Bearer ${state.session}`;
  const frame = $("replay-board");
  document.body.dataset.busy = String(++inFlight);
  try {
    const resp = await fetch(url(`api/replay.svg?game=${t.game_id}&step=${step}`), { headers });
    if (!resp.ok) {
      let said = null;
      try { said = (await resp.json()).error; } catch { said = null; }
      throw new Error(said || inWords(resp.status));
    }
    const text = await resp.text();
    if (seq !== replay.seq) return;
    const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    if (svg.nodeName !== "svg") throw new Error("The board of that step could not be drawn.");
    const node = document.adoptNode(svg);
    decide.ownIds(node, "replay-"); // (its pictures' ids, not the board's above it)
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", `The board after move ${step}`);
    frame.replaceChildren(node);
    replaySize();
    document.body.dataset.replayStep = String(step);
  } catch (err) {
    if (seq === replay.seq) frame.replaceChildren(el("p", { class: "warn", text: err.message || "The board of that step could not be drawn." }));
  } finally { document.body.dataset.busy = String(--inFlight); }
}

function replaySize() {
  const svg = $("replay-board").querySelector("svg");
  if (!svg) return;
  const w = Number(svg.getAttribute("width")) || 1200, h = Number(svg.getAttribute("height")) || 1200;
  if (replay.scale === null) {
    let least = Infinity;
    for (const t of svg.querySelectorAll("text[font-size]")) least = Math.min(least, Number(t.getAttribute("font-size")));
    replay.scale = Math.max(($("replay-board").clientWidth || 360) / w, Number.isFinite(least) ? MIN_TEXT / least : 1);
  }
  svg.style.width = `${w * replay.scale}px`;
  svg.style.height = `${h * replay.scale}px`;
  svg.style.maxWidth = "none";
}

function replayZoom(k) {
  if (replay.scale === null) return;
  replay.scale = Math.min(4, Math.max(0.1, replay.scale * k));
  replaySize();
}

$("replay-open").addEventListener("click", () => replayAt(state.table.version));

async function show(table) {
  const old = state.table;
  const changed = !state.table || state.table.version !== table.version || state.table.you !== table.you;
  if (changed) { state.chosen = null; state.hits = null; }
  state.table = table;
  if (table.script && state.moduleFor !== table.script) {
    try { state.module = await import(url(table.script)); } catch (err) { console.error(err); state.module = null; }
    state.moduleFor = table.script;
  }
  if (state.module && state.module.update) state.module.update(table, helpers, changed);
  const board = table.status !== "lobby" ? wholeBoard(table) : null; // (its request first: the decision is drawn meanwhile)
  draw();
  await board;
  revealCheck(old, table);
}

// -- a half-built decision, kept on the server for this seat (api/draft): a game's
// drawing module saves it as it changes (helpers.saveDraft) and finds it again in
// table.draft after a reload or on another device, until it is sealed or the phase ends

let draftTimer = null;

function saveDraft(obj) {
  const t = state.table;
  if (!t || !t.you || t.status !== "active") return;
  t.draft = obj; // this page's own copy: a redraw of the same table keeps it
  state.draftOwed = true; // (the tests wait for it to be saved)
  clearTimeout(draftTimer);
  draftTimer = setTimeout(flushDraft, 300);
}

async function flushDraft() {
  clearTimeout(draftTimer);
  const t = state.table;
  if (!state.draftOwed || !t) return;
  state.draftOwed = false;
  try { await call("POST", "api/draft", { game: t.game_id, draft: t.draft }); } catch (err) { note(err.message, "bad"); }
}
helpers.saveDraft = saveDraft;
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") flushDraft(); });

// -- the reveal: when the last secret decision is in, every plan as it is revealed and
// the round's results (the public log since this page last saw the secret phase), then
// the next decision below

async function revealCheck(old, fresh) {
  if (!old || old.game_id !== fresh.game_id || fresh.version <= old.version || !old.view || !fresh.view) return;
  const revealed = old.secret && !fresh.secret;
  const ended = Number.isInteger(old.view.round) && fresh.view.round !== old.view.round; // (its results then)
  if (!revealed && !ended && !(fresh.view.over && !old.view.over)) return;
  try {
    const out = await call("GET", `api/reveal?game=${fresh.game_id}&since=${old.version}`);
    drawReveal(out, revealed ? "Revealed" : `Round ${old.view.round} is over`);
  } catch (err) { note(err.message, "bad"); }
}

function drawReveal(out, title) {
  const box = $("reveal");
  const list = el("ol", { class: "reveal-lines" });
  out.lines.forEach((line, i) => {
    const item = el("li", { text: line });
    item.style.animationDelay = `${Math.min(i, 24) * 0.3}s`; // one after the other, as if turned over
    list.append(item);
  });
  const next = state.table && state.table.actions.length ? "Next: your decision ▼" : "Close";
  box.replaceChildren(el("h2", { text: out.over ? `${title}: the game is over` : title }), list,
    ...out.results.map((r) => el("div", { class: "results", text: r })),
    el("div", { class: "row" }, el("button", { type: "button", class: "primary", id: "reveal-next", onclick: () => {
      box.hidden = true;
      $("decision").scrollIntoView({ block: "start" });
    } }, next)));
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

// -- the whole board: the public picture as SVG (api/board.svg), its text real text; it
// opens at a readable scale, pans and zooms inside its frame (the page never scrolls
// sideways), and a tap on a place the engine names picks the decisions about it ---------

const MIN_TEXT = 12; // px: the smallest text of the board, at the scale it opens with

async function wholeBoard(t) {
  const key = `${t.game_id}/${t.version}`;
  if (state.whole && state.whole.key === key) return;
  const early = state.boardEarly && state.boardEarly.game === String(t.game_id) ? state.boardEarly.text : null;
  state.boardEarly = null;
  const text = await (early || boardText(t.game_id));
  if (text === null && state.table === t) { // (busy, or rate-limited: again in a moment)
    note("The board could not be drawn just now; your decisions still work, and it comes back in a moment.", "bad");
    setTimeout(() => { if (state.table === t) wholeBoard(t); }, 1000);
    return;
  }
  if (text === null || !state.table || state.table.game_id !== t.game_id || state.table.version !== t.version) return; // (a later one is on its way)
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") return;
  const old = state.whole;
  const frame = old ? old.frame : boardFrame();
  const node = document.adoptNode(svg); // (moved, not copied: the parsed document is not used again)
  node.setAttribute("id", "whole-board");
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", "The whole board");
  frame.querySelector(".board-pan").replaceChildren(node);
  state.whole = { key, frame, svg: node, view: old ? old.view : null };
  if (!frame.isConnected) $("whole").append(frame); // (in the page first: its width is known then)
  if (!state.whole.view) fitReadable();
  else placeBoard();
  decide.loaded();
  document.body.dataset.board = key; // the board of this version is drawn (the tests and benchmarks wait for it)
  document.body.dataset.boardDrawn = String(performance.now());
}

// the board's SVG as the server draws it now, or null
function boardText(gameId) {
  return svgText(`api/board.svg?game=${gameId}`);
}

// an SVG of the table (api/board.svg, api/mine.svg) as text, signed in and counted as busy; null if it failed
async function svgText(path) {
  const headers = { "Accept": "image/svg+xml" };
  if (state.session) headers["Authorization"] = `Bearer ${state.session}`;
  document.body.dataset.busy = String(++inFlight);
  try {
    const resp = await fetch(url(path), { headers });
    return resp.ok ? await resp.text() : null;
  } catch { return null; } finally { document.body.dataset.busy = String(--inFlight); }
}

function boardFrame() {
  const pan = el("div", { class: "board-pan" });
  const frame = el("div", { class: "board-frame", id: "board-frame", tabindex: 0, "aria-label": "The whole board: drag to move, pinch or the buttons to zoom" }, pan);
  const bar = el("div", { class: "row board-zoom" },
    el("button", { type: "button", id: "board-zoom-out", "aria-label": "Zoom out", onclick: () => zoomBy(1 / 1.25) }, "−"),
    el("button", { type: "button", id: "board-zoom-in", "aria-label": "Zoom in", onclick: () => zoomBy(1.25) }, "+"),
    el("button", { type: "button", id: "board-fit", onclick: () => fitWidth() }, "Whole width"),
    el("button", { type: "button", id: "board-readable", onclick: () => fitReadable() }, "Readable"));
  const box = el("div", { class: "board-box" }, el("h2", { text: "The board" }), bar, frame);
  const pointers = new Map();
  let moved = 0, pinch = null, down = null;
  frame.addEventListener("pointerdown", (ev) => {
    pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    moved = 0; down = ev.target; // (the capture below makes the frame the target of what follows)
    try { frame.setPointerCapture(ev.pointerId); } catch { /* a pointer no longer down */ }
  });
  frame.addEventListener("pointermove", (ev) => {
    const was = pointers.get(ev.pointerId);
    if (!was || !state.whole || !state.whole.view) return;
    const v = state.whole.view;
    if (pointers.size === 1) {
      v.x += ev.clientX - was[0]; v.y += ev.clientY - was[1];
      moved += Math.abs(ev.clientX - was[0]) + Math.abs(ev.clientY - was[1]);
    }
    pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (pinch) zoomBy(d / pinch, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      pinch = d; moved += 10;
    }
    placeBoard();
  });
  const up = (ev) => { pointers.delete(ev.pointerId); if (pointers.size < 2) pinch = null; };
  frame.addEventListener("pointerup", (ev) => { const tap = pointers.size === 1 && moved < 8 ? down : null; up(ev); if (tap) tapBoard(tap); });
  frame.addEventListener("pointercancel", up);
  frame.addEventListener("wheel", (ev) => { ev.preventDefault(); zoomBy(ev.deltaY < 0 ? 1.1 : 1 / 1.1, ev.clientX, ev.clientY); }, { passive: false });
  frame.addEventListener("keydown", (ev) => {
    const step = { ArrowLeft: [40, 0], ArrowRight: [-40, 0], ArrowUp: [0, 40], ArrowDown: [0, -40] }[ev.key];
    if (step && state.whole && state.whole.view) { ev.preventDefault(); state.whole.view.x += step[0]; state.whole.view.y += step[1]; placeBoard(); }
    if (ev.key === "+" || ev.key === "-") { ev.preventDefault(); zoomBy(ev.key === "+" ? 1.25 : 0.8); }
  });
  box.frame = frame;
  return box;
}

function boardSize() {
  const svg = state.whole.svg;
  return [Number(svg.getAttribute("width")) || 1200, Number(svg.getAttribute("height")) || 1200];
}

function smallestText() {
  let least = Infinity;
  for (const t of state.whole.svg.querySelectorAll("text[font-size]")) least = Math.min(least, Number(t.getAttribute("font-size")));
  return Number.isFinite(least) ? least : MIN_TEXT;
}

function fitReadable() {
  if (!state.whole) return;
  const w = state.whole.frame.frame.clientWidth || 360;
  const scale = Math.max(w / boardSize()[0], MIN_TEXT / smallestText());
  state.whole.view = { x: 0, y: 0, s: scale };
  placeBoard();
}

function fitWidth() {
  if (!state.whole) return;
  state.whole.view = { x: 0, y: 0, s: (state.whole.frame.frame.clientWidth || 360) / boardSize()[0] };
  placeBoard();
}

function zoomBy(k, cx, cy) {
  const w = state.whole;
  if (!w || !w.view) return;
  const r = w.frame.frame.getBoundingClientRect();
  const px = cx === undefined ? r.width / 2 : cx - r.left, py = cy === undefined ? r.height / 2 : cy - r.top;
  const s = Math.min(4, Math.max(0.1, w.view.s * k));
  w.view.x = px - (px - w.view.x) * (s / w.view.s);
  w.view.y = py - (py - w.view.y) * (s / w.view.s);
  w.view.s = s;
  placeBoard();
}

function placeBoard() {
  const w = state.whole;
  const [bw, bh] = boardSize();
  const r = w.frame.frame;
  const v = w.view;
  // never lose the board: at least a quarter of the frame stays on it
  v.x = Math.min(r.clientWidth * 0.75, Math.max(r.clientWidth * 0.25 - bw * v.s, v.x));
  v.y = Math.min(r.clientHeight * 0.75, Math.max(r.clientHeight * 0.25 - bh * v.s, v.y));
  const pan = r.querySelector(".board-pan");
  pan.style.transform = `translate(${v.x}px, ${v.y}px) scale(${v.s})`;
  w.frame.dataset.scale = String(v.s);
}

// pan the board so that the place carrying ``id`` shows in the middle of its frame (the
// decisions on the board call it when the next place to tap is on the board)
function revealPlace(id) {
  const w = state.whole;
  if (!w || !w.view) return false;
  const place = [...w.svg.querySelectorAll("[data-id]")].find((e) => e.getAttribute("data-id") === id);
  if (!place) return false;
  const b = place.getBBox(), m = place.getCTM();
  const cx = m.a * (b.x + b.width / 2) + m.c * (b.y + b.height / 2) + m.e;
  const cy = m.b * (b.x + b.width / 2) + m.d * (b.y + b.height / 2) + m.f;
  const r = w.frame.frame;
  w.view.x = r.clientWidth / 2 - cx * w.view.s;
  w.view.y = r.clientHeight / 2 - cy * w.view.s;
  placeBoard();
  return true;
}
helpers.reveal = revealPlace;
state.reveal = revealPlace;

// the engine's ids an action names: its values (and the keys of what it places), but its type
export function targetsOf(action, top = true) {
  const out = new Set();
  const walk = (x, isTop) => {
    if (typeof x === "string") out.add(x);
    else if (Array.isArray(x)) x.forEach((y) => walk(y, false));
    else if (x && typeof x === "object") {
      for (const [k, y] of Object.entries(x)) {
        if (isTop && k === "type") continue;
        if (!isTop) out.add(k);
        walk(y, false);
      }
    }
  };
  walk(action, top);
  return out;
}

function tapBoard(target) {
  const place = target.closest && target.closest("[data-id]");
  const t = state.table;
  if (!place || !t) return;
  const id = place.getAttribute("data-id");
  if (decide.tap(id)) return; // a move on the board (decide.js)
  const hits = (t.actions || []).filter((a) => targetsOf(a.action).has(id));
  for (const old of state.whole.svg.querySelectorAll(".picked")) old.classList.remove("picked");
  if (!hits.length) { note("Nothing to decide there right now."); return; }
  place.classList.add("picked");
  state.hits = new Set(hits.map((a) => a.n));
  if (hits.length === 1) state.chosen = hits[0].n;
  draw();
  note(hits.length === 1 ? `Picked: ${hits[0].label}` : `${hits.length} choices about this; they are marked in your decision.`);
  const first = document.querySelector(`#decision [data-n="${hits[0].n}"]`);
  if (first) first.scrollIntoView({ block: "nearest" });
}

async function refresh() {
  const params = new URLSearchParams();
  if (state.game) params.set("game", state.game);
  else if (state.channel) params.set("channel", state.channel);
  const table = await call("GET", `api/table?${params}`);
  state.game = String(table.game_id);
  await show(table);
}

async function live() {
  for (;;) {
    try {
      // (while a move of this page is out, its answer brings the new table: no polling then)
      while (state.busy) await new Promise((r) => setTimeout(r, 50));
      const t = state.table;
      const out = await call("GET", `api/wait?game=${t.game_id}&after=${t.version}`);
      if (out.version !== state.table.version && !state.busy) await refresh();
    } catch (err) {
      if (err.status === 401) { note(err.message, "bad"); return; }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

async function signIn() {
  const cfg = await call("GET", "api/config");
  let sdk;
  if (query.has("frame_id")) {
    sdk = new DiscordSDK(cfg.client_id);
  } else {
    // Outside Discord (a local game, the tests): the SDK's mock stands in for the client;
    // the code it "authorizes" with came in the link's fragment (never sent to a server log).
    sdk = new DiscordSDKMock(cfg.client_id || "0", null, fragment.get("channel"), null);
    const code = fragment.get("code") || "";
    sdk._updateCommandMocks({ authorize: async () => ({ code }) });
  }
  await sdk.ready();
  const { code } = await sdk.commands.authorize({ client_id: cfg.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"] });
  const tok = await call("POST", "api/token", { code });
  state.session = tok.session;
  if (query.has("frame_id")) await sdk.commands.authenticate({ access_token: tok.access_token });
  state.channel = sdk.channelId;
  state.user = tok.user;
}

async function boot() {
  const started = performance.now();
  try {
    await signIn();
    // the board is asked for beside the table (the link names the game): the first paint waits for neither alone
    if (state.game) state.boardEarly = { game: state.game, text: boardText(state.game) };
    await refresh();
    note(state.table.you ? "" : "You are watching this game.");
    document.body.dataset.ready = String(Math.round(performance.now() - started));
    document.body.dataset.painted = String(Math.round(performance.now())); // since navigation start
    live();
  } catch (err) {
    note(err.message || String(err), "bad");
    document.body.dataset.ready = "error";
  }
}

boot();
