// Who sits where: names (as spades/seats.py gives them), places around the table, sides.
// Seat 0 is always you; seats go clockwise, so seat 1 sits on your left.

const NAMES = {
  2: ["You", "Bramble"],
  3: ["You", "Bramble", "Clover"],
  4: ["You", "Bramble", "Juniper", "Clover"],
  5: ["You", "Bramble", "Hazel", "Juniper", "Clover"],
};

// Places on the table grid (see table.css): s = south (you), w, nw, n, ne, e.
const PLACES = {
  2: ["s", "n"],
  3: ["s", "nw", "ne"],
  4: ["s", "w", "n", "e"],
  5: ["s", "w", "nw", "ne", "e"],
};

export function seatNames(rules, given) {
  const n = rules.players;
  const names = [...(NAMES[n] || NAMES[4])];
  if (Array.isArray(given)) {
    given.forEach((name, i) => { if (i > 0 && name) names[i] = String(name); });
  }
  return names;
}

export function seatPlaces(players) {
  return PLACES[players] || PLACES[4];
}

/** Who is on each side: [[0, 2], [1, 3]] with partners, else one seat a side. */
export function sidesOf(rules) {
  if (rules.partnership) return [[0, 2], [1, 3]];
  return Array.from({ length: rules.players }, (_, i) => [i]);
}

export function sideOf(rules, seat) {
  return sidesOf(rules).findIndex((side) => side.includes(seat));
}

/** "You and Juniper", "Bramble and Clover", "Bramble". */
export function sideName(rules, names, side) {
  const seats = sidesOf(rules)[side];
  if (seats.length === 1) return names[seats[0]];
  return seats.map((s) => names[s]).join(" and ");
}

/** The side's short name for the score line: "Us" / "Them" with partners, else names. */
export function sideShort(rules, names, side) {
  if (rules.partnership) return side === 0 ? "Us" : "Them";
  return names[sidesOf(rules)[side][0]];
}

/** A verb agreeing with the name: "You play", "Bramble plays". */
export function verb(name, base, third) {
  return name === "You" ? `You ${base}` : `${name} ${third || base + "s"}`;
}
