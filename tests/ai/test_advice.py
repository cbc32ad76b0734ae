"""The card hint: Hard's own card for the view and seed, always legal in every variant, and a
reason that names the situation of seeded positions (the facts checked in the view too)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.ai.advice import CardHint, as_good, hint_card
from spades.ai.easy import EasyPlayer
from spades.ai.hard import HardPlayer, PlayWeights
from spades.ai.knowledge import live_nil, side_infos
from spades.engine import (
    PRESETS,
    SUIT_OF,
    Phase,
    Play,
    PlayerView,
    Suit,
    apply,
    find_preset,
    new_game,
    parse_card,
    player_view,
    trick_winner,
)

FAST = 40


def view_at(preset: str, seed: int, step: int) -> PlayerView:
    """The view of the seat to act after ``step`` actions of Easy players from ``seed``."""
    state = new_game(find_preset(preset), seed=seed)
    rng = random.Random(seed)
    easy = EasyPlayer()
    for _ in range(step):
        state = apply(state, easy.choose(player_view(state, state.hand.turn), rng))
    return player_view(state, state.hand.turn)


def hint_at(preset: str, seed: int, step: int) -> tuple[PlayerView, CardHint]:
    view = view_at(preset, seed, step)
    assert view.phase is Phase.PLAY and len(view.legal) > 1
    return view, hint_card(view, random.Random(step), HardPlayer(iterations=FAST))


def _winner(view: PlayerView) -> int:
    return trick_winner([c for _, c in view.trick], view.leader, view.rules.players)


def test_partner_winning() -> None:
    view, hint = hint_at("partnership", 0, 11)
    assert view.trick and _winner(view) == view.partner
    assert hint.sentence.startswith("Your partner's three of spades is winning")
    cards = [c for _, c in view.trick]
    assert trick_winner([*cards, hint.card], view.leader, 4) == view.partner


def test_ruffing() -> None:
    view, hint = hint_at("partnership", 0, 34)
    led = view.trick[0][1]
    assert SUIT_OF[led] is not Suit.SPADES and SUIT_OF[hint.card] is Suit.SPADES
    assert hint.sentence.startswith("Ruff with the ace of spades")
    assert "the other side still needs 2 tricks" in hint.sentence


def test_ducking_for_bags() -> None:
    view, hint = hint_at("partnership", 0, 41)
    mine = side_infos(view)[view.my_side]
    assert mine.contract and mine.need == 0  # the side has its bid
    cards = [c for _, c in view.trick]
    assert trick_winner([*cards, hint.card], view.leader, 4) not in (view.seat, view.partner)
    assert hint.sentence.startswith("Duck with the three of hearts: your side has its bid; "
                                    "this one would be a bag")


def test_leading_a_winner() -> None:
    view, hint = hint_at("partnership", 1, 24)
    assert not view.trick
    assert hint.card == parse_card("JC")
    for higher in ("AC", "KC", "QC"):
        assert view.played >> parse_card(higher) & 1
    assert hint.sentence.startswith("Lead the jack of clubs: the ace, king and queen are gone")


def test_covering_a_partners_nil() -> None:
    view, hint = hint_at("partnership", 2, 20)
    assert view.partner is not None and live_nil(view, view.partner)
    assert hint.sentence == "Cover your partner's nil: lead the king of diamonds, the ace is gone."


def test_the_hint_is_hards_own_card() -> None:
    """The same card as ``HardPlayer.choose`` for the same view and seed, wherever we look."""
    seen = 0
    for step in range(8, 60, 3):
        view = view_at("partnership", 5, step)
        if view.phase is not Phase.PLAY:
            continue
        for seed in (1, 2):
            hint = hint_card(view, random.Random(seed), HardPlayer(iterations=FAST))
            chosen = HardPlayer(iterations=FAST).choose(view, random.Random(seed))
            assert Play(hint.card) == chosen
            seen += 1
    assert seen >= 10


def test_cards_as_good_are_named() -> None:
    view = view_at("partnership", 0, 41)  # the hand: 3H 5H QS AS, the 4H played
    card, five, queen, ace = (parse_card(c) for c in ("3H", "5H", "QS", "AS"))
    assert view.played >> parse_card("4H") & 1
    # the five plays alike with the three (no heart still out between them)
    weights = PlayWeights(Play(card), {card: 1.0, queen: 0.5})
    assert as_good(view, card, weights) == (five,)
    # the ace's value came out the same: it is as good; the queen's did not
    weights = PlayWeights(Play(card), {card: 1.0, queen: 0.5, ace: 1.0})
    assert as_good(view, card, weights) == (five, ace)
    # no search was made: nothing is said to be as good
    assert as_good(view, card, PlayWeights(Play(card), {})) == ()
    hint = CardHint(card=card, reason="Duck.", equals=(five, ace))
    assert hint.sentence == "Duck (the five of hearts or the ace of spades are as good)."


def test_not_a_turn_to_play() -> None:
    view = view_at("partnership", 0, 0)  # the first bid
    with pytest.raises(ValueError, match="turn to play"):
        hint_card(view, random.Random(1), HardPlayer(iterations=FAST))


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 80))
def test_the_hint_is_legal_in_every_variant(preset: str, seed: int, steps: int) -> None:
    state = new_game(PRESETS[preset], seed=seed)
    rng = random.Random(seed)
    easy = EasyPlayer()
    for _ in range(steps):
        if state.over:
            break
        view = player_view(state, state.hand.turn)
        if view.phase is Phase.PLAY:
            hint = hint_card(view, random.Random(seed), HardPlayer(iterations=8))
            assert Play(hint.card) in view.legal
            assert hint.sentence.endswith(".") and len(hint.sentence) > 10
            assert all(Play(c) in view.legal for c in hint.equals)
            assert hint.card not in hint.equals
        state = apply(state, easy.choose(view, rng))


def test_a_nil_bidder_leading_a_winner_is_not_told_it_keeps_the_nil() -> None:
    from dataclasses import replace

    from spades.ai.reasons import _own_nil, situation

    view = view_at("partnership", 2, 20)
    s = replace(situation(view, parse_card("KD")), my_nil=True)
    assert s.leading and s.master  # the ace of diamonds is gone: nobody beats the king
    assert _own_nil(s) is None
    low = replace(s, master=False)
    assert _own_nil(low) == ("Keep your nil: lead the king of diamonds, a card another hand "
                             "can beat.")


def test_a_seat_alone_is_you_not_your_side() -> None:
    """Cutthroat: every seat is a side of its own, and there are more than two."""
    sentences = []
    for step in range(4, 40):
        view = view_at("cutthroat", 3, step)
        if view.phase is Phase.PLAY and len(view.legal) > 1:
            sentences.append(hint_card(view, random.Random(step),
                                       HardPlayer(iterations=8)).sentence)
    assert len(sentences) >= 10
    assert not [s for s in sentences if "your side" in s or "the other side" in s]
    assert any("you still need" in s or "you have your bid" in s for s in sentences)
