// The help page: the rules of the chosen variant in a player's words, and the keys.
// It describes the rules the server sends; it decides nothing.

import { sideName } from "./seats.js";
import { cardIndex, cardName } from "./cards.js";

// ``t`` is the table the server describes for these rules (GET /api/presets and every state's
// ``game.table``): hand size, the cards removed, the sides and each seat's partner. ``you`` is
// your seat, as the server says; nothing here assumes which seat that is.

/** The seats after ``you``, clockwise. */
function others(t, you) {
  const n = t.partner_of.length;
  return Array.from({ length: n - 1 }, (_, i) => (you + 1 + i) % n);
}

function and(items) {
  return items.length < 2 ? items.join("")
    : items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
}

function removedNames(t) {
  return t.removed.map((code) => cardName(cardIndex(code)));
}

function list(items) {
  return "<ul>" + items.filter(Boolean).map((i) => `<li>${i}</li>`).join("") + "</ul>";
}

function plus(n) {
  return n > 0 ? `Plus ${n}` : n < 0 ? `Minus ${-n}` : "Nothing";
}

function goal(r, t, names, you) {
  const target = `${r.target_score} points`;
  const partner = t.partner_of[you];
  if (partner != null) {
    const against = others(t, you).filter((s) => s !== partner).map((s) => names[s]);
    return `You and your partner, ${names[partner]}, play against ${and(against)}. Bid how ` +
      "many tricks you will take, take at least that many, and be the first team to reach " +
      `${target}.`;
  }
  return `You play against ${and(others(t, you).map((s) => names[s]))}, each for themselves. ` +
    `Bid how many tricks you will take, take at least that many, and be the first to reach ${target}.`;
}

function dealAndBid(r, t) {
  const size = t.hand_size;
  const out = [];
  if (r.draw) {
    out.push("There is no deal: you build your hands from the stock. On your turn you see the " +
      "top card and keep it (the next card goes face up on the discards), or discard it face " +
      "up and keep the next one. When you each hold 13 cards, you bid.");
  } else {
    const twos = removedNames(t);
    let deal = `Each player gets ${size} cards. The deal moves one seat clockwise every hand.`;
    if (r.jokers) {
      deal += " The Big Joker and Little Joker are in the deck as the two highest spades";
      deal += twos.length ? ` and the ${twos.join(", the ")} ${twos.length > 1 ? "leave" : "leaves"} it.` : ".";
    } else if (twos.length) {
      deal += ` The ${twos.join(", the ")} ${twos.length > 1 ? "leave" : "leaves"} the deck.`;
    }
    out.push(deal);
  }
  if (r.kitty) {
    out.push("The last card is dealt face down: the kitty. Before the bidding, the player who " +
      "holds the two of clubs may swap it, unseen, for the kitty.");
  }
  const [low, high] = t.bids;
  let bid = "Starting to the dealer's left, each player bids the number of tricks they expect " +
    `to win, from ${low} to ${high}.`;
  if (r.partnership) bid += " Your bid and your partner's bid add up to your team's bid.";
  out.push(bid);
  if (r.suicide) {
    out.push(`Suicide: on each side one partner bids nil and the other ${r.suicide_min} or ` +
      "more; the first of the two to bid chooses which.");
  }
  if (r.nil) {
    out.push("Nil is a bid of zero: you promise to win no tricks at all." +
      (r.partnership ? " Your partner's bid stands on its own." : ""));
  } else {
    out.push(`Nil is not played: every bid is at least ${low}.`);
  }
  if (r.blind_nil) {
    let blind = "Blind nil is a nil bid made before you look at your cards" +
      (r.draw ? ", declared before your first draw." : ".");
    if (r.blind_nil_deficit != null) {
      blind += ` It is offered only when you are behind by ${r.blind_nil_deficit} points or more.`;
    }
    if (r.blind_nil_pass) {
      const n = r.blind_nil_pass;
      blind += ` You then pass ${n} card${n > 1 ? "s" : ""} to your partner, and they pass ` +
        `${n} back.`;
    }
    blind += " Computer players never bid blind nil.";
    out.push(blind);
  }
  if (r.moon_value != null) {
    out.push(`Shooting the moon: bid all ${size} tricks and take them all for ` +
      `${r.moon_value} points.`);
  }
  return list(out);
}

