"""The two-player nil suggestion (issue 38 item 4): where a failed nil costs no points, only
its tricks as bags, the reason gives the figure that matters, the nil's expected points
against the number's, and the suggestion takes the better of the two (a hopeless nil there
lost points: bench/RESULTS.md)."""

from __future__ import annotations

import random
import re

from spades.ai.bidding import contract_value, normal_bid
from spades.ai.easy import EasyPlayer
from spades.ai.suggest import nil_points, suggest_bid
from spades.engine import Phase, PlayerView, apply, find_preset, new_game, player_view

RULES = find_preset("two-player")


def _normal_nils(games: int) -> list[PlayerView]:
    """The bidding views of two-player games (Easy draws and bids) where Normal bids nil."""
    easy = EasyPlayer()
    found = []
    for seed in range(games):
        state = new_game(RULES, seed=seed)
        rng = random.Random(seed)
        while not state.results:
            view = player_view(state, state.hand.turn)
            if (state.hand.phase is Phase.BID and not view.face_down
                    and normal_bid(view).bid.nil):
                found.append(view)
            state = apply(state, easy.choose(view, rng))
    return found


FIGURES = re.compile(r"nil is worth about ([+-]?\d+) points? on average, a bid of (\d+) "
                     r"about ([+-]?\d+)")


def test_a_hopeless_two_player_nil_is_not_suggested_and_the_reason_gives_the_points() -> None:
    views = _normal_nils(230)
    assert len(views) >= 3
    for view in views:
        suggestion = suggest_bid(view)
        text = " | ".join(suggestion.reasons)
        assert "a failed nil costs no points here, only its tricks as bags" in text, text
        found = FIGURES.search(text)
        assert found, text
        est = normal_bid(view).estimate
        nil = nil_points(RULES, est.nil_chance, est.tricks)
        number = int(found.group(2))
        assert int(found.group(1)) == round(nil)
        assert int(found.group(3)) == round(contract_value(est.tricks, RULES, number))
        # these nils are hopeless (a few % to make): the number is worth more, and bid
        assert nil < contract_value(est.tricks, RULES, number)
        assert not suggestion.bid.nil and suggestion.bid.tricks == number, text
        assert suggestion.bid in view.legal
        assert sum("%" in r for r in suggestion.reasons) == 1, text
        assert text.count("tricks in all") == 1, text


def test_a_likely_nil_is_worth_more_than_a_small_number() -> None:
    """The figure that keeps a good nil: 80 % to make it beats a bid of 1 on half a trick."""
    assert nil_points(RULES, 0.8, 0.5) > contract_value(0.5, RULES, 1) + 50
    assert nil_points(RULES, 0.02, 2.0) < contract_value(2.0, RULES, 2)
