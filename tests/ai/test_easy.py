"""The Easy player: a beginner's habits, never an absurd move."""

from __future__ import annotations

import random

from test_scenarios import NIL_HANDS, PARTNERSHIP, normal_card, position

from spades.ai.bidding import easy_bid
from spades.ai.easy import EasyPlayer
from spades.engine import Bid, GameState, Play, new_game, parse_card, player_view


def easy_card(state: GameState, seed: int) -> str:
    action = EasyPlayer().choose(player_view(state, state.hand.turn), random.Random(seed))
    assert isinstance(action, Play)
    return str(action.card)


def test_easy_bids_a_rough_count_of_high_cards() -> None:
    cards = "AS KS 9S 7S 5S AH KH 4H AD 3D 2D 2C 3C"  # 5 aces and kings, 2 spades past 3
    mine = [parse_card(c) for c in cards.split()]
    rest = [c for c in PARTNERSHIP.deck if c not in set(mine)]
    deck = [mine[i // 4] if i % 4 == 0 else rest.pop() for i in range(52)]
    view = player_view(new_game(PARTNERSHIP, seed=0, decks=[deck]), 0)
    bids = {easy_bid(view, random.Random(seed)).tricks for seed in range(60)}
    assert bids <= {6, 7, 8} and 7 in bids and len(bids) > 1, bids


def test_easy_wins_with_its_highest_card() -> None:
    # seat 3 leads the five of hearts, Easy's partner plays the three, seat 1 the seven; Easy
    # plays last holding the ace and king: it takes the trick with the ace (a beginner's
    # overkill) where Normal takes it with its lowest winner, the ten
    hands = {
        3: "5H 9H 3C 4C 5C 2D 3D 4D 6D 5D 2S 3S 4S",
        0: "3H 4H 6C 7C 8C 7D 8D 9D 5S 6S 7S 9C TC",
        1: "7H 8H QH JH JC TD JD QD KD 8S 9S TS JS",
        2: "AH KH 2H AC KC QC AD 2C 6H TH QS KS AS",
    }
    state = position(PARTNERSHIP, hands, [2, 4, 6, 1], ["5H", "3H", "7H"], first_dealer=2)
    assert state.hand.turn == 2
    assert {easy_card(state, seed) for seed in range(10)} == {"AH"}
    assert normal_card(state) == "TH"


def test_easy_covers_a_nil_only_some_of_the_time() -> None:
    state = position(PARTNERSHIP, NIL_HANDS, ["nil", 4, 4, 4], ["7H", "3H"])
    covered = sum(easy_card(state, seed) in ("9H", "AH") for seed in range(100))
    assert 20 < covered < 95, covered
    assert normal_card(state) in ("9H", "AH")


def test_easy_nil_bidder_plays_its_lowest_card_under_the_trick() -> None:
    hands = {
        0: "5H 7H 3C 4C 5C 2D 3D 4D 6D 5D 2S 3S 4S",
        1: "9H KH QH JH 6C 7C 8C 7D 8D 9D 5S 6S 7S",
        2: "AH 8H 2H AC KC QC AD KD 8S 9S TS JS QS",
    }
    state = position(PARTNERSHIP, hands, [4, 4, "nil", 4], ["5H", "9H"])
    assert player_view(state, 2).bids[2] == Bid(0, nil=True)
    for seed in range(10):
        assert easy_card(state, seed) == "2H"  # wastes its two where the eight was safe
