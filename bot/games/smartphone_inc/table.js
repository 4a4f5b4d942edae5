// Smartphone Inc. at the live table: the board (regions, Technologies, companies) and
// Planning by hand, on the seat's own area. The Pads and Improvements are dragged onto
// its grid (pointer events, so mouse and touch alike) or tapped, then a cell; a laid
// piece turns with a second tap; every change asks the server for the engine's preview
// (price, Goods, Improve, Research, Logistics, unsold Goods) and where each piece may go
// next. Seal asks one confirmation.

const PLAYER = { green: "#3f9a4b", blue: "#3c6fd1", red: "#d14b4b", yellow: "#d8b21f", purple: "#8a4fc9", black: "#333" };

// The plan is laid on the seat's own area (api/mine.svg, drawn by the server with the plan
// as laid so far: render/smartphone_inc/laying.py). Its grid's cells carry the engine's
// coordinates (data-id "cell:x,y"), the pieces not laid their ids (the top Pad's letter,
// each Improvement's id). The server's preview says where each piece may go now
// (``places``, from the engine); a drop or a tap is matched against that list, nothing
// else: this file knows no rule of Planning.

let draft = null; // {key, bottom, bottomSide, topSide, rot, x, y, imps: {id: {x, y, rot, layer}}, pick, moving}
let lastPreview = null;
let previewFor = "";
let placesFor = ""; // the laid plan the places of lastPreview are for
let confirming = false;

// the plan as laid (the top Pad's place null while it is not laid): the preview's and the drawing's
function layOf(d) {
  const improvements = Object.entries(d.imps).map(([id, p]) => ({ id, x: p.x, y: p.y, rot: p.rot, layer: p.layer }));
  return { bottom: { pad: d.bottom, side: d.bottomSide }, top: { side: d.topSide, rot: d.rot, x: d.x, y: d.y }, improvements };
}

function planOf(d) { return d.x === null ? null : layOf(d); }

function freshDraft(key) {
  return { key, bottom: "A", bottomSide: 0, topSide: 0, rot: 0, x: null, y: null, imps: {}, pick: null };
}

function planning(t) {
  const me = t.you && t.view.players ? t.view.players[t.you] : null;
  return Boolean(t.prompt && t.prompt.type === "plan" && t.facts && !(me && me.sealed));
}

export function update(t, h) {
  if (!planning(t)) { confirming = false; return; }
  const key = `${t.game_id}:${t.view.round}`;
  if (!draft || draft.key !== key) { // the plan half laid before a reload (or on another device), else a fresh one
    const kept = t.draft && typeof t.draft.bottom === "string" && t.draft.imps ? t.draft : null;
    draft = kept ? { ...freshDraft(key), ...kept, key, pick: null } : freshDraft(key);
    lastPreview = null; previewFor = ""; placesFor = ""; confirming = false;
    askPreview(h);
  }
}

// the own area asked with the plan as laid, while it is laid (table.js: api/mine.svg)
export function mineQuery(t) {
  if (!planning(t) || !draft) return "";
  return `&draft=${encodeURIComponent(JSON.stringify(layOf(draft)))}`;
}

const topPad = () => (draft.bottom === "A" ? "B" : "A");
const pieceKey = (piece) => (piece === "A" || piece === "B" ? "top" : piece);
const laidAt = (piece) => (pieceKey(piece) === "top" ? (draft.x === null ? null : [draft.x, draft.y]) : (draft.imps[piece] ? [draft.imps[piece].x, draft.imps[piece].y] : null));

// where ``piece`` may go now, the engine's list: [[side, rot, x, y]] (the top Pad) or [[x, y, rot, layer]]
function placesOf(piece) {
  const p = lastPreview && lastPreview.places;
  if (!p || placesFor !== JSON.stringify(layOf(draft))) return null;
  return p[pieceKey(piece)] || [];
}
const anchorOf = (piece, e) => (pieceKey(piece) === "top" ? [e[2], e[3]] : [e[0], e[1]]);

