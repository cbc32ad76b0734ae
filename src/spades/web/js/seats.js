// Who sits where. The names, the sides and your own seat come from the server (game.players,
// game.sides, game.you); here only where each seat sits on the screen and how a side is called.
// Your seat sits at the bottom whichever it is; seats go clockwise, so the next one sits on
// your left.

// Places on the table grid (see table.css), from your seat clockwise: s = south (you), w, nw,
// n, ne, e.
const PLACES = {
  2: ["s", "n"],
  3: ["s", "nw", "ne"],
  4: ["s", "w", "n", "e"],
  5: ["s", "w", "nw", "ne", "e"],
};

/** The place of every seat 0..players-1 when ``you`` sit at the bottom. */
export function seatPlaces(players, you) {
  const around = PLACES[players] || PLACES[4];
  return around.map((_, seat) => around[(seat - you + around.length) % around.length]);
}

/** "You and Juniper", "Bramble and Clover", "Bramble". */
export function sideName(sides, names, side) {
  return sides[side].map((s) => names[s]).join(" and ");
}

/** The side's short name for the score line: "Us" / "Them" with partners, else the name
 * (a spectator, ``you`` null, gets the names). */
export function sideShort(sides, names, side, you) {
  if (you == null) return sideName(sides, names, side); // a spectator sits nowhere
  if (sides[side].length > 1) return sides[side].includes(you) ? "Us" : "Them";
  return names[sides[side][0]];
}
