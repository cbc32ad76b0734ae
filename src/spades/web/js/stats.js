// Statistics: loaded only when opened (import("./stats.js")). Reads GET /api/stats (your own
// games, worked out by the server from the stored records) and shows tables, with three small
// charts drawn here as inline SVG. Every chart has a text alternative and the same figures
// stand in a real table beside it, so nothing is only in a picture.

import { api } from "./net.js";

const SVG = "http://www.w3.org/2000/svg";
let dialog = null;

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text != null) node.textContent = text;
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (text != null) node.textContent = text;
  return node;
}

const percent = (v) => (v == null ? "–" : `${Math.round(100 * v)}%`);
const one = (v) => (v == null ? "–" : v.toFixed(1));
const of = (part, whole) => (whole ? `${part} of ${whole}` : "–");
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function ensureDialog() {
  if (dialog) return dialog;
  const css = el("link", null, { rel: "stylesheet", href: new URL("../css/stats.css", import.meta.url).href });
  document.head.append(css);
  dialog = el("dialog", null, { id: "dlg-stats", "aria-labelledby": "stats-title", class: "wide stats" });
  const body = el("div", null, { id: "stats-body", tabindex: "-1" });
  const form = el("form", null, { method: "dialog" });
  form.append(el("button", "Close", { class: "primary" }));
  dialog.append(el("h2", "Statistics", { id: "stats-title" }), body, form);
  document.body.append(dialog);
  return dialog;
}

/** Open the statistics window; focus goes back to ``opener`` when it closes. */
export async function openStats(opener) {
  const dlg = ensureDialog();
  for (const d of document.querySelectorAll("dialog[open]")) if (d !== dlg) d.close();
  const body = dlg.querySelector("#stats-body");
  body.replaceChildren(el("p", "Working out your statistics…", { class: "hint", role: "status" }));
  if (!dlg.open) dlg.showModal();
  dlg.addEventListener("close", () => opener && opener.focus(), { once: true });
  let data;
  try {
    data = await api.stats();
  } catch (e) {
    const text = e.status === 0 ? "The table's server cannot be reached." : e.message;
    body.replaceChildren(el("p", text, { class: "error", role: "alert" }));
    return;
  }
  render(body, data);
  body.focus();
}

export function render(body, data) {
  const t = data.overall;
  const practice = data.practice || {};
  const practiced = (practice.games || 0) + (practice.in_play || 0);
  if (!t.hands && !t.games && !practiced) {
    body.replaceChildren(el("p", "No finished hands yet: play a hand and come back.", { class: "hint" }));
    return;
  }
  const lead = el("p", null, { class: "stats-lead" });
  lead.textContent = `${plural(t.games, "finished game")}, ${t.wins} won (${percent(t.win_rate)})` +
    `${t.in_play ? `; ${t.in_play} in play` : ""}. ${plural(t.hands, "hand")}: ` +
    `${one(t.points_per_hand)} points and ${one(t.bags_per_hand)} bags a hand.`;
  if (data.unreadable) {
    lead.append(` ${plural(data.unreadable, "saved game")} could not be read and ` +
      `${data.unreadable === 1 ? "is" : "are"} left out.`);
  }
  const charts = el("div", null, { class: "stats-charts" });
  charts.append(pointsChart(data.recent), madeChart(t), nilChart(t));
  body.replaceChildren(
    lead, charts,
    tallyTable("All your games", "", [["All games", t]]),
    tallyTable("By variant", "Variant", data.by_preset.map((g) => [g.label, g])),
    tallyTable("By computer players' level", "Level", data.by_level.map((g) => [level(g.label), g])),
    ...(practiced ? [tallyTable("Practice games (undo, hint or a chosen deal), counted apart", "",
      [["Practice games", practice]])] : []),
    recentTable(data.recent),
    el("p", "A bid made or set is your side's bid; bags are the new bags of a hand. Figures come " +
      "from your saved games, finished hands only.", { class: "hint" }),
  );
}

function level(name) {
  return name ? name[0].toUpperCase() + name.slice(1) : "–";
}

// ---------------------------------------------------------------- tables

const HEADS = ["Games", "Won", "Hands", "Bids made", "Sets", "Nil made", "Blind nil made",
  "Bags a hand", "Points a hand"];

// A wide table scrolls sideways in its own box, which the keyboard can reach and scroll.
function scroller(caption) {
  return el("div", null, { class: "stats-table", tabindex: "0", role: "region", "aria-label": caption });
}

function tallyTable(caption, first, rows) {
  const wrap = scroller(caption);
  const table = el("table");
  table.append(el("caption", caption));
  const head = el("tr");
  const corner = el("th", first || null, { scope: "col" });
  if (!first) corner.append(el("span", "Games", { class: "sr-only" }));
  head.append(corner);
  for (const h of HEADS) head.append(el("th", h, { scope: "col" }));
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const [name, t] of rows) {
    const tr = el("tr");
    tr.append(el("th", name, { scope: "row" }));
    for (const v of [String(t.games), `${t.wins} (${percent(t.win_rate)})`, String(t.hands),
      `${t.made} (${percent(t.made_rate)})`, String(t.sets), of(t.nil_made, t.nil),
      of(t.blind_nil_made, t.blind_nil), one(t.bags_per_hand), one(t.points_per_hand)]) {
      tr.append(el("td", v));
    }
    tbody.append(tr);
  }
  table.append(thead, tbody);
  wrap.append(table);
  return wrap;
}

