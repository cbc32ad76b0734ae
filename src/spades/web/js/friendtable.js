// A table with friends at the page: the messages its socket adds to a game's (docs/protocol.md,
// "Tables with friends") handed to their views: the waiting room (waiting.js) before the
// start; who is away, the turn timer and the turns played for someone (presence.js); the
// phrases (phrases.js); "Leave table" with its confirmation, "Invite" (the link, when the host
// lets anyone seated share it) and "Play again" after the game.
// main.js hands it every such message and calls ``decorate`` after drawing the table.

import { leavingTable, state, tableGot, timerGot } from "./state.js";
import { WaitingRoom, el, button, copy } from "./waiting.js";
import { Presence, presenceNews } from "./presence.js";
import { Phrases } from "./phrases.js";
import { tables } from "./tables.js";
import { api } from "./net.js";
import * as screens from "./screens.js";
import { announce, toast } from "./announce.js";
import { openDialog } from "./windows.js";
import { loadStyles } from "./friends.js";

const $ = (id) => document.getElementById(id);

/** A button of the menu: ``text``, then ``more`` on wide screens ("Leave" " table"). */
function menuButton(id, text, more, onClick) {
  const b = button(text, onClick, { id, "aria-haspopup": "dialog", "aria-label": more ? text + more : null });
  if (more) b.append(el("span", { class: "long", text: more }));
  return b;
}

/** Put ``b`` in the menu (before Help) or take it out. */
function inMenu(b, shown) {
  if (shown && !b.isConnected) $("btn-help").before(b);
  else if (!shown && b.isConnected) b.remove();
}

export class FriendTable {
  /** ``openGame(id)`` opens a table; ``leftTable()`` shows what follows leaving one. */
  constructor({ openGame, leftTable }) {
    this.openGame = openGame;
    this.leftTable = leftTable;
    loadStyles();
    this.waiting = new WaitingRoom($("friends-body"));
    this.waiting.onLeaving = () => leavingTable();
    this.waiting.onLeft = () => this.finishLeaving();
    this.done = false; // the page has shown that this person left
    this.presence = new Presence();
    this.phraseList = null;
    this.phrases = new Phrases({
      list: async () => {
        if (!this.phraseList) this.phraseList = (await api.presets()).phrases || [];
        return this.phraseList;
      },
      send: (message) => Boolean(state.socket && state.socket.send(message)),
    });
    this.next = null; // the table "Play again" made, once someone asked
    this.leaveDialog = null;
    this.inviteDialog = null;
    // the menu's Say and Leave table: in the menu only at a table with friends
    this.sayButton = menuButton("btn-say", "Say", "", () => this.phrases.open(this.sayButton));
    this.leaveButton = menuButton("btn-leave", "Leave", " table", () => this.confirmLeave());
    // the invite link, for the people seated when the host lets anyone share it
    this.inviteButton = menuButton("btn-invite", "Invite", "", () => this.showInvite());
  }

  /** A table (or a plain game) was opened at the page: forget the last one. */
  opened() {
    this.waiting.reset();
    this.presence.reset();
    this.phrases.reset();
    this.next = null;
    this.done = false;
    this.buttons();
  }

  /** A message of a table with friends; true when it was one. */
  message(msg) {
    if (msg.type === "table") this.gotTable(msg.table);
    else if (msg.type === "started") announce("The game starts.");
    else if (msg.type === "again") this.againAsked(msg.table);
    else if (msg.type === "turn-timer") {
      timerGot(msg);
      this.presence.update(this.playing(), state.timer, this.you(), false);
    } else if (msg.type === "while-away") {
      announce(msg.text); // and on the presence line for a while
      this.presence.note(msg.text, 15000);
    } else if (msg.type === "phrase") this.phrases.heard(msg, this.you());
    else return false;
    return true;
  }

  you() {
    return state.table ? state.table.you : state.msg ? state.msg.game.you : null;
  }

  /** The table object once its game is under way (null while waiting, or no table). */
  playing() {
    return state.table && state.table.status !== "waiting" ? state.table : null;
  }

  gotTable(t) {
    const before = state.table;
    tableGot(t);
    if (t.status === "waiting") {
      if (!screens.shown("friends")) {
        screens.showScreen("friends", false);
        $("friends-title").focus();
      }
      this.waiting.show(t, Boolean(state.watchCode));
    } else {
      for (const line of presenceNews(before, t, t.you)) announce(line);
      this.namesChanged(t);
    }
    this.presence.update(this.playing(), state.timer, t.you, true);
    this.buttons();
  }

  /** A seat changed hands (a friend took it, someone left): the table's names are the
   * state's, so ask for it again now (``sync``), once for each new set of names. */
  namesChanged(t) {
    const shown = state.msg && state.msg.game.players;
    const names = t.seats.map((s, i) => s.name || (shown && shown[i]));
    const key = names.join("\u0000");
    if (!shown || key === this.syncedNames || names.every((n, i) => n === shown[i])) return;
    this.syncedNames = key;
    if (state.socket) state.socket.send({ type: "sync" });
  }

