// verify.js stays standalone (docs/shuffle.md: it imports nothing, so that it can be read
// and run alone), so it keeps its own copies of card helpers of cards.js. They must agree:
// the same card for every code the server sends, in every form cards.js reads, and the same
// name; the same refusals of what is not a card.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { web } from "./kit.mjs";

const cards = await web("cards.js");
const verify = await web("verify.js");

const INDEXES = Array.from({ length: 54 }, (_, i) => i); // every card, the jokers too

/** Every way cards.js reads a card's code: as sent, lower case, a ten as "10". */
function forms(code) {
  const out = [code, code.toLowerCase()];
  if (code.startsWith("T")) out.push(`10${code[1]}`, `10${code[1].toLowerCase()}`);
  return out;
}

test("verify.js imports nothing", () => {
  const source = readFileSync(new URL("../../src/spades/web/js/verify.js", import.meta.url), "utf-8");
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, ""); // without comments
  assert.doesNotMatch(code, /^\s*import\b|\bimport\s*\(|\brequire\s*\(/m);
});

test("both read every card's code, in every form, as the same card", () => {
  for (const index of INDEXES) {
    for (const code of forms(cards.cardCode(index))) {
      assert.equal(verify.cardIndex(code), index, code);
      assert.equal(cards.cardIndex(code), index, code);
    }
  }
});

test("both read the card order the same: suit by suit, two to ace, then the jokers", () => {
  const codes = INDEXES.map(cards.cardCode);
  const byVerify = [...codes].reverse().sort((a, b) => verify.cardIndex(a) - verify.cardIndex(b));
  assert.deepEqual(byVerify, codes);
  for (const suit of "CDHS") {
    const suited = codes.filter((c) => c.endsWith(suit) && c.length === 2);
    assert.equal(suited.length, 13);
    assert.deepEqual(suited.map(verify.cardIndex), suited.map(cards.cardIndex));
  }
});

test("both name every card the same (verify.js with its article)", () => {
  for (const index of INDEXES) {
    const code = cards.cardCode(index);
    assert.equal(verify.cardName(code), `the ${cards.cardName(index)}`, code);
  }
});

test("both refuse what is not a card", () => {
  for (const bad of ["", "A", "1H", "11H", "ZZ", "AX", "XS", "ASS", "10", "JJ", "♠A", "1OH"]) {
    assert.throws(() => verify.cardIndex(bad), /not a card/, JSON.stringify(bad));
    assert.throws(() => cards.cardIndex(bad), /not a card/, JSON.stringify(bad));
    assert.throws(() => verify.cardName(bad), /not a card/, JSON.stringify(bad));
  }
});
