"""Hand evaluation and bids under every bidding rule."""

from __future__ import annotations

import random

import pytest

from spades.ai.bidding import easy_bid, evaluate, normal_bid
from spades.ai.easy import EasyPlayer
from spades.ai.normal import NormalPlayer
from spades.engine import (
    BLIND_NIL,
    NIL,
    Bid,
    Phase,
    PlayerView,
    Rules,
    apply,
    find_preset,
    make_rules,
    mask_of,
    new_game,
    parse_card,
    player_view,
)

PARTNERSHIP = find_preset("partnership")


def hand(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def _view_for(rules: Rules, cards: str, *, scores: tuple[int, ...] | None = None,
              bags: tuple[int, ...] | None = None) -> PlayerView:
    """Seat 0's bidding view (it bids first) holding ``cards``."""
    mine = [parse_card(c) for c in cards.split()]
    rest = [c for c in rules.deck if c not in set(mine)]
    n = rules.players
    deck = [mine[i // n] if i % n == 0 else rest.pop() for i in range(rules.hand_size * n)]
    state = new_game(rules, seed=0, decks=[deck + rest])
    if scores is not None:
        state = state._replace(scores=scores)
    if bags is not None:
        state = state._replace(bags=bags)
    return player_view(state, 0)


def test_strong_hands_count_more_than_weak_ones() -> None:
    strong = evaluate(hand("AS KS QS JS 5S AH KH AD KD 2C 3C 4C 5C"), PARTNERSHIP)
    middle = evaluate(hand("AS 5S 4S KH 7H 3H QD 5D 4D AC 8C 6C 2C"), PARTNERSHIP)
    weak = evaluate(hand("2S 3S 4H 5H 6H 2D 3D 7D 8D 2C 3C 4C 6C"), PARTNERSHIP)
    assert strong.tricks >= 8
    assert 2 <= middle.tricks <= 4.5
    assert weak.tricks <= 1
    assert weak.nil_chance > 0.6 > strong.nil_chance
    assert evaluate(hand("AS 2S 4H 5H 6H 2D 3D 7D 8D 2C 3C 4C 6C"),
                    PARTNERSHIP).nil_chance < weak.nil_chance / 2


def test_long_spades_and_voids_add_tricks() -> None:
    plain = evaluate(hand("AS 7S 5S 2H 3H 4H 2D 3D 4D 5D 2C 3C 4C"), PARTNERSHIP)
    longer = evaluate(hand("AS 7S 5S 3S 2S 4H 2D 3D 4D 5D 2C 3C 4C"), PARTNERSHIP)
    void = evaluate(hand("AS 7S 5S 2S 2D 3D 4D 5D 6D 2C 3C 4C 5C"), PARTNERSHIP)
    assert longer.tricks >= plain.tricks + 1.2
    assert void.tricks >= plain.tricks + 0.5


def _first_hand_bid_views(rules: Rules, games: int) -> list[PlayerView]:
    views: list[PlayerView] = []
    normal = NormalPlayer()
    for seed in range(games):
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.over and not state.results:
            view = player_view(state, state.hand.turn)
            if state.hand.phase is Phase.BID:
                views.append(view)
            state = apply(state, normal.choose(view, rng))
    return views


@pytest.mark.parametrize("rules", [
    PARTNERSHIP, make_rules("partnership", nil=False), make_rules("partnership", min_bid=3),
    make_rules("partnership", nil=False, min_bid=0), find_preset("suicide"),
    find_preset("cutthroat"), find_preset("two-player"), find_preset("five-player"),
    find_preset("three-player-kitty"), make_rules("house", blind_nil=True, blind_nil_deficit=None),
], ids=lambda r: f"{r.name}/nil={r.nil}/min={r.min_bid}/blind={r.blind_nil}")
def test_bids_are_legal_and_never_blind_by_default(rules: Rules) -> None:
    views = _first_hand_bid_views(rules, 8)
    assert views
    for view in views:
        bid = normal_bid(view).bid
        assert bid in view.legal and not bid.blind
        easy = easy_bid(view, random.Random(1))
        assert easy in view.legal and not easy.blind
        if not rules.nil:
            assert not bid.nil and not easy.nil
        if not bid.nil:
            assert bid.tricks >= rules.min_bid


def test_blind_nil_only_when_allowed_and_far_behind() -> None:
    rules = make_rules("house", blind_nil=True, blind_nil_deficit=100)
    cards = "AS KS QS JS 5S AH KH AD KD 2C 3C 4C 5C"
    behind = _view_for(rules, cards, scores=(100, 400))
    assert BLIND_NIL in behind.legal
    assert normal_bid(behind).bid != BLIND_NIL  # off by default
    assert NormalPlayer().choose(behind, random.Random(0)) != BLIND_NIL
    assert EasyPlayer().choose(behind, random.Random(0)) != BLIND_NIL
    assert NormalPlayer(blind_nil=True).choose(behind, random.Random(0)) == BLIND_NIL
    assert EasyPlayer(blind_nil=True).choose(behind, random.Random(0)) == BLIND_NIL
    level = _view_for(rules, cards, scores=(300, 300))
    assert BLIND_NIL not in level.legal
    assert NormalPlayer(blind_nil=True).choose(level, random.Random(0)) != BLIND_NIL


def test_nil_off_never_bids_nil_and_min_bid_holds() -> None:
    weak = "2S 3S 4H 5H 6H 2D 3D 7D 8D 2C 3C 4C 6C"
    assert normal_bid(_view_for(PARTNERSHIP, weak)).bid == NIL
    rules = make_rules("partnership", nil=False, min_bid=0)
    assert normal_bid(_view_for(rules, weak)).bid == Bid(0)
    rules = make_rules("partnership", nil=False, min_bid=3)
    assert normal_bid(_view_for(rules, weak)).bid == Bid(3)


def test_normal_never_bids_nil_holding_the_ace_of_spades() -> None:
    view = _view_for(PARTNERSHIP, "AS 3S 4H 5H 6H 2D 3D 7D 8D 2C 3C 4C 6C")
    assert not normal_bid(view).bid.nil


def test_bags_near_the_limit_bid_up_and_the_target_bids_safe() -> None:
    cards = "AS 5S 4S KH 7H 3H QD 5D 4D AC 8C 6C 2C"
    plain = normal_bid(_view_for(PARTNERSHIP, cards)).bid.tricks
    bagged = normal_bid(_view_for(PARTNERSHIP, cards, bags=(8, 0))).bid.tricks
    assert bagged >= plain
    near_loss = normal_bid(_view_for(make_rules("short"), cards, scores=(-180, 0))).bid.tricks
    assert near_loss <= plain
