// The review of a finished hand: loaded only when opened (import("./review.js")). Asks the
// server over the table's websocket ({"type": "review", "hand": N}), shows its progress, then
// steps through the hand trick by trick and play by play: each play with its side's tricks
// under best play before and after it (every hand seen, every seat at its best), and the
// marks the server found, each with its sentence. The server decides everything shown here.
// While the server works, its "review-progress" messages may carry the review of the plays
// worked out so far: those tricks can be read at once, the rest follow. Counts the server
// could only estimate (a bounded search, docs/review.md) are marked "≈" and said so.

import { cardFace, cardIndex, cardName } from "./cards.js";
import { bidLabel } from "./bidpad.js";

let dialog = null;
let view = null; // { hand, ctx, review, final, index, opener, shownStep }

const MARK_TAGS = { cost: "Cost a trick", bag: "Bag", nil: "Nil broken" };

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text != null) node.textContent = text;
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function button(label, onClick, attrs) {
  const b = el("button", label, { type: "button", ...attrs });
  b.addEventListener("click", onClick);
  return b;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function ensureDialog() {
  if (dialog) return dialog;
  const css = el("link", null, { rel: "stylesheet", href: new URL("../css/review.css", import.meta.url).href });
  document.head.append(css);
  dialog = el("dialog", null, { id: "dlg-review", "aria-labelledby": "review-title", class: "wide review" });
  const form = el("form", null, { method: "dialog" });
  form.append(el("button", "Close", { class: "primary" }));
  // Play this deal again (issue 41): a new game dealt the same cards, from 0-0 or the scores
  const again = el("div", null, { id: "review-again", role: "group", "aria-label": "Play this deal again" });
  again.append(
    button("Play this deal again from 0-0", () => playAgain(false), { id: "review-again-zero" }),
    button("Play it again from the scores before it", () => playAgain(true), { id: "review-again-scores" }));
  dialog.append(el("h2", "Review", { id: "review-title" }), el("div", null, { id: "review-body" }),
    el("p", null, { id: "review-live", class: "sr-only", "aria-live": "polite", "aria-atomic": "true" }),
    again, form);
  dialog.addEventListener("keydown", onKey);
  dialog.addEventListener("close", () => {
    const opener = view && view.opener;
    view = null;
    if (opener && opener.isConnected && !opener.closest("dialog:not([open]), [hidden]")) opener.focus();
  });
  document.body.append(dialog);
  return dialog;
}

/**
 * Open the review of finished hand ``hand``. ``ctx``: { names, you, sides, send(message) }
 * (send returns false when the table is not connected); ``opener`` gets focus back.
 */
export function openReview(hand, ctx, opener) {
  const dlg = ensureDialog();
  for (const d of document.querySelectorAll("dialog[open]")) if (d !== dlg) d.close();
  view = { hand, ctx, review: null, final: false, index: 0, opener, shownStep: -1 };
  dlg.querySelector("#review-title").textContent = `Review of hand ${hand}`;
  dlg.querySelector("#review-live").textContent = "";
  const body = dlg.querySelector("#review-body");
  const status = el("p", `Asking the server for the review of hand ${hand}…`, { id: "review-status", role: "status" });
  const bar = el("progress", null, { id: "review-progress", "aria-label": "Review worked out so far" });
  body.replaceChildren(status, bar, el("p", "Every hand is laid open and every seat plays its best " +
    "from each moment of the hand: the first lead takes the longest.", { class: "hint" }));
  if (!dlg.open) dlg.showModal();
  ask();
}

/** A new game from this hand's deal (POST .../hands/N/again): the table opens it. */
async function playAgain(fromScores) {
  if (!view || !view.ctx.again) return;
  const { ctx, hand } = view;
  try {
    const { currentGame, request } = await import("./net.js");
    const data = await request("POST", `/api/games/${encodeURIComponent(currentGame())}/hands/${hand}/again`,
      { from_scores: fromScores });
    dialog.close();
    ctx.again(data.id);
    const { announce } = await import("./announce.js");
    announce(`A new game: hand ${hand} is dealt again, the same cards at the same seats.`);
  } catch (e) {
    say(sentence(e.message || "The deal could not be played again."));
  }
}

function ask() {
  if (view && !view.final && !view.ctx.send({ type: "review", hand: view.hand })) {
    showError("Not connected to the table; the review is asked for again when the connection is back.");
  }
}

/** The table's socket connected again: ask again for a review still awaited. */
export function reconnected() {
  if (dialog && dialog.open && view && !view.final) ask();
}

/** A message of the server about a review: progress, the review, or why there is none. */
export function received(msg) {
  if (!view || !dialog || !dialog.open || msg.hand !== view.hand || view.final) return;
  if (msg.type === "review-progress") {
    if (msg.review && msg.review.plays.length) showReview(msg.review, true);
    showProgress(msg.done, msg.total);
  } else if (msg.type === "review") showReview(msg.review, false);
  else if (msg.type === "error") showError(msg.message ? sentence(msg.message) : "The review could not be made.");
}

function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
}