// the engine's placement of ``piece`` with its box's top-left on (cx, cy): the one most
// like how it lies (or is shown) now, or null
function fitting(piece, cx, cy) {
  const list = placesOf(piece);
  if (!list) return null;
  const here = list.filter((e) => { const [x, y] = anchorOf(piece, e); return x === cx && y === cy; });
  if (pieceKey(piece) === "top") {
    const score = (e) => (e[0] === draft.topSide ? 2 : 0) + (e[1] === draft.rot ? 1 : 0);
    return here.sort((a, b) => score(b) - score(a))[0] || null;
  }
  const now = draft.imps[piece] || { rot: 0, layer: "over" };
  const score = (e) => (e[2] === now.rot ? 2 : 0) + (e[3] === now.layer ? 1 : 0);
  return here.sort((a, b) => score(b) - score(a))[0] || null;
}

function put(piece, e) {
  if (pieceKey(piece) === "top") { [draft.topSide, draft.rot, draft.x, draft.y] = e; return; }
  draft.imps[piece] = { x: e[0], y: e[1], rot: e[2], layer: e[3] };
}

function place(h, piece, cx, cy) {
  if (!placesOf(piece)) { h.note("One moment: the places are being checked."); return false; }
  const e = fitting(piece, cx, cy);
  if (!e) {
    h.note(pieceKey(piece) !== "top" && draft.x === null ? "Lay the top Pad first." : "That cannot go there; the marked cells can take it.", "bad");
    return false;
  }
  put(piece, e);
  draft.pick = piece; // (its buttons below; a tap on it turns it)
  draft.moving = false; // (its places are marked again once it is tapped)
  h.note("");
  changed(h);
  return true;
}

// the next legal way ``piece`` lies at its place (turned; ``other``: what else changes)
function turned(piece, change) {
  const at = laidAt(piece);
  const list = placesOf(piece);
  if (!at || !list) return null;
  const here = list.filter((e) => { const [x, y] = anchorOf(piece, e); return x === at[0] && y === at[1]; });
  if (pieceKey(piece) === "top") {
    if (change === "side") return here.find((e) => e[0] !== draft.topSide && e[1] === draft.rot) || here.find((e) => e[0] !== draft.topSide) || null;
    const same = here.filter((e) => e[0] === draft.topSide);
    return [1, 2, 3].map((k) => same.find((e) => e[1] === (draft.rot + k) % 4)).find(Boolean) || null;
  }
  const now = draft.imps[piece];
  if (change === "layer") return here.find((e) => e[3] !== now.layer && e[2] === now.rot) || here.find((e) => e[3] !== now.layer) || null;
  return [1, 2, 3].map((k) => here.find((e) => e[2] === (now.rot + k) % 4 && e[3] === now.layer) || here.find((e) => e[2] === (now.rot + k) % 4)).find(Boolean) || null;
}

function turn(h, piece, change = "rot") {
  if (pieceKey(piece) === "top" && draft.x === null) { // not laid: only how it is shown changes
    if (change === "side") draft.topSide = 1 - draft.topSide; else draft.rot = (draft.rot + 1) % 4;
    changed(h);
    return;
  }
  const e = turned(piece, change);
  if (!e) { h.note(change === "layer" ? "It cannot lie the other way there." : "It cannot turn there; drag it elsewhere first.", "bad"); return; }
  put(piece, e);
  changed(h);
}

function changed(h) {
  confirming = false;
  h.saveDraft({ ...draft, pick: null, moving: false }); // kept on the server until sealed
  h.redraw();
  askPreview(h);
}

async function askPreview(h) {
  const lay = layOf(draft);
  const key = JSON.stringify(lay);
  if (key === previewFor) return;
  previewFor = key;
  try {
    const p = await h.preview({ type: "plan", plan: lay });
    if (previewFor === key) { lastPreview = p; placesFor = key; h.redraw(); }
  } catch (err) { h.note(err.message, "bad"); }
}

// -- gestures on the own area -------------------------------------------------------------

function cellsOf(svg) {
  const out = [];
  for (const r of svg.querySelectorAll('[data-kind="cell"]')) {
    const m = /^cell:(-?\d+),(-?\d+)$/.exec(r.getAttribute("data-id") || "");
    if (!m) continue;
    out.push({ el: r, x: Number(m[1]), y: Number(m[2]), bx: Number(r.getAttribute("x")), by: Number(r.getAttribute("y")), w: Number(r.getAttribute("width")), h: Number(r.getAttribute("height")) });
  }
  return out;
}

const cellAt = (cells, px, py) => cells.find((c) => px >= c.bx && px < c.bx + c.w && py >= c.by && py < c.by + c.h) || null;

