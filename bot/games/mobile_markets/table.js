// Mobile Markets at the live table: the product is built by dragging Feature cards from
// the hand into the board's slots (pointer events: mouse and touch alike); each change
// asks the server for the engine's preview (net profit per sale, buyers, money). Other
// decisions use the table's numbered list, labelled as in Discord.

let draft = null; // {key, slots: {slot: feature id}, tokens}
let shown = null;
let previewFor = "";
let confirming = false;

export function update(t) {
  const p = t.prompt;
  if (!p || p.type !== "product") { draft = null; return; }
  const key = `${t.game_id}:${t.version}`;
  if (!draft || draft.key !== key) { // the product half built before a reload (or on another device), else a fresh one
    const hand = new Set((p.features || []).map(String));
    const kept = t.draft && t.draft.slots && typeof t.draft.slots === "object" ? t.draft : null;
    const slots = kept ? Object.fromEntries(Object.entries(kept.slots).filter(([, f]) => hand.has(String(f)))) : {};
    draft = { key, slots, tokens: kept ? Math.max(0, Math.min(Number(kept.tokens) || 0, p.tokens || 0)) : 0 };
    shown = null; previewFor = ""; confirming = false;
  }
}

function action() {
  const a = { type: "product", slots: { ...draft.slots } };
  if (draft.tokens) a.tokens = draft.tokens;
  return a;
}

async function ask(h) {
  const key = JSON.stringify(action());
  if (key === previewFor) return;
  previewFor = key;
  try {
    const p = await h.preview(action());
    if (previewFor === key) { shown = p; h.redraw(); }
  } catch (err) { h.note(err.message, "bad"); }
}

function changed(h) { confirming = false; h.saveDraft({ slots: { ...draft.slots }, tokens: draft.tokens }); h.redraw(); ask(h); }

function card(h, c) {
  return h.el("div", { class: "card drag", "data-feature": c.id, "data-detail": c.text },
    h.el("b", { text: c.names.join(" + ") }),
    h.el("div", { class: "muted", text: `${c.stars ? c.stars + "★ · " : ""}${c.cost_icons ? c.cost_icons + " cost icon" + (c.cost_icons > 1 ? "s" : "") : "no cost icon"}` }));
}

function dragCards(root, h) {
  root.addEventListener("pointerdown", (ev) => {
    const c = ev.target.closest("[data-feature]");
    if (!c) return;
    ev.preventDefault();
    const id = c.dataset.feature;
    const x0 = ev.clientX, y0 = ev.clientY;
    let moved = false;
    h.hold(true);
    c.setPointerCapture(ev.pointerId);
    const move = (e) => {
      if (Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) > 6) moved = true;
      c.style.transform = `translate(${e.clientX - x0}px, ${e.clientY - y0}px)`;
    };
    const up = (e) => {
      c.removeEventListener("pointermove", move);
      c.removeEventListener("pointerup", up);
      h.hold(false);
      c.style.transform = "";
      if (!moved) { h.showDetail(c.dataset.detail); return; }
      c.hidden = true;
      const under = document.elementFromPoint(e.clientX, e.clientY);
      c.hidden = false;
      const slot = under && under.closest("[data-slot]");
      for (const [s, f] of Object.entries(draft.slots)) if (f === id) delete draft.slots[s];
      if (slot) draft.slots[slot.dataset.slot] = id;
      changed(h);
    };
    c.addEventListener("pointermove", move);
    c.addEventListener("pointerup", up);
  });
}

export function decision(root, t, h) {
  const p = t.prompt;
  if (!p || p.type !== "product") return false;
  if (!draft) update(t);
  const cards = Object.fromEntries((p.feature_cards || []).map((c) => [c.id, c]));
  root.append(h.el("h2", { text: "Build your product" }));
  root.append(h.el("p", { class: "muted", text: "Drag Feature cards into the slots; drag one out to take it back. Tap a card for its text." }));
  const board = h.el("div", { class: "cards", id: "slots" });
  for (const s of p.slots) {
    const f = draft.slots[s];
    board.append(h.el("div", { class: "slot" + (f ? " full" : ""), "data-slot": s },
      h.el("div", { class: "muted", text: (p.slot_labels || {})[s] || `Slot ${s}` }), f ? card(h, cards[f]) : null));
  }
  root.append(board);
  const used = new Set(Object.values(draft.slots));
  const hand = h.el("div", { class: "cards", id: "hand" }, p.features.filter((f) => !used.has(f)).map((f) => card(h, cards[f])));
  root.append(h.el("h3", { text: "Your Features" }), hand);
  if (p.tokens) {
    root.append(h.el("div", { class: "row" }, `Goods tokens to use (of ${p.tokens}): `,
      h.el("button", { type: "button", id: "tokens-less", onclick: () => { draft.tokens = Math.max(0, draft.tokens - 1); changed(h); } }, "−"),
      h.el("b", { text: String(draft.tokens) }),
      h.el("button", { type: "button", id: "tokens-more", onclick: () => { draft.tokens = Math.min(p.tokens, draft.tokens + 1); changed(h); } }, "+")));
  }
  const pv = shown || (previewFor === "" && p.preview ? { ok: true, ...p.preview, buyers: (p.preview.buyers || []).map((b) => b.text) } : null);
  if (pv && pv.ok) {
    root.append(h.el("div", { class: "preview", id: "preview" },
      "Net profit per sale ", h.el("b", { text: String(pv.net) }), ` (manufacturing cost ${pv.cost})`,
      h.el("br"), `${pv.buyers.length} buyer${pv.buyers.length === 1 ? "" : "s"}: ${pv.buyers.join("; ") || "none"}`,
      h.el("br"), "Money from sales: ", h.el("b", { text: String(pv.profit) })));
  } else if (pv) root.append(h.el("div", { class: "preview warn", id: "preview", text: pv.problem }));
  if (confirming) {
    root.append(h.confirmBar("Build this product?", () => { confirming = false; h.act(action()); }, () => { confirming = false; h.redraw(); }, "Yes, build it"));
  } else {
    root.append(h.el("div", { class: "row" }, h.el("button", { type: "button", class: "primary", id: "build", disabled: pv && !pv.ok, onclick: () => { confirming = true; h.redraw(); } }, "Build product")));
  }
  dragCards(root, h);
  if (previewFor === "") ask(h);
  return true;
}

export function board(root, t, h) {
  const v = t.view;
  h.genericBoard(root);
  root.append(h.el("h3", { text: "Market (tap a customer)" }));
  const market = h.el("div", { class: "chips" });
  for (const [price, customers] of Object.entries(v.market || {})) {
    for (const c of customers) market.append(h.el("span", { class: "chip tap", "data-detail": c.text }, `${price}: ${c.type_name}`));
  }
  root.append(market);
  for (const [name, d] of Object.entries(v.displays || {})) {
    root.append(h.el("h3", { text: `${name[0].toUpperCase()}${name.slice(1)} cards (tap for text)` }));
    root.append(h.el("div", { class: "chips" }, (d.cards || []).map((c) => h.el("span", { class: "chip tap", "data-detail": c.text }, c.name || (c.names || []).join(" + ") || c.text || c.label))));
  }
}
