// Around the table: the new-game screen, your games, which game opens at start (or the
// table for friends, or the game to watch, that the page's link names), a password reset
// link, and what happens when who this browser is changes (signed in or out). The table
// itself is main.js's: ``openGame(id)`` opens it, ``openWatch(code)`` watches one.

import { api, currentGame, currentSession, setCurrentGame } from "./net.js";
import { gameLeft, leftGameTaken, presetsLoaded, state } from "./state.js";
import { NewGameForm } from "./newgame.js";
import * as screens from "./screens.js";

const $ = (id) => document.getElementById(id);

/** Whether this device chose "Play with friends" last time (friends.js keeps the choice
 * under this key: read here so that the module loads only then). */
function friendsLast() {
  try {
    return /"who":"friends"/.test(localStorage.getItem("spades.friends") || "");
  } catch {
    return false;
  }
}

export class Lobby {
  /** ``openGame(id)`` opens game ``id`` at the table; ``openWatch(code)`` watches the game
   * of a watch link. */
  constructor({ openGame, openWatch }) {
    this.openGame = openGame;
    this.openWatch = openWatch;
    // "Play with friends": its module (friends.js) loads when chosen, or at start when this
    // device chose it last time
    this.friends = null;
    for (const radio of document.querySelectorAll("#new-who input[name=who]")) {
      radio.addEventListener("change", () => this.friendsChoice(false));
    }
    if (friendsLast()) this.friendsChoice(true);
    this.form = new NewGameForm($("new-form"), async (body) => {
      if (this.friends) this.friends.keep();
      if (this.friends && this.friends.chosen()) {
        await (await import("./invite.js")).makeTable(this, body);
        return;
      }
      const made = await api.create(body);
      openGame(made.id);
    });
    this.join = null; // the invite link's page (invite.js's JoinPage), once opened
  }

  /** The friends options of the new-game window (friends.js), loaded once. */
  async friendsChoice(restore) {
    if (!this.friendsLoading) {
      this.friendsLoading = import("./friends.js").then(({ FriendsChoice }) => {
        this.friends = new FriendsChoice($("new-form"), restore);
      });
    }
    return this.friendsLoading;
  }

  /** The invite link's page (``/t/CODE``): invite.js, loaded when a link is opened. */
  async openInvite(code) {
    (await import("./invite.js")).openInvite(this, code);
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
