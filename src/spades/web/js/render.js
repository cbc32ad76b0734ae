// The table drawn whole from the state (state.js): the score line, the seats, the trick,
// the prompt, your hand and your decision; then the focus goes where the decision is. It
// reads the state and changes nothing in it.

import { state } from "./state.js";
import { drawnCard, handModel, shownDecision, tableView } from "./tableview.js";
import { renderBroken, renderPrompt, renderScoreline, renderSeats } from "./table.js";
import { announce } from "./announce.js";
import { anyOpen } from "./windows.js";

const $ = (id) => document.getElementById(id);

export class TablePage {
  /** ``views``: {hand: HandView, trick: TrickView, actions: ActionsView}. */
  constructor({ hand, trick, actions }) {
    this.hand = hand;
    this.trick = trick;
    this.actions = actions;
  }

  /** Draw the table. ``fresh``: the state just came and what it asks changed (a decision
   * asked then is announced, and the focus moves to it from the table's controls). */
  render(fresh = false) {
    // Signed out, the table is shown as it was with nothing to decide: no gold edge, no pad.
    const msg = state.msg && state.signedOut ? { ...state.msg, legal: null, suggestion: null } : state.msg;
    if (!msg) return;
    const v = tableView(msg);
    const who = msg.game.players;
    const active = document.activeElement;
    const hadFocus = active && active !== document.body && document.contains(active);
    this.draw(msg, v, who);
    // The focused control vanished (a bid was made, a card played), or a new decision is
    // asked while the player is at the table's controls: move focus to that decision.
    const kind = msg.legal ? msg.legal.kind : "";
    const lost = hadFocus && !document.contains(active);
    const now = document.activeElement;
    const idle = !now || now === document.body || Boolean(now.closest("[hidden]"));
    const atTable = now && (now.closest("#hand") || now.closest("#actions"));
    if ((lost || idle || (fresh && kind && atTable)) && !anyOpen()) this.focusDecision();
    if (fresh && kind) announce($("prompt").textContent);
  }

  draw(msg, v, who) {
    renderScoreline($("scoreline"), v, who);
    renderSeats($("felt"), v, who, state.thinking != null);
    const urgent = Boolean(msg.legal && msg.legal.kind === "play" && v.trick.length);
    this.trick.render(v, who, v.trick, v.trick.length ? null : v.lastTrick, { drawn: drawnCard(msg), urgent });
    $("felt").dataset.phase = v.phase;
    $("felt").dataset.players = String(v.rules.players);
    renderBroken($("broken"), v);
    renderPrompt($("prompt"), msg, v, who, { thinking: state.thinking, reason: state.endReason });
    if (state.signedOut) $("prompt").textContent = "Signed out: sign in again to play on.";
    this.hand.render(handModel(msg, v, state.chosen));
    this.actions.render(msg, state.chosen);
    $("btn-undo").hidden = !msg.can_undo;
    // What is shown, for styling and for tests: the state's version and the decision asked.
    const screen = $("screen-table");
    screen.dataset.version = String(msg.version);
    screen.dataset.decision = shownDecision(msg);
    // no Hint button where the host allowed none
    screen.dataset.hints = msg.game.hints === false ? "off" : "on";
  }

  /** Focus the control of the decision asked (your hand, the bid pad, a choice). */
  focusDecision() {
    const legal = state.msg && state.msg.legal;
    if (legal && (legal.kind === "play" || legal.kind === "pass")) this.hand.focus();
    else if (!this.actions.focus(legal && legal.kind)) this.hand.focus();
  }
}
