// Talking to the server, exactly as docs/protocol.md describes: HTTP for games and presets,
// one websocket per open table, and the session that says who this browser is. The browser
// sends intents; the server decides.

const PLAYER_KEY = "spades.player";
const GAME_KEY = "spades.game";

function newPlayerId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function playerId() {
  let id = localStorage.getItem(PLAYER_KEY);
  if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
    id = newPlayerId();
    localStorage.setItem(PLAYER_KEY, id);
  }
  return id;
}

export function currentGame() {
  return localStorage.getItem(GAME_KEY);
}

export function setCurrentGame(id) {
  if (id) localStorage.setItem(GAME_KEY, id);
  else localStorage.removeItem(GAME_KEY);
}

export class HttpError extends Error {
  constructor(status, message, data) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

// The session (docs/protocol.md, "Who can reach a game"): an HttpOnly cookie says who this
// browser is; the id kept in localStorage is handed over once, in no URL or header. Every
// POST carries the CSRF token.
const session = { csrf: null, player: null, account: null };
let starting = null;
const listeners = new Set();

/** The session as last known: ``{player, account: null | {email}}``. */
export function currentSession() {
  return { player: session.player, account: session.account };
}

/** Call ``listener(session)`` whenever who this browser is changes (signed in or out). */
export function onSessionChange(listener) {
  listeners.add(listener);
}

async function exchange(method, path, body, csrf) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (csrf && method !== "GET") init.headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new HttpError(0, "The table's server cannot be reached. Is `spades serve` running?");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new HttpError(response.status, (data && data.error) || `The server answered ${response.status}.`, data);
  }
  return data;
}

/** Take the session the server answered (``{player, account, csrf}``); tell the listeners
 * when the person changed. */
export function adopt(data) {
  if (!data || !data.csrf || !data.player) return false;
  const before = `${session.player}|${session.account ? session.account.email : ""}`;
  session.csrf = data.csrf;
  session.player = data.player;
  session.account = data.account || null;
  if (!session.account) {
    try {
      localStorage.setItem(PLAYER_KEY, data.player); // this device's id, kept for next time
    } catch {
      // private mode: the cookie keeps it for this visit
    }
  }
  const after = `${session.player}|${session.account ? session.account.email : ""}`;
  if (before !== after && !before.startsWith("null|")) notify();
  return true;
}

function notify() {
  for (const listener of listeners) listener(currentSession());
}

/** The sign-in ended elsewhere (a socket closed for it): the next request asks again. */
function sessionEnded() {
  session.csrf = null;
  session.account = null;
  starting = null;
}

async function begin() {
  const now = await exchange("GET", "/api/session").catch(() => null);
  if (adopt(now)) return;
  adopt(await exchange("POST", "/api/session", { player: playerId() }));
}

/** Start (or find again) this browser's session; once, however many ask. */
export function startSession(again = false) {
  if (!starting || again) {
    starting = begin().catch((e) => {
      starting = null; // try again on the next request
      throw e;
    });
  }
  return starting;
}

/** A JSON request as the session allows it (cookie, CSRF token); tables.js's routes use it. */
export async function request(method, path, body) {
  await startSession();
  try {
    return await exchange(method, path, body, session.csrf);
  } catch (e) {
    // the session ended or changed elsewhere: find it, try once more (never a password)
    const unknown = e.status === 400 && /X-Spades-Player/.test(e.message);
    const stale = e.status === 403 && /X-CSRF-Token/.test(e.message);
    if (!unknown && !stale) throw e;
    await startSession(true);
    return exchange(method, path, body, session.csrf);
  }
}

/** Account actions after which this browser may be someone else. */
const CHANGES_WHO = ["signin", "signup", "signout", "signout-everywhere", "delete", "reset/confirm"];

