// verify.js: spades-shuffle/1, hand seeds and commitments as the Python engine makes them
// (docs/shuffle.md), the seat each card is dealt to, and the check of a hand: an honest one
// verified, each kind of tampering named.

import assert from "node:assert/strict";
import { test } from "node:test";
import { fixture, web } from "./kit.mjs";

const verify = await web("verify.js");
const VECTORS = fixture("vectors");
const DEALS = fixture("deals");
const WATCH = fixture("watch");

test("decks shuffled as the engine shuffles them, from a seed and any entropy", async () => {
  assert.ok(VECTORS.decks.length >= 8);
  for (const v of VECTORS.decks) {
    const deck = await verify.shuffled(v.cards, v.seed, v.entropy);
    assert.deepEqual(deck, v.deck, `${v.cards.length} cards, entropy ${JSON.stringify(v.entropy)}`);
  }
});

test("another seed or other entropy gives another deck", async () => {
  const v = VECTORS.decks[1];
  assert.notDeepEqual(await verify.shuffled(v.cards, v.seed, []), v.deck);
  assert.notDeepEqual(await verify.shuffled(v.cards, v.seed, [...v.entropy].reverse()), v.deck);
  assert.notDeepEqual(await verify.shuffled(v.cards, v.seed.replace(/^./, "x"), v.entropy), v.deck);
  assert.deepEqual([...v.cards].sort(), [...v.deck].sort()); // the same cards, reordered
});

test("hand seeds and both commitment schemes as the engine's", async () => {
  for (const h of VECTORS.hand_seeds) assert.equal(await verify.handSeed(h.game_seed, h.hand), h.seed);
  for (const c of VECTORS.commitments) {
    assert.equal(await verify.commitment(c.seed, c.salt), c.salted);
    assert.equal(await verify.commitment(c.seed, c.salt, verify.COMMIT), c.salted);
    assert.equal(await verify.commitment(c.seed, null, verify.COMMIT_PLAIN), c.plain);
    assert.notEqual(await verify.commitment(c.seed, c.salt.replace(/^./, "z")), c.salted);
  }
  await assert.rejects(verify.commitment("seed", "salt", "md5"), /commitment scheme "md5" is unknown/);
});

test("each card of a deck is dealt to the seat the engine deals it to", () => {
  assert.ok(DEALS.some((d) => d.owners.includes(-1)), "a variant with a kitty is among them");
  for (const d of DEALS) {
    assert.deepEqual(verify.dealtSeats(d.deck.length, d.players, d.dealer), d.owners, d.preset);
  }
});

/** Hand 2 of the watched game as revealed, and what seat 0 saw of it. */
function revealedHand() {
  const last = WATCH.messages[WATCH.messages.length - 1];
  const revealed = last.shuffle.revealed;
  assert.equal(revealed.hand, 2);
  const seen = { players: 4, seat: 0, held: null, played: [], passed: false };
  const played = new Map();
  for (const msg of WATCH.messages) {
    const v = msg.view;
    if (v.hand_number !== 2) continue;
    seen.dealer = v.dealer;
    if (!seen.held) seen.held = v.hand;
    for (const p of [...(v.trick || []), ...(v.last_trick ? v.last_trick.cards : [])]) played.set(p.card, p.seat);
  }
  seen.played = [...played].map(([card, seat]) => [seat, card]);
  return { hand: revealed, seen };
}

test("an honest hand is verified against what the seat saw", async () => {
  const { hand, seen } = revealedHand();
  assert.equal(seen.held.length, 13);
  assert.ok(seen.played.length > 40);
  const result = await verify.verifyHand(hand, seen);
  assert.deepEqual(result.problems, []);
  assert.equal(result.ok, true);
  assert.equal(result.message, verify.VERIFIED);
  assert.deepEqual(result.deck, hand.deck);
});

