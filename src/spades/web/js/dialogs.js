// The windows: the score sheet hand by hand, the last trick, the end of a hand or a game.

import { cardFace, cardName } from "./cards.js";
import { bidLabel } from "./bidpad.js";
import { sideName, sideShort } from "./seats.js";

function cell(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function sideBids(side, bids) {
  return side.map((s) => (bids[s] == null ? "–" : bidLabel(bids[s]))).join(" + ");
}

function sideTricks(side, tricks) {
  return side.reduce((sum, s) => sum + (tricks[s] || 0), 0);
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** The score sheet: one row per finished hand, then the hand in play. */
export function sheetTable(v, names) {
  const sides = v.sides;
  const table = document.createElement("table");
  const cap = cell("caption", `Target ${v.rules.target_score}` +
    (v.rules.bag_limit != null ? `; every ${v.rules.bag_limit} bags cost ${v.rules.bag_penalty}` : ""));
  cap.className = "sr-only";
  table.append(cap);
  const head = document.createElement("thead");
  const top = document.createElement("tr");
  top.append(cell("th", "Hand", { rowspan: "2", scope: "col" }));
  sides.forEach((_, i) => top.append(cell("th", sideShort(sides, names, i, v.seat),
    { colspan: "5", scope: "colgroup", title: sideName(sides, names, i) })));
  const sub = document.createElement("tr");
  for (let i = 0; i < sides.length; i++) {
    for (const h of ["Bid", "Took", "Points", "Bags", "Score"]) sub.append(cell("th", h, { scope: "col" }));
  }
  head.append(top, sub);
  const body = document.createElement("tbody");
  for (const line of v.sheet) {
    const tr = document.createElement("tr");
    tr.append(cell("th", String(line.hand), { scope: "row" }));
    sides.forEach((side, i) => {
      tr.append(cell("td", sideBids(side, line.bids)), cell("td", String(sideTricks(side, line.tricks))),
        cell("td", signed(line.points[i])), cell("td", String(line.bags[i])));
      const score = cell("td", String(line.scores[i]));
      score.className = "total";
      tr.append(score);
    });
    body.append(tr);
  }
  if (!v.over) {
    const tr = document.createElement("tr");
    tr.append(cell("th", `${v.handNumber} (now)`, { scope: "row" }));
    sides.forEach((side, i) => {
      tr.append(cell("td", sideBids(side, v.bids)), cell("td", String(sideTricks(side, v.tricks))),
        cell("td", "–"), cell("td", String(v.bags[i])), cell("td", String(v.scores[i])));
    });
    body.append(tr);
  }
  table.append(head, body);
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

/** The end of a hand: what each side bid, took and scored. */
export function handOverBody(v, names, line) {
  const box = document.createElement("div");
  const sides = v.sides;
  const list = document.createElement("ul");
  sides.forEach((side, i) => {
    const who = sideName(sides, names, i);
    const took = sideTricks(side, line.tricks);
    list.append(cell("li", `${who}: bid ${sideBids(side, line.bids)}, took ${took}, ` +
      `${signed(line.points[i])} points, ${line.bags[i]} bags; score ${line.scores[i]}.`));
  });
  box.append(list);
  return box;
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