export const api = {
  presets: () => request("GET", "/api/presets"),
  games: () => request("GET", "/api/games"),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  create: (body) => request("POST", "/api/games", body),
  deleteGame: (id) => request("DELETE", `/api/games/${encodeURIComponent(id)}`),
  stats: () => request("GET", "/api/stats"),
  ticket: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/ticket`),
  // a plain link: the cookie says whose record it is
  recordUrl: (id) => `/api/games/${encodeURIComponent(id)}/record`,
  account: () => request("GET", "/api/account"),
  /** An account action (signup, signin, signout, ...): its answer; a new session in it is
   * taken (signing in or out starts a new one). */
  accountAction: async (name, body) => {
    const data = await request("POST", `/api/account/${name}`, body === undefined ? {} : body);
    if (!adopt(data) && CHANGES_WHO.includes(name)) await startSession(true);
    if (name === "move") notify(); // the same person, with more games
    return data;
  },
  gamesZipUrl: "/api/account/games.zip",
};

/**
 * The table's websocket. ``handlers``: onState(msg), onThinking(msg), onError(msg),
 * onStatus(text | null) for the connection line, onGone() (no such game), onReview(msg),
 * onSignedOut(reason) (its sign-in ended: close code 4410). Reconnects after a lost
 * connection, not after a sign-out.
 */
export class TableSocket {
  constructor(gameId, handlers, ticket = null) {
    this.gameId = gameId;
    this.handlers = handlers;
    // where the ticket comes from: a seat's (POST /api/games/{id}/ticket), or a watcher's
    this.ticketOf = ticket || (() => api.ticket(gameId));
    this.ws = null;
    this.version = null;
    this.step = null; // the step of the last state seen (sent again in the next hello)
    this.pending = false;
    this.closed = false;
    this.retry = 0;
    this.timer = 0;
    this.open();
  }

  /** Open the socket: a ticket first (POST /api/games/{id}/ticket), then the socket, whose
   * first message is the ticket. No player id in its address. */
  async open() {
    let ticket;
    try {
      const answer = await this.ticketOf();
      ticket = answer.ticket;
      if (answer.game) this.gameId = answer.game; // a watch link's ticket names its game
    } catch (e) {
      if (this.closed) return;
      if (e.status === 404) {
        this.closed = true;
        this.handlers.onGone();
        return;
      }
      this.lost();
      return;
    }
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/games/${encodeURIComponent(this.gameId)}`);
    this.ws = ws;
    this.last = null; // this socket's last state
    ws.addEventListener("open", () => {
      // the last step seen: the first state brings the events missed since, in order
      const hello = { type: "hello", ticket, brief: true, late_suggestion: true };
      if (this.step != null) hello.since = this.step;
      ws.send(JSON.stringify(hello));
      this.handlers.onStatus(null);
    });
    ws.addEventListener("message", (event) => this.received(event.data));
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws || this.closed) return;
      this.pending = false;
      if (event.code === 4000) { // a waiting table's game started: its state is a new hello away
        this.open();
        return;
      }
      if (event.code === 4404) {
        this.closed = true;
        this.handlers.onGone();
        return;
      }
      if (event.code === 4426) { // this page is older than the server
        this.closed = true;
        if (this.handlers.onReload) this.handlers.onReload();
        return;
      }
      if (event.code === 4410) { // the sign-in this socket was opened with ended
        this.closed = true; // no reconnecting: only signing in again opens it
        sessionEnded();
        if (this.handlers.onSignedOut) this.handlers.onSignedOut(event.reason);
        return;
      }
      this.lost(); // also a ticket refused (4401): the next try asks for a new one
    });
  }

  /** The connection was lost (or could not be made): try again a little later. */
  lost() {
    const wait = Math.min(500 * (this.retry + 1), 3000);
    this.retry += 1;
    this.handlers.onStatus("Connection to the table lost; reconnecting… Your game is saved.");
    this.timer = setTimeout(() => this.open(), wait);
  }

  received(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === "review" || msg.type === "review-progress" ||
        (msg.type === "error" && msg.code === "review")) {
      // a review's answer: no state follows; an intent in flight still waits for its own
      if (this.handlers.onReview) this.handlers.onReview(msg);
    } else if (msg.type === "state") {
      const l = this.last;
      if (l) { msg.game ??= l.game; msg.shuffle ??= l.shuffle; msg.view.sheet ??= l.view.sheet; }
      // the same step: the bid suggestion came; an intent in flight waits for its answer
      if (msg.step !== this.step) this.pending = false;
      this.last = msg;
      this.retry = 0;
      this.version = msg.version;
      this.step = msg.step;
      this.handlers.onState(msg);
    } else if (msg.type === "thinking") {
      this.handlers.onThinking(msg);
    } else if (msg.type !== "error" && msg.type !== "pong") {
      // a table with friends' messages (phrases, ...): friends.js's
      if (this.handlers.onOther) this.handlers.onOther(msg);
    } else if (msg.type === "error" && msg.intent === "entropy") {
      // our entropy was refused (given already, or the game is over): the table is as it was
    } else if (msg.type === "error" && msg.intent === "phrase") {
      this.handlers.onError(msg); // a phrase too soon: said; an intent in flight still waits
    } else if (msg.type === "error") {
      this.pending = false;
      if (msg.code === "ticket" || msg.code === "reload" || msg.code === "signed-out") {
        // the socket closes next: its close code says what to do
      } else if (msg.code === "not-found") {
        this.closed = true;
        this.handlers.onGone();
      } else {
        this.handlers.onError(msg);
      }
    }
  }

  /** Send one action from the state we show; a second one before the answer is dropped. */
  act(action) {
    if (this.pending || !this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.pending = true;
    this.ws.send(JSON.stringify({ type: "act", version: this.version, action }));
    return true;
  }

  /** Send a message that is not an intent (a review asked for); false if not connected. */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Give this page's entropy to the shuffle of hand ``hand`` (from 1): no answer comes. */
  entropy(hand, value) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ type: "entropy", hand, value }));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
