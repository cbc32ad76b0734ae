// What the table says when a game ends: who won and by how much, and why the game ended.
// Small and loaded with the table (table.js's prompt and the game-over window use it); the
// windows' bigger contents (dialogs.js) load when a window first opens.

import { sideName } from "./seats.js";

/** Why the game ended: the server's ``reason`` of the game event (target, mercy, boston,
 * moon) when known, else what the view says (a side reached the target or fell to the mercy
 * rule's losing score). */
export function endReason(v, names, reason = null) {
  const sides = v.sides;
  if (reason === "boston") return "A Boston (every trick of a hand) ends the game.";
  if (reason === "moon") return "A shot at the moon (every trick, bid and made) ends the game.";
  const target = v.rules.target_score;
  const reached = sides.map((_, i) => i).filter((i) => v.scores[i] >= target);
  const losing = v.rules.losing_score;
  const fell = losing == null ? [] : sides.map((_, i) => i).filter((i) => v.scores[i] <= losing);
  if (fell.length && !reached.length) {
    const who = fell.map((i) => sideName(sides, names, i)).join(" and ");
    return `${who} fell to ${losing} or lower: the mercy rule ends the game.`;
  }
  if (reached.length) {
    const who = reached.map((i) => sideName(sides, names, i)).join(" and ");
    return `${who} reached the target of ${target}.`;
  }
  return "";
}

/** "You and Juniper win, 512 to 431." (the winner's score first) */
export function gameOverText(v, names) {
  const sides = v.sides;
  const order = sides.map((_, i) => i);
  if (v.winner != null) order.sort((a, b) => (b === v.winner) - (a === v.winner));
  const scoreText = order.map((i) => v.scores[i]).join(" to ");
  if (v.winner == null) return `The game is over: ${scoreText}.`;
  const who = sideName(sides, names, v.winner);
  const win = who === "You" ? "You win" : `${who} win${sides[v.winner].length === 1 ? "s" : ""}`;
  return `${win}, ${scoreText}.`;
}
