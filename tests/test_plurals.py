"""Plural agreement in what the table, the terminal and the computer players say (issue 38,
item 5: "1 tricks, kept"): a number written before a plural noun must agree with it. Every
``${n} tricks`` (JavaScript) or ``{n} tricks`` (Python) in the sources is either written
with its singular ("trick${n === 1 ? "" : "s"}") or is listed below with the reason its
number is never 1."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "spades"
NOUNS = r"(?:tricks|cards|bags|points|hands|games|players|seconds|bids)"
IN_JS = re.compile(r"\$\{([^{}]+)\} " + NOUNS + r"\b")
IN_PY = re.compile(r"\{([^{}\"']+)\} " + NOUNS + r"\b")

#: (file under src/spades, the number's expression): why it is never 1.
NEVER_ONE = {
    ("web/js/verify.js", "hand.deck.length"): "a deck",
    ("web/js/help.js", "r.target_score"): "a game's target",
    ("web/js/help.js", "size"): "a hand of the rules (the deck shared out)",
    ("web/js/help.js", "r.blind_nil_deficit"): "a deficit of the rules, 100 or more",
    ("web/js/help.js", "r.moon_value"): "a score of the rules",
    ("web/js/help.js", "r.bag_limit"): "a bag limit of the rules, 10 in every preset",
    ("web/js/dialogs.js", "v.rules.bag_limit"): "a bag limit of the rules",
    ("web/js/sheet.js", "v.rules.bag_limit"): "a bag limit of the rules",
    ("web/js/account.js", "count"): "said as 'the game' when it is 1",
    ("web/js/stats.js", "one(t.points_per_hand)"): "a decimal (1.0 points)",
    ("web/js/stats.js", "one(t.bags_per_hand)"): "a decimal",
    ("web/js/stats.js", "one(v)"): "a decimal",
    ("server/seating.py", "players"): "a table's seats, 2 to 5",
    ("ai/review.py", "lost"): "said as 'a trick' when it is 1",
    ("ai/suggest.py", "tricks:.1f"): "a decimal",
    ("ai/advice.py", "est.tricks:.1f"): "a decimal",
    ("ai/reasons.py", "count"): "its singular is written on the same line",
    ("engine/presets.py", "on.bag_limit"): "a bag limit of the rules",
    ("engine/shuffle.py", "len(deck)"): "a deck",
    ("engine/rules.py", "r.players"): "a table's seats",
    ("engine/rules.py", "hand_size"): "a hand of the rules",
    ("engine/game.py", "len(rules.deck)"): "a deck",
    ("engine/game.py", "rules.blind_nil_deficit"): "a deficit of the rules",
    ("session/seating.py", "rules.players"): "a table's seats",
    ("cli/replay.py", "tricks:8"): "a column of a table, not a count",
    ("cli/play.py", "took:7"): "a column of a table, not a count",
    ("cli/stats.py", "len(players)"): "said only when there are several",
    ("cli/arena.py", "report.hands"): "an arena's hands, hundreds",
    ("cli/arena.py", "_fmt(margin)"): "a decimal",
    ("cli/arena.py", "level.calibration_bids[position]"): "a calibration's bids, hundreds",
    ("cli/arena.py", "first"): "a column heading, a name",
    ("cli/rules.py", "rules.players"): "a table's seats",
    ("cli/rules.py", "len(rules.deck)"): "a deck",
    ("seats.py", "players"): "a table's seats",
}


def found() -> set[tuple[str, str]]:
    out = set()
    for path in sorted(SRC.rglob("*")):
        pattern = {".js": IN_JS, ".py": IN_PY}.get(path.suffix)
        if pattern is None:
            continue
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            out.add((path.relative_to(SRC).as_posix(), match.group(1).strip()))
    return out


def test_every_count_agrees_with_its_noun() -> None:
    unchecked = sorted(found() - set(NEVER_ONE))
    assert unchecked == [], ("a number before a plural noun that may be 1: write its "
                             "singular too (n === 1 ? ...), or say in NEVER_ONE why it never is")


def test_no_reason_is_left_over() -> None:
    assert sorted(set(NEVER_ONE) - found()) == []


def test_the_pattern_finds_the_mistake_it_is_for() -> None:
    assert IN_JS.search("`${play.before} tricks, kept`")
    assert IN_PY.search('f"{event.count} cards to"')
    assert not IN_JS.search('`${n} trick${n === 1 ? "" : "s"}`')
