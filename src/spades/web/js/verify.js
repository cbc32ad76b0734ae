// Provable shuffles in the browser (docs/shuffle.md): re-derive a hand's deck from its revealed
// seed, salt and the players' entropy with SubtleCrypto, and compare it with the commitment shown
// before the deal, the revealed deck and every card this page saw during the hand.
// Load it only when needed: `const { verifyHand } = await import("./verify.js")`.
// SubtleCrypto exists only in secure contexts (https, localhost, 127.0.0.1); elsewhere
// verifyHand says how to check with the command instead.

export const SHUFFLE = "spades-shuffle/1";
export const COMMIT = "spades-commit/1";
export const COMMIT_PLAIN = "sha256";
export const VERIFIED = "shuffle verified";
// The commitment scheme of a deal played again (docs/shuffle.md): chosen, not shuffled.
export const CHOSEN = "chosen";
export const DEAL_CHOSEN = "deal chosen (a deal played again), not shuffled";
export const UNAVAILABLE =
  "This page cannot check the shuffle here: browsers allow it only over https or on this " +
  "computer (localhost). Download the game record and run: spades verify RECORD.json";

const encoder = new TextEncoder();
const RANKS = "23456789TJQKA";
const SUITS = "CDHS";
const RANK_NAMES = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "jack", "queen", "king", "ace"];
const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];

// A card code's place in card order: clubs 2..A, diamonds, hearts, spades, LJ, BJ.
export function cardIndex(code) {
  const text = String(code).toUpperCase().replace(/^10/, "T");
  if (text === "LJ") return 52;
  if (text === "BJ") return 53;
  const rank = RANKS.indexOf(text[0]);
  const suit = SUITS.indexOf(text[1]);
  if (text.length !== 2 || rank < 0 || suit < 0) throw new Error(`not a card: ${code}`);
  return suit * 13 + rank;
}

// "the four of hearts", "the Big Joker".
export function cardName(code) {
  const index = cardIndex(code);
  if (index === 52) return "the Little Joker";
  if (index === 53) return "the Big Joker";
  return `the ${RANK_NAMES[index % 13]} of ${SUIT_NAMES[Math.floor(index / 13)]}`;
}

const same = (a, b) => cardIndex(a) === cardIndex(b);

