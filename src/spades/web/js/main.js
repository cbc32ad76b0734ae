// The table in the browser, wired: the views, the table's socket, the windows, keys and
// buttons (the screens around the table are lobby.js's). Every handler calls a named update
// of the state (state.js), then renders (render.js, windows.js, screens.js); nothing here
// draws or keeps state of its own.
//
// Where things are: state.js the client's state and its updates; tableview.js the server's
// message in the shapes the views draw; render.js the table drawn whole, from table.js (the
// felt, the prompt), trick.js, hand.js, actions.js (bidpad.js); windows.js and dialogs.js
// the windows (sheet.js the score sheet's arithmetic); screens.js and lobby.js the screens
// around the table; net.js the server; shuffle.js and verify.js the shuffle checks; a table
// with friends, friendtable.js (loaded when first needed: docs/architecture.md lists the rest).

import { api, onSessionChange, setCurrentGame, TableSocket } from "./net.js";
import { cardCode, cardFace, cardIndex } from "./cards.js";
import {
  chosenPass, gotState, names, passNeeded, reviewLoaded, socketGone, socketOpened, state, tableOpened,
  tableSignedOut, thinkingAt, toggled, watching,
} from "./state.js";
import { rulesOf, tableView } from "./tableview.js";
import { HandView } from "./hand.js";
import { ActionsView } from "./actions.js";
import { Lobby, resetLink } from "./lobby.js";
import { TrickView } from "./trick.js";
import { TablePage } from "./render.js";
import * as windows from "./windows.js";
import * as screens from "./screens.js";
import { announce, toast } from "./announce.js";
import { bindSettings, settings } from "./settings.js";
import { checkVersion, mustReload, startApp } from "./app.js";
import { ShuffleWatch } from "./shuffle.js";

const $ = (id) => document.getElementById(id);

/** Refusals said in a player's words, by the server's code (the others quote its message). */
const REFUSALS = {
  stale: "The table had moved on; here it is now.",
};

/** "1 card", "2 cards". */
function cardCount(n) {
  return `${n} card${n === 1 ? "" : "s"}`;
}

function sentence(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".") : "";
}

// ---------------------------------------------------------------- the table

const hand = new HandView($("hand"), $("hand-hint"), {
  onPlay: (card) => send({ play: cardCode(card) }),
  onToggle: (card) => {
    if (!toggled(card)) toast(`Choose ${cardCount(passNeeded())}; tap a chosen card to put it back.`);
    render();
  },
  // The server knows why a card can't be played now (follow suit, spades not broken, not
  // your turn, time to bid): send it and show its answer.
  onNotNow: (card) => send({ play: cardCode(card) }),
  tapTwice: () => settings.tapTwice,
});

const actions = new ActionsView($("actions"), {
  send,
  passChosen: () => {
    const pass = chosenPass();
    if (!pass) toast(`Choose ${cardCount(passNeeded())} to pass first.`);
    else send({ pass });
  },
  newGame: () => openNewGame(),
  download: () => download(),
  showSheet: () => showSheet(),
});

const trick = new TrickView($("trick"), $("felt"), $("hand"), () => render());

const page = new TablePage({ hand, trick, actions });

// Each hand's shuffle: the page gives entropy to the next one and checks each revealed one.
const shuffles = new ShuffleWatch({
  sendEntropy: (handNumber, value) => state.socket && state.socket.entropy(handNumber, value),
  said: (handNumber, result, text) => {
    announce(text);
    shuffles.repaint(handNumber);
  },
});

function render(fresh = false) {
  page.render(fresh);
  if (friends) friends.decorate();
}

function focusDecision() {
  page.focusDecision();
}

function send(action) {
  const socket = state.socket;
  if (!socket) return;
  if (!socket.act(action) && socket.ws && socket.ws.readyState !== WebSocket.OPEN) {
    toast("Not connected to the table yet; try again in a moment.");
  }
}

function onState(msg) {
  const news = gotState(msg);
  for (const e of msg.events || []) announce(e.text);
  if (friends) friends.stateCame(msg);
  if (msg.events.some((e) => e.kind === "undo")) trick.reset();
  for (const won of news.tricks) trick.finished(won.plays, won.winner);
  if (!state.watchCode) shuffles.observe(msg); // a spectator gives no entropy, holds no hand
  showSeal();
  if (news.first) {
    screens.showScreen("table", Boolean(state.socket));
    announce(msg.view.over ? "The game is over." : `Hand ${msg.view.hand_number}.`);
  }
  render(news.fresh);
  if (news.gameOver) {
    showOver(news.handLine, true);
    if (friends) friends.overShown(true); // Play again, at a table with friends
  } else if (news.handLine) showOver(news.handLine, false);
}