const BREAKS = {
  "offsuit": "until a spade has been played on an earlier trick of another suit (“spades are broken”)",
  "any-spade": "until a spade has been played (“spades are broken”)",
  "void": "until a player has been unable to follow suit (“spades are broken”)",
};

function playing(r) {
  const first = r.first_lead === "lowest-club"
    ? "The player holding the lowest club leads the first trick, with that club."
    : "The player to the dealer's left leads the first trick.";
  const order = r.jokers
    ? " The Big Joker is the highest card, then the Little Joker, then the ace of spades."
    : "";
  return list([
    `${first} Play goes clockwise, and each player plays one card.`,
    "You must play a card of the suit that was led if you have one. If you don't, play any card.",
    "Spades are trump. The highest spade wins the trick; if no spade was played, the highest " +
      "card of the led suit wins. Aces are high." + order,
    `You can't lead a spade ${BREAKS[r.spades_break] || BREAKS.offsuit}, unless your hand ` +
      "holds nothing but spades. The table shows when spades are broken.",
    "The winner of each trick leads the next one.",
  ]);
}

function scoring(r) {
  const team = r.partnership ? "Your team" : "You";
  const takes = r.partnership ? "takes" : "take";
  const rows = [
    [`${team} ${takes} at least ${r.partnership ? "its" : "your"} bid`,
      "10 per trick bid, plus 1 per extra trick"],
    [`${team} ${takes} fewer tricks than ${r.partnership ? "its" : "your"} bid`,
      r.set_scoring === "zero" ? "Nothing" : "Minus 10 per trick bid"],
  ];
  const failed = (value) => ({
    "penalty-bags": `${plus(-value)}; the tricks count as bags`,
    "bags": "No penalty; the tricks count as bags",
    "penalty-void": `${plus(-value)}; the tricks count for nothing`,
  })[r.failed_nil] || plus(-value);
  if (r.nil) rows.push(["Nil made / broken", `${plus(r.nil_value)} / ${failed(r.nil_value)}`]);
  if (r.blind_nil) {
    rows.push(["Blind nil made / broken",
      `${plus(r.blind_nil_value)} / ${failed(r.blind_nil_value)}`]);
  }
  if (r.bag_limit != null) {
    rows.push([`Every ${r.bag_limit} bags (extra tricks)`, plus(-r.bag_penalty) +
      (r.bag_takeback ? ", and the point each of those bags scored is taken back" : "")]);
  } else {
    rows.push(["Bags (extra tricks)", "1 point each, no penalty"]);
  }
  if (r.moon_value != null) {
    rows.push(["Shooting the moon made / missed", `Plus ${r.moon_value} / the tricks count as bags`]);
  }
  if (r.boston) rows.push([`${team} ${takes} every trick of a hand (Boston)`, "Wins the game at once"]);
  const table = "<table><thead><tr><th scope=\"col\">Result</th><th scope=\"col\">Points</th>" +
    "</tr></thead><tbody>" + rows.map(([a, b]) => `<tr><td>${a}</td><td>${b}</td></tr>`).join("") +
    "</tbody></table>";
  const notes = [];
  if (r.partnership && r.nil) {
    notes.push("Tricks won by a nil bidder don't count toward the partner's bid.");
  }
  const who = r.partnership ? "a team" : "a player";
  let end = `The game ends after the hand in which ${who} reaches ${r.target_score}. If more ` +
    "than one passes it, the higher score wins; a tie plays another hand.";
  if (r.losing_score != null) {
    end += ` With the mercy rule, ${who} at ${r.losing_score} or lower loses.`;
  }
  notes.push(end);
  return table + notes.map((n) => `<p>${n}</p>`).join("");
}

