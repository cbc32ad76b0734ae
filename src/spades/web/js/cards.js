// Cards as the engine numbers them: clubs 0-12, diamonds 13-25, hearts 26-38, spades 39-51
// (two up to ace), Little Joker 52, Big Joker 53. The server may send an index or a code
// such as "AS"; everything here takes either.

const RANKS = "23456789TJQKA";
const SUITS = "CDHS";
const SYMBOLS = ["♣", "♦", "♥", "♠"];
const SUIT_NOUNS = ["clubs", "diamonds", "hearts", "spades"];
const RANK_NAMES = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "jack", "queen", "king", "ace"];

/** The index of a card given as an index or a code ("AS", "TH", "10H", "BJ", "LJ"). */
export function cardIndex(card) {
  if (typeof card === "number") return card;
  let code = String(card).trim().toUpperCase();
  if (code === "LJ") return 52;
  if (code === "BJ") return 53;
  if (code.startsWith("10")) code = "T" + code.slice(2);
  const rank = RANKS.indexOf(code[0]);
  const suit = SUITS.indexOf(code[1]);
  if (rank < 0 || suit < 0 || code.length !== 2) throw new Error(`not a card: ${card}`);
  return suit * 13 + rank;
}

/** The code the server reads: "AS", "TH", "LJ". */
export function cardCode(index) {
  if (index === 52) return "LJ";
  if (index === 53) return "BJ";
  return RANKS[index % 13] + SUITS[Math.floor(index / 13)];
}

export function suitOf(index) {
  return Math.min(Math.floor(index / 13), 3);
}

export function isJoker(index) {
  return index >= 52;
}

/** What a card shows in its corner: rank and suit symbol. */
export function rankLabel(index) {
  if (index === 52) return "LJ";
  if (index === 53) return "BJ";
  const r = RANKS[index % 13];
  return r === "T" ? "10" : r;
}

export function suitSymbol(index) {
  return isJoker(index) ? "★" : SYMBOLS[suitOf(index)];
}

/** A spoken name: "queen of hearts", "Big Joker". */
export function cardName(index) {
  if (index === 52) return "Little Joker";
  if (index === 53) return "Big Joker";
  return `${RANK_NAMES[index % 13]} of ${SUIT_NOUNS[suitOf(index)]}`;
}

export function isRed(index) {
  const s = suitOf(index);
  return !isJoker(index) && (s === 1 || s === 2);
}

// Suits left to right alternate colours and end with the trumps: diamonds, clubs, hearts,
// spades; within a suit low to high, the jokers last as the highest spades.
const SUIT_ORDER = [1, 0, 2, 3];

export function sortHand(cards) {
  const key = (c) => SUIT_ORDER.indexOf(suitOf(c)) * 100 + (isJoker(c) ? 13 + c - 52 : c % 13);
  return [...cards].sort((a, b) => key(a) - key(b));
}

const SUIT_CLASSES = ["s-c", "s-d", "s-h", "s-s"];

/**
 * A face-up card element (not interactive): the index (rank over suit) in the top corner,
 * where it stays readable when cards overlap, and a large suit or court letter in the
 * middle. The suit is always drawn, so colour is never the only cue.
 */
export function cardFace(index, tag = "span") {
  const el = document.createElement(tag);
  const joker = isJoker(index);
  el.className = "card " + (joker ? "joker" : SUIT_CLASSES[suitOf(index)]) + (isRed(index) ? " red" : "");
  el.dataset.card = String(index);
  const corner = document.createElement("span");
  corner.className = "idx";
  corner.setAttribute("aria-hidden", "true");
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = rankLabel(index);
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = suitSymbol(index);
  corner.append(rank, suit);
  const pip = document.createElement("span");
  pip.setAttribute("aria-hidden", "true");
  const r = index % 13;
  if (joker) {
    pip.className = "pip joker-pip";
    pip.textContent = index === 53 ? "Big Joker" : "Little Joker";
  } else if (r >= 9 && r <= 11) {
    pip.className = "pip court";
    pip.textContent = RANKS[r] + suitSymbol(index);
  } else {
    pip.className = "pip";
    pip.textContent = suitSymbol(index);
  }
  el.append(corner, pip);
  return el;
}

export function cardBack(tag = "span") {
  const el = document.createElement(tag);
  el.className = "card back";
  return el;
}