function showOver(line, gameOver) {
  windows.showOver(tableView(state.msg), names(), line, gameOver, {
    passes: line ? state.passes.get(line.hand) : undefined,
    mark: line && shuffles.watched(line.hand) ? shuffles.mark(line.hand) : null,
    reason: state.endReason,
    on: { newGame: openNewGame, next: focusDecision, download, sheet: showSheet, review: openReview },
  });
}

function showSheet() {
  if (!state.msg) return;
  windows.showSheet(tableView(state.msg), names(), (number) => openReview(number, $("btn-sheet")));
}

/** The "Shuffle sealed" mark at the table while the hand in play has a commitment shown. */
function showSeal() {
  const v = state.msg && state.msg.view;
  $("sealed").hidden = !(v && !v.over && shuffles.sealed(v.hand_number));
}

async function showSealed() {
  const v = state.msg && state.msg.view;
  const commitment = v && shuffles.sealed(v.hand_number);
  if (!commitment) return;
  const { sealedBody } = await import("./sealed.js");
  $("sealed-body").replaceChildren(...sealedBody(v.hand_number, commitment));
  windows.openDialog($("dlg-sealed"));
}

// the card hint, asked for or come (hint.js, loaded when first asked for)
const hint = (m) => import("./hint.js").then((h) => h.hint(hand, m));

function showLastTrick() {
  if (!state.msg) return;
  windows.showLastTrick(state.lastTrick, names());
}

/** The review of a finished hand (js/review.js, loaded when first opened). */
async function openReview(number, opener) {
  if (!state.msg) return;
  const first = reviewLoaded(await import("./review.js"));
  const g = state.msg.game;
  state.review.openReview(number, {
    names: g.players, you: g.you, sides: g.sides,
    send: (message) => Boolean(state.socket && state.socket.send(message)),
    again: openGame,
  }, opener);
  if (first) $("dlg-review").addEventListener("close", afterClose);
}

async function showHelp(forNewGame = false) {
  // The rules text loads when first asked for: it is not needed to open the table.
  const { helpHtml } = await import("./help.js");
  let html = "<p>The rules load with the new-game screen.</p>";
  if (state.msg && !forNewGame) {
    const g = state.msg.game;
    html = helpHtml(rulesOf(state.msg), { label: g.label, names: g.players, you: g.you, table: g.table });
  } else if (state.presets) {
    const name = $("new-preset").value || state.presets.default_preset;
    const p = state.presets.presets.find((x) => x.name === name);
    html = helpHtml({ ...p.options, name: p.name },
      { label: p.label, names: p.seats, you: p.you, table: p.table });
  }
  windows.showHelp(html);
}

function download() {
  if (!state.gameId) return;
  const a = document.createElement("a");
  a.href = api.recordUrl(state.gameId);
  a.download = `spades-${state.gameId}.json`;
  document.body.append(a);
  a.click();
  a.remove();
}

// ---------------------------------------------------------------- games

/** Open game (or table) ``id``; ``watchCode``: watch the table of that watch link instead
 * (a spectator: ``id`` is null, the ticket names the game). */
function openGame(id, watchCode = null) {
  if (state.socket) state.socket.close();
  screens.hideSignedOut();
  tableOpened(id);
  if (watchCode) watching(watchCode);
  trick.reset();
  shuffles.reset();
  if (friends) friends.opened();
  if (!watchCode) setCurrentGame(id);
  $("live").replaceChildren();
  const ticket = watchCode ? () => import("./tables.js").then((m) => m.tables.watchTicket(watchCode)) : null;
  socketOpened(new TableSocket(id, {
    onState,
    onThinking: (m) => { thinkingAt(m.seat); render(); },
    onError: (m) => {
      // the server sends the code; the words for a person are the client's (a state follows)
      const text = REFUSALS[m.code] || sentence(m.message || "That can't be done now");
      toast(text);
      announce(text);
    },
    onStatus: (text) => {
      screens.showConnection(text);
      if (!text) {
        checkVersion(); // connected again: is the server still at our version?
        if (state.review) state.review.reconnected();
      }
    },
    onReview: (m) => { if (state.review) state.review.received(m); },
    onReload: mustReload,
    onSignedOut: (reason) => {
      socketGone();
      signedOut(reason);
    },
    onOther: (m) => (m.type === "hint" ? hint : friendMessage)(m),
    onGone: () => {
      socketGone();
      if (friends && friends.gone()) return;
      if (!watchCode) setCurrentGame(null);
      else history.replaceState(null, "", "/");
      toast(state.watchCode || state.table ? "There is no such table for you." : "That game is not on this server any more.");
      openNewGame();
    },
  }, ticket));
}

