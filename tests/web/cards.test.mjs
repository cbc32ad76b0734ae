// cards.js: the engine's card numbers, codes and names, and the order of a hand.

import assert from "node:assert/strict";
import { test } from "node:test";
import { fixture, web } from "./kit.mjs";

const cards = await web("cards.js");
const ENGINE = fixture("cards"); // every card: {index, code, name, suit} from spades.engine

test("every card reads and writes as the engine numbers and codes it", () => {
  assert.equal(ENGINE.length, 54);
  for (const { index, code } of ENGINE) {
    assert.equal(cards.cardIndex(code), index, code);
    assert.equal(cards.cardCode(index), code, String(index));
  }
});

test("every card is named as the engine names it", () => {
  for (const { index, name } of ENGINE) assert.equal(cards.cardName(index), name);
});

test("suits as the engine's, the jokers counted as spades", () => {
  for (const { index, suit } of ENGINE) {
    assert.equal(cards.suitOf(index), suit, String(index));
    assert.equal(cards.isJoker(index), index >= 52);
  }
});

test("a card may be given as an index, a ten as 10, in any case, with spaces", () => {
  assert.equal(cards.cardIndex(51), 51);
  assert.equal(cards.cardIndex("10H"), cards.cardIndex("TH"));
  assert.equal(cards.cardIndex("10s"), cards.cardIndex("TS"));
  assert.equal(cards.cardIndex("qh"), cards.cardIndex("QH"));
  assert.equal(cards.cardIndex(" AS "), cards.cardIndex("AS"));
  assert.equal(cards.cardIndex("bj"), 53);
  assert.equal(cards.cardIndex("lj"), 52);
});

test("anything else is not a card", () => {
  for (const bad of ["", "A", "1H", "11H", "ZZ", "AX", "XS", "ASS", "10", "JJ", "S A", "♠A"]) {
    assert.throws(() => cards.cardIndex(bad), /not a card/, JSON.stringify(bad));
  }
});

test("corners: rank and suit symbol, 10 for a ten, a star for a joker", () => {
  const at = (code) => cards.cardIndex(code);
  assert.deepEqual(["TH", "AS", "2C", "QD", "LJ", "BJ"].map((c) => cards.rankLabel(at(c))),
    ["10", "A", "2", "Q", "LJ", "BJ"]);
  assert.deepEqual(["TH", "AS", "2C", "QD", "LJ", "BJ"].map((c) => cards.suitSymbol(at(c))),
    ["♥", "♠", "♣", "♦", "★", "★"]);
});

test("hearts and diamonds are red; clubs, spades and the jokers are not", () => {
  for (const { index, code } of ENGINE) {
    const red = code.endsWith("H") || code.endsWith("D");
    assert.equal(cards.isRed(index), red, code);
  }
});

test("a hand sorts diamonds, clubs, hearts, spades, low to high, the jokers last", () => {
  const order = [];
  for (const suit of "DCHS") for (const rank of "23456789TJQKA") order.push(cards.cardIndex(rank + suit));
  order.push(52, 53);
  const shuffled = [...order].reverse();
  [shuffled[3], shuffled[40]] = [shuffled[40], shuffled[3]];
  assert.deepEqual(cards.sortHand(shuffled), order);
  assert.notDeepEqual(shuffled, order); // sorted into a new list: the given one stays
  const hand = ["BJ", "2S", "KD", "3C", "AH", "2D"].map(cards.cardIndex);
  assert.deepEqual(cards.sortHand(hand).map(cards.cardCode), ["2D", "KD", "3C", "AH", "2S", "BJ"]);
});