// Each string as its UTF-8 length (4 bytes, big-endian) then its UTF-8 bytes.
function frame(parts) {
  const chunks = parts.map((part) => encoder.encode(String(part)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + 4 + c.length, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const chunk of chunks) {
    view.setUint32(at, chunk.length);
    out.set(chunk, at + 4);
    at += 4 + chunk.length;
  }
  return out;
}

const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

function subtleOf(options) {
  if (options && "subtle" in options) return options.subtle;
  return globalThis.crypto && globalThis.crypto.subtle;
}

async function sha256(subtle, bytes) {
  return new Uint8Array(await subtle.digest("SHA-256", bytes));
}

export async function handSeed(gameSeed, hand, options = {}) {
  const subtle = subtleOf(options);
  return toHex(await sha256(subtle, frame(["spades-hand", String(gameSeed), String(hand)])));
}

// The commitment to a seed: spades-commit/1 (with a salt) or the first, unsalted scheme.
export async function commitment(seed, salt = null, scheme = COMMIT, options = {}) {
  const subtle = subtleOf(options);
  if (scheme === COMMIT_PLAIN) return toHex(await sha256(subtle, encoder.encode(seed)));
  if (scheme !== COMMIT) throw new Error(`the commitment scheme "${scheme}" is unknown`);
  return toHex(await sha256(subtle, frame([COMMIT, seed, salt ?? ""])));
}

// The cards (codes, in card order) shuffled by spades-shuffle/1: the deck, top card first.
export async function shuffled(cards, seed, entropy = [], options = {}) {
  const subtle = subtleOf(options);
  const key = await sha256(subtle, frame([SHUFFLE, seed, ...entropy]));
  let counter = 0;
  let block = null;
  let offset = 32;
  async function word() {
    if (offset === 32) {
      const input = new Uint8Array(40);
      input.set(key);
      new DataView(input.buffer).setBigUint64(32, BigInt(counter++));
      block = new DataView((await sha256(subtle, input)).buffer);
      offset = 0;
    }
    const value = block.getUint32(offset);
    offset += 4;
    return value;
  }
  async function below(bound) {
    const limit = 2 ** 32 - (2 ** 32 % bound);
    for (;;) {
      const value = await word();
      if (value < limit) return value % bound;
    }
  }
  const out = [...cards];
  for (let i = out.length - 1; i > 0; i--) {
    const j = await below(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// The seat each position of a deck is dealt to (one at a time from the top, starting at the
// dealer's left); positions left over (the kitty) are -1.
export function dealtSeats(length, players, dealer) {
  const each = Math.floor(length / players);
  return Array.from({ length }, (_, i) =>
    (i < each * players ? (dealer + 1 + i) % players : -1));
}

const seatName = (seat) => (seat < 0 ? "the kitty" : `seat ${seat}`);

/**
 * Check a finished hand's shuffle.
 * hand: {seed, salt, commitment, commitment_scheme (default spades-commit/1 with a salt, else
 *   sha256), entropy, deck (the revealed deck, top first), cards (the variant's cards in card
 *   order; by default the deck's cards sorted)}.
 * seen (what this page saw; all optional): {players, dealer, seat, held (the cards dealt to
 *   this seat), played ([[seat, card], ...]), passed (cards went between partners this hand),
 *   draw (the two-player draw: no round-robin deal)}.
 * Returns {ok, unavailable, problems: [{check, message}], deck, message}.
 */
export async function verifyHand(hand, seen = {}, options = {}) {
  if (hand && hand.commitment_scheme === CHOSEN) {
    // a deal played again: chosen openly, not shuffled, so there is nothing to check (said
    // as a check that could not be made, never as a mismatch)
    return { ok: false, chosen: true, unavailable: true, problems: [], deck: hand.deck ?? null,
      message: DEAL_CHOSEN };
  }
  const subtle = subtleOf(options);
  if (!subtle) return { ok: false, unavailable: true, problems: [], deck: null, message: UNAVAILABLE };
  const problems = [];
  const add = (check, message) => problems.push({ check, message });
  if (!hand || typeof hand.seed !== "string") {
    return { ok: false, unavailable: false, deck: null, message: "the seed is not revealed",
      problems: [{ check: "seed", message: "the seed is not revealed" }] };
  }
  const scheme = hand.commitment_scheme ?? (hand.salt != null ? COMMIT : COMMIT_PLAIN);
  if (hand.commitment == null) {
    add("commitment", "no commitment was shown before the deal");
  } else if (scheme !== COMMIT && scheme !== COMMIT_PLAIN) {
    add("commitment", `the commitment scheme "${scheme}" is unknown`);
  } else if (scheme === COMMIT && hand.salt == null) {
    add("commitment", "the salt of the commitment is missing");
  } else {
    const made = await commitment(hand.seed, hand.salt, scheme, { subtle });
    if (made !== String(hand.commitment).toLowerCase()) {
      add("commitment", `the revealed ${scheme === COMMIT ? "seed and salt do" : "seed does"} ` +
        "not match the commitment shown before the deal");
    }
  }
  const cards = hand.cards ?? (hand.deck ? [...hand.deck].sort((a, b) => cardIndex(a) - cardIndex(b)) : null);
  if (!cards) {
    add("deck", "the variant's cards are not known");
    return finish(problems, null);
  }
  const deck = await shuffled(cards, hand.seed, hand.entropy ?? [], { subtle });
  if (hand.deck) {
    if (hand.deck.length !== deck.length) {
      add("deck", `the deck has ${hand.deck.length} cards, the revealed seed gives ${deck.length}`);
    } else {
      const i = deck.findIndex((card, k) => !same(card, hand.deck[k]));
      if (i >= 0) {
        add("deck", `the deck does not match the revealed seed: card ${i + 1} should be ` +
          `${cardName(deck[i])}, the table dealt ${cardName(hand.deck[i])}`);
      }
    }
  }
  const where = new Map(deck.map((card, i) => [cardIndex(card), i]));
  for (const card of [...(seen.held ?? []), ...(seen.played ?? []).map(([, c]) => c)]) {
    if (!where.has(cardIndex(card))) add("cards", `${cardName(card)} is not in the deck`);
  }
  const dealt = !seen.draw && Number.isInteger(seen.players) && Number.isInteger(seen.dealer);
  if (dealt) {
    const owner = dealtSeats(deck.length, seen.players, seen.dealer);
    const ownerOf = (card) => owner[where.get(cardIndex(card))];
    for (const card of seen.held ?? []) {
      if (!where.has(cardIndex(card))) continue;
      const to = ownerOf(card);
      if (to !== seen.seat) {
        add("cards", `you were dealt ${cardName(card)}, but the revealed seed deals it to ` +
          `${seatName(to)}`);
      }
    }
    for (const [seat, card] of seen.played ?? []) {
      if (!where.has(cardIndex(card))) continue;
      const to = ownerOf(card);
      const partner = seen.players === 4 ? (seat + 2) % 4 : seat;
      const fits = to === seat || to === -1 || (seen.passed && to === partner);
      if (!fits) {
        add("cards", `seat ${seat} played ${cardName(card)}, but the revealed seed deals it ` +
          `to ${seatName(to)}`);
      }
    }
  }
  return finish(problems, deck);
}

function finish(problems, deck) {
  const ok = problems.length === 0;
  return { ok, unavailable: false, problems, deck,
    message: ok ? VERIFIED : problems.map((p) => p.message).join("; ") };
}