function showProgress(done, total) {
  const bar = dialog.querySelector("#review-progress");
  const status = dialog.querySelector("#review-status");
  if (!bar || !status) return;
  bar.max = total;
  bar.value = done;
  // the status (spoken) every tenth of the way, the bar at every step
  const step = Math.floor((10 * done) / Math.max(total, 1));
  if (step !== view.shownStep && !view.review) {
    view.shownStep = step;
    status.textContent = `Working out the review: ${done} of ${total} positions.`;
  }
}

function showError(text) {
  const body = dialog.querySelector("#review-body");
  body.replaceChildren(el("p", text, { class: "error", role: "alert" }));
}

// ---------------------------------------------------------------- the review

function who(seat) {
  return seat === view.ctx.you ? "you" : view.ctx.names[seat];
}

function Who(seat) {
  const w = who(seat);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** "you and Juniper", "Bramble and Clover", "Bramble". */
function sideWords(side) {
  return view.review.sides[side].seats.map(who).join(" and ");
}

/** Show ``review``: the whole of it, or (``partial``) the plays worked out so far. */
function showReview(review, partial) {
  const first = !view.review;
  view.review = review;
  view.final = !partial;
  view.index = Math.min(view.index, review.plays.length - 1);
  const body = dialog.querySelector("#review-body");
  const marked = review.plays.filter((p) => p.marks.length).length;
  const tricks = tricksOf(review);
  const lead = el("p", `${plural(marked, "play")} marked of ${review.plays.length}` +
    (partial ? " worked out so far" : "") +
    ". Left and Right step play by play, Up and Down trick by trick.", { class: "hint", id: "review-lead" });
  const notes = (review.notes || []).map((n) => el("p", n, { class: "hint review-note" }));
  const parts = [parTable(review), ...hardBids(review), ...notes, lead];
  if (partial) {
    const status = el("p", `Worked out up to trick ${tricks} of ${handTricks(review)}; the rest is being worked out.`,
      { id: "review-status", role: "status" });
    const bar = dialog.querySelector("#review-progress") || el("progress", null, { id: "review-progress", "aria-label": "Review worked out so far" });
    parts.unshift(status, bar);
  }
  if (first) {
    body.replaceChildren(...parts, el("section", null, { id: "review-trick", "aria-labelledby": "review-trick-title" }));
  } else {
    const section = dialog.querySelector("#review-trick");
    for (const node of [...body.children]) if (node !== section) node.remove();
    body.prepend(...parts);
  }
  renderTrick();
  const ready = partial ? `Hand ${review.hand} is worked out up to trick ${tricks}; the rest is being worked out.`
    : `The review of hand ${review.hand} is ready.`;
  if (first) {
    dialog.querySelector("#review-live").textContent =
      `${ready} ${plural(marked, "play")} marked. ${playSentence(review.plays[view.index])}`;
    dialog.querySelector("#review-next").focus();
  } else if (!partial) {
    say(`${ready} ${plural(marked, "play")} marked.`);
  }
}

function parTable(review) {
  const wrap = el("section", null, { "aria-labelledby": "review-par-title" });
  const table = el("table", null, { class: "review-par" });
  const head = el("tr");
  for (const h of ["Side", "Bid", "Par", "Took"]) head.append(el("th", h, { scope: "col" }));
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const s of review.sides) {
    const tr = el("tr");
    const name = s.seats.map(Who).join(" and ");
    const par = s.par == null ? "…" : (s.exact === false ? "≈ " : "") + s.par;
    tr.append(el("th", name, { scope: "row" }), el("td", s.bids.map(bidLabel).join(" + ")),
      el("td", par), el("td", String(s.took)));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  wrap.append(el("h3", "Bids and par", { id: "review-par-title" }), table,
    el("p", "Par: the tricks a side takes when every hand is seen and every seat plays its best.", { class: "hint" }));
  return wrap;
}

/** The last trick with a play in ``review`` (so far, while it is worked out). */
function tricksOf(review) {
  return review.plays.reduce((n, p) => Math.max(n, p.trick), 0);
}

/** The tricks of the whole hand (every trick was taken by some side). */
function handTricks(review) {
  return Math.max(tricksOf(review), review.sides.reduce((n, s) => n + s.took, 0));
}

/** An estimated count (docs/review.md) is marked "≈". */
function countText(play) {
  const about = play.exact === false ? "≈ " : "";
  return play.before === play.after ? `${about}${plural(play.before, "trick")}, kept`
    : `${about}${play.before} → ${play.after} ${play.after === 1 ? "trick" : "tricks"}`;
}

// ---------------------------------------------------------------- what Hard would have done

/** Hard's choice beside ``play`` (review.hard, docs/review.md), if the review has one. */
function hardOf(play) {
  const hard = view.review.hard;
  if (!hard) return null;
  return hard.choices.find((c) => c.kind === "play" && c.trick === play.trick && c.seat === play.seat) || null;
}

/** "Hard: the same card." or what Hard would have played and its worth double dummy. */
function hardText(play) {
  const c = hardOf(play);
  if (!c) return "";
  if (c.same) return "Hard would have played the same card.";
  const name = cardName(cardIndex(c.hard));
  if (c.hard_tricks == null || c.played_tricks == null) return `Hard would have played the ${name}.`;
  const diff = c.hard_tricks - c.played_tricks;
  const worth = diff === 0 ? "the same under best play" : diff > 0 ? `${plural(diff, "trick")} more under best play`
    : `${plural(-diff, "trick")} fewer under best play`;
  return `Hard would have played the ${name}: ${worth} (${c.hard_tricks} against ${c.played_tricks}).`;
}

/** Hard's bids beside the bids of the seats the review has them for. */
function hardBids(review) {
  if (!review.hard) return [];
  return review.hard.choices.filter((c) => c.kind === "bid").map((c) => {
    const yours = c.seat === view.ctx.you ? "you bid" : `${view.ctx.names[c.seat]} bid`;
    const text = c.same ? `Hard would have bid ${bidLabel(c.hard)} too (${yours} ${bidLabel(c.played)}).`
      : `Hard would have bid ${bidLabel(c.hard)}; ${yours} ${bidLabel(c.played)}.`;
    return el("p", text, { class: "hint review-hard-bid" });
  });
}

/** What a screen reader hears for one play. */
function playSentence(play) {
  const review = view.review;
  const inTrick = review.plays.filter((p) => p.trick === play.trick);
  const at = inTrick.indexOf(play) + 1;
  const card = cardName(cardIndex(play.card));
  const verb = play.seat === view.ctx.you ? "You play" : `${view.ctx.names[play.seat]} plays`;
  const about = play.exact === false ? "about " : "";
  const estimate = play.exact === false ? " An estimate." : "";
  const counts = play.before === play.after
    ? `Best play for ${sideWords(play.side)}: ${about}${plural(play.before, "trick")}, kept.${estimate}`
    : `Best play for ${sideWords(play.side)}: ${about}${plural(play.before, "trick")} before, ${play.after} after.${estimate}`;
  const marks = play.marks.map((m) => m.text).join(" ");
  const hard = hardText(play);
  return `Trick ${play.trick} of ${handTricks(review)}, card ${at} of ${inTrick.length}: ${verb} the ${card}. ` +
    `${counts}${marks ? " " + marks : ""}${hard ? " " + hard : ""}`;
}

function renderTrick() {
  const review = view.review;
  const play = review.plays[view.index];
  const section = dialog.querySelector("#review-trick");
  const heading = el("h3", `Trick ${play.trick} of ${handTricks(review)}`, { id: "review-trick-title" });
  const list = el("ol", null, { class: "review-plays" });
  review.plays.forEach((p, i) => {
    if (p.trick !== play.trick) return;
    const item = el("li", null, { class: "review-play" + (p.marks.length ? " marked" : "") });
    if (i === view.index) {
      item.classList.add("current");
      item.setAttribute("aria-current", "true");
    }
    const face = cardFace(cardIndex(p.card));
    face.classList.add("small");
    face.setAttribute("aria-hidden", "true");
    const words = el("p", null, { class: "play-words" });
    words.append(el("strong", Who(p.seat)), `: ${cardName(cardIndex(p.card))}`);
    const counts = el("p", `Best play for ${sideWords(p.side)}: ${countText(p)}`, { class: "play-counts" });
    const text = el("div", null, { class: "play-text" });
    text.append(words, counts);
    for (const m of p.marks) {
      const mark = el("p", null, { class: `mark mark-${m.kind}` });
      mark.append(el("span", MARK_TAGS[m.kind] || m.kind, { class: "tag" }), " ", m.text);
      text.append(mark);
    }
    const hard = hardText(p);
    if (hard) text.append(el("p", hard, { class: "play-hard" }));
    item.append(face, text);
    list.append(item);
  });
  const nav = el("div", null, { class: "review-nav", role: "group", "aria-label": "Step through the hand" });
  nav.append(
    button("◀◀", () => step("trick", -1), { "aria-label": "Previous trick", id: "review-prev-trick", "aria-keyshortcuts": "ArrowUp" }),
    button("◀", () => step("play", -1), { "aria-label": "Previous play", id: "review-prev", "aria-keyshortcuts": "ArrowLeft" }),
    button("▶", () => step("play", 1), { "aria-label": "Next play", id: "review-next", "aria-keyshortcuts": "ArrowRight" }),
    button("▶▶", () => step("trick", 1), { "aria-label": "Next trick", id: "review-next-trick", "aria-keyshortcuts": "ArrowDown" }),
    button("Next marked play", () => step("mark", 1), { id: "review-next-mark" }),
  );
  const focused = document.activeElement && section.contains(document.activeElement) ? document.activeElement.id : null;
  section.replaceChildren(heading, list, nav);
  if (focused && dialog.querySelector(`#${focused}`)) dialog.querySelector(`#${focused}`).focus();
}

/** Move by a play, a trick, or to the next marked play; say where we are. */
function step(unit, by) {
  if (!view || !view.review) return;
  const plays = view.review.plays;
  let index = view.index;
  if (unit === "play") {
    index = Math.min(Math.max(index + by, 0), plays.length - 1);
  } else if (unit === "trick") {
    const trick = Math.min(Math.max(plays[index].trick + by, 1), tricksOf(view.review));
    index = plays.findIndex((p) => p.trick === trick);
  } else if (unit === "first" || unit === "last") {
    index = unit === "first" ? 0 : plays.length - 1;
  } else {
    const next = plays.findIndex((p, i) => i > index && p.marks.length);
    if (next < 0) {
      say("No marked play after this one.");
      return;
    }
    index = next;
  }
  if (index === view.index) {
    say(by < 0 ? "This is the first play of the hand."
      : view.final ? "This is the last play of the hand." : "This is the last play worked out so far.");
    return;
  }
  view.index = index;
  renderTrick();
  say(playSentence(plays[index]));
}

function say(text) {
  const live = dialog.querySelector("#review-live");
  live.textContent = text;
}

const KEYS = {
  ArrowLeft: ["play", -1], ArrowRight: ["play", 1], ArrowUp: ["trick", -1], ArrowDown: ["trick", 1],
  PageUp: ["trick", -1], PageDown: ["trick", 1], Home: ["first", -1], End: ["last", 1],
};

function onKey(event) {
  if (!view || !view.review || event.ctrlKey || event.metaKey || event.altKey) return;
  const move = KEYS[event.key];
  if (!move) return;
  event.preventDefault();
  step(move[0], move[1]);
}
