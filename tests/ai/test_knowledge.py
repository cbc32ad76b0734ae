"""Normal's reading of the table (``Knowledge``) follows the engine's rules for spades
breaking, so the voids it reads are the ones the play shows."""

from __future__ import annotations

import random

import pytest

from spades.ai.knowledge import Knowledge, voids_shown
from spades.ai.sampler import facts_of
from spades.engine import (
    FIRST_SPADE,
    PRESETS,
    SUIT_MASKS,
    Bid,
    GameState,
    Phase,
    Play,
    Rules,
    apply,
    legal_actions,
    make_rules,
    new_game,
    parse_card,
    player_view,
)

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)

# Dealer 0, so seat 1 leads. Seat 3 follows clubs, diamonds and hearts until it holds only
# spades, wins trick 7 with the ace of hearts and leads a spade (unbroken: legal, as it
# holds nothing else). Seat 0 wins that trick with the ace of spades, having followed every
# side suit too, and leads a spade while spades are still unbroken under "offsuit" (a spade
# led from a hand of only spades breaks nothing): so seat 0 holds only spades.
_HANDS = {
    0: "5C 6C 7C 5D 6D 7D 4H 9S TS JS QS KS AS",
    1: "AC KC QC JC AD KD QD JD 2H 5H 6H 7H 8H",
    2: "2C 3C 4C 2D 3D 4D 3H 2S 9H TH JH QH KH",
    3: "8C 9C TC 8D 9D TD AH 3S 4S 5S 6S 7S 8S",
}
_PLAYS = (
    "AC 2C 8C 5C  KC 3C 9C 6C  QC 4C TC 7C "  # seat 1 leads and wins three clubs
    "AD 2D 8D 5D  KD 3D 9D 6D  QD 4D TD 7D "  # and three diamonds
    "2H 3H AH 4H "  # seat 3 wins the hearts: it now holds only spades
    "3S AS JC 2S "  # seat 3 leads a spade; seat 0 wins it; spades are still not broken
    "9S"  # seat 0 leads a spade
)


def _deck(rules: Rules, hands: dict[int, str], dealer: int) -> list[int]:
    """The deck that deals ``hands`` (the first card goes to the dealer's left)."""
    n = rules.players
    cards = {s: [parse_card(c) for c in h.split()] for s, h in hands.items()}
    return [cards[(dealer + 1 + i % n) % n][i // n] for i in range(rules.hand_size * n)]


def _played(rules: Rules) -> GameState:
    state = new_game(rules, decks=[_deck(rules, _HANDS, 0)], first_dealer=0)
    while state.phase is Phase.BID:
        state = apply(state, Bid(3))
    for code in _PLAYS.split():
        state = apply(state, Play(parse_card(code)))  # the engine checks each play
    return state


def test_a_spade_lead_from_only_spades_does_not_break_spades_under_offsuit() -> None:
    rules = PRESETS["partnership"]
    assert rules.spades_break == "offsuit"
    state = _played(rules)
    assert not state.hand.broken  # the engine's reading
    for seat in (1, 2, 3):
        view = player_view(state, seat)
        assert not view.broken
        knowledge = Knowledge(view)
        for suit in (HEARTS, DIAMONDS, CLUBS):  # hearts are still out: only a read shows it
            assert knowledge.prob_void(0, suit) == 1.0, (seat, suit)
            assert knowledge.voids[0] >> suit & 1
        assert not knowledge.voids[0] >> SPADES & 1
        assert voids_shown(view)[0] == facts_of(view).voids[0]


@pytest.mark.parametrize("mode", ["any-spade", "void"])
def test_under_other_rules_the_first_spade_lead_breaks_spades(mode: str) -> None:
    """Under any-spade and void the spade led at trick 8 broke spades, so seat 0's spade
    lead says nothing about its other suits (and the engine agrees it was legal)."""
    rules = make_rules("partnership", spades_break=mode)
    state = _played(rules)
    assert state.hand.broken
    knowledge = Knowledge(player_view(state, 1))
    assert not knowledge.voids[0] & 0b0111


_EVERY = [(name, mode) for name in sorted(PRESETS) for mode in ("offsuit", "any-spade", "void")]


@pytest.mark.parametrize(("name", "mode"), _EVERY)
def test_voids_read_from_the_play_are_the_engines(name: str, mode: str) -> None:
    """Every preset under every spades_break rule, random hands: the voids a seat reads are
    true of the real deal, include every unbroken spade lead the engine allowed (by its own
    broken flag), and Normal's Knowledge and the deal sampler read the same voids."""
    rules = PRESETS[name].with_options(spades_break=mode)
    rng = random.Random(f"voids/{name}/{mode}")
    state = new_game(rules, seed=f"voids/{name}/{mode}")
    for _ in range(2):
        while state.phase is not Phase.PLAY and not state.over:
            state = apply(state, rng.choice(legal_actions(state)))
        if state.over:
            break
        number = state.hand.number
        led_unbroken = [False] * rules.players
        while True:
            hand = state.hand
            action = rng.choice(legal_actions(state))
            assert isinstance(action, Play)
            if not hand.trick and not hand.broken and action.card >= FIRST_SPADE:
                led_unbroken[hand.turn] = True
            after = apply(state, action)
            if after.over or after.hand.number != number:
                state = after
                break
            state = after
            for seat in range(rules.players):
                view = player_view(state, seat)
                shown = voids_shown(view)
                knowledge = Knowledge(view)
                for other in range(rules.players):
                    assert not shown[other] & state.hand.hands[other], "a void that is false"
                    if led_unbroken[other]:
                        assert knowledge.voids[other] & 0b0111 == 0b0111
                    for suit, mask in enumerate(SUIT_MASKS):
                        assert bool(knowledge.voids[other] >> suit & 1) == bool(shown[other] & mask)
                assert facts_of(view).voids[:rules.players] == shown
