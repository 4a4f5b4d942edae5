// Smartphone Inc. at the live table: the board (regions, Technologies, companies) and
// Planning by hand. The Pads and Improvements are dragged on a grid (SVG, pointer
// events, so mouse and touch alike); the top Pad and an Improvement turn and flip with
// a tap; every change asks the server for the engine's preview (price, Goods, Improve,
// Research, Logistics, unsold Goods). Seal asks one confirmation. The grid is the
// engine's (engine/smartphone_inc/pads.py): the bottom Pad lies at x 0..2, y 0..1.

const COLS = [-2, 4]; // grid x range shown
const ROWS = [-2, 3]; // grid y range shown
const C = 54; // one cell, in SVG units
const GAP = 14;
const COLOURS = { prod: "#8fa3bf", research: "#b190d8", logistics: "#7cc48a", improve: "#f0a65a", up: "#e27a7a", down: "#6fc3c8" };
const PLAYER = { green: "#3f9a4b", blue: "#3c6fd1", red: "#d14b4b", yellow: "#d8b21f", purple: "#8a4fc9", black: "#333" };

let draft = null; // {key, bottom, bottomSide, topSide, rot, x, y, imps: {id: {x, y, rot, layer}}, pick}
let lastPreview = null;
let previewFor = "";
let confirming = false;

function rotOffset(col, row, rot) { // engine pads._rot_offset
  if (rot === 0) return [col, row];
  if (rot === 1) return [1 - row, col];
  if (rot === 2) return [2 - col, 1 - row];
  return [row, 2 - col];
}
function impCells(x, y, rot) { // engine pads.improvement_positions: [cells[0], cells[1]]
  if (rot === 0) return [[x, y], [x + 1, y]];
  if (rot === 1) return [[x, y], [x, y + 1]];
  if (rot === 2) return [[x + 1, y], [x, y]];
  return [[x, y + 1], [x, y]];
}

function planOf(d) {
  if (d.x === null) return null;
  const improvements = Object.entries(d.imps).map(([id, p]) => ({ id, x: p.x, y: p.y, rot: p.rot, layer: p.layer }));
  return { bottom: { pad: d.bottom, side: d.bottomSide }, top: { side: d.topSide, rot: d.rot, x: d.x, y: d.y }, improvements };
}

function freshDraft(key) {
  return { key, bottom: "A", bottomSide: 0, topSide: 0, rot: 0, x: null, y: null, imps: {}, pick: null };
}

export function update(t, h, changed) {
  const prompt = t.prompt;
  if (!prompt || prompt.type !== "plan") { confirming = false; return; }
  const key = `${t.game_id}:${t.view.round}`;
  if (!draft || draft.key !== key) { // the plan half laid before a reload (or on another device), else a fresh one
    const kept = t.draft && typeof t.draft.bottom === "string" && t.draft.imps ? t.draft : null;
    draft = kept ? { ...freshDraft(key), ...kept, key, pick: null } : freshDraft(key);
    lastPreview = null; previewFor = ""; confirming = false;
    if (kept && draft.x !== null) askPreview(h);
  }
}

const gx = (x) => (x - COLS[0]) * C;
const gy = (y) => (y - ROWS[0]) * C;
const W = (COLS[1] - COLS[0] + 1) * C;
const GRID_H = (ROWS[1] - ROWS[0] + 1) * C;

function cell(h, facts, x, y, sym, opts = {}) {
  const g = h.el("g", {});
  const fill = sym ? COLOURS[sym] || "#ddd" : "#fbfbf7";
  g.append(h.el("rect", { x: x + 2, y: y + 2, width: C - 4, height: C - 4, rx: 6, fill, stroke: opts.stroke || "#444", "stroke-width": opts.width || 1.5, "stroke-dasharray": sym ? null : "4 3" }));
  // (13 units: at least 12 px where a 400 px phone draws the planner at about 0.95)
  const [a, b] = sym ? ((facts.cell || {})[sym] || [facts.short[sym] || sym]) : ["open"];
  g.append(h.el("text", { x: x + C / 2, y: y + C / 2 + (b ? -3 : 5), "text-anchor": "middle", "font-size": b ? 17 : 14, "font-weight": 600, fill: "#1d2330", text: a }));
  if (b) g.append(h.el("text", { x: x + C / 2, y: y + C / 2 + 15, "text-anchor": "middle", "font-size": 13, fill: "#1d2330", text: b }));
  return g;
}