function recentTable(recent) {
  const wrap = scroller("Your last games");
  const table = el("table", null, { id: "stats-recent" });
  table.append(el("caption", "Your last games, newest first"));
  const head = el("tr");
  for (const h of ["Game", "Level", "Result", "Hands", "Points a hand", "Bids made", "Nil made"]) {
    head.append(el("th", h, { scope: "col" }));
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const g of recent) {
    const tr = el("tr");
    const when = g.when ? new Date(g.when) : null;
    const name = el("th", g.label, { scope: "row" });
    if (when && !Number.isNaN(when.getTime())) name.append(el("br"), el("small", when.toLocaleDateString()));
    tr.append(name);
    const result = (g.over ? (g.won ? "Won" : "Lost") : "In play") +
      (g.practice && g.practice.length ? " (practice)" : "");
    for (const v of [level(g.level), result, String(g.hands), one(g.points_per_hand),
      of(g.made, g.made + g.sets), of(g.nil_made, g.nil)]) {
      tr.append(el("td", v));
    }
    tbody.append(tr);
  }
  table.append(thead, tbody);
  wrap.append(table);
  return wrap;
}

// ---------------------------------------------------------------- charts

function figure(title, description, picture) {
  const fig = el("figure", null, { class: "stats-chart" });
  const id = `chart-${Math.random().toString(36).slice(2, 8)}`;
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-labelledby", `${id}-t`);
  picture.setAttribute("aria-describedby", `${id}-d`);
  picture.setAttribute("focusable", "false");
  fig.append(el("figcaption", title, { id: `${id}-t` }), picture,
    el("p", description, { id: `${id}-d`, class: "sr-only" }));
  return fig;
}

/** Points a hand in each of the last games, oldest on the left; bars below zero go down. */
function pointsChart(recent) {
  const games = recent.filter((g) => g.hands).slice(0, 12).reverse();
  const W = 240, H = 120, pad = 6, left = 34;
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart" });
  const values = games.map((g) => g.points_per_hand);
  const top = Math.max(10, ...values), bottom = Math.min(0, ...values);
  const y = (v) => pad + (top - v) * (H - 2 * pad) / (top - bottom);
  const step = (W - left - pad) / Math.max(games.length, 1);
  // the scale: the highest and lowest figures and zero, at the left
  const marks = [];
  for (const v of [0, Math.round(top), Math.round(bottom)]) {
    if (marks.some((m) => Math.abs(y(m) - y(v)) < 14)) continue;
    marks.push(v);
    box.append(svg("text", { x: left - 4, y: (y(v) + 4).toFixed(1), class: "label small", "text-anchor": "end" }, String(v)));
  }
  games.forEach((g, i) => {
    const v = g.points_per_hand;
    const bar = svg("rect", {
      x: (left + i * step + step * 0.15).toFixed(1), width: (step * 0.7).toFixed(1),
      y: y(Math.max(v, 0)).toFixed(1), height: Math.max(1, Math.abs(y(v) - y(0))).toFixed(1),
      class: v < 0 ? "bar minus" : "bar plus",
    });
    bar.append(svg("title", {}, `${g.label}: ${one(v)} points a hand`));
    box.append(bar);
  });
  box.append(svg("line", { x1: left, x2: W - pad, y1: y(0), y2: y(0), class: "axis" }));
  const text = games.length
    ? `Points a hand in your last ${plural(games.length, "game")}, oldest first: ` +
      games.map((g) => one(g.points_per_hand)).join(", ") + "."
    : "No finished hands yet.";
  return figure("Points a hand, last games", text, box);
}

/** One bar split into bids made and bids set. */
function splitBar(parts, total) {
  const W = 240, H = 44;
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart" });
  let x = 0;
  for (const [count, cls, label] of parts) {
    const w = total ? (W * count) / total : 0;
    if (w > 0) {
      const rect = svg("rect", { x: x.toFixed(1), y: 4, width: w.toFixed(1), height: 22, class: cls });
      rect.append(svg("title", {}, `${label}: ${count}`));
      box.append(rect);
    }
    x += w;
  }
  if (!total) box.append(svg("rect", { x: 0, y: 4, width: W, height: 22, class: "bar empty" }));
  box.append(svg("text", { x: 0, y: 40, class: "label" }, parts.map(([c, , l]) => `${l} ${c}`).join(" · ")));
  return box;
}

function madeChart(t) {
  const picture = splitBar([[t.made, "bar plus", "made"], [t.sets, "bar minus", "set"]], t.contracts);
  return figure("Bids made and set",
    `Your side made ${plural(t.made, "bid")} and was set ${t.sets} times (${percent(t.made_rate)} made).`,
    picture);
}

function nilChart(t) {
  const W = 240, H = 70;
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart" });
  [["Nil", t.nil_made, t.nil], ["Blind nil", t.blind_nil_made, t.blind_nil]].forEach(([name, made, tried], i) => {
    const y = 4 + i * 34;
    box.append(svg("rect", { x: 70, y, width: 170, height: 18, class: "bar empty" }));
    if (tried && made) {
      const rect = svg("rect", { x: 70, y, width: ((170 * made) / tried).toFixed(1), height: 18, class: "bar plus" });
      rect.append(svg("title", {}, `${name}: ${made} made of ${tried}`));
      box.append(rect);
    }
    box.append(svg("text", { x: 0, y: y + 14, class: "label" }, name));
    box.append(svg("text", { x: 70, y: y + 31, class: "label small" }, tried ? `${made} of ${tried} made` : "none bid"));
  });
  return figure("Nil made of bid",
    `Nil: ${t.nil ? `${t.nil_made} made of ${t.nil}` : "none bid"}. ` +
    `Blind nil: ${t.blind_nil ? `${t.blind_nil_made} made of ${t.blind_nil}` : "none bid"}.`, box);
}
