// The score sheet's arithmetic, from the server's sheet lines (docs/protocol.md, ``sheet``):
// each side's bids and tricks, the points signed, the hand in play as a line of its own, and
// what the notes under a hand say (each nil, each bag penalty). Pure: no DOM; dialogs.js
// draws it.

import { bidLabel } from "./bidpad.js";
import { sideName } from "./seats.js";

/** A side's bids as the sheet shows them: "3 + Nil"; "–" for a seat yet to bid. */
export function sideBids(side, bids) {
  return side.map((s) => (bids[s] == null ? "–" : bidLabel(bids[s]))).join(" + ");
}

/** The tricks a side took (its seats' tricks added). */
export function sideTricks(side, tricks) {
  return side.reduce((sum, s) => sum + (tricks[s] || 0), 0);
}

/** Points with their sign: "+51", "-40", "0". */
export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** The line of the hand in play: what is bid and taken so far, no points yet. */
export function nowLine(v) {
  return { hand: v.handNumber, bids: v.bids, tricks: v.tricks, points: null,
    bags: v.bags, scores: v.scores, now: true };
}

/** The sheet's lines: every finished hand, then the hand in play while the game goes on. */
export function sheetLines(v) {
  return v.over ? v.sheet : [...v.sheet, nowLine(v)];
}

/** The five cells of side ``i`` (seats ``side``) in ``line``: bid, took, points, bags, score. */
export function sideCells(line, side, i) {
  return [sideBids(side, line.bids), String(sideTricks(side, line.tricks)),
    line.points ? signed(line.points[i]) : "–", String(line.bags[i]), String(line.scores[i])];
}

/** The line before hand ``hand``'s on the sheet (null for the first hand). */
export function previousLine(sheet, hand) {
  const at = sheet.findIndex((l) => l.hand === hand);
  return at > 0 ? sheet[at - 1] : null;
}

/** The sides whose bags reached the limit in ``line`` (they paid the penalty): their bags
 * after the hand are fewer than before it plus the bags they took in it, as the server's
 * scoring counted them (``bags_taken``: a failed nil's tricks among them where the rules say
 * so); from a server before that field, the tricks over the side's bid. */
export function bagPenalties(v, line, previous) {
  if (v.rules.bag_limit == null) return [];
  return v.sides.map((_, i) => i).filter((i) => {
    const before = previous ? previous.bags[i] : 0;
    const added = line.bags_taken ? line.bags_taken[i]
      : Math.max(0, sideTricks(v.sides[i], line.tricks) - (line.side_bids ? line.side_bids[i] : 0));
    return line.bags[i] < before + added && before + added >= v.rules.bag_limit;
  });
}

/** The notes under a finished hand: each nil made or broken, each bag penalty. */
export function handNotes(v, names, line, previous) {
  const notes = [];
  line.bids.forEach((bid, seat) => {
    if (bid !== "nil" && bid !== "blind-nil") return;
    const what = bid === "nil" ? "nil" : "blind nil";
    const took = line.tricks[seat];
    const who = seat === v.seat ? "Your" : `${names[seat]}'s`;
    notes.push(took === 0 ? `${who} ${what}: made, no tricks taken.`
      : `${who} ${what}: broken, ${took} trick${took === 1 ? "" : "s"} taken.`);
  });
  for (const i of bagPenalties(v, line, previous)) {
    notes.push(`${sideName(v.sides, names, i)}: ${v.rules.bag_limit} bags, ` +
      `a penalty of ${v.rules.bag_penalty}.`);
  }
  return notes;
}
