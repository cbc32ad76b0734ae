// state.js and tableview.js: the client's state changed only by its named updates, and the
// server's state messages (jskit.watch: real ones, seat 0 of a game the engine played) in
// the shapes the views draw.

import assert from "node:assert/strict";
import { test } from "node:test";
import { fixture, web } from "./kit.mjs";

const client = await web("state.js");
const shapes = await web("tableview.js");
const { cardIndex } = await web("cards.js");
const MESSAGES = fixture("watch").messages;
const { state } = client;

const bidding = MESSAGES.find((m) => m.legal && m.legal.kind === "bid");
const playing = MESSAGES.find((m) => m.legal && m.legal.kind === "play" && m.view.trick.length);
const waiting = MESSAGES.find((m) => !m.legal && m.view.phase === "play");

/** A message asking seat 0 to pass ``count`` of its cards to seat 2 (after a blind nil). */
function passing(count = 2) {
  const msg = structuredClone(bidding);
  msg.legal = { kind: "pass", count, to: 2, cards: msg.view.hand, actions: [] };
  return msg;
}

test("a game opened at the table forgets the last one's table", () => {
  client.tableOpened("one");
  client.gotState(playing);
  client.thinkingAt(3);
  client.tableOpened("two");
  assert.equal(state.gameId, "two");
  assert.equal(state.msg, null);
  assert.equal(state.thinking, null);
  assert.equal(state.lastTrick, null);
  assert.equal(state.passes.size, 0);
  assert.equal(state.shownKind, "");
});

test("a state message: the first of a game, a decision new or the same", () => {
  client.tableOpened("g");
  let news = client.gotState(bidding);
  assert.equal(news.first, true);
  assert.equal(news.fresh, true);
  assert.equal(state.msg, bidding);
  news = client.gotState(bidding);
  assert.equal(news.first, false);
  assert.equal(news.fresh, false); // the bid is asked still
  assert.equal(client.gotState(waiting).fresh, true); // nothing asked now
  assert.equal(state.shownKind, "");
  assert.equal(client.gotState(waiting).fresh, false);
  assert.equal(client.gotState(playing).fresh, true);
  assert.equal(state.shownKind, "play");
});

test("what a state's events bring: tricks won, the end of a hand, the end of the game", () => {
  client.tableOpened("g");
  const msg = structuredClone(waiting);
  const cards = [{ seat: 1, card: "AS" }, { seat: 2, card: "2S" }, { seat: 3, card: "KS" }, { seat: 0, card: "3S" }];
  const line = { hand: 4 };
  msg.view.last_trick = null;
  msg.events = [{ kind: "trick", cards, winner: 1 }, { kind: "hand", line }, { kind: "game", reason: "mercy" }];
  const news = client.gotState(msg);
  const plays = cards.map((p) => [p.seat, cardIndex(p.card)]);
  assert.deepEqual(news.tricks, [{ plays, winner: 1 }]);
  assert.equal(news.handLine, line);
  assert.equal(news.gameOver, true);
  assert.equal(state.endReason, "mercy");
  assert.deepEqual(state.lastTrick, { plays, winner: 1 });
  // the view's last trick, when it shows one, is the last trick seen
  const later = MESSAGES.find((m) => m.view.last_trick);
  client.gotState(later);
  assert.deepEqual(state.lastTrick, shapes.tableView(later).lastTrick);
});

test("the thinking seat is the server's, until the next state says otherwise", () => {
  client.tableOpened("g");
  client.gotState({ ...waiting, thinking: { seat: 2, name: "Juniper" } });
  assert.equal(state.thinking, 2);
  client.thinkingAt(3);
  assert.equal(state.thinking, 3);
  client.gotState(waiting);
  assert.equal(state.thinking, null);
});

