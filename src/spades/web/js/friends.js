// "Play with friends" in the new-game window: who plays (computer players only, or friends
// invited by a link), and a friends table's options: the host's name, hints allowed, others
// may watch, a turn timer. The preset, house rules and level are the form's as for any game
// (newgame.js). The rest of a table with friends loads when first needed (lobby.js,
// main.js), and so does its style sheet (``loadStyles``): a game against the computer
// players opens without them.

const $ = (id) => document.getElementById(id);
const KEY = "spades.friends";

function last() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

/** The style sheet of tables with friends (css/friends.css), added to the page once. */
export function loadStyles() {
  if (document.getElementById("friends-css")) return;
  const link = document.createElement("link");
  link.id = "friends-css";
  link.rel = "stylesheet";
  link.href = "/css/friends.css";
  document.head.append(link);
}

export class FriendsChoice {
  /** Binds the new-game form's "Who plays" choice and the friends options. */
  constructor(form) {
    this.form = form;
    const kept = last();
    for (const radio of form.querySelectorAll("input[name=who]")) {
      radio.checked = radio.value === (kept.who === "friends" ? "friends" : "computers");
      radio.addEventListener("change", () => this.show());
    }
    if (typeof kept.hints === "boolean") $("new-hints").checked = kept.hints;
    if (typeof kept.watching === "boolean") $("new-watching").checked = kept.watching;
    if (typeof kept.take_seats === "boolean") $("new-take-seats").checked = kept.take_seats;
    const timer = form.querySelector(`input[name=turn_timer][value="${Number(kept.turn_timer) || 0}"]`);
    if (timer) timer.checked = true;
    this.show();
  }

  /** Whether the person chose to play with friends. */
  chosen() {
    const who = this.form.querySelector("input[name=who]:checked");
    return Boolean(who && who.value === "friends");
  }

  /** The friends table's options, as POST /api/tables takes them (its host's name too). */
  values() {
    const timer = this.form.querySelector("input[name=turn_timer]:checked");
    const seconds = timer ? Number(timer.value) : 0;
    return {
      name: $("new-name").value.trim(),
      hints: $("new-hints").checked,
      watching: $("new-watching").checked,
      take_seats: $("new-take-seats").checked,
      timer: seconds || null,
    };
  }

  /** Remember this device's choice for the next time. */
  keep() {
    try {
      const { hints, watching, timer, take_seats: takeSeats } = this.values();
      localStorage.setItem(KEY, JSON.stringify({
        who: this.chosen() ? "friends" : "computers", hints, watching, take_seats: takeSeats, turn_timer: timer || 0,
      }));
    } catch {
      // private mode
    }
  }

  show() {
    const friends = this.chosen();
    if (friends) {
      loadStyles();
      const name = $("new-name");
      if (!name.value) import("./tables.js").then((m) => { if (!name.value) name.value = m.lastName(); });
    }
    $("new-friends").hidden = !friends;
    $("new-start").textContent = friends ? "Make the table" : "Deal";
    $("new-level").closest("fieldset").querySelector("legend").textContent =
      friends ? "Computer players (for empty seats)" : "Computer players";
  }
}
