// Around the table: the new-game screen, your games, which game opens at start, a password
// reset link, and what happens when who this browser is changes (signed in or out). The
// table itself is main.js's: ``openGame(id)`` opens it.

import { api, currentGame, currentSession, setCurrentGame } from "./net.js";
import { gameLeft, leftGameTaken, presetsLoaded, state } from "./state.js";
import { NewGameForm } from "./newgame.js";
import * as screens from "./screens.js";

const $ = (id) => document.getElementById(id);

export class Lobby {
  /** ``openGame(id)`` opens game ``id`` at the table. */
  constructor({ openGame }) {
    this.openGame = openGame;
    this.form = new NewGameForm($("new-form"), async (body) => {
      const made = await api.create(body);
      openGame(made.id);
    });
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