function padGroup(h, facts, pad, side, rot, ox, oy, kind) {
  const g = h.el("g", { class: kind === "top" ? "drag" : "", "data-kind": kind, "data-pad": pad });
  const rows = facts.pads[pad][side];
  for (let r = 0; r < 2; r++) for (let c = 0; c < 3; c++) {
    const [dx, dy] = rotOffset(c, r, rot);
    g.append(cell(h, facts, ox + dx * C, oy + dy * C, rows[r][c], { stroke: kind === "top" ? "#1d2330" : "#666", width: kind === "top" ? 2.5 : 1.5 }));
  }
  const w = (rot % 2 ? 2 : 3) * C, hh = (rot % 2 ? 3 : 2) * C;
  g.prepend(h.el("rect", { x: ox - 1, y: oy - 1, width: w + 2, height: hh + 2, rx: 8, fill: kind === "top" ? "#1d2330" : "#9aa3b2", opacity: kind === "top" ? 0.9 : 0.6 }));
  g.append(h.el("title", { text: `Pad ${pad}, side ${side + 1}${kind === "top" ? " (top; drag it, tap to turn)" : " (bottom)"}` }));
  return g;
}

function impGroup(h, facts, imp, place, ox, oy, selected) {
  const g = h.el("g", { class: "drag", "data-kind": "imp", "data-imp": imp.id });
  const cells = place ? impCells(0, 0, place.rot) : [[0, 0], [1, 0]];
  const stroke = selected ? "#3559c7" : place && place.layer === "under" ? "#777" : "#b8860b";
  cells.forEach(([dx, dy], i) => g.append(cell(h, facts, ox + dx * C, oy + dy * C, imp.cells[i], { stroke, width: selected ? 4 : 3 })));
  g.append(h.el("title", { text: `${imp.label}${place ? (place.layer === "under" ? ", under the top Pad" : ", on top") : ""}` }));
  return g;
}

function trayLayout(facts) { // where unplaced things wait, below the grid
  const out = { top: [0, GRID_H + GAP] };
  let x = 3 * C + GAP, y = GRID_H + GAP;
  for (const imp of facts.improvements || []) {
    if (x + 2 * C > W) { x = 3 * C + GAP; y += C + GAP; }
    out[imp.id] = [x, y];
    x += 2 * C + GAP;
  }
  const bottom = Math.max(y + C, GRID_H + GAP + 2 * C);
  return { pos: out, height: bottom + 4 };
}

function planner(root, t, h) {
  const facts = t.facts;
  const d = draft;
  const tray = trayLayout(facts);
  const svg = h.el("svg", { id: "planner", viewBox: `0 0 ${W} ${tray.height}`, width: W, role: "img", "aria-label": "Your Pads: drag the top Pad and the Improvements" });
  const grid = h.el("g", {});
  for (let x = COLS[0]; x <= COLS[1]; x++) for (let y = ROWS[0]; y <= ROWS[1]; y++) {
    grid.append(h.el("rect", { x: gx(x) + 1, y: gy(y) + 1, width: C - 2, height: C - 2, fill: "#f3f5f9", stroke: "#e0e4ec" }));
  }
  svg.append(grid);
  svg.append(padGroup(h, facts, d.bottom, d.bottomSide, 0, gx(0), gy(0), "bottom"));
  const imps = facts.improvements || [];
  const byId = Object.fromEntries(imps.map((i) => [i.id, i]));
  const placed = (layer) => Object.entries(d.imps).filter(([, p]) => p.layer === layer);
  for (const [id, p] of placed("under")) svg.append(impGroup(h, facts, byId[id], p, gx(p.x), gy(p.y), d.pick === id));
  const top = d.bottom === "A" ? "B" : "A";
  if (d.x !== null) svg.append(padGroup(h, facts, top, d.topSide, d.rot, gx(d.x), gy(d.y), "top"));
  else svg.append(padGroup(h, facts, top, d.topSide, d.rot, ...tray.pos.top, "top"));
  for (const [id, p] of placed("over")) svg.append(impGroup(h, facts, byId[id], p, gx(p.x), gy(p.y), d.pick === id));
  for (const imp of imps) if (!d.imps[imp.id]) svg.append(impGroup(h, facts, imp, null, ...tray.pos[imp.id], d.pick === imp.id));
  svg.append(h.el("line", { x1: 0, x2: W, y1: GRID_H + GAP / 2, y2: GRID_H + GAP / 2, stroke: "#c9cfda", "stroke-dasharray": "6 4" }));
  dragging(svg, t, h);
  root.append(svg);
}

