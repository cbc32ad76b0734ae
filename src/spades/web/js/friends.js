// "Play with friends" in the new-game window: who plays (computer players only, or friends
// invited by a link), and a friends table's options: the host's name, hints allowed, others
// may watch, taking computer players' seats, sharing the link, a turn timer. The preset,
// house rules and level are the form's as for any game
// (newgame.js). This module loads when "Play with friends" is first chosen (or was the
// last choice on this device), and the rest of a table with friends when first needed
// (lobby.js, main.js), its style sheet too (``loadStyles``): a game against the computer
// players opens without them.

const $ = (id) => document.getElementById(id);
const KEY = "spades.friends";

/** The friends options of the new-game window (static markup, no data in it). */
const FIELDS = `
<legend>Table for friends</legend>
<p class="hint">You get a link and a code to invite people; empty seats get computer players.</p>
<label class="field" for="new-name">Your name at the table</label>
<input type="text" id="new-name" class="text" maxlength="24" autocomplete="nickname" aria-describedby="new-name-hint">
<p class="hint" id="new-name-hint">1 to 24 characters; shown to the people at the table.</p>
<div class="friend-toggles">
  <label><input type="checkbox" id="new-hints" checked> Hints allowed (the bid suggestion and the card hint)</label>
  <label><input type="checkbox" id="new-watching"> Others may watch (a watch link)</label>
  <label><input type="checkbox" id="new-take-seats"> Friends may take a computer player's seat after the start</label>
  <label><input type="checkbox" id="new-share-link"> Anyone seated may share the invite link</label>
</div>
<p class="hint" id="new-timer-label">Turn timer: a computer player moves for whoever runs out of time</p>
<div class="choices" role="radiogroup" aria-labelledby="new-timer-label">
  <label><input type="radio" name="turn_timer" value="0" checked> Off</label>
  <label><input type="radio" name="turn_timer" value="20"> 20 s</label>
  <label><input type="radio" name="turn_timer" value="40"> 40 s</label>
  <label><input type="radio" name="turn_timer" value="60"> 60 s</label>
</div>`;

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
  /** Fills and binds the new-game form's friends options; ``restore``: choose as this
   * device did last time (else the person's click that loaded this module stands). */
  constructor(form, restore) {
    this.form = form;
    $("new-friends").innerHTML = FIELDS;
    const kept = last();
    for (const radio of form.querySelectorAll("input[name=who]")) {
      if (restore) radio.checked = radio.value === (kept.who === "friends" ? "friends" : "computers");
      radio.addEventListener("change", () => this.show());
    }
    if (typeof kept.hints === "boolean") $("new-hints").checked = kept.hints;
    if (typeof kept.watching === "boolean") $("new-watching").checked = kept.watching;
    if (typeof kept.take_seats === "boolean") $("new-take-seats").checked = kept.take_seats;
    if (typeof kept.share_link === "boolean") $("new-share-link").checked = kept.share_link;
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
      share_link: $("new-share-link").checked,
      timer: seconds || null,
    };
  }

  /** Remember this device's choice for the next time. */
  keep() {
    try {
      const { hints, watching, timer, take_seats: takeSeats, share_link: shareLink } = this.values();
      localStorage.setItem(KEY, JSON.stringify({
        who: this.chosen() ? "friends" : "computers", hints, watching, take_seats: takeSeats,
        share_link: shareLink, turn_timer: timer || 0,
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