  /** A state came: the turns played for someone are shown for a moment (the live region
   * reads their events as any). */
  stateCame(msg) {
    for (const e of msg.events || []) if (e.played_for) this.presence.note(e.text);
    if (!state.timer) return;
    // the timed seat acted (or the game ended): its timer is over (the next turn-timer
    // message starts the next one)
    const acted = (msg.events || []).some((e) => e.seat === state.timer.seat);
    if (acted || (msg.view && msg.view.over)) timerGot({ seat: null });
  }

  /** After every drawing of the table: the seats' badges and phrases. */
  decorate() {
    this.presence.watching = Boolean(state.watchCode);
    this.presence.update(this.playing(), state.timer, this.you(), false);
    this.phrases.decorate();
  }

  buttons() {
    const t = state.table;
    const seated = Boolean(t && t.you != null && !state.watchCode);
    inMenu(this.sayButton, seated);
    inMenu(this.leaveButton, seated && t.status === "playing");
    inMenu(this.inviteButton, seated && t.status === "playing" && Boolean(t.shared));
  }

  /** The invite link the host lets anyone seated share, with a copy button. */
  showInvite() {
    const shared = state.table && state.table.shared;
    if (!shared) return;
    const link = new URL(shared.invite, location.href).href;
    if (!this.inviteDialog) {
      const dialog = el("dialog", { id: "dlg-invite", "aria-labelledby": "table-invite-title" },
        el("h2", { id: "table-invite-title", text: "Invite a friend" }),
        el("p", { class: "hint", id: "table-invite-hint" }));
      const input = el("input", { id: "table-invite-link", type: "text", readonly: true, class: "link",
        "aria-label": "Invite link", "aria-describedby": "table-invite-hint" });
      input.addEventListener("focus", () => input.select());
      const copyIt = button("Copy link", () => copy(input.value, "table-invite-link"), { class: "primary", id: "copy-table-link" });
      const close = button("Close", () => dialog.close(), { id: "table-invite-close" });
      dialog.append(input, el("div", { class: "form-actions" }, copyIt, close));
      document.body.append(dialog);
      this.inviteDialog = dialog;
    }
    $("table-invite-hint").textContent = `Send this link, or read out the code ${shared.code}: `
      + "whoever opens it may take a computer player's seat.";
    $("table-invite-link").value = link;
    openDialog(this.inviteDialog);
    $("copy-table-link").focus();
  }

  /** The socket closed as "not found": true when this page expected it (it left). */
  gone() {
    if (!state.leaving) return false;
    this.finishLeaving();
    return true;
  }

  /** Left the table (the answer came, or the socket closed for it): said once. */
  finishLeaving() {
    if (this.done) return;
    this.done = true;
    if (state.socket) state.socket.close();
    this.leftTable();
  }

  confirmLeave() {
    const t = state.table;
    if (!t) return;
    if (!this.leaveDialog) {
      const dialog = el("dialog", { id: "dlg-leave", "aria-labelledby": "leave-title", "aria-describedby": "leave-text" },
        el("h2", { id: "leave-title", text: "Leave the table?" }),
        el("p", { id: "leave-text", class: "leave-note",
          text: "A computer player takes your seat for good and plays it to the end. You cannot come back to this game." }));
      const stay = button("Stay at the table", () => dialog.close(), { class: "primary", id: "leave-stay" });
      const go = button("Leave the table", () => this.leave(dialog), { class: "risky", id: "leave-confirm" });
      dialog.append(el("div", { class: "form-actions" }, stay, go));
      document.body.append(dialog);
      this.leaveDialog = dialog;
    }
    openDialog(this.leaveDialog);
    $("leave-stay").focus();
  }

  async leave(dialog) {
    const t = state.table;
    dialog.close();
    if (!t) return;
    leavingTable();
    try {
      await tables.leave(t.id);
    } catch (e) {
      leavingTable(false);
      toast(e.message);
      return;
    }
    this.finishLeaving();
  }

  againAsked(next) {
    this.next = next;
    const line = "Someone asked to play again: press Play again to join them at the next table.";
    announce(line);
    const b = $("play-again");
    if (b) b.textContent = "Play again (join them)";
  }

  /** The end of the game's window: at a table with friends, "Play again" (one click each). */
  overShown(gameOver) {
    const t = state.table;
    if (!gameOver || !t || t.you == null || state.watchCode) return;
    const again = button(this.next ? "Play again (join them)" : "Play again", () => this.playAgain(),
      { id: "play-again", class: "primary" });
    $("over-actions").prepend(again);
    again.focus();
  }

  async playAgain() {
    const t = state.table;
    if (!t) return;
    try {
      const answer = await tables.again(t.id);
      $("dlg-over").close();
      this.openGame(answer.table.id);
    } catch (e) {
      toast(e.message);
    }
  }
}
