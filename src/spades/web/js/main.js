// The table in the browser: screens, the websocket's states rendered whole, keys.

import { api, currentGame, currentSession, onSessionChange, setCurrentGame, TableSocket } from "./net.js";
import { cardCode, cardFace, cardIndex, cardName } from "./cards.js";
import { HandView } from "./hand.js";
import { ActionsView } from "./actions.js";
import { NewGameForm } from "./newgame.js";
import { renderBroken, renderScoreline, renderSeats } from "./table.js";
import { TrickView } from "./trick.js";
import { endReason, gameOverText, handOverBody, lastTrickBody, sheetTable } from "./dialogs.js";
import { announce, toast } from "./announce.js";
import { bindSettings, settings } from "./settings.js";
import { checkVersion, mustReload, startApp } from "./app.js";
import { ShuffleWatch } from "./shuffle.js";

const $ = (id) => document.getElementById(id);

const app = {
  socket: null,
  gameId: null,
  msg: null, // the last state from the server
  thinking: null,
  chosen: new Set(), // cards chosen to pass
  lastTrick: null, // the last finished trick seen, kept across hands
  passes: new Map(), // hand number -> the passes of that hand (blind nil), for its summary
  presets: null,
  shownKind: "", // the decision the page shows now
  endReason: null, // why the game ended, from the server's game event (target, mercy, ...)
  review: null, // js/review.js once a review was opened
  leftGame: null, // the game open before a sign-in that does not reach it
};

// ---------------------------------------------------------------- small helpers

function names() {
  return app.msg.game.players;
}

function rulesOf(msg) {
  return { ...msg.game.rules, name: msg.game.rules.preset };
}

/** [[seat, card index]] of a list of {seat, card} plays. */
function seatPlays(list) {
  return list.map((p) => [p.seat, cardIndex(p.card)]);
}

/** The view in the shape the renderers use. */
function tableView(msg) {
  const v = msg.view;
  return {
    seat: msg.game.you,
    rules: rulesOf(msg),
    sides: msg.game.sides,
    partner: msg.game.partner,
    phase: v.phase,
    turn: v.turn,
    handNumber: v.hand_number,
    dealer: v.dealer,
    leader: v.leader,
    bids: v.bids,
    tricks: v.tricks,
    trick: seatPlays(v.trick || []),
    lastTrick: v.last_trick ? { plays: seatPlays(v.last_trick.cards), winner: v.last_trick.winner } : null,
    tricksPlayed: v.tricks_played,
    broken: v.broken,
    scores: v.scores,
    bags: v.bags,
    sheet: v.sheet,
    over: v.over,
    winner: v.winner,
    handSizes: v.hand_sizes,
    hiddenCount: v.hand_hidden ? v.hand_sizes[msg.game.you] : 0,
    kitty: v.kitty,
    passes: v.passes || [],
  };
}

/** Refusals said in a player's words, by the server's code (the others quote its message). */
const REFUSALS = {
  stale: "The table had moved on; here it is now.",
};

function sentence(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".") : "";
}

function showScreen(name) {
  for (const id of ["screen-new", "screen-table", "screen-games"]) $(id).hidden = id !== `screen-${name}`;
  const onTable = name === "table";
  $("btn-last").hidden = !onTable;
  $("btn-sheet").hidden = !onTable;
  $("scoreline").hidden = !onTable;
  $("new-cancel").hidden = !app.socket;
  $("games-back").hidden = !app.socket;
}

function openDialog(dialog) {
  for (const d of document.querySelectorAll("dialog[open]")) if (d !== dialog) d.close();
  if (!dialog.open) dialog.showModal();
}

// ---------------------------------------------------------------- the table

const hand = new HandView($("hand"), $("hand-hint"), {
  onPlay: (card) => send({ play: cardCode(card) }),
  onToggle: (card) => {
    const legal = app.msg && app.msg.legal;
    if (app.chosen.has(card)) app.chosen.delete(card);
    else if (legal && app.chosen.size < legal.count) app.chosen.add(card);
    else toast(`Choose ${legal ? legal.count : 2} cards; tap a chosen card to put it back.`);
    render();
  },
  // The server knows why a card can't be played now (follow suit, spades not broken, not
  // your turn, time to bid): send it and show its answer.
  onNotNow: (card) => send({ play: cardCode(card) }),
  tapTwice: () => settings.tapTwice,
});

const trickView = new TrickView($("trick"), $("felt"), $("hand"), () => render());

