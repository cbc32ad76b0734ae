// Talking to the server, exactly as docs/protocol.md describes: HTTP for games and presets,
// one websocket per open table. The browser sends intents; the server decides.

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
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(method, path, body) {
  const init = { method, headers: { "X-Spades-Player": playerId() } };
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
    throw new HttpError(response.status, (data && data.error) || `The server answered ${response.status}.`);
  }
  return data;
}

export const api = {
  presets: () => request("GET", "/api/presets"),
  games: () => request("GET", "/api/games"),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  create: (body) => request("POST", "/api/games", body),
  recordUrl: (id) => `/api/games/${encodeURIComponent(id)}/record?player=${encodeURIComponent(playerId())}`,
};

/**
 * The table's websocket. ``handlers``: onState(msg), onThinking(msg), onError(msg),
 * onStatus(text | null) for the connection line, onGone() when the game does not exist.
 * Reconnects by itself after a lost connection (the server sends the state again).
 */
export class TableSocket {
  constructor(gameId, handlers) {
    this.gameId = gameId;
    this.handlers = handlers;
    this.ws = null;
    this.version = null;
    this.pending = false;
    this.closed = false;
    this.retry = 0;
    this.timer = 0;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${scheme}//${location.host}/ws/games/${encodeURIComponent(this.gameId)}` +
      `?player=${encodeURIComponent(playerId())}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.handlers.onStatus(null);
    });
    ws.addEventListener("message", (event) => this.received(event.data));
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws || this.closed) return;
      this.pending = false;
      if (event.code === 4404) {
        this.closed = true;
        this.handlers.onGone();
        return;
      }
      const wait = Math.min(500 * (this.retry + 1), 3000);
      this.retry += 1;
      this.handlers.onStatus("Connection to the table lost; reconnecting… Your game is saved.");
      this.timer = setTimeout(() => this.open(), wait);
    });
  }

  received(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === "state") {
      this.version = msg.version;
      this.pending = false;
      this.handlers.onState(msg);
    } else if (msg.type === "thinking") {
      this.handlers.onThinking(msg);
    } else if (msg.type === "error" && msg.intent === "entropy") {
      // our entropy was refused (given already, or the game is over): the table is as it was
    } else if (msg.type === "error") {
      this.pending = false;
      if (msg.code === "not-found") {
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