function userPoint(svg, ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

// after each drawing of the own area (table.js): the pieces and the places to lay them marked
export function afterMine(t, h) {
  const svg = document.getElementById("mine-board");
  if (!svg || !planning(t) || !draft) return;
  if (!svg.dataset.lay) { svg.dataset.lay = "1"; wire(svg, h); }
  const cells = cellsOf(svg);
  const occupied = (lastPreview && lastPreview.places && lastPreview.places.occupied) || {};
  const spots = new Set();
  if (draft.pick && (draft.moving || !laidAt(draft.pick))) for (const e of placesOf(draft.pick) || []) {
    if (pieceKey(draft.pick) === "top" && (e[0] !== draft.topSide || e[1] !== draft.rot)) continue;
    spots.add(anchorOf(draft.pick, e).join(","));
  }
  for (const c of cells) {
    const key = `${c.x},${c.y}`;
    const open = spots.has(key);
    c.el.classList.toggle("tappable", open);
    c.el.classList.toggle("made", Boolean(draft.pick && occupied[key] === draft.pick));
    if (occupied[key]) c.el.setAttribute("data-lay", "placed"); else c.el.removeAttribute("data-lay");
    if (open || occupied[key]) { c.el.setAttribute("role", "button"); c.el.setAttribute("tabindex", "0"); } else { c.el.removeAttribute("role"); c.el.removeAttribute("tabindex"); }
  }
  for (const g of svg.querySelectorAll('[data-kind="pad"], [data-kind="improvement"]')) {
    const id = g.getAttribute("data-id");
    g.setAttribute("data-lay", "piece");
    g.setAttribute("role", "button");
    g.setAttribute("tabindex", "0");
    g.setAttribute("aria-label", id === "A" || id === "B" ? `The top Pad (Pad ${id})` : `Improvement ${g.querySelector("text") ? g.querySelector("text").textContent : ""}`.trim());
    g.classList.toggle("source-picked", draft.pick === id);
  }
  document.body.dataset.laid = JSON.stringify(layOf(draft));
}

function wire(svg, h) {
  svg.addEventListener("pointerdown", (ev) => {
    if (!draft) return;
    ev.stopPropagation(); // (not the generic decisions' own gestures: decide.js)
    const cells = cellsOf(svg);
    const start = userPoint(svg, ev);
    const occupied = (lastPreview && lastPreview.places && lastPreview.places.occupied) || {};
    const group = ev.target.closest && ev.target.closest('[data-lay="piece"]');
    const under = cellAt(cells, start.x, start.y);
    let piece = group ? group.getAttribute("data-id") : null;
    let corner = null; // the pressed piece's top-left, in the drawing's units
    if (group) { // (its cells' corner: its name below it may be wider)
      const boxes = [...group.querySelectorAll("rect")].map((r) => r.getBBox());
      corner = [Math.min(...boxes.map((b) => b.x)), Math.min(...boxes.map((b) => b.y))];
    } else if (under && occupied[`${under.x},${under.y}`]) {
      piece = occupied[`${under.x},${under.y}`];
      const at = laidAt(piece);
      const c0 = at && cells.find((c) => c.x === at[0] && c.y === at[1]);
      if (c0) corner = [c0.bx, c0.by];
    }
    const x0 = ev.clientX, y0 = ev.clientY;
    let ghost = null;
    if (piece && corner) { ev.preventDefault(); h.hold(true); try { svg.setPointerCapture(ev.pointerId); } catch { /* gone */ } }
    const move = (e) => {
      if (!piece || !corner) return;
      if (!ghost && Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) > 8) {
        ghost = h.el("div", { class: "ghost", text: pieceKey(piece) === "top" ? "Top Pad" : "Improvement" });
        document.body.append(ghost);
      }
      if (ghost) {
        ghost.style.left = `${e.clientX + 8}px`; ghost.style.top = `${e.clientY + 8}px`;
        if (group) { const p = userPoint(svg, e); group.setAttribute("transform", `translate(${p.x - start.x} ${p.y - start.y})`); }
      }
    };
    const up = (e) => {
      svg.removeEventListener("pointermove", move);
      svg.removeEventListener("pointerup", up);
      svg.removeEventListener("pointercancel", up);
      if (piece && corner) h.hold(false);
      if (ghost) {
        ghost.remove();
        const p = userPoint(svg, e);
        const w = cells.length ? cells[0].w : 60;
        const target = cellAt(cells, corner[0] + p.x - start.x + w / 2, corner[1] + p.y - start.y + w / 2);
        if (!target || !place(h, piece, target.x, target.y)) { if (group) group.removeAttribute("transform"); if (!target) h.note("Dropped outside the grid: nothing changed."); }
        return;
      }
      if (Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) >= 8) return;
      tapped(h, group ? piece : null, under);
    };
    svg.addEventListener("pointermove", move);
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
  });
  svg.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    const el = ev.target.closest && ev.target.closest("[data-lay], [data-kind='cell']");
    if (!el) return;
    ev.preventDefault(); ev.stopPropagation();
    if (el.getAttribute("data-lay") === "piece") { tapped(h, el.getAttribute("data-id"), null); return; }
    const m = /^cell:(-?\d+),(-?\d+)$/.exec(el.getAttribute("data-id") || "");
    if (m) tapped(h, null, { x: Number(m[1]), y: Number(m[2]) });
  });
}