// Each hand's shuffle: the page gives entropy to the next one and checks each revealed one.
const shuffles = new ShuffleWatch({
  sendEntropy: (handNumber, value) => app.socket && app.socket.entropy(handNumber, value),
  said: (handNumber, result, text) => {
    announce(text);
    shuffles.repaint(handNumber);
  },
});

/** The cards passed to you after a blind nil, marked in your hand for the first trick. */
function passedToYou(msg, v) {
  const out = new Map();
  if (v.phase !== "play" || v.tricksPlayed > 0) return out;
  for (const pass of v.passes) {
    if (pass.to !== v.seat || !pass.cards) continue;
    for (const c of pass.cards) out.set(cardIndex(c), msg.game.players[pass.from]);
  }
  return out;
}

const actions = new ActionsView($("actions"), {
  send,
  passChosen: () => {
    const legal = app.msg && app.msg.legal;
    if (!legal || app.chosen.size !== legal.count) {
      toast(`Choose ${legal ? legal.count : 2} cards to pass first.`);
      return;
    }
    send({ pass: [...app.chosen].map(cardCode) });
  },
  newGame: () => openNewGame(),
  download: () => download(),
  showSheet: () => showSheet(),
});

function send(action) {
  if (!app.socket) return;
  if (!app.socket.act(action) && app.socket.ws && app.socket.ws.readyState !== WebSocket.OPEN) {
    toast("Not connected to the table yet; try again in a moment.");
  }
}

function prompt(msg, v, who) {
  const { legal } = msg;
  const p = $("prompt");
  p.replaceChildren();
  const strong = (text) => {
    const s = document.createElement("strong");
    s.textContent = text;
    return s;
  };
  if (v.over) {
    p.append(strong("Game over. "), gameOverText(v, who), " ", endReason(v, who, app.endReason));
    return;
  }
  if (legal) {
    const texts = {
      play: v.trick.length ? "play a card." : "lead a card.",
      bid: "bid.",
      blind_nil: "blind nil is open to you: bid it before you look at your cards, or look at them.",
      draw: legal.card ? `you drew the ${cardName(cardIndex(legal.card))}. Keep it or discard it?` : "draw.",
      pass: `choose ${legal.count} cards to pass to ${who[legal.to]}.`,
      exchange: "you hold the two of clubs. Swap it, unseen, for the kitty, or keep it?",
    };
    p.append(strong("Your turn: "), texts[legal.kind] || "choose.");
    if (legal.kind === "bid") {
      const more = document.createElement("span");
      more.className = "more";
      more.textContent = " How many tricks will you take?";
      p.append(more);
    }
    return;
  }
  const thinking = app.thinking;
  if (thinking != null && v.turn === thinking) {
    p.append(`${who[thinking]} is thinking…`);
  } else if (v.turn != null) {
    p.append(`${v.turn === v.seat ? "Your" : who[v.turn] + "'s"} turn.`);
  }
}

function render() {
  const msg = app.msg;
  if (!msg) return;
  const v = tableView(msg);
  const who = msg.game.players;
  const active = document.activeElement;
  const hadFocus = active && active !== document.body && document.contains(active);
  renderScoreline($("scoreline"), v, who);
  renderSeats($("felt"), v, who, app.thinking != null);
  const drawn = msg.legal && msg.legal.kind === "draw" && msg.legal.card ? cardIndex(msg.legal.card) : null;
  const urgent = Boolean(msg.legal && msg.legal.kind === "play" && v.trick.length);
  trickView.render(v, who, v.trick, v.trick.length ? null : v.lastTrick, { drawn, urgent });
  $("felt").dataset.phase = v.phase;
  $("felt").dataset.players = String(v.rules.players);
  renderBroken($("broken"), v);
  prompt(msg, v, who);
  const legal = msg.legal;
  const kind = legal ? legal.kind : "";
  const newDecision = kind !== app.shownKind;
  app.shownKind = kind;
  if (!legal || legal.kind !== "pass") app.chosen.clear();
  hand.render({
    cards: (msg.view.hand || []).map(cardIndex),
    hiddenCount: v.hiddenCount,
    mode: legal && legal.kind === "play" ? "play" : legal && legal.kind === "pass" ? "pass" : "idle",
    playable: new Set(legal && legal.kind === "play" ? legal.cards.map(cardIndex) : []),
    selectable: new Set(legal && legal.kind === "pass" ? legal.cards.map(cardIndex) : []),
    chosen: app.chosen,
    passCount: legal ? legal.count : 0,
    passed: passedToYou(msg, v),
  });
  actions.render(msg, app.chosen);
  // What is shown, for styling and for tests: the state's version and the decision asked.
  const screen = $("screen-table");
  screen.dataset.version = String(msg.version);
  screen.dataset.decision = legal ? legal.kind : v.over ? "over" : "";
  // The focused control vanished (a bid was made, a card played), or a new decision is
  // asked while the player is at the table's controls: move focus to that decision.
  const lost = hadFocus && !document.contains(active);
  const now = document.activeElement;
  const idle = !now || now === document.body || Boolean(now.closest("[hidden]"));
  const atTable = now && (now.closest("#hand") || now.closest("#actions"));
  if ((lost || idle || (newDecision && kind && atTable)) && !document.querySelector("dialog[open]")) {
    focusDecision();
  }
  if (newDecision && kind) announce($("prompt").textContent);
}

