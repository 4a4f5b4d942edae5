// Age of Automaton at the live table: a turn's main action is taken by tapping one of
// your automatons and then an action space; the label (the engine's, as in Discord)
// shows its cost and gain before you confirm. Special and free actions, passing, and the
// other decisions use the table's numbered list.

let worker = null;
let chosen = null;
let forVersion = null;

const SPACES = { prospect: "Prospect", equipment: "Equipment", rnd: "R&D", sale: "Sale" };
const LEVELS = ["", "I", "II", "III", "IV"];

export function update(t) {
  if (forVersion !== t.version) { worker = null; chosen = null; forVersion = t.version; }
}

export function decision(root, t, h) {
  const p = t.prompt;
  if (!p || p.type !== "turn" || !t.actions.length) return false;
  const main = t.actions.filter((a) => a.action.type === "main" && a.action.worker !== undefined);
  const others = t.actions.filter((a) => !main.includes(a));
  root.append(h.el("h2", { text: "Your turn" }));
  if (p.text) root.append(h.el("p", { text: p.text }));
  if (main.length) {
    const workers = [...new Set(main.map((a) => a.action.worker))].sort((a, b) => a - b);
    root.append(h.el("h3", { text: "1. Tap an automaton" }));
    root.append(h.el("div", { class: "row", id: "workers" }, workers.map((w) =>
      h.el("button", { type: "button", class: worker === w ? "chosen" : "", "data-worker": w, onclick: () => { worker = w; chosen = null; h.redraw(); } }, `Level ${LEVELS[w] || w} automaton`))));
    if (worker !== null) {
      root.append(h.el("h3", { text: "2. Tap an action space" }));
      const mine = main.filter((a) => a.action.worker === worker);
      const groups = {};
      for (const a of mine) (groups[a.action.action] = groups[a.action.action] || []).push(a);
      for (const [space, list] of Object.entries(groups)) {
        root.append(h.el("div", { class: "muted", text: SPACES[space] || space }));
        root.append(h.el("div", { class: "actions", "data-space": space }, list.map((a) =>
          h.el("button", { type: "button", class: chosen === a.n ? "chosen" : "", "data-n": a.n, onclick: () => { chosen = a.n; h.redraw(); } }, `${a.n}. ${a.label}`))));
      }
    }
  }
  if (others.length) {
    root.append(h.el("h3", { text: main.length ? "Or another action" : "Actions" }));
    root.append(h.el("div", { class: "actions" }, others.map((a) =>
      h.el("button", { type: "button", class: chosen === a.n ? "chosen" : "", "data-n": a.n, onclick: () => { chosen = a.n; h.redraw(); } }, `${a.n}. ${a.label}`))));
  }
  const a = t.actions.find((x) => x.n === chosen);
  if (a) root.append(h.confirmBar(`${a.n}. ${a.label}`, () => h.act(a.action), () => { chosen = null; h.redraw(); }));
  return true;
}

export function board(root, t, h) {
  const v = t.view;
  root.append(h.el("h2", { text: "Companies" }));
  const tbl = h.el("table", { class: "players" }, h.el("tr", {}, ["Player", "VP", "Credits", "Resources", "Reputation"].map((x) => h.el("th", { text: x }))));
  for (const seat of v.seats) {
    const p = v.players[seat];
    const res = Object.entries(p.resources || {}).map(([k, n]) => `${n} ${k}`).join(", ");
    tbl.append(h.el("tr", { class: seat === t.you ? "you" : "" },
      h.el("td", { text: h.nameOf(seat) + (v.turn === seat ? " ▶" : "") }), h.el("td", { text: String(p.vp) }),
      h.el("td", { text: String(p.credits) }), h.el("td", { text: res || "—" }), h.el("td", { text: String(p.reputation) })));
  }
  root.append(tbl);
  for (const [row, cards] of Object.entries(v.rows || {})) {
    root.append(h.el("h3", { text: `${SPACES[row] || row} cards (tap for details)` }));
    root.append(h.el("div", { class: "chips" }, cards.map((c) => {
      const cost = c.cost ? Object.entries(c.cost).map(([k, n]) => `${n} ${k}`).join(", ") : "";
      return h.el("span", { class: "chip tap", "data-detail": `${c.name}${cost ? "\nCost: " + cost : ""}${c.vp ? "\n" + c.vp + " VP" : ""}` }, c.name);
    })));
  }
}
