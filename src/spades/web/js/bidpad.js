// The bid pad: exactly the bids the server allows, the suggestion marked, and digits that
// jump to a bid (two digits typed quickly reach 10 and above).

import { makeRoving, remember, restore, setCurrent } from "./roving.js";

const TWO_DIGIT_MS = 900;

/** A bid as the pad shows it: {key: "nil" | "blind-nil" | "4", label, spoken}. */
export function bidKey(bid) {
  if (bid === "nil" || bid === "blind-nil") return bid;
  return String(bid);
}

export function bidLabel(bid) {
  if (bid === "nil") return "Nil";
  if (bid === "blind-nil") return "Blind nil";
  return String(bid);
}

export function bidSpoken(bid) {
  if (bid === "nil") return "nil";
  if (bid === "blind-nil") return "blind nil";
  return String(bid);
}

export class BidPad {
  constructor(onBid) {
    this.onBid = onBid;
    this.root = document.createElement("div");
    this.root.className = "bidpad";
    this.root.setAttribute("role", "toolbar");
    this.root.setAttribute("aria-label", "Bid pad: choose your bid");
    this.root.id = "bidpad";
    this.typed = "";
    this.typedAt = 0;
    makeRoving(this.root);
    // a key on the pad settles where it is: a suggestion that comes later leaves it there
    this.root.addEventListener("keydown", () => { this.settled = true; });
    this.root.addEventListener("click", (event) => {
      const btn = event.target.closest("[data-bid]");
      if (btn) this.onBid(btn.dataset.bid === "nil" ? "nil" : Number(btn.dataset.bid));
    });
  }

  /** ``bids``: the legal bids (numbers and "nil"; blind nil is offered elsewhere). With
   * ``fresh`` (a new hand or game) the pad starts on the suggestion, not on the last bid. */
  render(bids, suggested, fresh = false) {
    remember(this.root);
    if (fresh) this.settled = false;
    this.root.replaceChildren();
    const sugKey = suggested == null ? null : bidKey(suggested);
    for (const bid of bids) {
      const key = bidKey(bid);
      const btn = document.createElement("button");
      btn.type = "button";
      btn.className = "bid";
      btn.dataset.bid = key;
      btn.dataset.rove = "";
      btn.dataset.key = key;
      btn.textContent = bidLabel(bid);
      let label = bid === "nil" ? "Bid nil" : `Bid ${bid}`;
      if (key === sugKey) {
        btn.classList.add("suggested");
        label += ", suggested";
      }
      btn.setAttribute("aria-label", label);
      this.root.append(btn);
    }
    // Without a suggestion the safe start is the lowest number, never nil.
    const start = sugKey ?? (bids.find((b) => typeof b === "number") ?? bids[0]);
    // the suggestion follows its turn: the pad goes to it unless the person moved first
    restore(this.root, (el) => el.dataset.key === bidKey(start), fresh || (sugKey != null && !this.settled));
    if (sugKey != null) this.settled = true;
  }

  /** A digit typed anywhere while the pad is shown: jump to that bid. */
  digit(d) {
    this.settled = true;
    const now = Date.now();
    const joined = now - this.typedAt < TWO_DIGIT_MS ? this.typed + d : d;
    this.typedAt = now;
    const find = (text) => {
      const n = Number(text);
      const key = n === 0 ? (this.has("nil") ? "nil" : "0") : String(n);
      return this.root.querySelector(`[data-bid="${key}"]`);
    };
    let btn = joined.length > 1 ? find(joined) : null;
    if (btn) {
      this.typed = "";
    } else {
      btn = find(d);
      this.typed = d;
    }
    if (btn) setCurrent(this.root, btn, true);
    return Boolean(btn);
  }

  has(key) {
    return Boolean(this.root.querySelector(`[data-bid="${key}"]`));
  }
}
