// Who sits where. The names and the sides come from the server (game.players, game.sides);
// here only where each seat sits on the screen and how a side is called.
// Seat 0 is always you; seats go clockwise, so seat 1 sits on your left.

// Places on the table grid (see table.css): s = south (you), w, nw, n, ne, e.
const PLACES = {
  2: ["s", "n"],
  3: ["s", "nw", "ne"],
  4: ["s", "w", "n", "e"],
  5: ["s", "w", "nw", "ne", "e"],
};

export function seatPlaces(players) {
  return PLACES[players] || PLACES[4];
}

/** "You and Juniper", "Bramble and Clover", "Bramble". */
export function sideName(sides, names, side) {
  return sides[side].map((s) => names[s]).join(" and ");
}

/** The side's short name for the score line: "Us" / "Them" with partners, else the name. */
export function sideShort(sides, names, side) {
  if (sides[side].length > 1) return sides[side].includes(0) ? "Us" : "Them";
  return names[sides[side][0]];
}