test("cards chosen to pass: as many as asked, put back when tapped again, sent as codes", () => {
  client.tableOpened("g");
  const msg = passing(2);
  client.gotState(msg);
  const [a, b, c] = msg.view.hand.map(cardIndex);
  assert.equal(client.chosenPass(), null);
  assert.equal(client.toggled(a), true);
  assert.equal(client.chosenPass(), null); // one of two
  assert.equal(client.toggled(b), true);
  assert.equal(client.toggled(c), false); // two chosen already
  assert.deepEqual(client.chosenPass(), msg.view.hand.slice(0, 2));
  assert.equal(client.toggled(a), true); // put back
  assert.deepEqual([...state.chosen], [b]);
  assert.equal(client.passNeeded(), 2);
  client.gotState(msg); // the pass is asked still: the cards stay chosen
  assert.deepEqual([...state.chosen], [b]);
  client.gotState(playing); // the pass is made: nothing is chosen
  assert.equal(state.chosen.size, 0);
  assert.equal(client.toggled(a), false); // nothing to choose now
});

test("each hand's passes are kept for its summary", () => {
  client.tableOpened("g");
  const msg = structuredClone(playing);
  msg.view.passes = [{ from: 2, to: 0, cards: ["AS", "KS"] }];
  client.gotState(msg);
  client.gotState(playing);
  assert.deepEqual(state.passes.get(msg.view.hand_number), msg.view.passes);
});

test("a game out of reach is left, remembered, and taken back once", () => {
  client.tableOpened("g");
  client.socketOpened({ name: "socket" });
  client.gameLeft("g");
  assert.equal(state.socket, null);
  assert.equal(state.gameId, null);
  assert.equal(client.leftGameTaken(), "g");
  assert.equal(client.leftGameTaken(), null);
});

test("the review module is kept once loaded", () => {
  const review = { name: "review" };
  assert.equal(client.reviewLoaded(review), true);
  assert.equal(client.reviewLoaded(review), false);
  assert.equal(state.review, review);
});

test("the table's view: the server's message in the renderers' shape", () => {
  const v = shapes.tableView(playing);
  assert.equal(v.seat, playing.game.you);
  assert.equal(v.rules.name, playing.game.rules.preset);
  assert.equal(v.rules.players, 4);
  assert.deepEqual(v.trick, playing.view.trick.map((p) => [p.seat, cardIndex(p.card)]));
  assert.equal(v.handNumber, playing.view.hand_number);
  assert.equal(v.hiddenCount, 0);
  assert.deepEqual(v.passes, []);
  assert.equal(shapes.shownDecision(playing), "play");
  assert.equal(shapes.shownDecision(waiting), "");
  assert.equal(shapes.shownDecision({ ...waiting, view: { ...waiting.view, over: true } }), "over");
});

test("your hand: what can be played, chosen, or passed to you", () => {
  const v = shapes.tableView(playing);
  const model = shapes.handModel(playing, v, new Set());
  assert.equal(model.mode, "play");
  assert.deepEqual([...model.playable].sort(), playing.legal.cards.map(cardIndex).sort());
  assert.deepEqual(model.cards, playing.view.hand.map(cardIndex));
  assert.equal(shapes.handModel(bidding, shapes.tableView(bidding), new Set()).mode, "idle");
  const pass = passing(3);
  const chosen = new Set([cardIndex(pass.view.hand[0])]);
  const passModel = shapes.handModel(pass, shapes.tableView(pass), chosen);
  assert.equal(passModel.mode, "pass");
  assert.equal(passModel.passCount, 3);
  assert.equal(passModel.chosen, chosen);
  assert.equal(passModel.selectable.size, pass.view.hand.length);
  // cards passed to you are marked with who passed them, in the first trick only
  const given = structuredClone(playing);
  Object.assign(given.view, { tricks_played: 0, passes: [{ from: 2, to: 0, cards: ["AS", "KS"] }] });
  const marked = shapes.passedToYou(given, shapes.tableView(given));
  assert.deepEqual([...marked], [[cardIndex("AS"), "Juniper"], [cardIndex("KS"), "Juniper"]]);
  given.view.tricks_played = 1;
  assert.equal(shapes.passedToYou(given, shapes.tableView(given)).size, 0);
});