function focusDecision() {
  const legal = app.msg && app.msg.legal;
  if (legal && (legal.kind === "play" || legal.kind === "pass")) hand.focus();
  else if (!actions.focus(legal && legal.kind)) hand.focus();
}

function onState(msg) {
  const first = !app.msg;
  app.msg = msg;
  app.thinking = msg.thinking ? msg.thinking.seat : null;
  let handLine = null;
  let gameOver = false;
  if (msg.view.passes && msg.view.passes.length) app.passes.set(msg.view.hand_number, msg.view.passes);
  for (const e of msg.events || []) {
    announce(e.text);
    if (e.kind === "trick") {
      app.lastTrick = { plays: seatPlays(e.cards), winner: e.winner };
      trickView.finished(app.lastTrick.plays, e.winner);
    }
    if (e.kind === "hand") handLine = e.line;
    if (e.kind === "game") {
      gameOver = true;
      app.endReason = e.reason || null;
    }
  }
  shuffles.observe(msg);
  const last = tableView(msg).lastTrick;
  if (last) app.lastTrick = last;
  if (first) {
    showScreen("table");
    announceSituation(msg);
  }
  render();
  if (gameOver) showOver(msg, handLine, true);
  else if (handLine) showOver(msg, handLine, false);
}

function announceSituation(msg) {
  const v = msg.view;
  announce(v.over ? "The game is over." : `Hand ${v.hand_number}.`);
}

function showOver(msg, line, gameOver) {
  const v = tableView(msg);
  const who = msg.game.players;
  const title = $("over-title");
  const body = $("over-body");
  const buttons = $("over-actions");
  body.replaceChildren();
  buttons.replaceChildren();
  const button = (label, onClick, primary) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (primary) b.className = "primary";
    b.addEventListener("click", onClick);
    buttons.append(b);
    return b;
  };
  if (line) {
    if (gameOver) {
      const h = document.createElement("h3");
      h.textContent = `Hand ${line.hand}`;
      body.append(h);
    }
    body.append(handOverBody(v, who, line, app.passes.get(line.hand)));
    if (shuffles.watched(line.hand)) body.append(shuffles.mark(line.hand));
  }
  if (gameOver) {
    title.textContent = "Game over";
    const p = document.createElement("p");
    p.className = "prompt";
    p.textContent = gameOverText(v, who);
    const why = document.createElement("p");
    why.className = "why";
    why.textContent = endReason(v, who, app.endReason);
    body.prepend(p, why);
    button("New game", () => { $("dlg-over").close(); openNewGame(); }, true);
    button("Download the record", download);
    button("Score sheet", showSheet);
    if (line) button(`Review hand ${line.hand}`, (e) => openReview(line.hand, e.currentTarget));
  } else {
    title.textContent = `End of hand ${line.hand}`;
    button("Next hand", () => { $("dlg-over").close(); focusDecision(); }, true);
    button("Review", (e) => openReview(line.hand, e.currentTarget));
    button("Score sheet", showSheet);
  }
  openDialog($("dlg-over"));
  buttons.querySelector("button").focus();
}

function showSheet() {
  if (!app.msg) return;
  const body = $("sheet-body");
  body.replaceChildren(sheetTable(tableView(app.msg), names(), (hand) => openReview(hand, $("btn-sheet"))));
  openDialog($("dlg-sheet"));
}

