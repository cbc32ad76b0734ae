// The routes of a table with friends (docs/protocol.md, "Tables with friends"), in one
// place: the views (invite.js, waiting.js, presence.js, watch.js) call these and never
// build a URL. The server decides everything; these carry the person's intents and bring
// back its answers. Also what this device keeps of tables: the name it last sat down with,
// and the codes it was shown (the server shows a code once and keeps only its digest).

import { request } from "./net.js";

const NAME_KEY = "spades.name";
const CODES_KEY = "spades.invite."; // + the table's id: {code, invite, watch_code, watch_link}

const table = (id, rest = "") => `/api/tables/${encodeURIComponent(id)}${rest}`;
const invite = (code) => `/api/invites/${encodeURIComponent(code)}`;

export const tables = {
  /** A waiting table, the asker its host: the new-game body (preset, level, house_rules)
   * with the table's options (hints, watching, timer) and the host's ``name``. */
  create: (body) => request("POST", "/api/tables", body),
  /** {table} the invite ``code`` leads to (404: no such table for this person). */
  preview: (code) => request("GET", invite(code)),
  /** Take seat ``seat`` of the table of invite ``code`` as ``name``: {table, seat, name}. */
  take: (code, seat, name) => request("POST", invite(code), { seat, name }),
  get: (id) => request("GET", table(id)),
  seat: (id, seat) => request("POST", table(id, "/seat"), { seat }),
  move: (id, from, to) => request("POST", table(id, "/move"), { from, to }),
  remove: (id, seat) => request("POST", table(id, "/remove"), { seat }),
  settings: (id, changes) => request("PATCH", table(id), changes),
  renewInvite: (id) => request("POST", table(id, "/invite"), {}),
  revokeInvite: (id) => request("DELETE", table(id, "/invite"), {}),
  renewWatch: (id) => request("POST", table(id, "/watch"), {}),
  closeWatch: (id) => request("DELETE", table(id, "/watch"), {}),
  leave: (id) => request("POST", table(id, "/leave"), {}),
  start: (id) => request("POST", table(id, "/start"), {}),
  /** "Play again" after the game: {table} (the next table). */
  again: (id) => request("POST", table(id, "/again"), {}),
  /** A ticket to watch the game of watch ``code``: {ticket, game, ...}. */
  watchTicket: (code) => request("POST", `/api/watch/${encodeURIComponent(code)}/ticket`, {}),
};

/** The code of an invitation or a watch link in this page's address: {kind: "t"|"w", code},
 * or null. The link is ``/t/CODE`` (``/w/CODE`` to watch). */
export function linkedCode(loc = location) {
  let address;
  try {
    address = decodeURIComponent(loc.pathname);
  } catch {
    return null; // not an address the server made
  }
  const path = /^\/([tw])\/([A-Za-z0-9 -]{4,40})\/?$/.exec(address);
  return path ? { kind: path[1], code: path[2].replace(/[ -]/g, "").toUpperCase() } : null;
}

/** The whole address of a server path ("/t/CODE"), to share. */
export function linkOf(path) {
  return new URL(path, location.origin).href;
}

/** A code as it is read aloud: in groups of three ("K7M X3Q 9PR"). */
export function groupedCode(code) {
  return (code.match(/.{1,3}/g) || []).join(" ");
}

function load(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text == null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

function keep(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // private mode or full storage: kept for this visit only
  }
}

/** The name this device last sat down with (offered again), or "". */
export function lastName() {
  const name = load(NAME_KEY, "");
  return typeof name === "string" ? name : "";
}

export function keepName(name) {
  keep(NAME_KEY, name);
}

/** The codes this device was shown for table ``id``: {code, invite, watch_code, watch_link}. */
export function codesOf(id) {
  const codes = load(CODES_KEY + id, {});
  return codes && typeof codes === "object" ? codes : {};
}

/** Remember the codes in a server's answer (those it holds) for table ``id``. */
export function keepCodes(id, answer) {
  const codes = codesOf(id);
  for (const key of ["code", "invite", "watch_code", "watch_link"]) {
    if (answer[key] !== undefined) codes[key] = answer[key];
  }
  keep(CODES_KEY + id, codes);
}
