"""Write the golden game records of tests/golden/ and their expected summaries.

    python tests/golden/make_golden.py

- ``preset_NAME.json``: one complete game of each preset, first deal to game over, played by
  ``engine_testkit.sensible_chooser`` (the seed among 0-9 giving the shortest game).
- ``scoring_*.json``: every scoring example of the rulebooks (``../shared/seeds/``), built
  from planned bids and either a hand-built deck or a search over shuffled decks and plays
  until the hand comes out as the example says (the search is seeded: the same files every
  time).

Each record gets ``NAME.expected.json``: what ``spades.engine.summary`` gives for it. The
tests (tests/engine/test_golden.py) replay every record, compare, check each hand with their
own scorer, and assert the rulebooks' figures directly.

It never overwrites a golden file: new games are written, unchanged ones are left alone, and
a game whose record or summary would now differ is refused (exit code 1) and named. Writing
an expectation from today's code would make the golden tests pass whatever the code does; if
a change of the rules really changes a game, delete its two files and say why in the commit.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "engine"))

from engine_testkit import cards, deck_for, draw_deck, sensible_chooser  # noqa: E402

from spades.engine import (  # noqa: E402
    BLIND_NIL,
    KEEP,
    NIL,
    PRESETS,
    Action,
    Bid,
    Card,
    GameState,
    Phase,
    Rules,
    Shuffle,
    apply,
    legal_actions,
    make_rules,
    new_game,
    record_of,
    summary,
)

Tricks = tuple[int, ...]


@dataclass
class Plan:
    """One hand: each seat's bid (a number, "nil" or "blind"), the tricks it must come out
    with, and optionally a hand-built deck (else shuffled decks are tried)."""

    bids: Mapping[int, int | str]
    accept: Callable[[Tricks], bool] = lambda tricks: True
    deck: Sequence[Card] | None = None
    then: Callable[[GameState], bool] = lambda state: True


#: The golden games were dealt by the shuffle of their time (Python's random): keep it so
#: that this script writes the same games.
LEGACY = Shuffle(version=1)

def _choose(state: GameState, plan: Plan, rng: random.Random) -> Action:
    hand = state.hand
    seat = hand.turn
    legal = legal_actions(state)
    wanted = plan.bids.get(seat)
    if hand.phase is Phase.DRAW:
        if wanted == "blind" and BLIND_NIL in legal:
            return BLIND_NIL
        if plan.deck is not None:
            return KEEP
    if hand.phase is Phase.BID:
        action: Action = NIL if wanted == "nil" else BLIND_NIL if wanted == "blind" else Bid(
            int(wanted or 0))
        assert action in legal, (seat, action, legal)
        return action
    if hand.phase is Phase.PLAY and rng.random() < 0.3:
        return rng.choice(legal)
    if hand.phase is Phase.PASS:
        return rng.choice(legal)
    return sensible_chooser(state, rng)  # it looks at face-down cards


def play_plans(rules: Rules, plans: Sequence[Plan], seed: int,
               tries: int = 50_000) -> GameState:
    rng = random.Random(seed)
    decks: list[Sequence[Card]] = []
    done: list[tuple[int, Action]] = []
    state = new_game(rules, seed=seed, shuffle=LEGACY)
    for index, plan in enumerate(plans):
        for _ in range(tries):
            deck = list(plan.deck) if plan.deck is not None else rng.sample(rules.deck,
                                                                          len(rules.deck))
            state = new_game(rules, seed=seed, decks=[*decks, deck], shuffle=LEGACY)
            for seat, action in done:
                assert state.hand.turn == seat
                state = apply(state, action)
            mine: list[tuple[int, Action]] = []
            while len(state.results) == index and not state.over:
                action = _choose(state, plan, rng)
                mine.append((state.hand.turn, action))
                state = apply(state, action)
            if len(state.results) == index + 1 and plan.accept(
                    state.results[-1].tricks) and plan.then(state):
                decks.append(deck)
                done += mine
                break
        else:
            raise RuntimeError(f"hand {index + 1}: no deal found in {tries} tries")
    return state


def sensible_game(rules: Rules, seed: int, limit: int = 60) -> GameState | None:
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, shuffle=LEGACY)
    while not state.over:
        if len(state.results) >= limit:
            return None
        state = apply(state, sensible_chooser(state, rng))  # it looks at face-down cards
    return state


# ---------------------------------------------------------------------------- writing


def record_text(state: GameState) -> str:
    """The record, one action a line; a trailing hand not yet begun is left out. The golden
    records stay ``spades-record/1`` (the readers of /1 are tested on them): the looks the
    engine writes in /2 are left out, as /1 infers them."""
    record: dict[str, Any] = record_of(state)
    while record["hands"] and not record["hands"][-1]["actions"]:
        record["hands"].pop()
    record["format"] = "spades-record/1"
    for hand in record["hands"]:
        hand["actions"] = [a for a in hand["actions"] if "look" not in a]
    dump = json.dumps
    lines = ["{", f' "format": {dump(record["format"])},', f' "rules": {dump(record["rules"])},',
             f' "first_dealer": {record["first_dealer"]},', ' "hands": [']
    for h, hand in enumerate(record["hands"]):
        lines.append(f'  {{"deck": {dump(hand["deck"])},')
        lines.append('   "actions": [')
        actions = [f"    {dump(a)}" for a in hand["actions"]]
        lines.append(",\n".join(actions))
        lines.append("   ]}" + ("," if h < len(record["hands"]) - 1 else ""))
    lines += [" ]", "}", ""]
    return "\n".join(lines)


def summary_text(data: dict[str, Any]) -> str:
    """The summary, one hand a line."""
    dump = json.dumps
    hands = ",\n".join(f"  {dump(h)}" for h in data["hands"])
    return (f'{{"sides": {dump(data["sides"])},\n "hands": [\n{hands}\n ],\n'
            f' "final": {dump(data["final"])}}}\n')


class GoldenExists(Exception):
    """A golden file is already there and the game would now write something else."""


def write(name: str, state: GameState, folder: Path = HERE) -> str:
    """Write ``NAME.json`` and ``NAME.expected.json`` into ``folder`` if neither is there:
    "written"; both there with this very text: "unchanged"; otherwise ``GoldenExists``
    (and nothing is written)."""
    texts = {folder / f"{name}.json": record_text(state),
             folder / f"{name}.expected.json": summary_text(summary(state))}
    present = [path for path in texts if path.exists()]
    if present:
        differ = [path.name for path in present
                  if path.read_text(encoding="utf-8") != texts[path]]
        if differ or len(present) < len(texts):
            raise GoldenExists(f"{name}: {', '.join(differ or [p.name for p in present])} "
                               "already there and not what this game gives; not overwritten")
        return "unchanged"
    for path, text in texts.items():
        with path.open("x", encoding="utf-8") as file:  # "x": never replaces a file
            file.write(text)
    print(f"{name}: {len(state.results)} hands, scores {list(state.scores)}, "
          f"over {state.over}")
    return "written"


# ---------------------------------------------------------------------------- the examples


def scoring_examples() -> dict[str, GameState]:
    partnership = PRESETS["partnership"]
    two = PRESETS["two-player"]
    online = PRESETS["online"]
    out: dict[str, GameState] = {}

    # 000: "if a player bids 6 and takes 7, they earn 61 points"
    out["scoring_000_bid6_take7"] = play_plans(two, [
        Plan({0: 6, 1: 5}, lambda t: t[0] == 7)], seed=1)

    # 001: "you bid 4 and your partner bids 3 ... take 9 tricks, and you score 72"
    out["scoring_001_partners_4_3_take_9"] = play_plans(partnership, [
        Plan({0: 4, 1: 2, 2: 3, 3: 2}, lambda t: t[0] + t[2] == 9 and t[1] + t[3] == 4)],
        seed=2)

    # 003: 15 bags net -95: 8 bags in one hand, then 7 bags (bid + 7 - 100 - 10)
    out["scoring_003_fifteen_bags"] = play_plans(online, [
        Plan({0: 1, 1: 1, 2: 1, 3: 1}, lambda t: t[0] + t[2] == 10),
        Plan({0: 1, 1: 1, 2: 1, 3: 1}, lambda t: t[0] + t[2] == 9)], seed=3)

    # 001: nil made +100, nil missed -100 and its tricks are bags
    out["scoring_001_nil_made_and_failed"] = play_plans(partnership, [
        Plan({0: "nil", 1: "nil", 2: 4, 3: 5}, lambda t: t == (0, 2, 5, 6))], seed=4)

    # 001 (variation): blind nil scores 200 if made and loses 200 if missed
    out["scoring_001_blind_nil_made_and_failed"] = play_plans(
        make_rules("partnership", blind_nil=True), [
            Plan({0: "blind", 1: "blind", 2: 5, 3: 5}, lambda t: t == (0, 1, 6, 6))], seed=5)

    # 004: blind nil only when 100 or more behind, then two cards each way; +200 made
    out["scoring_004_blind_nil_behind_with_pass"] = play_plans(
        make_rules("house", blind_nil=True), [
            Plan({0: 13, 1: 1, 2: 13, 3: 1}),
            Plan({1: 3, 2: "blind", 3: 3, 0: 4}, lambda t: t[2] == 0 and t[0] == 5)], seed=6)

    # 000: "Successful blind nils earn 200 points"; a failed nil's tricks are just bags
    out["scoring_000_blind_nil_made_then_failed"] = play_plans(two, [
        Plan({0: "blind", 1: 12}, lambda t: t[0] == 0),
        Plan({1: "blind", 0: 5}, lambda t: t[1] == 3)], seed=7)

    # 000: shooting the moon: bid 13, take 13 = 250
    spades = cards(" ".join(r + "S" for r in "23456789TJQKA"))
    hearts = cards(" ".join(r + "H" for r in "23456789TJQKA"))
    out["scoring_000_moon_made"] = play_plans(two, [
        Plan({0: 13, 1: 1}, lambda t: t == (13, 0), deck=draw_deck(two, {0: spades,
                                                                        1: hearts}))], seed=8)

    # 000: "if a player shoots the moon and only takes 9 tricks, they would earn 9 points"
    out["scoring_000_moon_missed"] = play_plans(two, [
        Plan({0: 13, 1: 1}, lambda t: t[0] == 9)], seed=9)

    # 003: Boston: a side that takes all 13 tricks wins at once
    out["scoring_003_boston"] = play_plans(online, [
        Plan({0: 10, 1: 1, 2: 3, 3: 1}, lambda t: t[0] + t[2] == 13,
             deck=deck_for(online, {0: spades}))], seed=10)

    # 001/004: mercy: a side at -200 or below loses at once
    out["scoring_001_mercy"] = play_plans(PRESETS["short"], [
        Plan({0: 10, 1: 1, 2: 10, 3: 1})], seed=11)

    # 001/004: both sides at the target with the same score: another hand
    to_100 = make_rules("partnership", target_score=100)
    out["scoring_004_tie_at_the_target"] = play_plans(to_100, [
        Plan({0: 3, 1: 3, 2: 2, 3: 3}, lambda t: t[0] + t[2] == 6),
        Plan({0: 3, 1: 3, 2: 3, 3: 2}, lambda t: t[0] + t[2] == 7),
        Plan({0: 3, 1: 3, 2: 3, 3: 3}, then=lambda s: s.over)], seed=12)
    return out


def main(folder: Path = HERE) -> int:
    games: dict[str, GameState] = {}
    for name, rules in PRESETS.items():
        played = [g for seed in range(10) if (g := sensible_game(rules, seed)) is not None]
        games[f"preset_{name}"] = min(played, key=lambda g: len(g.results))
    games.update(scoring_examples())
    refused = []
    for name, state in games.items():
        try:
            write(name, state, folder)
        except GoldenExists as error:
            refused.append(str(error))
    for message in refused:
        print(message, file=sys.stderr)
    if refused:
        print(f"{len(refused)} golden game(s) refused: delete a game's two files to write it "
              "again, and say why in the commit.", file=sys.stderr)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
