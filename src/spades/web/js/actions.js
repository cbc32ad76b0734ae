// The decision in front of you, as the server's `legal` describes it: the bid pad with its
// suggestion, blind nil or look, keep or discard a draw, the kitty, passing cards, and the
// end of the game. Every button sends exactly an action the server listed.

import { cardIndex, cardName, isJoker, isRed, rankLabel, sortHand, suitOf, suitSymbol } from "./cards.js";
import { BidPad } from "./bidpad.js";
import { makeRoving, remember, restore } from "./roving.js";
import { announce } from "./announce.js";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

/** A choice that cannot be taken back once sent. */
function irreversible(action) {
  return action.bid === "blind-nil";
}

function withoutLabel(action) {
  const { label, ...rest } = action;
  return rest;
}

export class ActionsView {
  constructor(root, { send, passChosen, newGame, download, showSheet }) {
    this.root = root;
    this.send = send;
    this.passChosen = passChosen;
    this.newGame = newGame;
    this.download = download;
    this.showSheet = showSheet;
    this.pad = new BidPad((bid) => this.send({ bid }));
    this.row = el("div", "choice-row");
    this.row.setAttribute("role", "toolbar");
    makeRoving(this.row);
    this.padFor = null; // the hand whose bid the pad was last shown for
    this.armed = null; // the irreversible choice asked once, waiting for its confirmation
    this.rebuilding = false;
    this.warning = el("p", "warning", "");
    this.warning.id = "confirm-warning";
    this.row.addEventListener("focusout", (event) => {
      if (this.rebuilding || !this.armed) return;
      const next = event.relatedTarget;
      if (!next || !next.closest || next.dataset.key !== this.armed) this.disarm();
    });
  }

  /** Put an asked-once choice back as it was. */
  disarm() {
    this.armed = null;
    this.warning.textContent = "";
    this.warning.remove();
    for (const btn of this.row.querySelectorAll("[data-irreversible]")) {
      btn.textContent = btn.dataset.label;
      btn.removeAttribute("aria-describedby");
    }
  }

  /** A row of buttons, one per action (label from the server); Left/Right move between them.
   * An irreversible choice (blind nil) is never the first focus and asks once to confirm. */
  choices(actions, name) {
    remember(this.row);
    this.rebuilding = true;
    this.row.replaceChildren();
    this.rebuilding = false;
    this.row.setAttribute("aria-label", name);
    const safe = actions.find((a) => !irreversible(a)) || actions[0];
    const keys = actions.map((a) => a.label);
    if (this.armed && !keys.includes(this.armed)) this.disarm();
    for (const action of actions) {
      const risky = irreversible(action);
      const btn = el("button", action === safe ? "primary" : risky ? "risky" : "", action.label);
      btn.type = "button";
      btn.dataset.rove = "";
      btn.dataset.key = action.label;
      btn.dataset.label = action.label;
      if (risky) {
        btn.dataset.irreversible = "";
        if (this.armed === action.label) this.arm(btn, false);
      }
      btn.addEventListener("click", () => {
        if (risky && this.armed !== action.label) {
          this.arm(btn, true);
          return;
        }
        this.disarm();
        this.send(withoutLabel(action));
      });
      this.row.append(btn);
    }
    // A new decision starts on the safe choice; a rebuilt one keeps its place.
    const fresh = this.rowFor !== keys.join("|");
    this.rowFor = keys.join("|");
    restore(this.row, (b) => b.dataset.key === safe.label, fresh);
    return this.row;
  }

  arm(btn, spoken) {
    this.armed = btn.dataset.key;
    btn.textContent = `Confirm ${btn.dataset.label.toLowerCase()}`;
    this.warning.textContent = `${btn.dataset.label} can't be undone. Press it again to bid it, ` +
      "or choose another button.";
    btn.setAttribute("aria-describedby", this.warning.id);
    if (!this.warning.isConnected && this.row.isConnected) this.row.after(this.warning);
    if (spoken) announce(this.warning.textContent);
  }

  /** Buttons that are not actions of the game (new game, download). */
  plain(buttons, name) {
    remember(this.row);
    this.rowFor = null;
    this.rebuilding = true;
    this.row.replaceChildren();
    this.rebuilding = false;
    this.row.setAttribute("aria-label", name);
    for (const [label, onClick, primary] of buttons) {
      const btn = el("button", primary ? "primary" : "", label);
      btn.type = "button";
      btn.dataset.rove = "";
      btn.dataset.key = label;
      btn.addEventListener("click", onClick);
      this.row.append(btn);
    }
    restore(this.row);
    return this.row;
  }

