"""The bid suggestion in Hard's judgement (issue 41 item 1: one adviser): Hard's own bid for
the view and seed, always legal in every variant, explained by the hand's count where the
two agree and by what Hard's playouts found where they do not, the same for the same view."""

from __future__ import annotations

import random

import pytest

from spades.ai.advice import advise_bid, view_seed
from spades.ai.easy import EasyPlayer
from spades.ai.hard import HardPlayer
from spades.ai.suggest import suggest_bid
from spades.engine import PRESETS, Bid, Phase, PlayerView, apply, new_game, player_view

FAST = 80


def bid_views(preset: str, games: int) -> list[PlayerView]:
    views = []
    for seed in range(games):
        state = new_game(PRESETS[preset], seed=seed)
        rng = random.Random(seed)
        while state.hand.phase is not Phase.PLAY and not state.over:
            view = player_view(state, state.hand.turn)
            if view.phase is Phase.BID and not view.face_down:
                views.append(view)
            state = apply(state, EasyPlayer().choose(view, rng))
    return views


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_suggestion_is_hards_legal_bid(preset: str) -> None:
    for view in bid_views(preset, 2):
        seed = view_seed(view)
        advice = advise_bid(view, random.Random(seed), HardPlayer(iterations=FAST))
        hard = HardPlayer(iterations=FAST).choose(view, random.Random(seed))
        assert advice.bid == hard and advice.bid in view.legal and not advice.bid.blind
        assert advice.reasons and all(isinstance(r, str) and r for r in advice.reasons)


def test_where_the_count_agrees_its_words_stay_and_where_not_hards_figures_speak() -> None:
    agree = differ = nils = 0
    for view in bid_views("partnership", 6):
        player = HardPlayer(iterations=FAST)
        advice = advise_bid(view, random.Random(view_seed(view)), player)
        count = suggest_bid(view)
        if advice.bid == count.bid:
            agree += 1
            assert advice == count
        elif advice.bid.nil:
            nils += 1
            assert advice.reasons[0].startswith("nil: made in about ")
            assert sum("%" in r for r in advice.reasons) == 1
            assert not any("tricks in all" in r for r in advice.reasons)
        else:
            differ += 1
            assert isinstance(advice.bid, Bid)
            assert f"; bid {advice.bid.label}: the best score in Hard's playouts" in \
                advice.reasons[-1] or "your partner bid nil" in advice.reasons[-1]
            assert not any(r.endswith(f"bid {count.bid.label}") for r in advice.reasons)
    assert agree and differ


def test_the_same_view_gets_the_same_suggestion() -> None:
    view = bid_views("partnership", 1)[0]
    first = advise_bid(view, random.Random(view_seed(view)), HardPlayer(iterations=FAST))
    again = advise_bid(view, random.Random(view_seed(view)), HardPlayer(iterations=FAST))
    assert first == again
    other = bid_views("partnership", 2)[-1]
    assert view_seed(other) != view_seed(view)


def test_not_a_turn_to_bid() -> None:
    state = new_game(PRESETS["partnership"], seed=1)
    view = player_view(state, (state.hand.turn + 1) % 4)  # not this seat's turn
    with pytest.raises(ValueError, match="turn to bid"):
        advise_bid(view, random.Random(1))
