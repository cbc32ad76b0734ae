"""The bid suggestion: always a legal bid, with reasons that name the cards behind it."""

from __future__ import annotations

import random

import pytest

from spades.ai.easy import EasyPlayer
from spades.ai.suggest import suggest_bid
from spades.engine import (
    NIL,
    Bid,
    GameState,
    Phase,
    PlayerView,
    Rules,
    apply,
    find_preset,
    make_rules,
    new_game,
    parse_card,
    player_view,
)

RULES: dict[str, Rules] = {
    "nil on": find_preset("partnership"),
    "nil off": make_rules("partnership", nil=False),
    "nil off, bids from 0": make_rules("partnership", nil=False, min_bid=0),
    "minimum bid 4": make_rules("partnership", min_bid=4),
    "suicide": find_preset("suicide"),
    "suicide, 5 or more": make_rules("suicide", suicide_min=5),
    "blind nil": make_rules("house", blind_nil=True, blind_nil_deficit=None),
    "cutthroat": find_preset("cutthroat"),
    "three-player": find_preset("three-player"),
    "kitty": find_preset("three-player-kitty"),
    "five-player": find_preset("five-player"),
    "two-player": find_preset("two-player"),
    "jokers": find_preset("jokers"),
}


def _bid_views(rules: Rules, games: int) -> list[PlayerView]:
    """Every bidding decision of the first hands of a few games (Easy players bid)."""
    views: list[PlayerView] = []
    easy = EasyPlayer()
    for seed in range(games):
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.over and len(state.results) < 2:
            view = player_view(state, state.hand.turn)
            if state.hand.phase is Phase.BID:
                views.append(view)
            state = apply(state, easy.choose(view, rng))
    return views


@pytest.mark.parametrize("name", sorted(RULES))
def test_suggestion_is_a_legal_bid(name: str) -> None:
    views = _bid_views(RULES[name], 6)
    assert len(views) >= 6
    for view in views:
        suggestion = suggest_bid(view)
        assert suggestion.bid in view.legal, (name, suggestion.bid, view.legal)
        assert not suggestion.bid.blind, "the suggestion never says blind nil"
        assert suggestion.reasons and all(isinstance(r, str) and r for r in suggestion.reasons)


def test_suicide_suggestions_follow_the_partner() -> None:
    rules = RULES["suicide"]
    seen_forced_nil = seen_forced_high = 0
    for view in _bid_views(rules, 12):
        partner = view.partner
        assert partner is not None
        other = view.bids[partner]
        bid = suggest_bid(view).bid
        if other is None:
            assert bid.nil or bid.tricks >= rules.suicide_min
        elif other.nil:
            assert bid.tricks >= rules.suicide_min and not bid.nil
            seen_forced_high += 1
        else:
            assert bid == NIL
            seen_forced_nil += 1
    assert seen_forced_nil and seen_forced_high


def _view_for(rules: Rules, cards: str, seat: int = 0) -> PlayerView:
    """The bidding view of ``seat`` (the first to bid) holding exactly ``cards``."""
    mine = [parse_card(c) for c in cards.split()]
    assert len(mine) == rules.hand_size
    rest = [c for c in rules.deck if c not in set(mine)]
    n = rules.players
    deck = []
    for i in range(rules.hand_size * n):
        deck.append(mine[i // n] if i % n == seat else rest.pop())
    deck += rest
    state: GameState = new_game(rules, seed=0, decks=[deck])
    assert state.hand.phase is Phase.BID and state.hand.turn == seat
    return player_view(state, seat)


def test_reasons_name_the_winners() -> None:
    view = _view_for(find_preset("partnership"),
                     "AH KH 4H 3H AD 3D 2D AS KS 7S 5S 3S 2S")
    suggestion = suggest_bid(view)
    text = " | ".join(suggestion.reasons)
    for words in ("ace of hearts", "king of hearts", "ace of diamonds", "ace of spades",
                  "king of spades", "void in clubs", "spades: ", "from length"):
        assert words in text, f"{words!r} missing from: {text}"
    assert suggestion.bid.tricks >= 6, text
    assert suggestion.bid in view.legal


def test_reasons_count_length_in_words() -> None:
    view = _view_for(find_preset("partnership"),
                     "AS 9S 7S 6S 5S 2C 3C 4C 5D 6D 7D 8H 9H")
    text = " | ".join(suggest_bid(view).reasons)
    assert "five spades: two extra tricks from length" in text, text
    assert "ace of spades: a sure winner" in text, text


def test_an_unguarded_spade_honour_is_said_so() -> None:
    view = _view_for(find_preset("partnership"),
                     "QS 2C 3C 4C 5C AD 6D 7D 8D 8H 9H TH JH")
    text = " | ".join(suggest_bid(view).reasons)
    assert "queen of spades unguarded" in text, text
    assert "ace of diamonds" in text, text


def test_a_hand_of_low_cards_suggests_nil_with_its_reason() -> None:
    view = _view_for(find_preset("partnership"),
                     "2C 3C 4C 6C 2D 3D 5D 7D 2H 3H 4H 6H 2S")
    suggestion = suggest_bid(view)
    assert suggestion.bid == NIL, suggestion
    assert suggestion.reasons[0].startswith("nil")


def test_with_nil_off_a_weak_hand_gets_the_lowest_bid() -> None:
    rules = make_rules("partnership", nil=False, min_bid=2)
    view = _view_for(rules, "2C 3C 4C 6C 2D 3D 5D 7D 2H 3H 4H 6H 2S")
    suggestion = suggest_bid(view)
    assert suggestion.bid == Bid(2)
    assert suggestion.bid in view.legal


def _nil_suggestions() -> list[tuple[PlayerView, list[str]]]:
    found = []
    for name in ("nil on", "blind nil", "two-player", "cutthroat", "suicide"):
        for view in _bid_views(RULES[name], 20):
            suggestion = suggest_bid(view)
            if suggestion.bid.nil:
                found.append((view, suggestion.reasons))
    return found


def test_a_nil_suggestion_gives_one_figure_and_only_reasons_that_fit_a_nil() -> None:
    from spades.ai.bidding import normal_bid

    found = _nil_suggestions()
    assert len(found) >= 5
    for view, reasons in found:
        text = " | ".join(reasons)
        assert sum("%" in r for r in reasons) == 1, text  # one figure, said once
        assert len(set(reasons)) == len(reasons), text
        tricky = {item.reason for item in normal_bid(view, blind_nil=False).estimate.items}
        assert not tricky & set(reasons), text  # no "an extra trick from length" under a nil
        assert not any("tricks in all" in r for r in reasons), text


def test_long_low_spades_under_a_nil_are_not_called_an_extra_trick() -> None:
    view = _view_for(find_preset("partnership"),
                     "2S 3S 4S 5S 2C 3C 4C 2D 3D 4D 2H 3H 4H")
    suggestion = suggest_bid(view)
    text = " | ".join(suggestion.reasons)
    assert suggestion.bid.nil, text
    assert "extra trick" not in text, text
    assert text.count("%") == 1, text
