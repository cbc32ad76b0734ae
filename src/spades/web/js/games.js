// Your games, newest first: resume one in play, download any as a game record, delete an
// unfinished one you started (asked once to confirm, in the row: keyboard and screen reader
// alike; the server refuses new games past a cap of unfinished ones, docs/protocol.md).
// Not signed in: delete everything of yours (DELETE /api/me, asked once to confirm in place;
// shared games go on without you), and this browser starts afresh with a new player id.

import { api, currentSession, request, setCurrentGame } from "./net.js";

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

/** Ask ``question`` in the place of ``ask`` (in ``holder``) when it is pressed: ``yesText``
 * runs ``act`` (its error is shown and nothing else changes); Keep it (focused) or Escape
 * puts ``ask`` back. */
function confirmInPlace(holder, ask, { id, question, yesText, yesId }, act) {
  const back = () => {
    holder.replaceChildren(ask);
    ask.focus();
  };
  ask.addEventListener("click", () => {
    const group = el("span");
    group.setAttribute("role", "group");
    group.setAttribute("aria-labelledby", id);
    const text = el("span", question);
    text.id = id;
    const yes = el("button", yesText, "risky");
    yes.type = "button";
    if (yesId) yes.id = yesId;
    const no = el("button", "Keep it");
    no.type = "button";
    const error = el("span", null, "error");
    error.setAttribute("role", "alert");
    no.addEventListener("click", back);
    group.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        back();
      }
    });
    yes.addEventListener("click", async () => {
      yes.disabled = true;
      try {
        await act();
      } catch (e) {
        error.textContent = e.message;
        yes.disabled = false;
      }
    });
    group.append(text, yes, " ", no, " ", error);
    holder.replaceChildren(group);
    no.focus();
  });
  holder.append(ask);
}

/** A Delete button that asks, in its place, "Delete this game?" with Delete and Keep it
 * (focus on Keep it; Escape keeps it too); deleting lists the games again. */
function deleteButton(root, g, options) {
  const wrap = el("span", null, "delete-game");
  const ask = el("button", "Delete", "risky");
  ask.type = "button";
  ask.setAttribute("aria-label", `Delete ${g.label}, ${g.text}`);
  confirmInPlace(wrap, ask, { id: `delete-q-${g.id}`, question: "Delete this unfinished game for good? ",
    yesText: "Delete it" }, async () => {
    await api.deleteGame(g.id);
    await showGames(root, { ...options, deleted: `${g.label} deleted.` });
  });
  return wrap;
}

/** "Delete my data" for a person not signed in, confirmed in place like a game's Delete. */
function forgetSection() {
  const box = el("section", null, "forget-me");
  box.setAttribute("aria-labelledby", "forget-title");
  const title = el("h3", "Your data on this server");
  title.id = "forget-title";
  const ask = el("button", "Delete my games and data…", "risky");
  ask.type = "button";
  ask.id = "forget-me";
  const line = el("p", null);
  confirmInPlace(line, ask, { id: "forget-q", yesText: "Delete everything", yesId: "forget-confirm",
    question: "Delete every game of yours for good? At tables with friends a computer player "
      + "takes your seat and the game goes on for the others. " }, async () => {
    await request("DELETE", "/api/me");
    // this browser starts afresh: a new player id, no game open
    setCurrentGame(null);
    localStorage.removeItem("spades.player");
    location.assign("/");
  });
  box.append(title, el("p", "Not signed in: your games are kept for this browser's player id.", "hint"), line);
  return box;
}

export async function showGames(root, options) {
  await listGames(root, options);
  if (!currentSession().account) root.append(forgetSection());
}

async function listGames(root, { current, resume, deleted }) {
  root.replaceChildren(el("p", "Loading your games…", "hint"));
  let games;
  try {
    ({ games } = await api.games());
  } catch (e) {
    root.replaceChildren(el("p", e.message, "error"));
    return;
  }
  // after a deletion: said (role=status) and the focus kept in the list
  const said = el("p", deleted || "", "hint");
  said.setAttribute("role", "status");
  said.tabIndex = -1;
  if (!games.length) {
    root.replaceChildren(said, el("p", "No games yet.", "hint"));
    if (deleted) said.focus();
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
    if (g.deletable && g.id !== current) {
      actions.append(" ", deleteButton(root, g, { current, resume }));
    }
    tr.append(what, el("td", when(g.updated)), actions);
    body.append(tr);
  }
  table.append(thead, body);
  root.replaceChildren(said, table);
  if (deleted) said.focus();
}