export const KEYS = [
  ["Tab", "Move to your hand, the bid pad or the next button"],
  ["Left / Right arrows", "Move between cards or bids"],
  ["Enter or Space", "Play the card, or choose the bid"],
  ["0–9", "Jump to that bid on the bid pad (type two digits quickly for 10 and above)"],
  ["L", "Show the last trick"],
  ["S", "Show the score sheet"],
  ["H", "Hint: lift the card the Hard player would play in your seat, and say why (Enter plays it)"],
  ["U", "Undo: take back your last card or bid, and what the computer players played after it (with the house rule Allow undo)"],
  ["Escape", "Close a window"],
];

function keys() {
  return "<table><thead><tr><th scope=\"col\">Key</th><th scope=\"col\">Action</th></tr></thead>" +
    "<tbody>" + KEYS.map(([k, a]) => `<tr><td><kbd>${k}</kbd></td><td>${a}</td></tr>`).join("") +
    "</tbody></table>";
}

/** The whole help text for rules ``r`` as HTML (our own fixed text and numbers only), as
 * the server describes the table: ``label`` names the variant, ``names`` the seats, ``you``
 * is your seat and ``table`` the dealt facts, sides and partners (``game.table`` of a state,
 * or ``table`` of a preset). */
export function helpHtml(r, { label, names, you, table }) {
  const t = table;
  const partner = r.partnership ? "; your partner plays at the same level" : "";
  const mine = t.side_of[you];
  const theirs = t.sides.map((_, i) => i).filter((i) => i !== mine);
  const us = [you, ...t.sides[mine].filter((s) => s !== you)].map((s) => names[s]).join(" and ");
  const seats = us +
    (t.sides[mine].length > 1 ? ` against ${and(theirs.map((i) => sideName(t.sides, names, i)))}` : "");
  return `
<h2>How to play: ${label}</h2>
<h3>The goal</h3><p>${goal(r, t, names, you)}</p>
<h3>The deal and the bid</h3>${dealAndBid(r, t)}
<h3>Playing the tricks</h3>${playing(r)}
<h3>Scoring</h3>${scoring(r)}
<h3>House rules</h3>
<p>Choose these with each new game: the variant, the computer players' level (Easy, Normal or
Hard${partner}), the target score, and whether nil, blind nil, the bag penalty, the mercy rule
and jokers are in play. With jokers, low twos leave the deck and the Big Joker and Little Joker
join it as the two highest spades.</p>
<h3>Playing a card</h3>
<p>Tap or click a card to play it. Cards you can't play this turn are shaded and sit lower;
the ones you can play have a gold edge and stand up. With <em>Tap twice to play</em> on (the
default on touch screens, a setting elsewhere), the first tap lifts a card and the second plays
it.</p>
${keys()}
<h3>Tips</h3>
${list([
    "Aces and kings of side suits usually win a trick each; long spades win more as the hand goes on.",
    "A short side suit is a chance to trump in once it is led.",
    "Once your bid is safe, extra tricks only add bags. Play low cards and let the others have them.",
    r.partnership && r.nil ? "When your partner bids nil, play high and win the tricks they might otherwise be forced to take." : "",
  ])}
<h3>Questions</h3>
<p><strong>Do the computer players see my cards?</strong> No. Each one plays from its own hand
and the cards already played.</p>
<p><strong>What does the bid suggestion count?</strong> High cards likely to win, long spades,
and short suits you can trump. It is a starting point; you choose the bid.</p>
<p><strong>Do I need an account?</strong> No. Your game is saved after every card on the server
that runs this table, under an anonymous id kept in this browser: reload the page or come back
later on this browser and it resumes. Accounts do not exist yet, so a game does not follow you to
another device. Past games can be downloaded as game records.</p>
<p><strong>Who sits where?</strong> ${seats}; seats go clockwise, ${names[others(t, you)[0]]} on your left.</p>`;
}
