// The windows' contents: the score sheet hand by hand, the last trick, the end of a hand or
// a game (the sheet's arithmetic is sheet.js's).

import { cardFace, cardIndex, cardName } from "./cards.js";
import { sideName, sideShort } from "./seats.js";
import { handNotes, previousLine, sheetLines, sideCells } from "./sheet.js";

function cell(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** Narrow screens and more than two sides get the stacked sheet (a row per side). */
function stackedSheet(v) {
  return v.sides.length > 2 || window.matchMedia("(max-width: 599px)").matches;
}

function caption(v) {
  const cap = cell("caption", `Target ${v.rules.target_score}` +
    (v.rules.bag_limit != null ? `; every ${v.rules.bag_limit} bags cost ${v.rules.bag_penalty}` : ""));
  cap.className = "sr-only";
  return cap;
}

/** The score sheet: one row per finished hand, then the hand in play; ``onReview(hand)``
 * (if given) puts a Review button on each finished hand. */
export function sheetTable(v, names, onReview = null) {
  return stackedSheet(v) ? sheetStacked(v, names, null, onReview) : sheetWide(v, names, onReview);
}

/** The cells of a side in a line: bid, took, points, bags, and the score (its total). */
function sideRow(line, side, i) {
  const cells = sideCells(line, side, i).map((text) => cell("td", text));
  cells[4].className = "total";
  return cells;
}

/** The Review button of a finished hand in the score sheet. */
function reviewButton(hand, onReview) {
  const b = cell("button", "Review", { type: "button", class: "review-hand", "aria-label": `Review hand ${hand}` });
  b.addEventListener("click", () => onReview(hand));
  return b;
}

function sheetWide(v, names, onReview = null) {
  const sides = v.sides;
  const table = document.createElement("table");
  table.className = "sheet-wide";
  table.append(caption(v));
  const head = document.createElement("thead");
  const top = document.createElement("tr");
  top.append(cell("th", "Hand", { rowspan: "2", scope: "col" }));
  sides.forEach((_, i) => top.append(cell("th", sideShort(sides, names, i, v.seat),
    { colspan: "5", scope: "colgroup", title: sideName(sides, names, i) })));
  if (onReview) top.append(cell("th", "Review", { rowspan: "2", scope: "col" }));
  const sub = document.createElement("tr");
  for (let i = 0; i < sides.length; i++) {
    for (const h of ["Bid", "Took", "Points", "Bags", "Score"]) sub.append(cell("th", h, { scope: "col" }));
  }
  head.append(top, sub);
  const body = document.createElement("tbody");
  for (const line of sheetLines(v)) {
    const tr = document.createElement("tr");
    tr.append(cell("th", line.now ? `${line.hand} (now)` : String(line.hand), { scope: "row" }));
    sides.forEach((side, i) => tr.append(...sideRow(line, side, i)));
    if (onReview) {
      const td = document.createElement("td");
      if (!line.now) td.append(reviewButton(line.hand, onReview));
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(head, body);
  return table;
}

/** The sheet for a phone: one group per hand, one row per side, five short columns. */
function sheetStacked(v, names, only = null, onReview = null) {
  const sides = v.sides;
  const table = document.createElement("table");
  table.className = "sheet-stacked";
  table.append(caption(v));
  const head = document.createElement("thead");
  const tr = document.createElement("tr");
  tr.append(cell("th", sides.every((side) => side.length === 1) ? "Player" : "Side", { scope: "col" }));
  for (const [h, title] of [["Bid", ""], ["Took", ""], ["Pts", "Points"], ["Bags", ""], ["Score", ""]]) {
    const th = cell("th", "", { scope: "col" });
    if (title) {
      const abbr = cell("abbr", h, { title });
      th.append(abbr);
    } else {
      th.textContent = h;
    }
    tr.append(th);
  }
  head.append(tr);
  table.append(head);
  const lines = only ? [only] : sheetLines(v);
  for (const line of lines) {
    const body = document.createElement("tbody");
    if (!only) {
      const group = document.createElement("tr");
      group.className = "hand-row";
      const th = cell("th", line.now ? `Hand ${line.hand}, in play` : `Hand ${line.hand}`,
        { colspan: "6", scope: "colgroup" });
      if (onReview && !line.now) th.append(" ", reviewButton(line.hand, onReview));
      group.append(th);
      body.append(group);
    }
    sides.forEach((side, i) => {
      const row = document.createElement("tr");
      row.append(cell("th", sideShort(sides, names, i, v.seat), { scope: "row", title: sideName(sides, names, i) }),
        ...sideRow(line, side, i));
      body.append(row);
    });
    table.append(body);
  }
  return table;
}

/** The last trick: each card with who played it, the winner marked in words too. */
export function lastTrickBody(trick, names) {
  const box = document.createElement("div");
  if (!trick) {
    box.append(cell("p", "No trick has been played yet."));
    return box;
  }
  const row = document.createElement("div");
  row.className = "last-trick";
  for (const [seat, card] of trick.plays) {
    const fig = document.createElement("figure");
    const face = cardFace(card);
    face.setAttribute("aria-hidden", "true");
    if (seat === trick.winner) face.classList.add("won");
    const caption = cell("figcaption", names[seat]);
    const spoken = cell("span", `: ${cardName(card)}`);
    spoken.className = "sr-only";
    caption.append(spoken);
    const tags = [seat === trick.plays[0][0] ? "led" : "", seat === trick.winner ? "won" : ""];
    const tag = tags.filter(Boolean).join(", ");
    if (tag) {
      const t = cell("span", tag);
      t.className = "tag";
      caption.append(t);
    }
    fig.append(face, caption);
    row.append(fig);
  }
  box.append(row, cell("p", `${names[trick.winner]} won the trick.`));
  return box;
}

/** The notes under a hand's rows: each nil, the bag penalties, the passed cards. */
function handNotesBox(v, names, line, previous, passes) {
  const notes = handNotes(v, names, line, previous);
  const box = document.createElement("div");
  if (notes.length) {
    const list = document.createElement("ul");
    list.className = "notes";
    for (const n of notes) list.append(cell("li", n));
    box.append(list);
  }
  for (const pass of passes || []) {
    if (!pass.cards || !pass.cards.length) continue;
    const row = document.createElement("p");
    row.className = pass.to === v.seat ? "passed received" : "passed given";
    const text = pass.to === v.seat ? `${names[pass.from]} passed you` : `You passed ${names[pass.to]}`;
    row.append(cell("span", `${text}: `));
    const cards = pass.cards.map(cardIndex);
    const spoken = cards.map((c) => cardName(c)).join(" and ");
    const faces = document.createElement("span");
    faces.className = "faces";
    faces.setAttribute("role", "img");
    faces.setAttribute("aria-label", spoken);
    for (const c of cards) {
      const face = cardFace(c);
      face.classList.add("small");
      faces.append(face);
    }
    row.append(faces);
    box.append(row);
  }
  return box;
}

/** The end of a hand, as the score sheet's rows: bids, tricks, points, bags and score of
 * each side; then each nil, the bag penalties and the cards passed after a blind nil. */
export function handOverBody(v, names, line, passes) {
  const box = document.createElement("div");
  const table = sheetStacked(v, names, line);
  table.classList.add("hand-sheet");
  box.append(table, handNotesBox(v, names, line, previousLine(v.sheet, line.hand), passes));
  return box;
}

/** Why the game ended: the server's ``reason`` of the game event (target, mercy, boston,
 * moon) when known, else what the view says (a side reached the target or fell to the mercy
 * rule's losing score). */
export function endReason(v, names, reason = null) {
  const sides = v.sides;
  if (reason === "boston") return "A Boston (every trick of a hand) ends the game.";
  if (reason === "moon") return "A shot at the moon (every trick, bid and made) ends the game.";
  const target = v.rules.target_score;
  const reached = sides.map((_, i) => i).filter((i) => v.scores[i] >= target);
  const losing = v.rules.losing_score;
  const fell = losing == null ? [] : sides.map((_, i) => i).filter((i) => v.scores[i] <= losing);
  if (fell.length && !reached.length) {
    const who = fell.map((i) => sideName(sides, names, i)).join(" and ");
    return `${who} fell to ${losing} or lower: the mercy rule ends the game.`;
  }
  if (reached.length) {
    const who = reached.map((i) => sideName(sides, names, i)).join(" and ");
    return `${who} reached the target of ${target}.`;
  }
  return "";
}

/** "You and Juniper win, 512 to 431." (the winner's score first) */
export function gameOverText(v, names) {
  const sides = v.sides;
  const order = sides.map((_, i) => i);
  if (v.winner != null) order.sort((a, b) => (b === v.winner) - (a === v.winner));
  const scoreText = order.map((i) => v.scores[i]).join(" to ");
  if (v.winner == null) return `The game is over: ${scoreText}.`;
  const who = sideName(sides, names, v.winner);
  const win = who === "You" ? "You win" : `${who} win${sides[v.winner].length === 1 ? "s" : ""}`;
  return `${win}, ${scoreText}.`;
}