  render(msg, chosen) {
    const { view, legal } = msg;
    const parts = [];
    if (view.discards && view.discards.length) parts.push(this.discards(view));
    if (legal) parts.push(...this.decision(msg, chosen));
    else if (view.over) {
      parts.push(this.plain([["New game", this.newGame, true], ["Download the record", this.download],
        ["Score sheet", this.showSheet]], "The game is over"));
    } else if (view.hand_hidden && view.can_look) {
      parts.push(this.choices([{ look: true, label: "Look at my cards" }], "Your cards"));
    }
    const at = parts.indexOf(this.row);
    if (this.armed && at >= 0) parts.splice(at + 1, 0, this.warning);
    else if (this.armed) this.disarm();
    this.rebuilding = true;
    this.root.replaceChildren(...parts);
    this.rebuilding = false;
  }

  decision(msg, chosen) {
    const { legal, suggestion } = msg;
    switch (legal.kind) {
      case "bid": {
        const bids = legal.bids.map((b) => b.bid).filter((b) => b !== "blind-nil");
        const hand = `${msg.game.id}:${msg.view.hand_number}`;
        this.pad.render(bids, suggestion ? suggestion.bid : null, this.padFor !== hand);
        this.padFor = hand;
        const out = [];
        if (suggestion) out.push(this.suggestion(suggestion));
        out.push(this.pad.root);
        const blind = legal.actions.filter((a) => a.bid === "blind-nil");
        if (blind.length) out.push(this.choices(blind, "Blind nil"));
        return out;
      }
      case "draw":
        return [this.choices(legal.actions, "Keep or discard the card you drew")];
      case "pass": {
        const need = legal.count;
        const what = chosen.size === need ? (need === 1 ? "this card" : "these cards") : `${need} card${need === 1 ? "" : "s"}`;
        const btn = el("button", "primary", `Pass ${what}`);
        btn.type = "button";
        btn.id = "pass-send";
        if (chosen.size !== need) btn.setAttribute("aria-disabled", "true");
        btn.addEventListener("click", () => this.passChosen());
        return [btn];
      }
      case "play":
        return [];
      default:
        return [this.choices(legal.actions, "Your choice")];
    }
  }

  /** The suggested bid; its reasons fold away on a phone (tap "why?" to read them). */
  suggestion(s) {
    const box = el("details", "suggestion");
    box.id = "suggestion";
    box.open = this.wasOpen ?? window.matchMedia("(min-width: 700px)").matches;
    box.addEventListener("toggle", () => { this.wasOpen = box.open; });
    const head = el("summary");
    head.append("Suggested bid (Hard): ", el("strong", "", s.label || String(s.bid)), " (why?)");
    const list = el("ul");
    // a long list scrolls in itself (the hand and pad stay in view), by keyboard too
    list.tabIndex = 0;
    list.setAttribute("aria-label", "Why this bid");
    for (const r of s.reasons || []) list.append(el("li", "", r.charAt(0).toUpperCase() + r.slice(1)));
    box.append(head, list);
    return box;
  }

  /** The face-up discards of the two-player draw as one compact strip, by suit (up to 26
   * cards: as faces they would push your hand below the fold on a phone). */
  discards(view) {
    const box = el("div", "discards");
    box.setAttribute("role", "group");
    const n = view.discards.length;
    box.setAttribute("aria-label", `Discards, face up: ${n} card${n === 1 ? "" : "s"}: ` +
      sortHand(view.discards.map(cardIndex)).map(cardName).join(", "));
    const bySuit = new Map();
    for (const c of sortHand(view.discards.map(cardIndex))) {
      const s = suitOf(c);
      if (!bySuit.has(s)) bySuit.set(s, []);
      bySuit.get(s).push(c);
    }
    for (const cards of bySuit.values()) {
      const suit = isJoker(cards[0]) ? "joker" : `s-${"cdhs"[suitOf(cards[0])]}`;
      const group = el("span", `suit-group ${suit}` + (isRed(cards[0]) ? " red" : ""));
      group.setAttribute("aria-hidden", "true");
      group.append(el("span", "suit", suitSymbol(cards[0])));
      for (const c of cards) {
        const rank = el("span", "rank", rankLabel(c));
        rank.dataset.card = String(c);
        group.append(rank);
      }
      box.append(group);
    }
    const left = view.stock_left;
    const wrap = el("div", "discard-strip");
    wrap.append(el("span", "hint", `Discards · ${left} card${left === 1 ? "" : "s"} left to draw:`),
      box);
    return wrap;
  }

  /** Focus the main control of this decision (after the old one vanished). */
  focus(kind) {
    const target = kind === "bid" ? this.pad.root : this.row.isConnected ? this.row : null;
    if (target) {
      const current = target.querySelector("[data-rove][tabindex='0']") || target.querySelector("[data-rove]");
      if (current) current.focus();
      return Boolean(current);
    }
    const pass = document.getElementById("pass-send");
    if (pass) pass.focus();
    return Boolean(pass);
  }
}
