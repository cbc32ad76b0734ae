// The waiting room of a table with friends, before its game starts: the table's rules and
// seats as the server's table object says (sent on the table's socket at every change); for
// the host, the invite link and code, a new link, moving or removing a person, watching, and
// the start; for everyone seated, another seat or leaving. Every button sends one intent
// (tables.js); what is drawn is always the server's latest table.

import { codesOf, groupedCode, keepCodes, linkOf, tables } from "./tables.js";
import { toast } from "./announce.js";

const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (v === true) node.setAttribute(k, "");
    else if (v !== false && v != null) node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

/** Said on the page's status lines (a polite live region: screen readers hear each once);
 * the last three stay. */
export function say(text) {
  const status = $("friends-status");
  status.append(el("span", { class: "said-line", text }));
  while (status.childElementCount > 3) status.firstElementChild.remove();
}

export function button(text, onClick, attrs = {}) {
  const b = el("button", { type: "button", ...attrs, text });
  b.addEventListener("click", onClick);
  return b;
}

/** "Seat 1" ... as people say it (seats count from 1 on the screen). */
export function seatLabel(seat) {
  return `Seat ${seat + 1}`;
}

const RULE_WORDS = { nil: "nil", blind_nil: "blind nil", bag_penalty: "bag penalty", mercy: "mercy rule", jokers: "jokers" };

/** The table's rules and options in one line. */
export function rulesLine(t) {
  const parts = [t.label];
  const h = t.house_rules || {};
  if (h.target_score) parts.push(`to ${h.target_score}`);
  const on = Object.keys(RULE_WORDS).filter((k) => h[k]).map((k) => RULE_WORDS[k]);
  if (on.length) parts.push(on.join(", "));
  parts.push(`computer players: ${t.level}`);
  parts.push(t.hints ? "hints allowed" : "no hints");
  parts.push(t.timer ? `${t.timer} s a turn` : "no turn timer");
  if (t.watching) parts.push("others may watch");
  return parts.join(" · ");
}

/** Who sits at a seat, in words: "Ann (you, host)", "Empty", "Clover (computer)". */
export function seatText(t, s) {
  if (s.kind === "empty") return "Empty";
  if (s.kind === "computer") return `${s.name} (computer)`;
  const notes = [];
  if (t.you === s.seat) notes.push("you");
  if (t.host === s.seat) notes.push("host");
  if (s.presence === "away" || s.presence === "gone") notes.push("not connected");
  return notes.length ? `${s.name} (${notes.join(", ")})` : s.name;
}

/** Partners, in words, from the table's sides. */
export function partnersText(t) {
  const sides = t.table && t.table.sides;
  if (!sides || !sides.some((side) => side.length > 1)) return "Each plays for themselves.";
  return `Partners sit opposite: ${sides.map((side) => `seats ${side.map((s) => s + 1).join(" and ")}`).join(" against ")}.`;
}

/** The list of seats, each with the buttons ``controls(seat)`` gives. */
export function seatList(t, controls) {
  const list = el("ul", { class: "friend-seats", id: "friend-seats" });
  for (const s of t.seats) {
    const mine = t.you === s.seat;
    const item = el("li", { "data-seat": String(s.seat), class: `kind-${s.kind}${mine ? " you" : ""}` },
      el("span", { class: "seat-no", text: seatLabel(s.seat) }), " ",
      el("span", { class: "who", text: seatText(t, s) }));
    const buttons = controls(s);
    if (buttons.length) item.append(el("span", { class: "controls" }, ...buttons));
    list.append(item);
  }
  return list;
}

export class WaitingRoom {
  constructor(root) {
    this.root = root;
    this.table = null;
    this.drawn = "";
    this.busy = false;
    this.watching = false; // a spectator's page: the table only, no controls
  }

  /** A table (re)opened: forget the last one. */
  reset() {
    this.table = null;
    this.drawn = "";
  }

  /** The server's table (a ``table`` message, or an answer): drawn when it changed, so that
   * the focus stays put; who came and went is said. */
  show(t, watching = false) {
    this.watching = watching;
    const key = JSON.stringify(t);
    if (key === this.drawn) return;
    const before = this.table;
    this.table = t;
    this.drawn = key;
    if (before && before.id === t.id) this.tellChanges(before, t);
    this.draw(t);
  }

