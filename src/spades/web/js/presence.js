// Who is at a table with friends, as its table object says (docs/protocol.md, "At the table
// once started"): a person whose connection was lost ("Ann lost connection - 25 s"), a
// computer player playing for someone, whose turn the turn timer counts; counted down here
// each second from what the server said, never decided here. Also the turn played for
// someone ("Played for Ann: ...") and, on return, what was played for you.

/** "1 second", "30 seconds". */
const seconds = (n) => `${n} second${n === 1 ? "" : "s"}`;

const $ = (id) => document.getElementById(id);
/** How long a "played for" line stays (ms). */
const PLAYED_FOR_MS = 6000;
/** How often the countdowns are drawn (ms): often enough that a second never shows late. */
const TICK_MS = 250;

/** Seconds left of ``left`` told at ``at`` (performance.now()), counted down to ``now``. */
export function secondsLeft(left, at, now) {
  return Math.max(0, Math.ceil(left - (now - at) / 1000));
}

/** The lines of the presence box: who lost connection, who a computer plays for, the timer.
 * ``t``: the table object told at ``at``; ``timer``: state.timer; ``you``: your seat. */
export function presenceLines(t, at, timer, you, now) {
  const lines = [];
  for (const s of t ? t.seats : []) {
    if (s.kind !== "person" || s.seat === you) continue;
    if (s.presence === "away") {
      lines.push(s.grace != null ? `${s.name} lost connection - ${secondsLeft(s.grace, at, now)} s` : `${s.name} lost connection`);
    } else if (s.presence === "gone") {
      lines.push(`${s.name} is away: a computer player plays for them`);
    }
  }
  if (timer && t) {
    const left = secondsLeft(timer.left, timer.at, now);
    lines.push(timer.seat === you ? `Your turn: ${left} s left` : `${t.seats[timer.seat].name}: ${left} s left to play`);
  }
  return lines;
}

/** The badges a seat gets (text, class). */
export function seatBadges(t, at, timer, seat, now) {
  const out = [];
  const s = t && t.seats[seat];
  if (!s) return out;
  if (s.kind === "person" && s.presence === "away") {
    out.push([s.grace != null ? `Away ${secondsLeft(s.grace, at, now)} s` : "Away", "away"]);
  } else if (s.kind === "person" && (s.stand_in || s.presence === "gone")) {
    out.push(["Computer plays", "stand-in"]);
  }
  if (timer && timer.seat === seat) out.push([`${secondsLeft(timer.left, timer.at, now)} s`, "timer"]);
  return out;
}

export class Presence {
  constructor() {
    this.tableAt = 0; // when the table object shown was told
    this.tick = 0;
    this.notes = []; // [{text, until}]: played for someone, what was played while you were away
    this.you = null;
    this.t = null;
    this.timer = null;
    this.watching = false; // a spectator's page: said on the line
  }

  /** The table object (or null: not a table with friends), its timer, your seat. */
  update(t, timer, you, fresh) {
    if (fresh) this.tableAt = performance.now();
    this.t = t;
    this.timer = timer;
    this.you = you;
    this.draw();
    const counting = t && (timer || t.seats.some((s) => s.presence === "away" && s.grace));
    if (counting && !this.tick) this.tick = setInterval(() => this.draw(), TICK_MS);
    if (!counting && !this.notes.length && this.tick) {
      clearInterval(this.tick);
      this.tick = 0;
    }
  }

  /** A line shown for a while (a turn played for someone, what was played for you). */
  note(text, ms = PLAYED_FOR_MS) {
    this.notes.push({ text, until: performance.now() + ms });
    if (!this.tick) this.tick = setInterval(() => this.draw(), TICK_MS);
    this.draw();
  }

  draw() {
    const now = performance.now();
    this.notes = this.notes.filter((n) => n.until > now);
    const lines = [...presenceLines(this.t, this.tableAt, this.timer, this.you, now), ...this.notes.map((n) => n.text)];
    if (this.watching) lines.unshift("You are watching: the table as everyone sees it, no hand");
    const box = $("presence");
    box.hidden = !lines.length;
    const text = lines.join(" · ");
    if (box.textContent !== text) box.textContent = text;
    this.badges(now);
  }

  /** The seats' badges, put back after every drawing of the felt. */
  badges(now = performance.now()) {
    for (const box of document.querySelectorAll("#felt .seat[data-seat]")) {
      for (const old of box.querySelectorAll(".badge.presence")) old.remove();
      const badges = box.querySelector(".badges");
      if (!badges) continue;
      for (const [text, cls] of seatBadges(this.t, this.tableAt, this.timer, Number(box.dataset.seat), now)) {
        const span = document.createElement("span");
        span.className = `badge presence ${cls}`;
        span.textContent = text;
        badges.append(span);
      }
    }
  }

  reset() {
    clearInterval(this.tick);
    this.tick = 0;
    this.notes = [];
    this.t = null;
    this.timer = null;
    this.watching = false;
    $("presence").hidden = true;
    $("presence").textContent = "";
  }
}

/** What changed of who is at the table, in sentences (for the live region). */
export function presenceNews(before, t, you) {
  const out = [];
  if (!before || before.id !== t.id) return out;
  for (const s of t.seats) {
    const was = before.seats[s.seat];
    if (!was || s.seat === you) continue;
    if (was.kind === "person" && s.kind === "computer") out.push(`${was.name} left the table; ${s.name} plays the seat.`);
    if (s.kind !== "person") continue;
    if (was.kind !== "person") out.push(`${s.name} takes seat ${s.seat + 1}.`);
    else if (was.presence !== "away" && s.presence === "away") out.push(`${s.name} lost connection; the seat is held for ${seconds(s.grace || 30)}.`);
    else if (was.presence !== "gone" && s.presence === "gone") out.push(`${s.name} is away: a computer player plays for them.`);
    else if (was.presence !== "here" && s.presence === "here") out.push(`${s.name} is back.`);
  }
  return out;
}
