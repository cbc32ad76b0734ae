// Your games, newest first: resume one in play, download any as a game record.

import { api } from "./net.js";

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text != null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleString();
}

export async function showGames(root, { current, resume }) {
  root.replaceChildren(el("p", "Loading your games…", "hint"));
  let games;
  try {
    ({ games } = await api.games());
  } catch (e) {
    root.replaceChildren(el("p", e.message, "error"));
    return;
  }
  if (!games.length) {
    root.replaceChildren(el("p", "No games yet.", "hint"));
    return;
  }
  const table = el("table", null, "games");
  const head = el("tr");
  for (const h of ["Game", "Last played", "Resume or download"]) {
    const th = el("th", h, h.startsWith("Resume") ? "sr-only" : "");
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  for (const g of games) {
    const tr = el("tr");
    const what = el("td");
    what.append(el("strong", g.label), el("br"), `${g.text}${g.id === current ? " (open now)" : ""}`);
    const actions = el("td");
    if (g.status === "playing" && g.id !== current) {
      const b = el("button", "Resume");
      b.type = "button";
      b.setAttribute("aria-label", `Resume ${g.label}, ${g.text}`);
      b.addEventListener("click", () => resume(g.id));
      actions.append(b, " ");
    }
    const a = el("a", "Download record");
    a.href = api.recordUrl(g.id);
    a.download = `spades-${g.id}.json`;
    a.setAttribute("aria-label", `Download the record of ${g.label}, ${g.text}`);
    actions.append(a);
    tr.append(what, el("td", when(g.updated)), actions);
    body.append(tr);
  }
  table.append(thead, body);
  root.replaceChildren(table);
}
