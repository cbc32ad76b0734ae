// The decision in front of you, as the server's `legal` describes it: the bid pad with its
// suggestion, blind nil or look, keep or discard a draw, the kitty, passing cards, and the
// end of the game. Every button sends exactly an action the server listed.

import { cardFace, cardIndex } from "./cards.js";
import { BidPad } from "./bidpad.js";
import { makeRoving, remember, restore } from "./roving.js";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
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
  }

  /** A row of buttons, one per action (label from the server); Left/Right move between them. */
  choices(actions, name) {
    remember(this.row);
    this.row.replaceChildren();
    this.row.setAttribute("aria-label", name);
    actions.forEach((action, i) => {
      const btn = el("button", i === 0 ? "primary" : "", action.label);
      btn.type = "button";
      btn.dataset.rove = "";
      btn.dataset.key = action.label;
      btn.addEventListener("click", () => this.send(withoutLabel(action)));
      this.row.append(btn);
    });
    restore(this.row);
    return this.row;
  }

  /** Buttons that are not actions of the game (new game, download). */
  plain(buttons, name) {
    remember(this.row);
    this.row.replaceChildren();
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
    this.root.replaceChildren(...parts);
  }

  decision(msg, chosen) {
    const { legal, suggestion } = msg;
    switch (legal.kind) {
      case "bid": {
        const bids = legal.bids.map((b) => b.bid).filter((b) => b !== "blind-nil");
        this.pad.render(bids, suggestion ? suggestion.bid : null);
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
        const btn = el("button", "primary", `Pass ${chosen.size === need ? "these" : need} cards`);
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
    head.append("Suggested bid: ", el("strong", "", s.label || String(s.bid)), " (why?)");
    const list = el("ul");
    for (const r of s.reasons || []) list.append(el("li", "", r.charAt(0).toUpperCase() + r.slice(1)));
    box.append(head, list);
    return box;
  }

  discards(view) {
    const box = el("div", "discards");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", `Discards, face up: ${view.discards.length} cards; ` +
      `${view.stock_left} left to draw`);
    for (const c of view.discards) {
      const face = cardFace(cardIndex(c));
      face.classList.add("small");
      face.setAttribute("aria-hidden", "true");
      box.append(face);
    }
    const wrap = el("div", "");
    wrap.append(el("p", "hint", `Discards (face up) · ${view.stock_left} cards left to draw`), box);
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
