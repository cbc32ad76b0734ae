// The pure parts of a table with friends in the browser: the invite link read from the
// page's address, a code read aloud, the countdowns and lines of who is away (presence.js,
// counted from what the server said), the waiting room's words (waiting.js), and which
// phrases are emoji reactions (phrases.js).

import assert from "node:assert/strict";
import { test } from "node:test";
import { web } from "./kit.mjs";

const { linkedCode, groupedCode } = await web("tables.js");
const presence = await web("presence.js");
const waiting = await web("waiting.js");
const { isReaction } = await web("phrases.js");

/** A table object as docs/protocol.md shows it: Ann (host, here), Bob (``bob``), an empty seat
 * and a computer player. */
function table(bob = {}, status = "playing") {
  const person = (seat, name, more = {}) => ({ seat, kind: "person", name, host: seat === 0, presence: "here",
    grace: null, stand_in: false, ...more });
  return {
    id: "k3J9xQm2aB7Z", status, preset: "house", label: "House rules", level: "normal",
    house_rules: { target_score: 300, nil: true, blind_nil: false, bag_penalty: true, mercy: false, jokers: false },
    table: { players: 4, sides: [[0, 2], [1, 3]] },
    hints: true, watching: false, timer: 40, take_seats: false,
    seats: [person(0, "Ann"), person(1, "Bob", bob),
      { seat: 2, kind: status === "waiting" ? "empty" : "computer", name: status === "waiting" ? null : "Juniper",
        host: false, presence: null, grace: null, stand_in: false },
      { seat: 3, kind: "computer", name: "Clover", level: "normal", host: false, presence: null, grace: null, stand_in: false }],
    you: 0, host: status === "waiting" ? 0 : null, invite: true, watch: false, game: null, next: null,
  };
}

test("the invite and watch links are read from the address, the code as written or read aloud", () => {
  assert.deepEqual(linkedCode({ pathname: "/t/K7MX3Q9PR" }), { kind: "t", code: "K7MX3Q9PR" });
  assert.deepEqual(linkedCode({ pathname: "/w/K7MX3Q9PR/" }), { kind: "w", code: "K7MX3Q9PR" });
  assert.deepEqual(linkedCode({ pathname: "/t/k7m%20x3q-9pr" }), { kind: "t", code: "K7MX3Q9PR" });
  for (const pathname of ["/", "/t/", "/x/K7MX3Q9PR", "/t/K7M/X3Q", "/t/<script>", "/t/%E0%A4%A"]) {
    assert.equal(linkedCode({ pathname }), null, pathname);
  }
  assert.equal(groupedCode("K7MX3Q9PR"), "K7M X3Q 9PR");
});

test("the grace period counts down from what the server said, never below nothing", () => {
  assert.equal(presence.secondsLeft(25, 1000, 1000), 25);
  assert.equal(presence.secondsLeft(25, 1000, 3500), 23);
  assert.equal(presence.secondsLeft(25, 1000, 99000), 0);
  const t = table({ presence: "away", grace: 25 });
  assert.deepEqual(presence.presenceLines(t, 0, null, 0, 4000), ["Bob lost connection - 21 s"]);
  assert.deepEqual(presence.seatBadges(t, 0, null, 1, 4000), [["Away 21 s", "away"]]);
  // your own seat is not told to you; a computer player has no presence
  assert.deepEqual(presence.presenceLines(t, 0, null, 1, 0), []);
  assert.deepEqual(presence.seatBadges(t, 0, null, 3, 0), []);
});

test("a person gone is played for; the turn timer counts for whoever must decide", () => {
  const t = table({ presence: "gone", stand_in: true });
  assert.deepEqual(presence.presenceLines(t, 0, null, 0, 0), ["Bob is away: a computer player plays for them"]);
  assert.deepEqual(presence.seatBadges(t, 0, null, 1, 0), [["Computer plays", "stand-in"]]);
  const timer = { seat: 0, left: 40, of: 40, at: 0 };
  assert.deepEqual(presence.presenceLines(table(), 0, timer, 0, 10200), ["Your turn: 30 s left"]);
  assert.deepEqual(presence.presenceLines(table(), 0, { ...timer, seat: 1 }, 0, 0), ["Bob: 40 s left to play"]);
  assert.deepEqual(presence.seatBadges(table(), 0, { ...timer, seat: 1 }, 1, 0), [["40 s", "timer"]]);
});

test("who lost connection, came back, or left is said once, when it changes", () => {
  const here = table();
  const away = table({ presence: "away", grace: 30 });
  const gone = table({ presence: "gone", stand_in: true });
  assert.deepEqual(presence.presenceNews(here, away, 0), ["Bob lost connection; the seat is held for 30 seconds."]);
  assert.deepEqual(presence.presenceNews(away, away, 0), []);
  assert.deepEqual(presence.presenceNews(away, gone, 0), ["Bob is away: a computer player plays for them."]);
  assert.deepEqual(presence.presenceNews(gone, here, 0), ["Bob is back."]);
  const left = table();
  left.seats[1] = { ...left.seats[1], kind: "computer", name: "Bramble", presence: null };
  assert.deepEqual(presence.presenceNews(here, left, 0), ["Bob left the table; Bramble plays the seat."]);
  assert.deepEqual(presence.presenceNews(null, away, 0), [], "the first table tells nothing new");
  assert.deepEqual(presence.presenceNews(here, away, 1), [], "nor your own seat");
});

test("the waiting room says the rules, who sits where and who partners whom", () => {
  const t = table({}, "waiting");
  assert.equal(waiting.rulesLine(t),
    "House rules · to 300 · nil, bag penalty · computer players: normal · hints allowed · 40 s a turn");
  assert.equal(waiting.seatText(t, t.seats[0]), "Ann (you, host)");
  assert.equal(waiting.seatText(t, t.seats[1]), "Bob");
  assert.equal(waiting.seatText(t, t.seats[2]), "Empty");
  assert.equal(waiting.seatText(t, t.seats[3]), "Clover (computer)");
  assert.equal(waiting.seatText(t, { ...t.seats[1], presence: "away" }), "Bob (not connected)");
  assert.equal(waiting.partnersText(t), "Partners sit opposite: seats 1 and 3 against seats 2 and 4.");
  assert.equal(waiting.partnersText({ table: { sides: [[0], [1], [2]] } }), "Each plays for themselves.");
  assert.equal(waiting.seatLabel(0), "Seat 1");
});

test("emoji are reactions; phrases have words", () => {
  for (const text of ["👍", "😄", "😮", "👏"]) assert.ok(isReaction(text), text);
  for (const text of ["Good game", "Nice nil!", "Oops"]) assert.ok(!isReaction(text), text);
});
