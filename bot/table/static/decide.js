// Decisions on the board (issue 35): the seat's own area as SVG (api/mine.svg, drawn
// from that seat's view only) beside the whole board, and the seat's legal actions
// taken by gestures on the two. The server says what each gesture means
// (table.board, bot/table/decide.py): per action number, its moves, each [id] (tap the
// place carrying that engine id) or [source, target] (drag the source onto the target,
// or tap one then the other: the fallback for phones and screen readers). Nothing here
// knows a game's rules: a place is tappable only while some legal action has a move
// there, and an action is sent only once the moves made are exactly that action's.
// Actions naming no place drawn are listed as buttons (under the headings the server
// gives, each choice once).

const MIN_TEXT = 12; // px: the smallest text of the own area, at the scale it opens with
// ``?list`` in the page's address: the decisions as lists, as before the board took them
// (for who prefers a list, and to measure the gestures each way)
const LISTS = new URLSearchParams(location.search).has("list");

const d = { key: null, made: [], source: null, mine: null, mineKey: null, preview: null, previewFor: "" };
let H = null; // the table's helpers (table.js)

export function resetDraft() { d.made = []; d.source = null; d.preview = null; d.previewFor = ""; }

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const has = (list, m) => list.some((x) => same(x, m));

function movesOf(t) { return (t && t.board && t.board.moves) || {}; }

// the action numbers whose moves hold every move made so far
function candidates(t) {
  const out = [];
  for (const [n, moves] of Object.entries(movesOf(t))) if (d.made.every((m) => has(moves, m))) out.push(Number(n));
  return out;
}

// the actions whose moves are exactly the moves made
function exact(t) {
  const all = movesOf(t);
  return candidates(t).filter((n) => all[n].length === d.made.length);
}

// what may be tapped now: {id: "tap" | "source" | "target"}
function open(t) {
  const out = {};
  const all = movesOf(t);
  for (const n of candidates(t)) {
    for (const m of all[n]) {
      if (has(d.made, m)) continue;
      if (d.source !== null) { if (m.length === 2 && m[0] === d.source) out[m[1]] = "target"; }
      else if (m.length === 1) out[m[0]] = "tap";
      else if (!out[m[0]]) out[m[0]] = "source";
    }
  }
  return out;
}

// the two drawings (held by the page between two draws, when they are out of the document)
function surfaces() {
  const whole = window.boardroom && window.boardroom.whole;
  return [whole && whole.svg, d.mine && d.mine.frame.querySelector("svg")].filter(Boolean);
}

function placesOf(id) {
  const out = [];
  for (const s of surfaces()) for (const e of s.querySelectorAll("[data-id]:not(.hit)")) if (e.getAttribute("data-id") === id) out.push(e);
  return out;
}

// the actions whose every place is drawn (the others are listed as buttons)
function drawnMoves(t) {
  const all = movesOf(t);
  const out = {};
  for (const [n, moves] of Object.entries(all)) if (moves.every((m) => m.every((id) => placesOf(id).length))) out[n] = moves;
  return out;
}

export function mark() {
  const t = H && H.table;
  if (!t) return;
  const now = open(t);
  for (const s of surfaces()) {
    for (const e of s.querySelectorAll(".tappable, .source-picked, .made")) e.classList.remove("tappable", "source-picked", "made");
    for (const h of s.querySelectorAll(".hit")) h.remove();
    for (const e of s.querySelectorAll("[data-id]")) {
      const id = e.getAttribute("data-id");
      if (now[id]) {
        e.classList.add("tappable");
        e.setAttribute("data-gesture", now[id]);
        e.setAttribute("tabindex", "0"); // (Enter or Space taps it: keyboards and screen readers)
        e.setAttribute("role", "button");
        labelOf(e);
        widen(e);
      } else { e.removeAttribute("data-gesture"); e.removeAttribute("tabindex"); e.removeAttribute("role"); }
      if (d.source === id) e.classList.add("source-picked");
      if (d.made.some((m) => m.includes(id))) e.classList.add("made");
    }
  }
  document.body.dataset.tappable = String(Object.keys(now).length);
}