test("each tampering is named by the check it fails", async () => {
  const { hand, seen } = revealedHand();
  const swapped = [...hand.deck];
  [swapped[0], swapped[1]] = [swapped[1], swapped[0]];
  const cases = [
    [{ ...hand, commitment: [...hand.commitment].reverse().join("") }, seen, ["commitment"]],
    [{ ...hand, salt: "0".repeat(32) }, seen, ["commitment"]],
    [{ ...hand, salt: null, commitment_scheme: verify.COMMIT }, seen, ["commitment"]],
    [{ ...hand, commitment: null }, seen, ["commitment"]],
    [{ ...hand, commitment_scheme: "md5" }, seen, ["commitment"]],
    [{ ...hand, entropy: [] }, seen, ["deck", "cards"]],
    [{ ...hand, deck: swapped }, seen, ["deck"]],
    [{ ...hand, deck: hand.deck.slice(1) }, seen, ["deck", "cards"]], // a card short: one seen is not in it
    [hand, { ...seen, played: [[1, "LJ"]] }, ["cards"]],
  ];
  for (const [tampered, saw, checks] of cases) {
    const result = await verify.verifyHand(tampered, saw);
    assert.equal(result.ok, false);
    assert.deepEqual([...new Set(result.problems.map((p) => p.check))], checks, JSON.stringify(result.problems));
    assert.equal(result.message, result.problems.map((p) => p.message).join("; "));
  }
  const result = await verify.verifyHand({ ...hand, deck: swapped }, seen);
  assert.equal(result.message, "the deck does not match the revealed seed: card 1 should be " +
    `${verify.cardName(hand.deck[0])}, the table dealt ${verify.cardName(hand.deck[1])}`);
});

test("a card seen in the wrong seat's hand is named with the seat it was dealt to", async () => {
  const { hand, seen } = revealedHand();
  const [seat, card] = seen.played.find(([s]) => s !== 0);
  const moved = { ...seen, played: [[(seat + 1) % 4, card], ...seen.played.filter(([, c]) => c !== card)] };
  const result = await verify.verifyHand(hand, moved);
  assert.equal(result.message, `seat ${(seat + 1) % 4} played ${verify.cardName(card)}, but the revealed ` +
    `seed deals it to seat ${seat}`);
  const held = { ...seen, held: [...seen.held.slice(1), card] };
  const mine = await verify.verifyHand(hand, held);
  assert.match(mine.message, new RegExp(`you were dealt ${verify.cardName(card)}, but the revealed seed deals it to seat ${seat}`));
  // after a blind nil's pass, a partner's card in the other partner's hand fits
  const partner = (seat + 2) % 4;
  const passed = { ...seen, passed: true, played: [[partner, card], ...seen.played.filter(([, c]) => c !== card)] };
  assert.equal((await verify.verifyHand(hand, passed)).ok, true);
});

test("without a seed, or the variant's cards, there is nothing to check", async () => {
  const { hand, seen } = revealedHand();
  const unrevealed = await verify.verifyHand({ ...hand, seed: undefined }, seen);
  assert.equal(unrevealed.ok, false);
  assert.deepEqual(unrevealed.problems, [{ check: "seed", message: "the seed is not revealed" }]);
  const unknown = await verify.verifyHand({ ...hand, deck: undefined }, seen);
  assert.deepEqual(unknown.problems.map((p) => p.message), ["the variant's cards are not known"]);
});

test("without SubtleCrypto it says how to check with the command", async () => {
  const { hand, seen } = revealedHand();
  const result = await verify.verifyHand(hand, seen, { subtle: null });
  assert.equal(result.ok, false);
  assert.equal(result.unavailable, true);
  assert.equal(result.message, verify.UNAVAILABLE);
  assert.match(result.message, /spades verify RECORD\.json/);
});

test("a deal played again says 'deal chosen' rather than fail (issue 41)", async () => {
  const result = await verify.verifyHand({ hand: 1, commitment: null, commitment_scheme: "chosen",
    entropy: [], deck: ["AS", "KS"] }, { players: 4, dealer: 3, seat: 0, held: ["AS"] });
  assert.equal(result.chosen, true);
  assert.equal(result.unavailable, true); // nothing to check: never a mismatch
  assert.deepEqual(result.problems, []);
  assert.match(result.message, /^deal chosen/);
  const { describe } = await web("shuffle.js");
  const said = describe(1, result);
  assert.notEqual(said.kind, "mismatch");
  assert.match(said.text, /^Deal chosen/);
});