/** The review of a finished hand (js/review.js, loaded when first opened). */
async function openReview(hand, opener) {
  if (!app.msg) return;
  const first = !app.review;
  app.review = await import("./review.js");
  const g = app.msg.game;
  app.review.openReview(hand, {
    names: g.players, you: g.you, sides: g.sides,
    send: (message) => Boolean(app.socket && app.socket.send(message)),
  }, opener);
  if (first) $("dlg-review").addEventListener("close", afterClose);
}

function showLastTrick() {
  if (!app.msg) return;
  $("last-body").replaceChildren(lastTrickBody(app.lastTrick, names()));
  openDialog($("dlg-last"));
}

async function showHelp(forNewGame = false) {
  // The rules text loads when first asked for: it is not needed to open the table.
  const { helpHtml } = await import("./help.js");
  let html = "<p>The rules load with the new-game screen.</p>";
  if (app.msg && !forNewGame) {
    const g = app.msg.game;
    html = helpHtml(rulesOf(app.msg), { label: g.label, names: g.players, you: g.you, table: g.table });
  } else if (app.presets) {
    const name = $("new-preset").value || app.presets.default_preset;
    const p = app.presets.presets.find((x) => x.name === name);
    html = helpHtml({ ...p.options, name: p.name },
      { label: p.label, names: p.seats, you: p.you, table: p.table });
  }
  $("help-body").innerHTML = html;
  openDialog($("dlg-help"));
}

function download() {
  if (!app.gameId) return;
  const a = document.createElement("a");
  a.href = api.recordUrl(app.gameId);
  a.download = `spades-${app.gameId}.json`;
  document.body.append(a);
  a.click();
  a.remove();
}

// ---------------------------------------------------------------- games

function openGame(id) {
  if (app.socket) app.socket.close();
  signedOutGone();
  app.msg = null;
  app.thinking = null;
  app.lastTrick = null;
  app.passes = new Map();
  app.endReason = null;
  app.shownKind = "";
  trickView.reset();
  shuffles.reset();
  app.gameId = id;
  setCurrentGame(id);
  $("live").replaceChildren();
  app.socket = new TableSocket(id, {
    onState,
    onThinking: (m) => { app.thinking = m.seat; render(); },
    onError: (m) => {
      // the server sends the code; the words for a person are the client's (a state follows)
      const text = REFUSALS[m.code] || sentence(m.message || "That can't be done now");
      toast(text);
      announce(text);
    },
    onStatus: (text) => {
      $("connection").hidden = !text;
      $("connection").textContent = text || "";
      if (!text) {
        checkVersion(); // connected again: is the server still at our version?
        if (app.review) app.review.reconnected();
      }
    },
    onReview: (m) => { if (app.review) app.review.received(m); },
    onReload: mustReload,
    onSignedOut: (reason) => {
      app.socket = null;
      signedOut(reason);
    },
    onGone: () => {
      app.socket = null;
      setCurrentGame(null);
      toast("That game is not on this server any more.");
      openNewGame();
    },
  });
}

/** The table's sign-in ended (here, on another device, or the account was deleted): the
 * socket stays closed; say so once in the live region, and offer the Account window. */
function signedOut(reason) {
  const text = sentence(reason || "signed out: sign in again to go on");
  const note = $("signed-out");
  const again = document.createElement("button");
  again.type = "button";
  again.className = "primary";
  again.textContent = "Sign in";
  again.addEventListener("click", () =>
    import("./account.js").then((m) => m.openAccount($("btn-account"))));
  note.replaceChildren(text, " ", again);
  note.hidden = false;
  $("connection").hidden = true;
  announce(text);
}

function signedOutGone() {
  $("signed-out").hidden = true;
  $("signed-out").replaceChildren();
}

async function loadPresets() {
  if (!app.presets) {
    app.presets = await api.presets();
    newGame.load(app.presets);
  }
}

async function openNewGame() {
  showScreen("new");
  try {
    await loadPresets();
    newGame.focus();
  } catch (e) {
    $("new-error").textContent = e.message;
  }
}

const newGame = new NewGameForm($("new-form"), async (body) => {
  const made = await api.create(body);
  openGame(made.id);
});

function gamesHint() {
  const { account } = currentSession();
  $("games-hint").textContent = account
    ? `Saved in your account (${account.email}): every device signed in lists them.`
    : "Saved on this table's server for this browser. An account (optional) lists them on your other devices too.";
}