// a tap on a place of the board or the own area; true when it meant a move
export function tap(id) {
  const t = H && H.table;
  if (LISTS || !t || !Object.keys(movesOf(t)).length) return false;
  const now = open(t);
  const what = now[id];
  if (!what) {
    if (d.source !== null && d.source === id) { d.source = null; changed(); return true; }
    H.note(d.source !== null ? "That is not a place it can go; tap a marked place, or the same one again to let go." : "Nothing to decide there right now.");
    return d.source !== null;
  }
  if (what === "source") {
    d.source = id;
    H.note("Now tap (or drag it to) a marked place.");
    changed();
    const first = Object.entries(open(t)).find(([, g]) => g === "target");
    if (first && !document.querySelector("#mine-board [data-id=\"" + CSS.escape(first[0]) + "\"]") && H.reveal(first[0])) {
      const frame = document.getElementById("board-frame"); // (the place to tap next, in sight)
      if (frame) frame.scrollIntoView({ block: "nearest" });
    }
    return true;
  }
  H.note("");
  if (what === "target") { d.made.push([d.source, id]); d.source = null; changed(); return true; }
  d.made.push([id]); changed(); return true;
}

// a drag from ``from`` dropped on ``to``: the move [from, to] if one is open
export function drop(from, to) {
  const t = H && H.table;
  if (!t) return false;
  d.source = null;
  const moves = Object.values(movesOf(t));
  const fits = candidates(t).some((n) => has(movesOf(t)[n], [from, to]));
  if (!fits) { H.note(moves.some((ms) => has(ms, [from, to])) ? "That does not go with what you placed already; Start over to change it." : "That cannot go there."); changed(); return false; }
  if (!has(d.made, [from, to])) d.made.push([from, to]);
  changed();
  return true;
}

function changed() { H.redraw(); askPreview(); }

async function askPreview() {
  const t = H.table;
  const ex = exact(t);
  const a = ex.length === 1 ? t.actions.find((x) => x.n === ex[0]) : null;
  const key = a ? JSON.stringify(a.action) : "";
  if (key === d.previewFor) return;
  d.previewFor = key;
  d.preview = null;
  if (!a) return;
  try {
    const p = await H.preview(a.action);
    if (d.previewFor === key) { d.preview = p; H.redraw(); }
  } catch { /* the label says what it does all the same */ }
}

// -- the decision panel ---------------------------------------------------------------

export function decision(root, t, h) {
  H = h;
  const key = `${t.game_id}:${t.version}:${t.you}`;
  if (d.key !== key) { d.key = key; resetDraft(); }
  const board = t.board || { moves: {}, groups: {} };
  const onBoard = drawnMoves(t);
  const groups = board.groups || {};
  if (LISTS || !t.you || !t.actions.length || (!Object.keys(onBoard).length && !Object.keys(groups).length)) return false;
  const el = h.el;
  root.append(el("h2", { text: "Your decision" }));
  if (t.prompt_text) root.append(el("p", { text: t.prompt_text }));
  if (Object.keys(onBoard).length) {
    const hint = d.source !== null ? "Now tap where it goes (marked), or tap it again to let go." :
      "Tap a marked place on the board or in your area; drag a piece onto its place (or tap it, then its place).";
    root.append(el("p", { class: "muted", id: "board-hint", text: hint }));
  }
  const ex = exact(t).filter((n) => onBoard[n]);
  if (d.made.length || d.source !== null) {
    const bits = d.made.map((m) => m.map((id) => nameOf(id)).join(" → "));
    if (d.source !== null) bits.push(`${nameOf(d.source)} → ?`);
    root.append(el("div", { class: "row", id: "made" }, el("span", { text: "Chosen: " + bits.join("; ") }),
      el("button", { type: "button", id: "start-over", onclick: () => { resetDraft(); changed(); } }, "Start over")));
  }
  if (ex.length) {
    if (d.preview && d.preview.text) root.append(el("div", { class: "preview", id: "preview", text: d.preview.text }));
    root.append(el("div", { class: "choices", id: "choices" }, ex.map((n) => {
      const a = t.actions.find((x) => x.n === n);
      return el("button", { type: "button", class: "primary", "data-n": n, onclick: () => h.act(a.action) }, `✓ ${a.label}`);
    })));
  }
  const rest = t.actions.filter((a) => !onBoard[a.n] && !(groups[a.n] && !groups[a.n].length));
  if (rest.length) {
    root.append(el("h3", { text: Object.keys(onBoard).length ? "Or" : "Choose" }));
    const heads = new Map();
    const plain = el("div", { class: "actions", id: "others" });
    for (const a of rest) {
      const g = groups[a.n];
      const button = el("button", { type: "button", "data-n": a.n, onclick: () => h.act(a.action) }, g ? g[1] : a.label);
      if (!g) { plain.append(button); continue; }
      if (!heads.has(g[0])) heads.set(g[0], []);
      heads.get(g[0]).push(button);
    }
    for (const [head, buttons] of heads) {
      const box = el("details", { class: "group", "data-group": head }, el("summary", { text: `${head} (${buttons.length} choice${buttons.length === 1 ? "" : "s"})` }), el("div", { class: "actions" }, buttons));
      root.append(box);
    }
    if (plain.childNodes.length) root.append(plain);
  }
  root.append(el("p", { class: "muted", text: "A ✓ button acts at once; ↩ Undo takes back what the rules allow." }));
  queueMicrotask(mark);
  return true;
}