  tellChanges(before, t) {
    for (const s of t.seats) {
      const was = before.seats[s.seat];
      if (!was || t.you === s.seat) continue;
      const at = seatLabel(s.seat).toLowerCase();
      if (was.kind !== "person" && s.kind === "person") this.say(`${s.name} sits at ${at}.`);
      else if (was.kind === "person" && s.kind !== "person") this.say(`${was.name} left ${at}.`);
      else if (was.presence === "here" && s.presence === "away") this.say(`${s.name} lost connection.`);
    }
    if (t.host != null && t.host === t.you && before.host !== before.you) this.say("You are the host now.");
  }

  say(text) {
    say(text);
  }

  /** An intent (``call`` answers {table, ...}); the answer is drawn, ``said`` is said. */
  async act(call, said = "") {
    if (this.busy) return null;
    this.busy = true;
    try {
      const answer = await call();
      if (answer && (answer.code !== undefined || answer.watch_code !== undefined)) {
        keepCodes(this.table.id, answer);
        this.drawn = "";
      }
      if (said) this.say(said);
      if (answer && answer.table && answer.table.status === "waiting") this.show(answer.table);
      return answer;
    } catch (e) {
      this.say(e.message);
      toast(e.message);
      return null;
    } finally {
      this.busy = false;
    }
  }

  draw(t) {
    const active = document.activeElement;
    const keep = active && this.root.contains(active) ? active.dataset.key : null;
    const rules = el("p", { class: "variant-help", id: "friends-rules", text: rulesLine(t) });
    if (this.watching || t.you == null) {
      this.root.replaceChildren(rules, this.seatsBox(t),
        el("p", { class: "waiting-note", text: "The game has not started yet: you will watch it here when it does." }));
      return;
    }
    this.root.replaceChildren(rules, this.inviteBox(t), this.seatsBox(t), this.actionsBox(t));
    const again = keep && this.root.querySelector(`[data-key="${CSS.escape(keep)}"]`);
    if (again) again.focus();
  }

  inviteBox(t) {
    // the host's page keeps the codes; anyone seated gets the code when the host shares it
    const codes = { ...codesOf(t.id) };
    if (!codes.code && t.shared) Object.assign(codes, t.shared);
    const host = t.host != null && t.host === t.you;
    const box = el("section", { class: "invite", "aria-labelledby": "invite-title" },
      el("h3", { id: "invite-title", text: "Invite your friends" }));
    if (t.invite && codes.code) {
      const link = linkOf(codes.invite || `/t/${codes.code}`);
      box.append(el("p", { class: "hint", text: "Send them the link, or read them the code (letters and digits, no 0, O, 1, I or L)." }),
        el("p", { class: "code-line" }, "Code ", el("strong", { class: "code", id: "invite-code", text: groupedCode(codes.code) })));
      const input = el("input", { id: "invite-link", type: "text", readonly: true, value: link, "aria-label": "Invite link", class: "link" });
      input.addEventListener("focus", () => input.select());
      box.append(input, el("div", { class: "form-actions" },
        button("Copy link", () => copy(link, "invite-link"), { class: "primary", id: "copy-link", "data-key": "copy-link" }),
        button("Copy code", () => copy(codes.code, "invite-link"), { id: "copy-code", "data-key": "copy-code" })));
    } else {
      box.append(el("p", { class: "hint", text: t.invite ? "The host has the link to share." : "No invite link works now." }));
    }
    if (host) {
      const row = el("div", { class: "form-actions" },
        button(t.invite ? "New link" : "Make a link", () => this.act(() => tables.renewInvite(t.id),
          "A new link is made: the old one no longer works."), { id: "renew-link", "data-key": "renew" }));
      if (t.invite) {
        row.append(button("Revoke the link", () => this.act(() => tables.revokeInvite(t.id),
          "The link is revoked: nobody can use it now."), { id: "revoke-link", "data-key": "revoke" }));
      }
      box.append(row);
    }
    box.append(...this.watchLines(t, codes, host));
    return box;
  }