// a tap: on a piece not laid, it is picked (again: turned); on a cell, the piece picked
// goes there, else the piece laid there is picked (again: turned)
function tapped(h, piece, cell) {
  if (piece) {
    if (draft.pick === piece) turn(h, piece); else { draft.pick = piece; draft.moving = true; h.note("Now tap the cell for its top-left corner (marked), or drag it there."); h.redraw(); }
    return;
  }
  if (!cell) return;
  const occupied = (lastPreview && lastPreview.places && lastPreview.places.occupied) || {};
  const there = occupied[`${cell.x},${cell.y}`];
  if (draft.pick && there === draft.pick) { turn(h, draft.pick); return; }
  if (draft.pick && fitting(draft.pick, cell.x, cell.y)) { place(h, draft.pick, cell.x, cell.y); return; }
  if (there) { draft.pick = there; draft.moving = true; h.note("Picked: tap it again to turn it, or tap where it goes."); h.redraw(); return; }
  if (draft.pick) place(h, draft.pick, cell.x, cell.y); else h.note("Tap a piece first (or drag it onto the grid).");
}

// -- the decision panel ----------------------------------------------------------------------

function controls(root, t, h) {
  const d = draft;
  const b = (label, id, fn) => h.el("button", { type: "button", id, onclick: fn }, label);
  root.append(h.el("div", { class: "row" },
    h.el("span", { class: "muted", text: "Top Pad:" }),
    b("⟳ Turn", "turn-top", () => turn(h, topPad())),
    b("⇅ Other side", "flip-top", () => turn(h, topPad(), "side"))));
  root.append(h.el("div", { class: "row" },
    h.el("span", { class: "muted", text: "Bottom Pad:" }),
    b("⇄ Swap the Pads", "swap", () => { d.bottom = d.bottom === "A" ? "B" : "A"; changed(h); }),
    b("⇅ Other side", "flip-bottom", () => { d.bottomSide = 1 - d.bottomSide; changed(h); })));
  const pick = d.pick && (t.facts.improvements || []).find((i) => i.id === d.pick);
  if (pick && d.imps[pick.id]) {
    const p = d.imps[pick.id];
    root.append(h.el("div", { class: "row" },
      h.el("span", { class: "muted", text: "Improvement:" }),
      b("⟳ Turn", "turn-imp", () => turn(h, pick.id)),
      b(p.layer === "over" ? "Put it under the top Pad" : "Put it on top", "layer-imp", () => turn(h, pick.id, "layer")),
      b("Take it off", "remove-imp", () => { delete d.imps[pick.id]; d.pick = null; changed(h); })));
  }
}

function previewBox(root, h) {
  const p = lastPreview;
  if (!p || draft.x === null) { root.append(h.el("div", { class: "preview muted", id: "preview", text: draft.x === null ? "Drag the top Pad onto the bottom one in your area below (or tap it, then a cell)." : "…" })); return; }
  if (!p.ok) { root.append(h.el("div", { class: "preview warn", id: "preview", text: p.problem })); return; }
  const box = h.el("div", { class: "preview", id: "preview" },
    "Price ", h.el("b", { text: String(p.price) }), " · Goods ", h.el("b", { text: String(p.goods) }),
    " · Research ", h.el("b", { text: String(p.research) }), " · Logistics ", h.el("b", { text: String(p.logistics) }),
    " · Improve ", h.el("b", { text: p.improve ? "yes" : "no" }));
  root.append(box);
  if (p.warning) root.append(h.el("div", { class: "warn", id: "unsold", text: "⚠️ " + p.warning }));
}

