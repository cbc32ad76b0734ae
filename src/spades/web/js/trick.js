// The cards of the trick in the middle of the felt. Each new card slides in from the seat
// that played it; a finished trick stays a moment with its winner marked, then slides to
// the winner. Animations follow the player's setting and are off under "reduce motion".

import { cardFace, cardName } from "./cards.js";
import { seatPlaces } from "./seats.js";
import { motion } from "./settings.js";

const SLIDE_MS = 260;
const COLLECT_MS = 380;
const HOLD_MS = 1000;
const URGENT_HOLD_MS = 600; // when you must play to the next trick, a shorter moment

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

function centre(rect) {
  return [rect.left + rect.width / 2, rect.top + rect.height / 2];
}

export class TrickView {
  /** ``felt``: the element holding the seats; ``hand``: your hand (where your cards come
   * from); ``idle()`` is called when a held trick has gone and the table must be redrawn. */
  constructor(area, felt, hand, idle) {
    this.area = area;
    this.felt = felt;
    this.hand = hand;
    this.idle = idle;
    this.shown = new Set(); // "seat:card" on the table now
    this.held = null; // {plays, winner, until}
    this.timer = 0;
  }

  /** A trick was just won: keep it on the table a moment, whatever comes next. */
  finished(plays, winner) {
    const m = motion();
    const at = performance.now();
    this.held = { plays, winner, at, until: at + HOLD_MS * m };
  }

  /** Forget a held trick (another game, a reload). */
  reset() {
    clearTimeout(this.timer);
    this.held = null;
    this.shown = new Set();
  }

  seatRect(seat) {
    const box = this.felt.querySelector(`.seat[data-seat="${seat}"]`);
    return box ? box.getBoundingClientRect() : null;
  }

  /**
   * Draw the trick. ``plays``: [[seat, card]] of the trick in play; ``lastDone``: the last
   * finished trick of the hand (shown, marked with its winner, until the next lead);
   * ``urgent``: you must play to the trick in play, so a held trick gives way sooner.
   * With motion off, a finished trick is not held: the server's pace shows it.
   */
  render(v, names, plays, lastDone, { drawn = null, urgent = false } = {}) {
    const area = this.area;
    clearTimeout(this.timer);
    area.replaceChildren();
    if (drawn != null) {
      const face = cardFace(drawn);
      face.classList.add("drawn");
      face.setAttribute("role", "img");
      face.setAttribute("aria-label", `You drew the ${cardName(drawn)}`);
      area.append(face, el("span", "label", "You drew"));
      area.classList.remove("done", "held");
      return;
    }
    const now = performance.now();
    if (this.held && urgent) {
      this.held.until = Math.min(this.held.until, this.held.at + URGENT_HOLD_MS * motion());
    }
    if (this.held && now >= this.held.until + COLLECT_MS * motion()) this.held = null;
    const held = this.held;
    let showing;
    let winner = null;
    if (held) {
      showing = held.plays;
      winner = held.winner;
    } else if (plays.length) {
      showing = plays;
    } else if (lastDone) {
      showing = lastDone.plays;
      winner = lastDone.winner;
    } else {
      showing = [];
    }
    const places = seatPlaces(v.rules.players, v.seat);
    area.classList.toggle("done", winner != null);
    area.classList.toggle("held", Boolean(held)); // a finished trick kept a moment
    const fresh = [];
    const faces = [];
    for (const [seat, card] of showing) {
      const face = cardFace(card);
      face.style.gridArea = places[seat];
      face.setAttribute("role", "img");
      face.setAttribute("aria-label", `${names[seat]}: ${cardName(card)}`);
      if (seat === winner) face.classList.add("won");
      const key = `${seat}:${card}`;
      if (!this.shown.has(key)) fresh.push([seat, face]);
      faces.push(face);
      area.append(face);
    }
    this.shown = new Set(showing.map(([s, c]) => `${s}:${c}`));
    let label = "";
    if (winner != null) label = `${names[winner]} won the trick`;
    else if (plays.length) label = `${names[plays[0][0]]} led`;
    else if (v.phase === "play" && v.turn != null) label = `${names[v.turn]} to lead`;
    const tag = el("span", "label", label);
    if (winner != null) tag.classList.add("winner");
    area.append(tag);
    const m = motion();
    if (m) for (const [seat, face] of fresh) this.slideIn(seat === v.seat, seat, face, m);
    if (held) {
      const wait = Math.max(0, held.until - now);
      this.timer = setTimeout(() => this.collect(faces, held.winner, m), wait);
    }
  }

  slideIn(yours, seat, face, m) {
    const from = yours ? this.hand.getBoundingClientRect() : this.seatRect(seat);
    if (!from) return;
    const [fx, fy] = centre(from);
    const [tx, ty] = centre(face.getBoundingClientRect());
    face.animate([
      { transform: `translate(${fx - tx}px, ${fy - ty}px) scale(.85)`, opacity: 0.4 },
      { transform: "none", opacity: 1 },
    ], { duration: SLIDE_MS * m, easing: "cubic-bezier(.2,.7,.3,1)" });
  }

  /** The held trick slides to its winner; then the table shows what is current. */
  collect(faces, winner, m) {
    const done = () => {
      this.held = null;
      this.idle();
    };
    const to = this.seatRect(winner);
    if (!m || !to || !faces.length || !faces[0].isConnected) {
      done();
      return;
    }
    const [wx, wy] = centre(to);
    let last = null;
    for (const face of faces) {
      const [x, y] = centre(face.getBoundingClientRect());
      last = face.animate([
        { transform: "none", opacity: 1 },
        { transform: `translate(${wx - x}px, ${wy - y}px) scale(.45)`, opacity: 0 },
      ], { duration: COLLECT_MS * m, easing: "ease-in", fill: "forwards" });
    }
    last.finished.then(done, done);
  }
}
