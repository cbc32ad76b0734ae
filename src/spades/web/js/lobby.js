// Around the table: the new-game screen, your games, which game opens at start (or the
// table for friends, or the game to watch, that the page's link names), a password reset
// link, and what happens when who this browser is changes (signed in or out). The table
// itself is main.js's: ``openGame(id)`` opens it, ``openWatch(code)`` watches one.

import { api, currentGame, currentSession, setCurrentGame } from "./net.js";
import { gameLeft, leftGameTaken, presetsLoaded, state } from "./state.js";
import { NewGameForm } from "./newgame.js";
import { FriendsChoice } from "./friends.js";
import * as screens from "./screens.js";

const $ = (id) => document.getElementById(id);

export class Lobby {
  /** ``openGame(id)`` opens game ``id`` at the table; ``openWatch(code)`` watches the game
   * of a watch link. */
  constructor({ openGame, openWatch }) {
    this.openGame = openGame;
    this.openWatch = openWatch;
    this.friends = new FriendsChoice($("new-form"));
    this.form = new NewGameForm($("new-form"), async (body) => {
      this.friends.keep();
      if (this.friends.chosen()) {
        await this.makeTable(body);
        return;
      }
      const made = await api.create(body);
      openGame(made.id);
    });
    this.join = null; // the invite link's page (invite.js), loaded when a link is opened
  }

  /** A table for friends from the new-game window: the asker is its host, and the page
   * keeps the codes (shown once by the server) to show them in the waiting room. */
  async makeTable(body) {
    const options = this.friends.values();
    if (!options.name) {
      $("new-name").focus();
      throw new Error("Write your name for the table first (1 to 24 characters).");
    }
    const { keepCodes, keepName, tables } = await import("./tables.js");
    keepName(options.name);
    const made = await tables.create({ ...body, ...options });
    keepCodes(made.id, made);
    this.openGame(made.id);
  }

  /** The page an invite link opened (``/t/CODE``): the table's seats to choose from. */
  async openInvite(code) {
    if (state.socket) state.socket.close();
    screens.showScreen("friends", false);
    $("friends-status").textContent = "";
    $("friends-title").focus();
    if (!this.join) {
      const [{ JoinPage }, { loadStyles }] = await Promise.all([import("./invite.js"), import("./friends.js")]);
      loadStyles();
      this.join ||= new JoinPage($("friends-body"), {
        onSeated: (id) => {
          history.replaceState(null, "", "/");
          this.openGame(id); // its socket brings the waiting room (or the game)
        },
        onGone: () => this.tableGone(),
      });
    }
    this.join.open(code);
  }

  /** The link names no table this person may see: a wrong code, one renewed or expired, or a
   * person removed; all said alike, as for a table that never was. */
  tableGone() {
    history.replaceState(null, "", "/");
    const text = "There is no table for this link. Ask for a new link, or start a game of your own.";
    const p = document.createElement("p");
    p.textContent = text;
    const again = document.createElement("button");
    again.type = "button";
    again.className = "primary";
    again.textContent = "New game";
    again.addEventListener("click", () => this.openNewGame());
    const games = document.createElement("button");
    games.type = "button";
    games.textContent = "Your games";
    games.addEventListener("click", () => this.openGames());
    const row = document.createElement("div");
    row.className = "form-actions";
    row.append(again, games);
    $("friends-body").replaceChildren(p, row);
    $("friends-status").textContent = text;
  }

  async openNewGame() {
    screens.showScreen("new", Boolean(state.socket));
    try {
      if (!state.presets) {
        presetsLoaded(await api.presets());
        this.form.load(state.presets);
      }
      this.form.focus();
    } catch (e) {
      $("new-error").textContent = e.message;
    }
  }

  async openGames() {
    screens.showScreen("games", Boolean(state.socket));
    screens.showGamesHint(currentSession().account);
    const { showGames } = await import("./games.js"); // a view of its own: loads when opened
    await showGames($("games-list"), {
      current: state.gameId,
      resume: (id) => this.openGame(id),
    });
    $("games-title").focus();
  }

  /** Signed in or out (here, or elsewhere), or games moved into the account: the game open
   * stays if this person may reach it, else their list of games (and the game comes back
   * when it is theirs again: its games moved in, or signed out). */
  async whoChanged() {
    screens.showGamesHint(currentSession().account);
    const id = state.gameId || state.leftGame;
    if (!id) {
      if (screens.shown("games")) this.openGames();
      // signed in on a device with no game open: the game in play (from another device) opens
      else if (currentSession().account && screens.shown("new")) {
        const playing = await playingGame();
        if (playing && !state.gameId && screens.shown("new")) this.openGame(playing);
      }
      return;
    }
    try {
      await api.game(id);
    } catch (e) {
      if (e.status !== 404) return;
      if (state.socket) state.socket.close();
      gameLeft(id);
      setCurrentGame(null);
      this.openGames();
      return;
    }
    const left = leftGameTaken();
    if (!left && screens.shown("games")) this.openGames(); // the list, for who this is now
    else this.openGame(id); // a new socket, with a ticket for who this is now
  }

  /** At start: the game this browser had open, else one in play, else a new game. */
  async start() {
    resetLink();
    // an invite or watch link (/t/CODE, /w/CODE): tables.js reads it
    const link = /^\/[tw]\//.test(location.pathname) ? (await import("./tables.js")).linkedCode() : null;
    if (link && link.kind === "t") {
      this.openInvite(link.code);
      return;
    }
    if (link && link.kind === "w") {
      this.openWatch(link.code);
      return;
    }
    const id = currentGame();
    if (id) {
      this.openGame(id);
      return;
    }
    const playing = await playingGame();
    if (playing) this.openGame(playing);
    else this.openNewGame();
  }
}

/** The id of this person's latest game in play, or null (none, or no list). */
async function playingGame() {
  try {
    const { games } = await api.games();
    const playing = games.find((g) => g.status === "playing");
    return playing ? playing.id : null;
  } catch {
    return null;
  }
}

/** A password reset link (``/#reset=TOKEN``: the token stays out of the server's logs). */
export function resetLink() {
  const match = /^#reset=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, "", location.pathname);
  import("./account.js").then((m) => m.openAccount($("btn-account"), match[1]));
}
