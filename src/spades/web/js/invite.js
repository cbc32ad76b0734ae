// The page an invite link opens (``/t/CODE``) for someone not yet seated: the table's rules
// and seats, a display name (the one last used on this device is offered) and a free seat
// to take. Seated, the page opens the table (its waiting room, or the game when the host
// lets invited people take a computer player's seat). A code that does not work gets one
// answer, whatever the reason: there is no such table.

import { keepCodes, keepName, lastName, tables } from "./tables.js";
import { state } from "./state.js";
import { showScreen } from "./screens.js";
import { loadStyles } from "./friends.js";
import { button, el, partnersText, rulesLine, say, seatLabel, seatList } from "./waiting.js";

const $ = (id) => document.getElementById(id);

export class JoinPage {
  /** ``onSeated(id)``: seated at table ``id``, open it; ``onGone()``: no such table. */
  constructor(root, { onSeated, onGone }) {
    this.root = root;
    this.onSeated = onSeated;
    this.onGone = onGone;
    this.code = null;
    this.busy = false;
  }

  async open(code) {
    this.code = code;
    this.root.replaceChildren(el("p", { class: "hint", text: "Finding the table…" }));
    let answer;
    try {
      answer = await tables.preview(code);
    } catch (e) {
      this.failed(e);
      return;
    }
    if (this.code !== code) return;
    const t = answer.table;
    if (t.you != null) { // seated already (a reload, another tab): the table
      this.onSeated(t.id);
      return;
    }
    this.draw(t);
  }

  failed(e) {
    if (e.status === 404) this.onGone();
    else this.say(e.message);
  }

  say(text) {
    say(text);
  }

  draw(t) {
    const started = t.status !== "waiting";
    // started: a computer player's seat (the contract's word; "empty" taken as one too)
    const free = (s) => (started ? s.kind !== "person" : s.kind === "empty");
    const name = el("input", { id: "friends-name", type: "text", maxlength: "24", autocomplete: "nickname",
      value: lastName(), required: true, "aria-describedby": "friends-name-hint" });
    const list = seatList(t, (s) => (free(s) ? [button(started ? "Take this seat" : "Sit here", () => this.take(s.seat),
      { "data-key": `sit-${s.seat}`, class: "primary",
        "aria-label": `${started ? "Take" : "Sit at"} ${seatLabel(s.seat).toLowerCase()}${started && s.name ? ` from ${s.name}` : ""}` })] : []));
    this.root.replaceChildren(
      el("p", { class: "variant-help", id: "friends-rules", text: rulesLine(t) }),
      el("section", { class: "seats-box", "aria-labelledby": "join-title" },
        el("h3", { id: "join-title", text: started ? "Take a computer player's seat" : "Pick a seat" }),
        el("label", { class: "field", for: "friends-name" }, "Your name"), name,
        el("p", { class: "hint", id: "friends-name-hint", text: "1 to 24 characters; shown to the table." }),
        el("p", { class: "hint", text: partnersText(t) }), list,
        el("p", { class: "hint", text: started
          ? "You play that seat from its next decision."
          : "Empty seats get computer players when the host starts the game." })));
    if (!t.seats.some(free)) this.say("Every seat is taken.");
  }

  async take(seat) {
    const input = $("friends-name");
    const name = input.value.trim();
    if (!name) {
      this.say("Write your name first (1 to 24 characters).");
      input.focus();
      return;
    }
    if (this.busy) return;
    this.busy = true;
    keepName(name);
    try {
      const answer = await tables.take(this.code, seat, name);
      keepCodes(answer.table.id, { code: this.code, invite: `/t/${this.code}` });
      this.say(`You sit at ${seatLabel(answer.seat).toLowerCase()} as ${answer.name}.`);
      this.onSeated(answer.table.id);
    } catch (e) {
      if (e.status === 409 && e.data && e.data.table) this.draw(e.data.table);
      this.failed(e);
    } finally {
      this.busy = false;
    }
  }
}

// ------------------------------------------------------------ from the lobby (lobby.js)

/** A table for friends from the new-game window: the asker is its host, and the page keeps
 * the codes (shown once by the server) to show them in the waiting room. */
export async function makeTable(lobby, body) {
  const options = lobby.friends.values();
  if (!options.name) {
    $("new-name").focus();
    throw new Error("Write your name for the table first (1 to 24 characters).");
  }
  keepName(options.name);
  const made = await tables.create({ ...body, ...options });
  keepCodes(made.id, made);
  lobby.openGame(made.id);
}

/** The page an invite link opened (``/t/CODE``): the table's seats to choose from. */
export function openInvite(lobby, code) {
  if (state.socket) state.socket.close();
  showScreen("friends", false);
  $("friends-status").textContent = "";
  $("friends-title").focus();
  loadStyles();
  lobby.join ||= new JoinPage($("friends-body"), {
    onSeated: (id) => {
      history.replaceState(null, "", "/");
      lobby.openGame(id); // its socket brings the waiting room (or the game)
    },
    onGone: () => tableGone(lobby),
  });
  lobby.join.open(code);
}

/** The link names no table this person may see: a wrong code, one renewed or expired, or a
 * person removed; all said alike, as for a table that never was. */
function tableGone(lobby) {
  history.replaceState(null, "", "/");
  const text = "There is no table for this link. Ask for a new link, or start a game of your own.";
  $("friends-body").replaceChildren(el("p", { text }), el("div", { class: "form-actions" },
    button("New game", () => lobby.openNewGame(), { class: "primary" }),
    button("Your games", () => lobby.openGames())));
  $("friends-status").textContent = text;
}
