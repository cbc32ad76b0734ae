// The client's whole state in one place: the game open and its socket, the last state the
// server sent, the cards chosen to pass, and what the page keeps across states (the last
// trick, each hand's passes, why the game ended). Read ``state`` anywhere; change it only
// through the named updates below. No DOM here: main.js calls an update, then renders.

import { cardCode } from "./cards.js";
import { decisionOf, passCount, seatPlays, tableView } from "./tableview.js";

export const state = {
  socket: null, // the table's TableSocket (net.js) while one is open
  gameId: null, // the game open at this table
  msg: null, // the last state message from the server
  thinking: null, // the computer seat thinking now
  chosen: new Set(), // card indexes chosen to pass
  lastTrick: null, // the last finished trick seen, kept across hands: {plays, winner}
  passes: new Map(), // hand number -> the passes of that hand (blind nil), for its summary
  presets: null, // the server's variants and levels (GET /api/presets), once loaded
  shownKind: "", // the decision the page shows now
  endReason: null, // why the game ended, from the server's game event (target, mercy, ...)
  review: null, // js/review.js once a review was opened
  leftGame: null, // the game open before a sign-in that does not reach it
  signedOut: false, // the table's sign-in ended: shown as it was, nothing to decide
  table: null, // a table with friends: the server's table object (docs/protocol.md), else null
  timer: null, // the turn timer running: {seat, left, of, at: performance.now() when told}
  watchCode: null, // the watch link's code while this page watches a table, else null
  leaving: false, // this person asked to leave the table for good
};

/** A game is opened at this table: forget the last game's table. */
export function tableOpened(id) {
  state.msg = null;
  state.thinking = null;
  state.lastTrick = null;
  state.passes = new Map();
  state.endReason = null;
  state.shownKind = "";
  state.gameId = id;
  state.signedOut = false;
  state.table = null;
  state.timer = null;
  state.watchCode = null;
  state.leaving = false;
}

/** The table's sign-in ended: it stays in view, but nothing at it can be done until
 * this person signs in again (which opens the table anew). */
export function tableSignedOut() {
  state.signedOut = true;
  state.chosen.clear();
}

/** A table with friends told its table object (a ``table`` message, or an answer). */
export function tableGot(table) {
  state.table = table;
}

/** A ``turn-timer`` message: whose decision is timed, and the seconds left from now. */
export function timerGot(msg) {
  state.timer = msg.seat == null ? null : { seat: msg.seat, left: msg.left, of: msg.of, at: performance.now() };
}

/** This page watches the table of watch link ``code`` (a spectator: no seat, no hand). */
export function watching(code) {
  state.watchCode = code;
}

/** The person asked to leave the table for good (``on``; false: the server refused): the
 * socket's close is then no surprise. */
export function leavingTable(on = true) {
  state.leaving = on;
}

/** The table's socket was opened. */
export function socketOpened(socket) {
  state.socket = socket;
}

/** The table's socket is gone for good (signed out, or the game is not on the server). */
export function socketGone() {
  state.socket = null;
}

/**
 * A state message came. Returns what it brings besides the table: ``first`` (the first
 * state of this game at this page), ``tricks`` (the tricks just won, [{plays, winner}]),
 * ``handLine`` (the sheet line of a hand just ended, or null), ``gameOver`` and ``fresh``
 * (what is asked changed: another decision than the one shown, or none).
 */
export function gotState(msg) {
  const first = !state.msg;
  state.msg = msg;
  state.thinking = msg.thinking ? msg.thinking.seat : null;
  if (msg.view.passes && msg.view.passes.length) state.passes.set(msg.view.hand_number, msg.view.passes);
  const tricks = [];
  let handLine = null;
  let gameOver = false;
  for (const e of msg.events || []) {
    if (e.kind === "trick") {
      state.lastTrick = { plays: seatPlays(e.cards), winner: e.winner };
      tricks.push(state.lastTrick);
    }
    if (e.kind === "hand") handLine = e.line;
    if (e.kind === "game") {
      gameOver = true;
      state.endReason = e.reason || null;
    }
  }
  const last = tableView(msg).lastTrick;
  if (last) state.lastTrick = last;
  const kind = decisionOf(msg);
  if (kind !== "pass") state.chosen.clear();
  const fresh = kind !== state.shownKind;
  state.shownKind = kind;
  return { first, tricks, handLine, gameOver, fresh };
}

/** The server says seat ``seat`` is thinking. */
export function thinkingAt(seat) {
  state.thinking = seat;
}

/** A card tapped while passing: chosen, or put back. False when it cannot be chosen (as
 * many are chosen as the pass asks). */
export function toggled(card) {
  const legal = state.msg && state.msg.legal;
  if (state.chosen.has(card)) state.chosen.delete(card);
  else if (legal && state.chosen.size < legal.count) state.chosen.add(card);
  else return false;
  return true;
}

/** The pass to send (card codes), or null while fewer or more cards are chosen than asked. */
export function chosenPass() {
  const legal = state.msg && state.msg.legal;
  if (!legal || state.chosen.size !== legal.count) return null;
  return [...state.chosen].map(cardCode);
}

/** How many cards the pass asks for. */
export function passNeeded() {
  return passCount(state.msg);
}

export function presetsLoaded(data) {
  state.presets = data;
}

/** The review module was loaded (``module``); true the first time. */
export function reviewLoaded(module) {
  const first = !state.review;
  state.review = module;
  return first;
}

/** The game open is out of this person's reach now (a sign-in that does not reach it): the
 * table closes, and the game is remembered in case it comes back. */
export function gameLeft(id) {
  state.socket = null;
  state.gameId = null;
  state.leftGame = id;
}

/** The game left at a sign-in, now taken back (or null); forgotten here. */
export function leftGameTaken() {
  const left = state.leftGame;
  state.leftGame = null;
  return left;
}

/** The players' names, by seat, of the game shown. */
export function names() {
  return state.msg.game.players;
}
