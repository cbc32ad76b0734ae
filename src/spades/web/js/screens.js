// The page's screens (a new game, the table, your games) and the lines above them: the
// connection to the table, a sign-in that ended, where your games are saved.

const $ = (id) => document.getElementById(id);

const SCREENS = ["new", "table", "games", "friends"];

/** Show screen ``name``; ``atTable``: a table is open to go back to. */
export function showScreen(name, atTable) {
  for (const screen of SCREENS) $(`screen-${screen}`).hidden = screen !== name;
  const onTable = name === "table";
  $("btn-last").hidden = !onTable;
  $("btn-sheet").hidden = !onTable;
  $("scoreline").hidden = !onTable;
  $("new-cancel").hidden = !atTable;
  $("games-back").hidden = !atTable;
}

/** Whether screen ``name`` is the one shown. */
export function shown(name) {
  return !$(`screen-${name}`).hidden;
}

/** The connection line: ``text`` while the table's connection is lost, null once back. */
export function showConnection(text) {
  $("connection").hidden = !text;
  $("connection").textContent = text || "";
}

/** The table's sign-in ended: say ``text`` with a Sign in button (``onSignIn``). */
export function showSignedOut(text, onSignIn) {
  const note = $("signed-out");
  const again = document.createElement("button");
  again.type = "button";
  again.className = "primary";
  again.textContent = "Sign in";
  again.addEventListener("click", onSignIn);
  note.replaceChildren(text, " ", again);
  note.hidden = false;
  $("connection").hidden = true;
}

export function hideSignedOut() {
  $("signed-out").hidden = true;
  $("signed-out").replaceChildren();
}

/** Where your games are saved: in the ``account`` signed in, or on this server. */
export function showGamesHint(account) {
  $("games-hint").textContent = account
    ? `Saved in your account (${account.email}): every device signed in lists them.`
    : "Saved on this table's server for this browser. An account (optional) lists them on your other devices too.";
}
