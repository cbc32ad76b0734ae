// The table's windows (dialogs), one open at a time: the end of a hand or of the game with
// its buttons, the score sheet, the last trick, the help. Each is drawn from what it is
// given (dialogs.js makes their contents, loaded when a window first opens: the page opens
// lighter); what a button does is the caller's.

/** dialogs.js, loaded once, when first needed. */
const contents = () => import("./dialogs.js");

const $ = (id) => document.getElementById(id);

/** Open ``dialog`` (modal), closing any other window open. */
export function openDialog(dialog) {
  for (const d of document.querySelectorAll("dialog[open]")) if (d !== dialog) d.close();
  if (!dialog.open) dialog.showModal();
}

/** Whether a window is open. */
export function anyOpen() {
  return Boolean(document.querySelector("dialog[open]"));
}

/**
 * The end of a hand (``gameOver`` false: ``line`` is its sheet line) or of the game (``line``
 * the last hand's, if one just ended). ``passes``: the hand's passes; ``mark``: its shuffle
 * check's mark, or null; ``reason``: why the game ended. ``on``: what the buttons do:
 * {newGame, next, download, sheet, review(hand, opener)}.
 */
export async function showOver(v, who, line, gameOver, options) {
  (await contents()).overContents(v, who, line, gameOver, options);
  openDialog($("dlg-over"));
  $("over-actions").querySelector("button").focus();
}

/** The score sheet; ``onReview(hand)`` reviews a finished hand. */
export async function showSheet(v, who, onReview) {
  const { sheetTable } = await contents();
  $("sheet-body").replaceChildren(sheetTable(v, who, onReview));
  openDialog($("dlg-sheet"));
}

/** The last trick seen (null: none yet). */
export async function showLastTrick(trick, who) {
  const { lastTrickBody } = await contents();
  $("last-body").replaceChildren(lastTrickBody(trick, who));
  openDialog($("dlg-last"));
}

/** The help window with ``html`` (help.js's, made from the server's rules). */
export function showHelp(html) {
  $("help-body").innerHTML = html;
  openDialog($("dlg-help"));
}

/** Whether the window with id ``id`` is the one open now. */
export function isOpen(id) {
  return document.querySelector("dialog[open]") === $(id);
}
