"""Normal's card play weighs the contracts' odds: a trick its side would make anyway is a bag,
and a winner kept in hand is worth the set it can inflict later.

Positions are reached through the engine (``test_scenarios.position``): each deck and play
sequence was built so that the end of the hand is exactly the one described; the last lines
of each test play the hand out both ways, so the test says why the card is right.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_scenarios import PARTNERSHIP, normal_card, position

from spades.ai.arena import make_contender
from spades.ai.base import Player
from spades.ai.normal import NormalPlayer
from spades.engine import (
    GameState,
    Phase,
    Play,
    apply,
    find_preset,
    new_game,
    parse_card,
    player_view,
)

#: The frozen Normal, found from this file (not from the working directory).
YARDSTICK = Path(__file__).resolve().parents[2] / "bench" / "yardstick"


def finish(state: GameState, card: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Play ``card``, then Normal for every seat to the end: (tricks, points)."""
    state = apply(state, Play(parse_card(card)))
    while not state.results:
        view = player_view(state, state.hand.turn)
        action = NormalPlayer().choose(view, random.Random(0))
        state = apply(state, action)
    result = state.results[0]
    return result.tricks, result.score.points


# Seat 0 deals; bids in order: seat 1 4, seat 2 (Normal) 1, seat 3 4, seat 0 1. After eleven
# tricks Normal's side has five (its 2 made), the opponents six of their 8: they need both
# of the last two. Seat 3 leads the five of clubs, seat 0 plays the two, seat 1 the three.
# Normal, void in clubs, holds the ace of hearts (master: the king and queen are out) and the
# two of diamonds. Shedding the ace (the old habit: "bid made, get rid of winners") hands
# them the contract; keeping it takes the last trick when they lead a heart and sets them.
DENIAL_HANDS = {
    0: "QD 8C AS 8S 9D 7H 8D 2S JC 4C 3H 2C 3D",
    1: "6D 4H 6C 9S JH TS JD TC KS TD AC 3C QH",
    2: "8H 9H 5S 4S TH AD 5D 4D 6H 3S KD 2D AH",  # Normal
    3: "5H QS 7C 7D 2H 6S QC JS KC 9C 7S 5C KH",
}
DENIAL_PLAYS = [
    "AC", "TH", "QC", "JC",  "4H", "8H", "2H", "3H",
    "KD", "7D", "QD", "TD",  "AD", "KC", "8D", "JD",
    "9H", "5H", "7H", "JH",  "TC", "5D", "9C", "4C",
    "6D", "4D", "7S", "9D",  "7C", "8C", "6C", "5S",
    "4S", "6S", "8S", "KS",  "9S", "3S", "QS", "AS",
    "2S", "TS", "6H", "JS",  "5C", "2C", "3C",
]


def test_normal_keeps_a_winner_that_sets_the_opponents_once_its_bid_is_made() -> None:
    state = position(PARTNERSHIP, DENIAL_HANDS, [4, 1, 4, 1], DENIAL_PLAYS, first_dealer=0)
    assert state.hand.turn == 2 and state.hand.tricks == (1, 4, 4, 2)
    card = normal_card(state)
    assert card == "2D", f"Normal shed {card} and let the opponents make their 8"
    # why: keeping the ace sets them (they lose 80), shedding it lets them score 80
    assert finish(state, "2D")[1][1] == -80
    assert finish(state, "AH")[1][1] == 80


# Seat 0 deals; bids: seat 1 3, seat 2 (Normal) 1, seat 3 3, seat 0 1. After ten tricks the
# opponents have made their 6 (nine tricks); Normal's side has one of its 2 and Normal holds
# the ace of spades (the master), so its contract is safe. Seat 3 leads the three of hearts,
# seat 0 plays the four, seat 1 the five; Normal, last, holds the king and two of hearts.
# Winning with the king is a bag for nothing (the ace of spades makes the contract); the two
# lets the opponents take a bag instead.
SAFE_HANDS = {
    0: "AD 9D 2D QS 7H 8H 6S 9C 8C 6H 2C 3C 4H",
    1: "KC 4S 7D KD AC 2S 6D 9H TD 8D 4C 5H AH",
    2: "TH QC 5D 5S TS 3S JH JD 4D 5C 2H AS KH",  # Normal
    3: "8S KS 9S QD QH JC JS TC 3D 7S 3H 6C 7C",
}
SAFE_PLAYS = [
    "8D", "5D", "3D", "2D",  "7D", "JD", "QD", "9D",
    "QH", "7H", "9H", "TH",  "TC", "8C", "AC", "QC",
    "TD", "4D", "KS", "AD",  "8S", "QS", "2S", "3S",
    "9C", "KC", "5C", "JC",  "KD", "JH", "7S", "6S",
    "9S", "8H", "4S", "5S",  "JS", "6H", "6D", "TS",
    "3H", "4H", "5H",
]


def test_normal_ducks_a_bag_when_its_contract_is_safe_but_not_yet_made() -> None:
    state = position(PARTNERSHIP, SAFE_HANDS, [3, 1, 3, 1], SAFE_PLAYS, first_dealer=0)
    assert state.hand.turn == 2 and state.hand.tricks == (1, 3, 0, 6)
    card = normal_card(state)
    assert card == "2H", f"Normal took a bag with {card} though the ace of spades makes it"
    # why: both ways the contract is made; ducking leaves Normal's side one bag fewer and
    # the opponents one more
    duck_tricks, _ = finish(state, "2H")
    win_tricks, _ = finish(state, "KH")
    assert duck_tricks[0] + duck_tricks[2] == 2
    assert win_tricks[0] + win_tricks[2] == 3


@pytest.mark.parametrize("preset", ["cutthroat", "three-player", "five-player"])
def test_tables_of_many_sides_keep_the_frozen_play(preset: str) -> None:
    """With three to five players each for themselves the contract's odds and the denial lost
    points (``MAX_SIDES_FOR_ODDS``), so there Normal plays every card as the frozen Normal
    (``bench/yardstick``) does; the same walk at a partnership table finds cards that differ,
    so the comparison can tell them apart."""
    frozen = make_contender(str(YARDSTICK))
    assert same_cards(preset, frozen) == (True, True)
    assert same_cards("partnership", frozen)[0] is False


def same_cards(preset: str, frozen: Player) -> tuple[bool, bool]:
    """Walk three seeded games of ``preset`` played by Normal; at each card decision compare
    Normal's card with the frozen one's: (all equal, at least 150 compared)."""
    compared, equal = 0, True
    for seed in range(3):
        state = new_game(find_preset(preset), seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.over:
                break
            view = player_view(state, state.hand.turn)
            action = NormalPlayer().choose(view, rng)
            if view.phase is Phase.PLAY and len(view.legal) > 1:
                compared += 1
                equal = equal and action == frozen.choose(view, random.Random(0))
            state = apply(state, action)
    return equal, compared >= 150
