// sheet.js's bag-penalty note in hands with a nil or a shot at the moon, where the engine's
// scoring (scoring.side_points) also counts a failed nil's tricks as bags ("penalty-bags",
// "bags"), none of them under "penalty-void", and a failed moon's tricks: the note follows
// the bags the server says each side took (the sheet line's ``bags_taken``), so it is shown
// exactly where the engine charged the penalty. (Once a known gap, when the note counted a
// side's tricks over its bid.)

import assert from "node:assert/strict";
import { test } from "node:test";
import { fixture, web } from "./kit.mjs";

const sheet = await web("sheet.js");
const GAMES = fixture("sheets");

test("bag penalties are noted where the engine charged them (hands with a nil)", () => {
  let hands = 0;
  const wrong = [];
  for (const game of GAMES) {
    const v = { seat: 0, sides: game.sides, rules: game.rules };
    game.lines.forEach((line, i) => {
      if (game.plain[i]) return;
      hands += 1;
      const noted = sheet.bagPenalties(v, line, i ? game.lines[i - 1] : null);
      if (JSON.stringify(noted) !== JSON.stringify(game.penalised[i])) {
        wrong.push(`${game.preset} game ${game.seed} hand ${line.hand}: noted ${noted}, charged ${game.penalised[i]}`);
      }
    });
  }
  assert.ok(hands > 100, `${hands} hands`);
  assert.deepEqual(wrong, []);
});
