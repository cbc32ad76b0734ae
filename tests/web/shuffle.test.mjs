// shuffle.js: the page's watch over each hand's shuffle, fed the state messages seat 0 got
// in a game the Python engine played (jskit.watch: hands 1 and 2 revealed, the page's
// entropy in hand 2's shuffle as the server adds it). The page's random bytes are made
// all 0x5a, so that its entropy is the one the server was given.

import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { fixture, web } from "./kit.mjs";

const { ShuffleWatch, describe, randomHex } = await web("shuffle.js");
const WATCH = fixture("watch");

/** The page's random bytes all ``byte`` while ``body`` runs. */
async function withRandom(byte, body) {
  const random = mock.method(globalThis.crypto, "getRandomValues", (array) => array.fill(byte));
  try {
    return await body();
  } finally {
    random.mock.restore();
  }
}

/** Watch ``messages`` in order; what the page sent and what it said of each hand once the
 * checks of ``checks`` hands have ended. */
async function watched(messages, checks) {
  const sent = [];
  const said = [];
  const watch = new ShuffleWatch({
    sendEntropy: (hand, value) => sent.push([hand, value]),
    said: (hand, result, text) => said.push({ hand, result, text }),
  });
  for (const msg of messages) watch.observe(msg);
  for (let waited = 0; said.length < checks && waited < 10_000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { sent, said, watch };
}

/** The messages with ``change(msg)`` applied to a copy of each. */
function changed(change) {
  return WATCH.messages.map((msg) => {
    const copy = structuredClone(msg);
    change(copy);
    return copy;
  });
}

test("a result in words: pending, verified, unavailable, or what did not match", () => {
  assert.deepEqual(describe(3, null), { kind: "pending", text: "Checking the shuffle of hand 3…" });
  assert.deepEqual(describe(3, { ok: true }), { kind: "verified", text: "Shuffle verified for hand 3." });
  assert.deepEqual(describe(2, { ok: false, unavailable: true, message: "browsers allow it only over https" }),
    { kind: "unavailable", text: "Browsers allow it only over https." });
  assert.deepEqual(describe(4, { ok: false, unavailable: false, message: "the deck does not match" }),
    { kind: "mismatch", text: "Hand 4: the shuffle did not match: The deck does not match." });
  assert.equal(describe(4, { ok: false, message: "it did not!" }).text, "Hand 4: the shuffle did not match: It did not!");
});

test("the page's entropy: random bytes in hex, another each time", () => {
  const one = randomHex();
  assert.match(one, /^[0-9a-f]{32}$/);
  assert.match(randomHex(4), /^[0-9a-f]{8}$/);
  assert.notEqual(randomHex(), one);
});

test("an honest game: entropy given once for each next hand, each revealed hand verified once", async () => {
  const { sent, said, watch } = await withRandom(0x5a, () => watched(WATCH.messages, 2));
  assert.deepEqual(sent, [[2, WATCH.page_entropy], [3, WATCH.page_entropy], [4, WATCH.page_entropy]]);
  // the two hands' checks (SubtleCrypto) may finish in either order: each verdict by its hand
  assert.deepEqual(said.map((s) => [s.hand, s.result.ok, s.text]).sort((a, b) => a[0] - b[0]),
    [[1, true, "Shuffle verified for hand 1."], [2, true, "Shuffle verified for hand 2."]]);
  assert.ok(watch.watched(1) && watch.watched(2));
  assert.equal(watch.watched(3), false); // in play, not revealed yet
  watch.reset();
  assert.equal(watch.watched(1), false);
});

test("a deck dealt other than the revealed seed gives is a mismatch", async () => {
  const messages = changed((msg) => {
    const revealed = msg.shuffle.revealed;
    if (revealed && revealed.hand === 1) [revealed.deck[0], revealed.deck[1]] = [revealed.deck[1], revealed.deck[0]];
  });
  const { said } = await withRandom(0x5a, () => watched(messages, 2));
  // the two checks run concurrently (SubtleCrypto): their verdicts may come in either order
  const first = said.find((s) => s.hand === 1);
  const second = said.find((s) => s.hand === 2);
  assert.equal(said.length, 2);
  assert.equal(first.result.ok, false);
  assert.match(first.text, /^Hand 1: the shuffle did not match: The deck does not match the revealed seed: card 1/);
  assert.equal(second.result.ok, true);
});

test("a commitment other than the one shown before the deal is a mismatch", async () => {
  const shown = WATCH.messages[0].shuffle.committed.find((c) => c.hand === 2).commitment;
  const other = [...shown].reverse().join("");
  const messages = changed((msg) => {
    if (msg.view.hand_number < 2) return; // hand 2's commitment changed once it is dealt
    for (const entry of [...msg.shuffle.committed, msg.shuffle.revealed]) {
      if (entry && entry.hand === 2) entry.commitment = other;
    }
  });
  const { said } = await withRandom(0x5a, () => watched(messages, 2));
  const second = said.find((s) => s.hand === 2);
  assert.equal(second.result.ok, false);
  assert.deepEqual(second.result.problems.map((p) => p.message), ["the commitment shown before the deal was another"]);
  assert.equal(said.find((s) => s.hand === 1).result.ok, true);
});

test("the page's entropy left out of the shuffle is a mismatch", async () => {
  const { sent, said } = await withRandom(0x11, () => watched(WATCH.messages, 2));
  assert.deepEqual(sent[0], [2, "11".repeat(16)]);
  const second = said.find((s) => s.hand === 2);
  assert.equal(second.result.ok, false);
  assert.deepEqual(second.result.problems.map((p) => p.check), ["entropy"]);
  assert.equal(second.text, "Hand 2: the shuffle did not match: Your entropy was left out of the shuffle.");
  assert.equal(said.find((s) => s.hand === 1).result.ok, true); // no entropy of the page in hand 1
});

test("a hand the page did not watch is not checked", async () => {
  const last = WATCH.messages[WATCH.messages.length - 1];
  assert.equal(last.shuffle.revealed.hand, 2);
  const { said, watch } = await withRandom(0x5a, () => watched([last], 0));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(said, []);
  assert.equal(watch.watched(2), false);
});