function toSvg(svg, ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function dragging(svg, t, h) {
  svg.addEventListener("pointerdown", (ev) => {
    const g = ev.target.closest("g[data-kind]");
    if (!g || g.dataset.kind === "bottom") return;
    ev.preventDefault();
    const start = toSvg(svg, ev);
    const box = g.getBBox();
    const grab = { dx: start.x - box.x, dy: start.y - box.y };
    let moved = false;
    h.hold(true);
    svg.setPointerCapture(ev.pointerId);
    const move = (e) => {
      const p = toSvg(svg, e);
      if (Math.abs(p.x - start.x) + Math.abs(p.y - start.y) > 6) moved = true;
      g.setAttribute("transform", `translate(${p.x - start.x} ${p.y - start.y})`);
    };
    const up = (e) => {
      svg.removeEventListener("pointermove", move);
      svg.removeEventListener("pointerup", up);
      svg.removeEventListener("pointercancel", up);
      h.hold(false);
      const p = toSvg(svg, e);
      const kind = g.dataset.kind;
      if (!moved) { tapped(kind, g.dataset.imp); return; }
      const x = Math.round((p.x - grab.dx) / C) + COLS[0];
      const y = Math.round((p.y - grab.dy) / C) + ROWS[0];
      const inGrid = p.y < GRID_H && x >= COLS[0] - 1 && y >= ROWS[0] - 1;
      if (kind === "top") {
        if (inGrid) { draft.x = x; draft.y = y; } else { draft.x = null; draft.y = null; }
      } else {
        const id = g.dataset.imp;
        if (inGrid) {
          const old = draft.imps[id];
          draft.imps[id] = { x, y, rot: old ? old.rot : 0, layer: old ? old.layer : "over" };
          draft.pick = id;
        } else { delete draft.imps[id]; if (draft.pick === id) draft.pick = null; }
      }
      changed(h);
    };
    svg.addEventListener("pointermove", move);
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
  });

  function tapped(kind, id) {
    if (kind === "top") { draft.rot = (draft.rot + 1) % 4; changed(h); return; }
    if (kind === "imp") {
      if (draft.pick === id && draft.imps[id]) draft.imps[id].rot = (draft.imps[id].rot + 1) % 4;
      draft.pick = id;
      changed(h);
    }
  }
}

function changed(h) {
  confirming = false;
  h.saveDraft({ ...draft, pick: null }); // kept on the server until sealed
  h.redraw();
  askPreview(h);
}

async function askPreview(h) {
  const plan = planOf(draft);
  const key = JSON.stringify(plan);
  if (key === previewFor) return;
  previewFor = key;
  if (!plan) { lastPreview = null; h.redraw(); return; }
  try {
    const p = await h.preview({ type: "plan", plan });
    if (previewFor === key) { lastPreview = p; h.redraw(); }
  } catch (err) { h.note(err.message, "bad"); }
}

function controls(root, t, h) {
  const d = draft;
  const b = (label, id, fn, extra = {}) => h.el("button", { type: "button", id, onclick: () => { fn(); changed(h); }, ...extra }, label);
  root.append(h.el("div", { class: "row" },
    h.el("span", { class: "muted", text: "Top Pad:" }),
    b("⟳ Turn", "turn-top", () => { d.rot = (d.rot + 1) % 4; }),
    b("⇅ Other side", "flip-top", () => { d.topSide = 1 - d.topSide; })));
  root.append(h.el("div", { class: "row" },
    h.el("span", { class: "muted", text: "Bottom Pad:" }),
    b("⇄ Swap the Pads", "swap", () => { d.bottom = d.bottom === "A" ? "B" : "A"; }),
    b("⇅ Other side", "flip-bottom", () => { d.bottomSide = 1 - d.bottomSide; })));
  const pick = d.pick && (t.facts.improvements || []).find((i) => i.id === d.pick);
  if (pick && d.imps[pick.id]) {
    const p = d.imps[pick.id];
    root.append(h.el("div", { class: "row" },
      h.el("span", { class: "muted", text: "Improvement:" }),
      b("⟳ Turn", "turn-imp", () => { p.rot = (p.rot + 1) % 4; }),
      b(p.layer === "over" ? "Put it under the top Pad" : "Put it on top", "layer-imp", () => { p.layer = p.layer === "over" ? "under" : "over"; }),
      b("Take it off", "remove-imp", () => { delete d.imps[pick.id]; d.pick = null; })));
  }
}

function previewBox(root, h) {
  const p = lastPreview;
  if (!p) { root.append(h.el("div", { class: "preview muted", id: "preview", text: draft.x === null ? "Drag the top Pad onto the bottom one (tap it to turn it)." : "…" })); return; }
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
  if (!t.prompt || t.prompt.type !== "plan" || !t.facts.pads) return false;
  if (!draft) update(t, h, true);
  root.append(h.el("h2", { text: "Plan by hand" }));
  root.append(h.el("p", { class: "muted", text: "Drag the top Pad and your Improvements onto the bottom Pad. Tap the top Pad to turn it; tap an Improvement twice to turn it." }));
  planner(root, t, h);
  if (t.facts.cell_legend) root.append(h.el("p", { class: "muted", id: "cell-legend", text: t.facts.cell_legend }));
  previewBox(root, h);
  controls(root, t, h);
  const ok = lastPreview && lastPreview.ok;
  if (confirming && ok) {
    root.append(h.confirmBar("Seal this plan? The others see it at the reveal.", async () => {
      confirming = false;
      const out = await h.act({ type: "plan", plan: planOf(draft) });
      if (out && out.status === "applied") { draft = null; lastPreview = null; previewFor = ""; }
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
