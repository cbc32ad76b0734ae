// The server's state message (docs/protocol.md) in the shapes the views draw: the table's
// view, your hand, the decision asked. Pure functions of the message: no DOM, nothing kept.

import { cardIndex } from "./cards.js";

/** The rules as help.js and the renderers read them: the server's, named by the preset. */
export function rulesOf(msg) {
  return { ...msg.game.rules, name: msg.game.rules.preset };
}

/** [[seat, card index]] of a list of {seat, card} plays. */
export function seatPlays(list) {
  return list.map((p) => [p.seat, cardIndex(p.card)]);
}

/** The view in the shape the renderers use. */
export function tableView(msg) {
  const v = msg.view;
  return {
    seat: msg.game.you,
    rules: rulesOf(msg),
    sides: msg.game.sides,
    partner: msg.game.partner,
    phase: v.phase,
    turn: v.turn,
    handNumber: v.hand_number,
    dealer: v.dealer,
    leader: v.leader,
    bids: v.bids,
    tricks: v.tricks,
    trick: seatPlays(v.trick || []),
    lastTrick: v.last_trick ? { plays: seatPlays(v.last_trick.cards), winner: v.last_trick.winner } : null,
    tricksPlayed: v.tricks_played,
    broken: v.broken,
    scores: v.scores,
    bags: v.bags,
    sheet: v.sheet,
    over: v.over,
    winner: v.winner,
    handSizes: v.hand_sizes,
    hiddenCount: v.hand_hidden ? v.hand_sizes[msg.game.you] : 0,
    kitty: v.kitty,
    passes: v.passes || [],
  };
}

/** The cards passed to you after a blind nil, marked in your hand for the first trick:
 * card index -> the name of who passed it. */
export function passedToYou(msg, v) {
  const out = new Map();
  if (v.phase !== "play" || v.tricksPlayed > 0) return out;
  for (const pass of v.passes) {
    if (pass.to !== v.seat || !pass.cards) continue;
    for (const c of pass.cards) out.set(cardIndex(c), msg.game.players[pass.from]);
  }
  return out;
}

/** The decision asked of you ("play", "bid", "pass", ...), "" when none. */
export function decisionOf(msg) {
  return msg.legal ? msg.legal.kind : "";
}

/** What the table shows as asked, for styling and tests: the decision, "over", or "". */
export function shownDecision(msg) {
  return msg.legal ? msg.legal.kind : msg.view.over ? "over" : "";
}

/** How many cards the pass asks for (two when no pass is asked now). */
export function passCount(msg) {
  return msg && msg.legal ? msg.legal.count : 2;
}

/** Your hand as HandView (hand.js) draws it; ``chosen``: the cards chosen to pass. */
export function handModel(msg, v, chosen) {
  const legal = msg.legal;
  const kind = decisionOf(msg);
  return {
    cards: (msg.view.hand || []).map(cardIndex),
    hiddenCount: v.hiddenCount,
    mode: kind === "play" ? "play" : kind === "pass" ? "pass" : "idle",
    playable: new Set(kind === "play" ? legal.cards.map(cardIndex) : []),
    selectable: new Set(kind === "pass" ? legal.cards.map(cardIndex) : []),
    chosen,
    passCount: legal ? legal.count : 0,
    passed: passedToYou(msg, v),
  };
}

/** The card you drew (the two-player draw), shown in the trick's place; else null. */
export function drawnCard(msg) {
  const legal = msg.legal;
  return legal && legal.kind === "draw" && legal.card ? cardIndex(legal.card) : null;
}
