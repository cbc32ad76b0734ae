// Shuffles anyone can verify, at the table (docs/shuffle.md, "At the table"): this page keeps
// the commitment it was shown before each deal and what it saw of each hand, adds its own
// entropy to the next hand's shuffle, and when a hand is revealed checks it with verify.js.
// It decides nothing about the game: it only compares what the server said with what it saw.

/** 16 random bytes in hex: this page's contribution to a shuffle. */
export function randomHex(bytes = 16) {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(data, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A sentence, capitalised and ended. */
function sentence(text) {
  const t = String(text || "");
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".");
}

/** What a result says, and the class of its mark. */
export function describe(hand, result) {
  if (!result) return { kind: "pending", text: `Checking the shuffle of hand ${hand}…` };
  if (result.ok) return { kind: "verified", text: `Shuffle verified for hand ${hand}.` };
  if (result.unavailable) return { kind: "unavailable", text: sentence(result.message) };
  return { kind: "mismatch", text: `Hand ${hand}: the shuffle did not match: ${sentence(result.message)}` };
}

export class ShuffleWatch {
  /**
   * handlers: sendEntropy(hand, value) sends the page's contribution; said(hand, result,
   * text) tells a finished check (the page announces it and marks the hand's summary).
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.reset();
  }

  reset() {
    this.hands = new Map(); // hand number (from 1) -> what this page saw of it
    this.commitments = new Map(); // hand -> the commitment first shown for it
    this.given = new Map(); // hand -> this page's contribution
    this.results = new Map(); // hand -> verifyHand's result
    this.current = null;
  }

  seen(number) {
    if (!this.hands.has(number)) {
      this.hands.set(number, { held: new Set(), played: new Map(), passed: false, dealer: null });
    }
    return this.hands.get(number);
  }

  /** Every state message, in order: what it shows, the entropy to give, a reveal to check. */
  observe(msg) {
    const v = msg.view;
    for (const e of msg.events || []) {
      if (e.kind === "deal") this.current = e.hand_number;
      else if (this.current == null) continue;
      else if (e.kind === "play") this.seen(this.current).played.set(e.card, e.seat);
      else if (e.kind === "pass") this.seen(this.current).passed = true;
    }
    if (!v.over) this.watchHand(msg, v);
    const shuffle = msg.shuffle || { committed: [], revealed: null };
    for (const entry of shuffle.committed) {
      if (!this.commitments.has(entry.hand)) this.commitments.set(entry.hand, entry.commitment);
    }
    const next = shuffle.committed.find((c) => c.hand === v.hand_number + 1);
    if (!v.over && next && !this.given.has(next.hand)) {
      const value = randomHex();
      this.given.set(next.hand, value);
      this.handlers.sendEntropy(next.hand, value);
    }
    if (shuffle.revealed) this.check(msg, shuffle.revealed);
  }

  /** The hand in play as the view shows it: its dealer, the cards dealt to this seat (all
   * its cards while none came by a pass or from the kitty), the cards seen played. */
  watchHand(msg, v) {
    this.current = v.hand_number;
    const hand = this.seen(v.hand_number);
    hand.dealer = v.dealer;
    if ((v.passes || []).length) hand.passed = true;
    const fromKitty = v.kitty && v.kitty.taken;
    if (v.hand && !v.hand_hidden && !hand.passed && !fromKitty) {
      for (const card of v.hand) hand.held.add(card);
    }
    for (const p of v.trick || []) hand.played.set(p.card, p.seat);
    if (v.last_trick && v.tricks_played > 0) {
      for (const p of v.last_trick.cards) hand.played.set(p.card, p.seat);
    }
  }

  async check(msg, revealed) {
    const number = revealed.hand;
    const hand = this.hands.get(number);
    if (!hand || this.results.has(number)) return; // a hand this page did not watch
    this.results.set(number, null);
    const game = msg.game;
    const shown = this.commitments.get(number);
    const extra = [];
    if (shown && shown !== revealed.commitment) {
      extra.push({ check: "commitment", message: "the commitment shown before the deal was another" });
    }
    const mine = this.given.get(number);
    // one that came after the deal goes to the next hand (then it is in its commitment)
    const later = ((msg.shuffle || {}).committed || []).some((c) => (c.entropy || []).includes(mine));
    if (mine && !(revealed.entropy || []).includes(mine) && !later) {
      extra.push({ check: "entropy", message: "your entropy was left out of the shuffle" });
    }
    let result;
    try {
      const { verifyHand } = await import("./verify.js");
      result = await verifyHand({ ...revealed, commitment: shown || revealed.commitment }, {
        players: game.table.players,
        dealer: hand.dealer,
        seat: game.you,
        held: [...hand.held],
        played: [...hand.played].map(([card, seat]) => [seat, card]),
        passed: hand.passed,
        draw: Boolean(game.rules.draw),
      });
    } catch (error) {
      result = { ok: false, unavailable: false, problems: [], message: `the check failed: ${error.message}` };
    }
    if (!result.unavailable && extra.length) {
      const problems = [...result.problems, ...extra];
      result = { ...result, ok: false, problems, message: problems.map((p) => p.message).join("; ") };
    }
    this.results.set(number, result);
    this.handlers.said(number, result, describe(number, result).text);
  }

  /** The mark of a hand's check for its summary (updated when the check ends). */
  mark(number) {
    const p = document.createElement("p");
    p.className = "shuffle-mark";
    p.dataset.hand = String(number);
    this.paint(p, number);
    return p;
  }

  paint(p, number) {
    const { kind, text } = describe(number, this.results.get(number));
    p.dataset.status = kind;
    const sign = { verified: "✓ ", mismatch: "✗ " }[kind] || "";
    p.textContent = sign + text;
  }

  /** Bring every mark of ``number`` in the page up to date. */
  repaint(number) {
    for (const p of document.querySelectorAll(`.shuffle-mark[data-hand="${number}"]`)) this.paint(p, number);
  }

  /** The commitment shown before hand ``number`` was dealt (its shuffle sealed), or null. */
  sealed(number) {
    return this.commitments.get(number) || null;
  }

  watched(number) {
    return this.hands.has(number) && this.results.has(number);
  }
}