export function decision(root, t, h) {
  const v = t.view;
  const me = t.you && v.players ? v.players[t.you] : null;
  if (me && v.phase === "planning" && me.sealed) {
    root.append(h.el("h2", { text: "Your plan is sealed 🔒" }));
    root.append(h.el("p", { class: "muted", text: "It is revealed when every plan is in. You may unseal it until then." }));
    root.append(h.el("button", { type: "button", id: "unseal", onclick: () => h.act({ type: "unseal" }) }, "Unseal and change it"));
    return true;
  }
  if (!planning(t)) return false;
  if (!draft) update(t, h);
  root.append(h.el("h2", { text: "Lay your plan" }));
  root.append(h.el("p", { class: "muted", id: "lay-hint", text: "In your area below: drag the top Pad and your Improvements onto the grid (or tap one, then the cell for its top-left corner). Tap a laid piece twice to turn it." }));
  previewBox(root, h);
  controls(root, t, h);
  const ok = lastPreview && lastPreview.ok && draft.x !== null;
  if (confirming && ok) {
    root.append(h.confirmBar("Seal this plan? The others see it at the reveal.", async () => {
      confirming = false;
      const out = await h.act({ type: "plan", plan: planOf(draft) });
      if (out && out.status === "applied") { draft = null; lastPreview = null; previewFor = ""; placesFor = ""; }
    }, () => { confirming = false; h.redraw(); }, "Yes, seal 🔒"));
  } else {
    root.append(h.el("div", { class: "row" }, h.el("button", { type: "button", class: "primary", id: "seal", disabled: !ok, onclick: () => { confirming = true; h.redraw(); } }, "Seal plan 🔒")));
  }
  return true;
}

export function board(root, t, h) {
  const v = t.view;
  const names = t.facts.regions || {};
  const colour = (seat) => PLAYER[(v.players[seat] || {}).colour] || "#555";
  root.append(h.el("h2", { text: "Companies" }));
  const tbl = h.el("table", { class: "players" }, h.el("tr", {}, ["Company", "VP", "Price", "Goods", "Techs"].map((x) => h.el("th", { text: x }))));
  for (const seat of v.seats) {
    const p = v.players[seat];
    const techs = (p.techs || []).map((id) => (v.techs[id] || {}).name || "").filter(Boolean).join(", ");
    const status = v.phase === "planning" && !p.steve ? (p.sealed ? " 🔒" : " …") : "";
    tbl.append(h.el("tr", { class: seat === t.you ? "you" : "" },
      h.el("td", {}, h.el("span", { color: colour(seat), text: "● " }), h.nameOf(seat) + status),
      h.el("td", { text: String(p.vp) }), h.el("td", { text: String(p.price) }), h.el("td", { text: String(p.goods) }),
      h.el("td", { text: techs || "—" })));
  }
  root.append(tbl);
  root.append(h.el("h3", { text: "Technologies (tap for details)" }));
  const chips = h.el("div", { class: "chips" });
  for (const [tid, tech] of Object.entries(v.techs || {})) {
    const owner = tech.patent ? ` · Patent: ${h.nameOf(tech.patent)}` : "";
    const sides = (t.facts.tech_sides || {})[tid] || [];
    const both = sides.length === 2 ? `\nFace up: ${sides[0]}\nFace down: ${sides[1]}` : "";
    chips.append(h.el("span", { class: "chip tap", "data-detail": `${tech.name} (costs ${tech.cost}; Patent ${tech.patent_vp} VP${owner})\nIn play: ${tech.text}${both}` }, tech.name));
  }
  root.append(chips);
  root.append(h.el("h3", { text: "Regions (tap for details)" }));
  const regions = h.el("div", { class: "chips" });
  for (const [rid, r] of Object.entries(v.regions || {})) {
    const offices = (r.offices || []).map((s) => h.nameOf(s));
    const sold = (r.sold || []).filter((x) => x !== null).length;
    const text = `${names[rid] || "Region"}\nOffices: ${offices.join(", ") || "none"}\nSold this round: ${sold} of ${(r.sold || []).length}${r.retailer ? "\nA Retailer is here." : ""}`;
    const dots = (r.offices || []).map((s) => h.el("span", { color: colour(s), text: "●" }));
    regions.append(h.el("span", { class: "chip tap", "data-detail": text }, names[rid] || "Region", " ", dots));
  }
  root.append(regions);
}