  watchLines(t, codes, host) {
    const out = [];
    if (t.watch && codes.watch_code) {
      const link = linkOf(codes.watch_link || `/w/${codes.watch_code}`);
      out.push(el("p", { class: "hint" }, "Watch link (no hands are shown): ",
        el("a", { href: link, id: "watch-link", text: link })));
    }
    if (host) {
      out.push(el("div", { class: "form-actions" },
        button(t.watch ? "New watch link" : "Allow watching", () => this.act(() => tables.renewWatch(t.id),
          "A watch link is made."), { id: "renew-watch", "data-key": "watch" }),
        ...(t.watch ? [button("Close watching", () => this.act(() => tables.closeWatch(t.id),
          "Watching is closed."), { id: "close-watch", "data-key": "close-watch" })] : [])));
    }
    return out;
  }

  seatsBox(t) {
    const host = t.host != null && t.host === t.you;
    const empty = t.seats.filter((s) => s.kind === "empty");
    const list = seatList(t, (s) => {
      const out = [];
      if (s.kind === "empty" && t.you != null) {
        out.push(button("Move here", () => this.act(() => tables.seat(t.id, s.seat),
          `You move to ${seatLabel(s.seat).toLowerCase()}.`),
        { "data-key": `seat-${s.seat}`, "aria-label": `Move to ${seatLabel(s.seat).toLowerCase()}` }));
      }
      if (host && s.kind === "person" && s.seat !== t.you) {
        if (empty.length) out.push(this.moveControl(t, s, empty));
        out.push(button("Remove", () => this.act(() => tables.remove(t.id, s.seat),
          `${s.name} is removed; the seat is empty again.`),
        { class: "risky", "data-key": `remove-${s.seat}`, "aria-label": `Remove ${s.name}` }));
      }
      return out;
    });
    return el("section", { class: "seats-box", "aria-labelledby": "seats-title" },
      el("h3", { id: "seats-title", text: "Seats" }),
      el("p", { class: "hint", text: partnersText(t) }), list);
  }

  moveControl(t, s, empty) {
    const select = el("select", { "aria-label": `Move ${s.name} to`, "data-key": `move-to-${s.seat}` });
    for (const e of empty) select.append(el("option", { value: String(e.seat), text: seatLabel(e.seat) }));
    const go = button("Move", () => {
      const to = Number(select.value);
      this.act(() => tables.move(t.id, s.seat, to), `${s.name} moves to ${seatLabel(to).toLowerCase()}.`);
    }, { "data-key": `move-${s.seat}`, "aria-label": `Move ${s.name}` });
    return el("span", { class: "move" }, select, go);
  }

  actionsBox(t) {
    const host = t.host != null && t.host === t.you;
    const hostName = t.host != null ? t.seats[t.host].name : "the host";
    const row = el("div", { class: "form-actions" },
      el("p", { class: "waiting-note", text: host
        ? "Start when everyone is seated; empty seats get computer players."
        : `Waiting for ${hostName} to start the game.` }));
    if (host) {
      row.append(button("Start the game", () => this.act(() => tables.start(t.id), "The game starts."),
        { class: "primary", id: "friends-start", "data-key": "start" }));
    }
    row.append(button("Leave my seat", () => this.leave(t), { id: "friends-leave", "data-key": "leave" }));
    return row;
  }

  async leave(t) {
    this.onLeaving();
    const answer = await this.act(() => tables.leave(t.id));
    if (answer && answer.left) this.onLeft();
  }

  /** Set by the page: before leaving the waiting room, and what follows it. */
  onLeaving() {}

  onLeft() {}
}

/** Copy ``text`` to the clipboard and say so; where the page may not, select the link for
 * the person to copy. */
export async function copy(text, fallbackId) {
  try {
    await navigator.clipboard.writeText(text);
    toast("Copied.", 2000);
  } catch {
    const input = $(fallbackId);
    if (input) {
      input.focus();
      input.select();
    }
    toast("Press Ctrl+C (or long-press, then Copy) to copy it.");
  }
}
