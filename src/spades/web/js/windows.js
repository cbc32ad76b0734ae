// The table's windows (dialogs), one open at a time: the end of a hand or of the game with
// its buttons, the score sheet, the last trick, the help. Each is drawn from what it is
// given (dialogs.js makes their contents); what a button does is the caller's.

import { endReason, gameOverText, handOverBody, lastTrickBody, sheetTable } from "./dialogs.js";

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
export function showOver(v, who, line, gameOver, { passes, mark, reason, on }) {
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
    body.append(handOverBody(v, who, line, passes));
    if (mark) body.append(mark);
  }
  if (gameOver) {
    title.textContent = "Game over";
    const p = document.createElement("p");
    p.className = "prompt";
    p.textContent = gameOverText(v, who);
    const why = document.createElement("p");
    why.className = "why";
    why.textContent = endReason(v, who, reason);
    body.prepend(p, why);
    button("New game", () => { $("dlg-over").close(); on.newGame(); }, true);
    button("Download the record", on.download);
    button("Score sheet", on.sheet);
    if (line) button(`Review hand ${line.hand}`, (e) => on.review(line.hand, e.currentTarget));
  } else {
    title.textContent = `End of hand ${line.hand}`;
    button("Next hand", () => { $("dlg-over").close(); on.next(); }, true);
    button("Review", (e) => on.review(line.hand, e.currentTarget));
    button("Score sheet", on.sheet);
  }
  openDialog($("dlg-over"));
  buttons.querySelector("button").focus();
}

/** The score sheet; ``onReview(hand)`` reviews a finished hand. */
export function showSheet(v, who, onReview) {
  $("sheet-body").replaceChildren(sheetTable(v, who, onReview));
  openDialog($("dlg-sheet"));
}

/** The last trick seen (null: none yet). */
export function showLastTrick(trick, who) {
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
