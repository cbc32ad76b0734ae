// The felt: every seat with its bid and tricks, who deals, leads and acts; the cards of
// the trick; whether spades are broken; the score line; the prompt saying whose turn it is.
// Pure rendering of a view.

import { cardIndex, cardName } from "./cards.js";
import { seatPlaces, sideShort } from "./seats.js";
import { bidSpoken } from "./bidpad.js";
import { endReason, gameOverText } from "./dialogs.js";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

/** "Bid 4 · Took 2", "Bid nil · Took 0", "Bidding…", "No bid yet". */
export function seatStats(v, seat) {
  const bid = v.bids[seat];
  const took = v.tricks[seat] || 0;
  if (bid == null) {
    if (v.phase === "bid" && v.turn === seat) return "Bidding…";
    return "No bid yet";
  }
  return `Bid ${bidSpoken(bid)} · Took ${took}`;
}

function seatBadges(v, seat, thinking) {
  const out = [];
  if (v.dealer === seat) out.push(["Dealer", ""]);
  if (v.kitty && v.kitty.holder === seat && v.kitty.taken != null) {
    out.push([v.kitty.taken ? "Took the kitty" : "Kept the 2♣", ""]);
  }
  if (v.phase === "play" && v.leader === seat && v.trick.length > 0) out.push(["Led", ""]);
  if (!v.over && v.turn === seat) {
    if (seat === v.seat) out.push(["Your turn", "now"]);
    else out.push([thinking ? "Thinking" : `To ${{ bid: "bid", draw: "draw" }[v.phase] || "play"}`, "now"]);
  }
  return out;
}

export function renderSeats(felt, v, names, thinking) {
  for (const old of felt.querySelectorAll(".seat")) old.remove();
  const places = seatPlaces(v.rules.players, v.seat);
  for (let seat = 0; seat < v.rules.players; seat++) {
    const box = el("div", `seat place-${places[seat]}`);
    box.setAttribute("role", "group");
    box.dataset.seat = String(seat);
    const name = names[seat];
    box.setAttribute("aria-label", seat === v.seat ? "You" : name);
    const isTurn = !v.over && v.turn === seat;
    box.classList.toggle("turn", isTurn);
    box.classList.toggle("thinking", isTurn && thinking && seat !== v.seat);
    let title = name;
    if (seat === v.partner) title += " (partner)";
    box.append(el("span", "name", title));
    const stats = el("span", "stats");
    seatStats(v, seat).split(" · ").forEach((part, i) => {
      if (i) stats.append(" · ");
      stats.append(el("span", "stat", part));
    });
    box.append(stats);
    if (v.phase === "draw" || (v.hiddenCount && seat === v.seat)) {
      const n = v.handSizes[seat];
      box.append(el("span", "stats", `${n} card${n === 1 ? "" : "s"}`));
    }
    const badges = el("span", "badges");
    for (const [text, cls] of seatBadges(v, seat, thinking)) {
      badges.append(el("span", `badge ${cls}`, text));
    }
    box.append(badges);
    felt.append(box);
  }
}

export function renderBroken(node, v) {
  const show = v.phase === "play" || v.tricksPlayed > 0;
  node.hidden = !show;
  node.classList.toggle("yes", v.broken);
  node.textContent = v.broken ? "♠ Spades broken" : "Spades not broken";
}

export function renderScoreline(node, v, names) {
  node.replaceChildren();
  const sides = v.sides;
  sides.forEach((_, side) => {
    const bags = v.bags[side];
    const span = el("span", "side");
    const bagText = v.rules.bag_limit != null ? ` (${bags} bag${bags === 1 ? "" : "s"})` : "";
    span.textContent = `${sideShort(sides, names, side, v.seat)} ${v.scores[side]}${bagText}`;
    node.append(span, " ");
  });
  node.append(el("span", "target", `to ${v.rules.target_score}`));
}


/** The prompt: the decision asked of you, who is thinking or whose turn it is, or how the
 * game ended. ``thinking``: the seat thinking now; ``reason``: why the game ended. */
export function renderPrompt(node, msg, v, who, { thinking, reason }) {
  const { legal } = msg;
  node.replaceChildren();
  if (v.over) {
    node.append(el("strong", "", "Game over. "), gameOverText(v, who), " ", endReason(v, who, reason));
    return;
  }
  if (legal) {
    const texts = {
      play: v.trick.length ? "play a card." : "lead a card.",
      bid: "bid.",
      blind_nil: "blind nil is open to you: bid it before you look at your cards, or look at them.",
      draw: legal.card ? `you drew the ${cardName(cardIndex(legal.card))}. Keep it or discard it?` : "draw.",
      pass: `choose ${legal.count} card${legal.count === 1 ? "" : "s"} to pass to ${who[legal.to]}.`,
      exchange: "you hold the two of clubs. Swap it, unseen, for the kitty, or keep it?",
    };
    node.append(el("strong", "", "Your turn: "), texts[legal.kind] || "choose.");
    if (legal.kind === "bid") node.append(el("span", "more", " How many tricks will you take?"));
    return;
  }
  if (thinking != null && v.turn === thinking) {
    node.append(`${who[thinking]} is thinking…`);
  } else if (v.turn != null) {
    node.append(`${v.turn === v.seat ? "Your" : who[v.turn] + "'s"} turn.`);
  }
}