async function openGames() {
  showScreen("games");
  gamesHint();
  const { showGames } = await import("./games.js"); // a view of its own: loads when opened
  await showGames($("games-list"), {
    current: app.gameId,
    resume: (id) => openGame(id),
  });
  $("games-title").focus();
}

/** Signed in or out (here, or elsewhere), or games moved into the account: the game open
 * stays if this person may reach it, else their list of games (and the game comes back
 * when it is theirs again: its games moved in, or signed out). */
async function whoChanged() {
  gamesHint();
  const id = app.gameId || app.leftGame;
  if (!id) {
    if (!$("screen-games").hidden) openGames();
    return;
  }
  try {
    await api.game(id);
  } catch (e) {
    if (e.status !== 404) return;
    if (app.socket) app.socket.close();
    app.socket = null;
    app.gameId = null;
    app.leftGame = id;
    setCurrentGame(null);
    openGames();
    return;
  }
  const left = app.leftGame;
  app.leftGame = null;
  if (!left && !$("screen-games").hidden) openGames(); // the list, for who this is now
  else openGame(id); // a new socket, with a ticket for who this is now
}

onSessionChange(() => { whoChanged(); });

/** A password reset link (``/#reset=TOKEN``: the token stays out of the server's logs). */
function resetLink() {
  const match = /^#reset=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, "", location.pathname);
  import("./account.js").then((m) => m.openAccount($("btn-account"), match[1]));
}

window.addEventListener("hashchange", resetLink); // the link opened in a tab already here

async function start() {
  resetLink();
  const id = currentGame();
  if (id) {
    openGame(id);
    return;
  }
  try {
    const { games } = await api.games();
    const playing = games.find((g) => g.status === "playing");
    if (playing) {
      openGame(playing.id);
      return;
    }
  } catch {
    // no list: start a new game
  }
  openNewGame();
}

// ---------------------------------------------------------------- keys and buttons

function typing(target) {
  return target && (target.matches("input, select, textarea") || target.isContentEditable);
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
  if ($("screen-table").hidden) return;
  const key = event.key.toLowerCase();
  const dialog = document.querySelector("dialog[open]");
  if (key === "l" || key === "s") {
    event.preventDefault();
    const target = key === "l" ? $("dlg-last") : $("dlg-sheet");
    if (dialog === target) target.close();
    else if (key === "l") showLastTrick();
    else showSheet();
    return;
  }
  if (!dialog && /^[0-9]$/.test(event.key) && actions.pad.root.isConnected) {
    event.preventDefault();
    actions.pad.digit(event.key);
  }
});

$("btn-last").addEventListener("click", showLastTrick);
$("btn-sheet").addEventListener("click", showSheet);
$("btn-help").addEventListener("click", () => showHelp(!$("screen-new").hidden));
$("btn-games").addEventListener("click", openGames);
// Statistics load only when opened (js/stats.js): the table opens without them.
$("btn-stats").addEventListener("click", () => import("./stats.js").then((m) => m.openStats($("btn-stats"))));
// The account window loads only when opened (js/account.js): an account is never needed.
$("btn-account").addEventListener("click", () => import("./account.js").then((m) => m.openAccount($("btn-account"))));
$("games-new").addEventListener("click", openNewGame);
$("games-back").addEventListener("click", () => { showScreen("table"); focusDecision(); });
$("new-cancel").addEventListener("click", () => { showScreen("table"); focusDecision(); });
const refreshSettings = bindSettings($("dlg-settings"));
// A card of each suit in the settings window shows what the deck and size choices do.
$("set-preview").append(...["AS", "TH", "7D", "QC"].map((c) => cardFace(cardIndex(c))));
$("btn-settings").addEventListener("click", () => { refreshSettings(); openDialog($("dlg-settings")); });
$("dlg-settings").addEventListener("close", render);
// A window closed and what had focus before it is gone: back to the decision at hand.
function afterClose() {
  // after the browser has put focus back where it was before the window opened
  setTimeout(() => {
    const now = document.activeElement;
    const gone = !now || now === document.body || Boolean(now.closest("dialog:not([open]), [hidden]"));
    if (!$("screen-table").hidden && gone && !document.querySelector("dialog[open]")) focusDecision();
  }, 0);
}
for (const dialog of document.querySelectorAll("dialog")) dialog.addEventListener("close", afterClose);
$("new-help-link").addEventListener("click", (event) => { event.preventDefault(); showHelp(true); });

startApp();
start();