// a place's words: its own text, else the text drawn inside its box (a mark lies over it)
function nameOf(id) {
  const e = placesOf(id)[0];
  return e ? labelOf(e) : "that";
}

const TOUCH = 40; // px: the least height and width of a place to tap, on a phone too

// a place drawn smaller than TOUCH at the scale the board is shown at gets a transparent
// target of TOUCH around it, laid over it: the one the finger (or the keyboard) meets
function widen(e) {
  if (!e.isConnected || !e.getBBox) return;
  const m = e.getScreenCTM();
  const scale = m ? Math.hypot(m.c, m.d) || 1 : 1;
  const b = e.getBBox();
  const need = TOUCH / scale;
  if (b.height >= need && b.width >= need) return;
  const w = Math.max(b.width, need), h = Math.max(b.height, need);
  const hit = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  const attrs = {
    x: b.x - (w - b.width) / 2, y: b.y - (h - b.height) / 2, width: w, height: h, fill: "transparent", class: "hit",
    "data-id": e.getAttribute("data-id"), "data-gesture": e.getAttribute("data-gesture"),
    role: "button", tabindex: "0", "aria-label": e.getAttribute("aria-label") || "",
  };
  if (e.getAttribute("transform")) attrs.transform = e.getAttribute("transform");
  for (const [k, v] of Object.entries(attrs)) hit.setAttribute(k, String(v));
  e.parentNode.insertBefore(hit, e.nextSibling);
  e.removeAttribute("role"); // (the target is the control: one per place)
  e.removeAttribute("tabindex");
}

function labelOf(e) {
  let label = e.getAttribute("aria-label") || (e.querySelector("text") ? e.querySelector("text").textContent.trim() : "");
  if (!label) {
    if (!e.isConnected) return "that"; // (out of the document between two draws: no boxes to read)
    const r = e.getBoundingClientRect();
    const inside = [...e.ownerSVGElement.querySelectorAll("text")].filter((x) => {
      const b = x.getBoundingClientRect();
      const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
      return cx >= r.left && cx <= r.right && cy >= r.top && cy <= r.bottom;
    });
    label = inside.slice(0, 2).map((x) => x.textContent.trim()).join(" ");
    if (label) e.setAttribute("aria-label", label);
  }
  return label ? label.slice(0, 40) : "that";
}

// a drawing came in: the decision panel may now offer what it could not name before
export function loaded() { if (H) H.redraw(); }

// -- the own area: api/mine.svg in a frame of its own ---------------------------------

