// sheet.js: the score sheet's arithmetic, on score sheets of games the engine played and
// scored (jskit.sheets: the server's sheet lines, and the sides the engine's scoring charged
// a bag penalty in each hand).

import assert from "node:assert/strict";
import { test } from "node:test";
import { fixture, web } from "./kit.mjs";

const sheet = await web("sheet.js");
const GAMES = fixture("sheets");
const NAMES = ["You", "Bramble", "Juniper", "Clover", "Fern"];

/** The parts of the table's view the sheet reads, for a game of the fixture. */
function viewOf(game, extra = {}) {
  return { seat: 0, sides: game.sides, rules: game.rules, sheet: game.lines, over: true, ...extra };
}

/** Every hand of every game: [game, line, the line before it, its index]. */
function* hands() {
  for (const game of GAMES) {
    for (const [i, line] of game.lines.entries()) yield [game, line, i ? game.lines[i - 1] : null, i];
  }
}

test("a side's bids, a seat yet to bid as a dash", () => {
  assert.equal(sheet.sideBids([0, 2], [3, 1, "nil", 4]), "3 + Nil");
  assert.equal(sheet.sideBids([1, 3], [3, "blind-nil", "nil", null]), "Blind nil + –");
  assert.equal(sheet.sideBids([2], [null, null, 0]), "0");
});

test("a side's tricks are its seats' tricks added, as the server adds them", () => {
  let lines = 0;
  for (const [game, line] of hands()) {
    game.sides.forEach((side, i) => assert.equal(sheet.sideTricks(side, line.tricks), line.side_tricks[i]));
    lines += 1;
  }
  assert.ok(lines > 500, `${lines} lines`);
  assert.equal(sheet.sideTricks([0, 2], [4, 1, undefined, 2]), 4); // a seat with no tricks yet
});

test("points carry their sign", () => {
  assert.deepEqual([51, -40, 0, 200, -1].map(sheet.signed), ["+51", "-40", "0", "+200", "-1"]);
});

test("each side's cells of a finished hand: bid, took, points, bags, score", () => {
  for (const [game, line] of hands()) {
    game.sides.forEach((side, i) => {
      const cells = sheet.sideCells(line, side, i);
      assert.equal(cells.length, 5);
      assert.equal(cells[1], String(line.side_tricks[i]));
      assert.equal(Number(cells[2]), line.points[i]);
      assert.equal(cells[2].startsWith("+"), line.points[i] > 0);
      assert.deepEqual(cells.slice(3), [String(line.bags[i]), String(line.scores[i])]);
    });
  }
});

test("the hand in play is a line of its own, with no points yet, until the game is over", () => {
  const game = GAMES[0];
  const playing = viewOf(game, { over: false, handNumber: game.lines.length + 1, bids: [2, null, 3, null],
    tricks: [1, 0, 0, 2], bags: [3, 4], scores: [120, 80] });
  const lines = sheet.sheetLines(playing);
  assert.equal(lines.length, game.lines.length + 1);
  assert.deepEqual(lines.slice(0, -1), game.lines);
  const now = lines[lines.length - 1];
  assert.equal(now.now, true);
  assert.equal(now.hand, game.lines.length + 1);
  assert.deepEqual(sheet.sideCells(now, [0, 2], 0), ["2 + 3", "1", "–", "3", "120"]);
  assert.deepEqual(sheet.sideCells(now, [1, 3], 1), ["– + –", "2", "–", "4", "80"]);
  assert.deepEqual(sheet.sheetLines(viewOf(game)), game.lines);
});

test("the line before a hand's", () => {
  const lines = GAMES[0].lines;
  assert.equal(sheet.previousLine(lines, 1), null);
  assert.equal(sheet.previousLine(lines, 3), lines[1]);
  assert.equal(sheet.previousLine(lines, lines.length + 5), null); // not on the sheet
});

test("bag penalties are noted where the engine charged them (hands without a nil)", () => {
  let charged = 0;
  let plain = 0;
  for (const [game, line, previous, i] of hands()) {
    if (!game.plain[i]) continue;
    plain += 1;
    charged += game.penalised[i].length;
    assert.deepEqual(sheet.bagPenalties(viewOf(game), line, previous), game.penalised[i],
      `${game.preset} game ${game.seed}, hand ${line.hand}`);
  }
  assert.ok(plain > 300 && charged > 30, `${plain} hands, ${charged} penalties`);
});

test("no bag limit, no bag penalty", () => {
  for (const [game, line, previous] of hands()) {
    assert.deepEqual(sheet.bagPenalties(viewOf(game, { rules: { bag_limit: null } }), line, previous), []);
  }
});

test("the notes under a hand: each nil made or broken, then each bag penalty", () => {
  const v = { seat: 0, sides: [[0, 2], [1, 3]], rules: { bag_limit: 10, bag_penalty: 100 } };
  const previous = { bags: [8, 2] };
  const line = { hand: 4, bids: ["nil", 4, 5, "blind-nil"], tricks: [0, 5, 8, 1], side_bids: [5, 4],
    bags: [1, 3] };
  assert.deepEqual(sheet.handNotes(v, NAMES, line, previous), [
    "Your nil: made, no tricks taken.",
    "Clover's blind nil: broken, 1 trick taken.",
    "You and Juniper: 10 bags, a penalty of 100.",
  ]);
  const quiet = { ...line, bids: [3, 4, 2, 2], tricks: [3, 4, 3, 3], side_bids: [5, 6], bags: [8, 2] };
  assert.deepEqual(sheet.handNotes(v, NAMES, quiet, { bags: [8, 2] }), []);
  const broken = { ...quiet, bids: [3, "nil", 2, 2], tricks: [3, 2, 2, 6] };
  assert.deepEqual(sheet.handNotes(v, NAMES, broken, null), ["Bramble's nil: broken, 2 tricks taken."]);
});
