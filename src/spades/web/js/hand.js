// Your hand: sorted by suit and rank. What can be played comes from the server's legal
// actions; here we only show it (gold edge, standing up) and send what the player chooses.

import { cardBack, cardFace, cardName, sortHand } from "./cards.js";
import { makeRoving, remember, restore } from "./roving.js";

/**
 * @typedef {Object} HandModel
 * @property {number[]} cards       the cards held (empty when hidden)
 * @property {number} hiddenCount   face-down cards shown when the cards are not sent (blind nil)
 * @property {"play"|"pass"|"idle"} mode
 * @property {Set<number>} playable  cards the server lets you play now (mode "play")
 * @property {Set<number>} selectable cards you may pass (mode "pass")
 * @property {Set<number>} chosen    cards chosen to pass
 * @property {Map<number, string>} passed cards passed to you (after a blind nil), with the
 *   name of who passed them; marked for the first trick
 */

export class HandView {
  constructor(root, hint, { onPlay, onToggle, onNotNow, tapTwice }) {
    this.root = root;
    this.hint = hint;
    this.onPlay = onPlay;
    this.onToggle = onToggle;
    this.onNotNow = onNotNow;
    this.tapTwice = tapTwice;
    this.lifted = null;
    this.model = null;
    makeRoving(root);
    if (window.ResizeObserver) new ResizeObserver(() => this.layout()).observe(root);
    root.addEventListener("click", (event) => this.clicked(event));
    root.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const btn = event.target.closest("[data-card]");
      if (!btn) return;
      event.preventDefault();
      this.choose(Number(btn.dataset.card), false);
    });
  }

  clicked(event) {
    const btn = event.target.closest("[data-card]");
    if (!btn || !this.root.contains(btn)) return;
    // A click from the keyboard has detail 0 and is handled on keydown.
    if (event.detail === 0) return;
    this.choose(Number(btn.dataset.card), true);
  }

  choose(card, pointer) {
    const m = this.model;
    if (!m) return;
    if (m.mode === "pass") {
      if (m.selectable.has(card)) this.onToggle(card);
      return;
    }
    if (m.mode !== "play" || !m.playable.has(card)) {
      this.onNotNow(card);
      return;
    }
    if (pointer && this.tapTwice() && this.lifted !== card) {
      this.lift(card);
      return;
    }
    this.lifted = null;
    this.onPlay(card);
  }

  // note (a hint's reason) stays while the card is lifted
  lift(card, note) {
    this.lifted = card;
    for (const btn of this.root.querySelectorAll("[data-card]")) {
      btn.classList.toggle("lifted", Number(btn.dataset.card) === card);
    }
    const name = cardName(card);
    this.note = note || `${name.charAt(0).toUpperCase()}${name.slice(1)} lifted: tap it again to play it, or tap another card.`;
    this.hint.textContent = this.note;
  }

  render(model) {
    const turnStarts = model.mode !== "idle" && (!this.model || this.model.mode !== model.mode);
    this.model = model;
    if (this.lifted !== null && !(model.mode === "play" && model.playable.has(this.lifted))) {
      this.lifted = null;
    }
    remember(this.root);
    this.root.replaceChildren();
    this.root.classList.toggle("hidden-cards", model.hiddenCount > 0);
    if (model.hiddenCount > 0) {
      this.root.setAttribute("aria-label", `Your hand: ${model.hiddenCount} card${model.hiddenCount === 1 ? "" : "s"}, face down`);
      for (let i = 0; i < model.hiddenCount; i++) this.root.append(cardBack());
      this.hint.textContent = "Your cards stay face down until you choose to look.";
      this.layout();
      return;
    }
    const n = model.cards.length;
    this.root.setAttribute("aria-label", `Your hand, ${n} card${n === 1 ? "" : "s"}`);
    for (const card of sortHand(model.cards)) this.root.append(this.button(card, model));
    restore(this.root, (el) => el.classList.contains("playable"), turnStarts);
    this.hint.textContent = this.lifted === null ? this.hintText(model) : this.note;
    this.layout();
  }

  /** Lay the cards out in as few rows as keep each card's corner readable: side by side
   * when they fit, else overlapping so that the rank and suit in the corner still show. */
  layout() {
    const cards = this.root.children;
    const n = cards.length;
    if (!n) return;
    const width = cards[0].offsetWidth;
    const style = getComputedStyle(this.root);
    const room = this.root.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (!width || !room) return;
    const gap = 6;
    // The corner index stays in view; while the cards are only looked at (bidding), they
    // may overlap more than when they are tapped.
    const idle = !this.model || this.model.mode === "idle";
    const strip = idle ? 25 : Math.max(28, Math.round(width * 0.56));
    // As few rows as keep the corners in view: height is what a phone lacks (a second row
    // pushed the hand below the fold), so ten cards overlap in one row rather than stand
    // side by side in two.
    const fits = (rows, step) => (Math.ceil(n / rows) - 1) * step + width <= room;
    const rows = [1, 2, 3, 4].find((r) => fits(r, strip)) || 4;
    const perRow = Math.ceil(n / rows);
    const column = perRow > 1 ? Math.min(width + gap, Math.floor((room - width) / (perRow - 1))) : width;
    [...cards].forEach((card, i) => card.classList.toggle("row-end", i % perRow === perRow - 1 || i === n - 1));
    this.root.classList.toggle("overlap", column < width);
    const key = `${perRow}:${column}:${width}`;
    if (this.root.dataset.layout === key) return;
    this.root.dataset.layout = key;
    this.root.style.gridTemplateColumns = perRow > 1
      ? `repeat(${perRow - 1}, ${column}px) ${width}px` : `${width}px`;
  }

  button(card, m) {
    const btn = cardFace(card, "button");
    btn.type = "button";
    btn.classList.add("card-btn");
    btn.dataset.rove = "";
    btn.dataset.key = String(card);
    let label = cardName(card);
    const from = m.passed && m.passed.get(card);
    if (from) {
      btn.classList.add("passed");
      const tag = document.createElement("span");
      tag.className = "from";
      tag.textContent = `from ${from.charAt(0)}`;
      tag.title = `Passed to you by ${from}`;
      tag.setAttribute("aria-hidden", "true");
      btn.append(tag);
      label += `, passed to you by ${from}`;
    }
    if (m.mode === "play") {
      const ok = m.playable.has(card);
      btn.classList.add(ok ? "playable" : "shaded");
      btn.setAttribute("aria-disabled", ok ? "false" : "true");
      if (!ok) label += ", can't be played now";
      if (ok && this.lifted === card) btn.classList.add("lifted");
    } else if (m.mode === "pass") {
      const chosen = m.chosen.has(card);
      btn.setAttribute("aria-pressed", chosen ? "true" : "false");
      if (chosen) btn.classList.add("chosen");
      if (m.selectable.has(card)) btn.classList.add("playable");
    } else {
      btn.setAttribute("aria-disabled", "true");
    }
    btn.setAttribute("aria-label", label);
    return btn;
  }

  hintText(m) {
    const from = m.passed && m.passed.size ? [...m.passed.values()][0] : null;
    const gift = from ? ` The cards marked "from ${from.charAt(0)}" were passed to you by ${from}.` : "";
    return this.turnText(m) + gift;
  }

  turnText(m) {
    if (m.mode === "play") {
      const n = m.playable.size;
      const all = n === m.cards.length;
      if (all) return `Your turn: any card can be played.${this.tapTwice() ? " Tap twice to play." : ""}`;
      return `Your turn: ${n} card${n === 1 ? "" : "s"} with a gold edge can be played; ` +
        "shaded cards can't." + (this.tapTwice() ? " Tap twice to play." : "");
    }
    if (m.mode === "pass") return `Chosen ${m.chosen.size} of ${m.passCount}.`;
    return "";
  }

  focus() {
    const all = [...this.root.querySelectorAll("[data-rove]")];
    const current = all.find((el) => el.tabIndex === 0) || all[0];
    if (current) current.focus();
  }
}