export async function mineArea(root, t, h, url, call, extra = "") {
  H = h;
  if (!t.you || t.status === "lobby") return;
  const key = `${t.game_id}/${t.version}/${t.you}${extra}`; // (``extra``: more of the query, a draft drawn on it)
  if (!d.mine) d.mine = buildMine();
  root.prepend(d.mine.box);
  if (d.mineKey === key) { mark(); return; }
  d.mineKey = key;
  let text = null;
  try { text = await call(`api/mine.svg?game=${t.game_id}${extra}`); } catch { text = null; }
  if (text === null && d.mineKey === key) { d.mineKey = null; setTimeout(() => { if (H.table === t) mineArea(root, t, h, url, call, extra); }, 1000); return; }
  if (text === null || d.mineKey !== key) return;
  // the board of the same move first: the own area is parsed and laid out after the next
  // frame is painted (the board's redraw is the move's answer; this one follows it)
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  if (d.mineKey !== key) return;
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  if (doc.documentElement.nodeName !== "svg") return;
  const node = document.importNode(doc.documentElement, true);
  ownIds(node, "mine-");
  node.setAttribute("id", "mine-board");
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", "Your own area");
  const w = Number(node.getAttribute("width")) || 800, hh = Number(node.getAttribute("height")) || 800;
  let least = Infinity;
  for (const x of node.querySelectorAll("text[font-size]")) least = Math.min(least, Number(x.getAttribute("font-size")));
  const frameW = d.mine.frame.clientWidth || 360;
  const scale = Math.max(frameW / w, MIN_TEXT / (Number.isFinite(least) ? least : MIN_TEXT));
  node.setAttribute("width", String(Math.ceil(w * scale))); // (up: never a text under the least)
  node.setAttribute("height", String(Math.ceil(hh * scale)));
  d.mine.frame.replaceChildren(node);
  d.mine.box.dataset.scale = String(scale);
  document.body.dataset.mine = `${t.game_id}/${t.version}/${t.you}`; // (the tests wait for it)
  document.body.dataset.mineDraft = extra; // (the draft drawn on it, if any)
  loaded();
}

// the ids inside a drawing made its own (``prefix``): the board and the own area are in
// one page, and each names its pasted pictures p0, p1, …; a <use href="#p0"> finds the
// first in the page, the other drawing's (a company token where a Pad's symbol belongs)
export function ownIds(node, prefix) {
  const ids = new Map();
  for (const e of node.querySelectorAll("[id]")) { ids.set(`#${e.id}`, `#${prefix}${e.id}`); e.id = prefix + e.id; }
  for (const e of node.querySelectorAll("use")) {
    for (const a of ["href", "xlink:href"]) { const v = e.getAttribute(a); if (v && ids.has(v)) e.setAttribute(a, ids.get(v)); }
  }
}

function buildMine() {
  const el = H.el;
  const frame = el("div", { class: "mine-frame", id: "mine-frame", tabindex: 0, "aria-label": "Your own area: scroll inside it" });
  const box = el("div", { class: "mine-box" }, el("h2", { text: "Your area (only you see it)" }), frame);
  dragging(frame);
  return { box, frame };
}

// a press on a drag source: moved, it is a drag (dropped where the pointer lets go, on
// either drawing); not moved, it is a tap
function dragging(frame) {
  frame.addEventListener("pointerdown", (ev) => {
    const place = ev.target.closest && ev.target.closest("[data-id]");
    if (!place) return;
    const id = place.getAttribute("data-id");
    const isSource = place.getAttribute("data-gesture") === "source";
    const x0 = ev.clientX, y0 = ev.clientY;
    let ghost = null;
    if (isSource) { ev.preventDefault(); H.hold(true); try { frame.setPointerCapture(ev.pointerId); } catch { /* gone */ } }
    const move = (e) => {
      if (!isSource) return;
      if (!ghost && Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) > 8) {
        ghost = H.el("div", { class: "ghost", text: nameOf(id) });
        document.body.append(ghost);
      }
      if (ghost) { ghost.style.left = `${e.clientX + 8}px`; ghost.style.top = `${e.clientY + 8}px`; }
    };
    const up = (e) => {
      frame.removeEventListener("pointermove", move);
      frame.removeEventListener("pointerup", up);
      frame.removeEventListener("pointercancel", up);
      if (isSource) H.hold(false);
      if (ghost) {
        ghost.remove();
        const under = document.elementFromPoint(e.clientX, e.clientY);
        const target = under && under.closest && under.closest("[data-id]");
        if (target) drop(id, target.getAttribute("data-id"));
        else { d.source = null; H.note("Dropped outside any place: nothing changed."); changed(); }
        return;
      }
      if (Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) < 8) tap(id);
    };
    frame.addEventListener("pointermove", move);
    frame.addEventListener("pointerup", up);
    frame.addEventListener("pointercancel", up);
  });
}

document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter" && ev.key !== " ") return;
  const place = ev.target && ev.target.closest && ev.target.closest("[data-id][data-gesture]");
  if (place) { ev.preventDefault(); tap(place.getAttribute("data-id")); }
});
