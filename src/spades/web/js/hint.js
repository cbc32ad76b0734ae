// The card hint (docs/advice.md), loaded when first asked for (the Hint button, key H): on
// your turn to play it asks the server for the card the Hard player would play in your seat
// and why ({"type": "hint"}, docs/protocol.md); the answer lifts that card in your hand (it
// is not played: Enter or a tap plays it), puts the focus on it, and shows the reason under
// the hand and says it in the live region. The server decides the card; this only shows it.

import { state } from "./state.js";
import { announce, toast } from "./announce.js";
import { cardIndex } from "./cards.js";

/** Seconds a hint asked for is waited on before it may be asked again (Hard's own time to
 * decide, and its grace, are within it). */
const WAIT = 4;

let asked = { version: null, at: 0 };

/** Ask for a hint (``msg`` undefined) or show the one that came (``msg``) in ``hand``. */
export function hint(hand, msg) {
  if (msg) shown(hand, msg);
  else ask(hand);
}

function say(text) {
  toast(text);
  announce(text);
}

function ask(hand) {
  const msg = state.msg;
  if (!msg || !msg.legal || msg.legal.kind !== "play" || state.signedOut) {
    say("A hint is for your turn to play a card.");
    return;
  }
  const now = Date.now() / 1000;
  if (asked.version === msg.version && now - asked.at < WAIT) return; // on its way
  if (!state.socket || !state.socket.send({ type: "hint", version: msg.version })) {
    say("Not connected to the table yet; try again in a moment.");
    return;
  }
  asked = { version: msg.version, at: now };
  hand.hint.textContent = "Hint: the Hard player is thinking…";
}

function shown(hand, msg) {
  asked = { version: null, at: 0 };
  // the table moved on meanwhile (a page showing a later version): that hint is of no use
  if (!state.msg || msg.version !== state.msg.version || !state.msg.legal) return;
  const card = cardIndex(msg.card);
  const text = `Hint (Hard): ${msg.reason}`;
  hand.lift(card, text);  // the reason stays while the card is lifted
  const button = hand.root.querySelector(`[data-card="${card}"]`);
  if (button) button.focus();
  announce(text);
}