/** Watch the table of watch link ``code``: what the table shows everyone, no hand. */
function openWatch(code) {
  openGame(null, code);
}

/** This person left a table with friends: their games. */
function leftTable() {
  socketGone();
  setCurrentGame(null);
  history.replaceState(null, "", "/");
  toast("You left the table.");
  announce("You left the table.");
  lobby.openGames();
}

// A table with friends: its module loads with the first message only such a table sends
// (a game against the computer players opens without it); its messages keep their order.
let friends = null;
let friendsReady = Promise.resolve();

function friendMessage(msg) {
  friendsReady = friendsReady.then(async () => {
    if (!friends) {
      const { FriendTable } = await import("./friendtable.js");
      friends ||= new FriendTable({ openGame: (id) => openGame(id), leftTable });
      render();
    }
    friends.message(msg);
  }).catch((e) => toast(String(e.message || e)));
}

/** The table's sign-in ended (here, on another device, or the account was deleted): the
 * socket stays closed; say so once in the live region, and offer the Account window. */
function signedOut(reason) {
  const text = sentence(reason || "signed out: sign in again to go on");
  screens.showSignedOut(text, () => import("./account.js").then(
    (m) => m.openAccount($("btn-account"), null, { signIn: true })));
  tableSignedOut();
  render();
  announce(text);
}

const lobby = new Lobby({ openGame: (id) => openGame(id), openWatch });

function openNewGame() {
  return lobby.openNewGame();
}

onSessionChange(() => { lobby.whoChanged(); });
window.addEventListener("hashchange", resetLink); // the link opened in a tab already here

// ---------------------------------------------------------------- keys and buttons

function typing(target) {
  return target && (target.matches("input, select, textarea") || target.isContentEditable);
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
  if (!screens.shown("table")) return;
  const key = event.key.toLowerCase();
  if (key === "l" || key === "s") {
    event.preventDefault();
    const id = key === "l" ? "dlg-last" : "dlg-sheet";
    if (windows.isOpen(id)) $(id).close();
    else if (key === "l") showLastTrick();
    else showSheet();
    return;
  }
  if (key === "h" && !windows.anyOpen() && $("screen-table").dataset.hints !== "off") hint();
  if (key === "u" && !windows.anyOpen()) send({ undo: true });
  if (!windows.anyOpen() && /^[0-9]$/.test(event.key) && actions.pad.root.isConnected) {
    event.preventDefault();
    actions.pad.digit(event.key);
  }
});

/** Back to the table from another screen. */
function backToTable() {
  const waiting = state.table && state.table.status === "waiting";
  screens.showScreen(waiting ? "friends" : "table", Boolean(state.socket));
  focusDecision();
}

$("btn-last").addEventListener("click", showLastTrick);
$("btn-hint").addEventListener("click", () => hint());
$("sealed").addEventListener("click", showSealed);
$("btn-sheet").addEventListener("click", showSheet);
$("btn-undo").addEventListener("click", () => send({ undo: true }));
$("btn-help").addEventListener("click", () => showHelp(screens.shown("new")));
$("btn-games").addEventListener("click", () => lobby.openGames());
// Statistics load only when opened (js/stats.js): the table opens without them.
$("btn-stats").addEventListener("click", () => import("./stats.js").then((m) => m.openStats($("btn-stats"))));
// The account window loads only when opened (js/account.js): an account is never needed.
$("btn-account").addEventListener("click", () => import("./account.js").then((m) => m.openAccount($("btn-account"))));
$("games-new").addEventListener("click", openNewGame);
$("games-back").addEventListener("click", backToTable);
$("new-cancel").addEventListener("click", backToTable);
const refreshSettings = bindSettings($("dlg-settings"));
// A card of each suit in the settings window shows what the deck and size choices do.
$("set-preview").append(...["AS", "TH", "7D", "QC"].map((c) => cardFace(cardIndex(c))));
$("btn-settings").addEventListener("click", () => { refreshSettings(); windows.openDialog($("dlg-settings")); });
$("dlg-settings").addEventListener("close", () => render());
// A window closed and what had focus before it is gone: back to the decision at hand.
function afterClose() {
  // after the browser has put focus back where it was before the window opened
  setTimeout(() => {
    const now = document.activeElement;
    const gone = !now || now === document.body || Boolean(now.closest("dialog:not([open]), [hidden]"));
    if (screens.shown("table") && gone && !windows.anyOpen()) focusDecision();
  }, 0);
}
for (const dialog of document.querySelectorAll("dialog")) dialog.addEventListener("close", afterClose);
$("new-help-link").addEventListener("click", (event) => { event.preventDefault(); showHelp(true); });

startApp();
lobby.start();
