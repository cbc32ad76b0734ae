"""The laws of play (``spades.engine.laws``) against the rulebooks, read independently here
or in ``engine_testkit``: legal plays, spades breaking under each ``spades_break`` rule, the
trick winner, the first lead, legal bids and the end of the game."""

from __future__ import annotations

import random
from itertools import product

import pytest
from engine_testkit import cards, rulebook_game_end, rulebook_trick_winner, suit_of
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.engine import (
    ABOVE,
    BLIND_NIL,
    CLUBS_MASK,
    FIRST_SPADE,
    NIL,
    NON_SPADES_MASK,
    PRESETS,
    SPADES_MASK,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_OF,
    TWO_OF_CLUBS,
    Bid,
    Phase,
    Play,
    Rules,
    apply,
    beaters,
    beats,
    boston_side,
    breaks_spades,
    deck_mask,
    first_lead,
    first_leader,
    game_over,
    legal_actions,
    legal_bids,
    legal_plays,
    make_rules,
    mask_of,
    new_game,
    preset_overrides,
    trick_winner,
)

MODES = ("offsuit", "any-spade", "void")
EVERY_CARD = range(54)
FULL = (1 << 54) - 1


def test_card_masks() -> None:
    for card in EVERY_CARD:
        assert SUIT_OF[card] == suit_of(card)
        assert SUIT_MASK_OF[card] >> card & 1
        assert SUIT_MASK_OF[card] == SUIT_MASKS[suit_of(card)]
        assert ABOVE[card] == mask_of(c for c in EVERY_CARD if c > card)
        assert (card >= FIRST_SPADE) == (suit_of(card) == 3)
    assert mask_of(c for c in EVERY_CARD if suit_of(c) == 3) == SPADES_MASK
    assert NON_SPADES_MASK == FULL & ~SPADES_MASK
    assert mask_of(cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")) == CLUBS_MASK
    assert cards("2C")[0] == TWO_OF_CLUBS
    for rules in PRESETS.values():
        assert deck_mask(rules) == mask_of(rules.deck)


# ---------------------------------------------------------------------------- trick winner

def test_trick_winner_every_two_card_trick() -> None:
    for led, other in product(EVERY_CARD, EVERY_CARD):
        if led != other:
            for leader in (0, 1):
                assert trick_winner([led, other], leader, 2) == rulebook_trick_winner(
                    [led, other], leader, 2)


def test_beats_and_beaters_agree_with_the_rulebook_for_every_card() -> None:
    """Every card that can be winning a trick (the card led, or a spade on it) against every
    other card."""
    for led, top, card in product(EVERY_CARD, EVERY_CARD, EVERY_CARD):
        if len({led, top, card}) < 3 and not (led == top != card):
            continue
        if suit_of(top) not in (suit_of(led), 3):
            continue  # a card off the suit led never wins the trick
        if led != top and rulebook_trick_winner([led, top], 0, 2) != 1:
            continue
        want = rulebook_trick_winner([led, top, card], 0, 3) == 2
        assert beats(card, top, SUIT_OF[led]) == want, (led, top, card)
        assert bool(beaters(top, SUIT_OF[led]) >> card & 1) == want


@given(st.permutations(list(EVERY_CARD)), st.integers(2, 5), st.integers(0, 4))
def test_trick_winner_random_tricks(deck: list[int], players: int, leader: int) -> None:
    trick = deck[:players]
    leader %= players
    assert trick_winner(trick, leader, players) == rulebook_trick_winner(trick, leader, players)


# ---------------------------------------------------------------------------- legal plays

def _reference_plays(held: int, led: int | None, broken: bool, opening: int) -> int:
    """001: follow suit if you can; lead anything but a spade until spades are broken,
    unless you hold only spades; lowest-club games open with the lowest club."""
    mine = [c for c in EVERY_CARD if held >> c & 1]
    if led is not None:
        follow = [c for c in mine if suit_of(c) == suit_of(led)]
        return mask_of(follow or mine)
    if opening and held & opening:
        return opening
    plain = [c for c in mine if suit_of(c) != 3]
    return mask_of(mine if broken or not plain else plain)


@settings(max_examples=400)
@given(st.integers(1, FULL), st.one_of(st.none(), st.integers(0, 53)), st.booleans(),
       st.sampled_from([0, *(1 << c for c in range(13))]))
def test_legal_plays(held: int, led: int | None, broken: bool, opening: int) -> None:
    if led is not None:
        held &= ~(1 << led)  # the card led is on the table, not in this hand
        opening = 0
    if not held:
        return
    assert legal_plays(held, led, broken, opening) == _reference_plays(held, led, broken,
                                                                        opening)


def test_legal_plays_examples() -> None:
    hand = mask_of(cards("2C 5H AS"))
    assert legal_plays(hand, cards("KH")[0], False) == mask_of(cards("5H"))
    assert legal_plays(hand, cards("KD")[0], False) == hand  # void: anything
    assert legal_plays(hand, None, False) == mask_of(cards("2C 5H"))
    assert legal_plays(hand, None, True) == hand
    assert legal_plays(mask_of(cards("2S AS")), None, False) == mask_of(cards("2S AS"))
    assert legal_plays(hand, None, False, mask_of(cards("2C"))) == mask_of(cards("2C"))
    assert legal_plays(hand, None, True, mask_of(cards("3C"))) == hand  # not mine to lead


# ---------------------------------------------------------------------------- spades broken

def _reference_breaks(mode: str, led: int | None, card: int) -> bool:
    """The rules' text (OPTION_HELP): offsuit, after a spade is played on another suit's
    lead; any-spade, after any spade is played; void, after a player cannot follow suit. A
    spade led unbroken (from a hand of only spades) breaks them too, except under offsuit."""
    spade = suit_of(card) == 3
    if led is None:
        return spade and mode != "offsuit"
    if mode == "offsuit":
        return spade and suit_of(led) != 3
    if mode == "any-spade":
        return spade
    return suit_of(card) != suit_of(led)


def test_breaks_spades_every_mode_every_card() -> None:
    for mode, card in product(MODES, EVERY_CARD):
        assert breaks_spades(mode, None, card) == _reference_breaks(mode, None, card)
        for led in EVERY_CARD:
            if led != card:
                assert breaks_spades(mode, led, card) == _reference_breaks(mode, led, card), (
                    mode, led, card)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_engine_breaks_spades_by_the_law(name: str, mode: str) -> None:
    """Every preset under every spades_break rule: the engine's broken flag after each card is
    the law applied to the cards played, and no spade is ever led unbroken from a hand that
    holds another suit."""
    rules = PRESETS[name].with_options(spades_break=mode)
    rng = random.Random(f"{name}/{mode}")
    state = new_game(rules, seed=f"{name}/{mode}")
    for _ in range(3):
        while state.phase is not Phase.PLAY and not state.over:
            state = apply(state, rng.choice(legal_actions(state)))
        if state.over:
            break
        number = state.hand.number
        broken = False
        while not state.over and state.hand.number == number:
            hand = state.hand
            action = rng.choice(legal_actions(state))
            assert isinstance(action, Play)
            led = hand.trick[0] if hand.trick else None
            if led is None and action.card >= FIRST_SPADE and not broken:
                assert not hand.hands[hand.turn] & NON_SPADES_MASK
            broken = broken or _reference_breaks(mode, led, action.card)
            state = apply(state, action)
            if state.hand.number == number:
                assert state.hand.broken == broken


# ---------------------------------------------------------------------------- first lead

@pytest.mark.parametrize("name", sorted(PRESETS))
def test_first_lead_is_the_lowest_club_dealt(name: str) -> None:
    for first in ("left-of-dealer", "lowest-club"):
        rules = PRESETS[name].with_options(first_lead=first)
        rng = random.Random(name + first)
        for _ in range(40):
            deck = list(rules.deck)
            rng.shuffle(deck)
            n = rules.players
            size = rules.hand_size
            hands = [mask_of(deck[s * size:(s + 1) * size]) for s in range(n)]
            dealer = rng.randrange(n)
            clubs = [c for c in deck[:n * size] if suit_of(c) == 0]
            if first == "lowest-club" and clubs:
                low = min(clubs)
                assert first_lead(rules, hands) == 1 << low
                assert first_leader(rules, dealer, hands) == next(
                    s for s in range(n) if hands[s] >> low & 1)
            else:
                assert first_lead(rules, hands) == 0
                assert first_leader(rules, dealer, hands) == (dealer + 1) % n


# ---------------------------------------------------------------------------- bids

def _reference_bids(rules: Rules, partner: Bid | None, blind: bool) -> list[Bid]:
    """001/004: nil (when played), min_bid up to a whole hand, blind nil when it is open;
    suicide: one partner bids nil, the other suicide_min or more, the first to bid chooses."""
    plain = [Bid(n) for n in range(rules.min_bid, rules.hand_size + 1)]
    blind_bid = [BLIND_NIL] if blind else []
    if rules.suicide:
        high = [b for b in plain if b.tricks >= rules.suicide_min]
        if partner is None:
            return [NIL, *high, *blind_bid]
        return high if partner.nil else [NIL, *blind_bid]
    return [NIL, *plain, *blind_bid] if rules.nil else plain


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_legal_bids(name: str) -> None:
    for rules in (PRESETS[name], PRESETS[name].with_options(min_bid=2)):
        partners: list[Bid | None] = [None, NIL, Bid(3)] if rules.suicide else [None]
        for partner, blind in product(partners, (False, True)):
            want = _reference_bids(rules, partner, blind and rules.blind_nil)
            assert list(legal_bids(rules, partner, blind_nil=blind and rules.blind_nil)) == want


# ---------------------------------------------------------------------------- game end

@pytest.mark.parametrize("rules", [*PRESETS.values(),
                                   make_rules("partnership", boston=True, losing_score=-300)],
                         ids=lambda r: r.name + str(len(preset_overrides(r))))
def test_game_over(rules: Rules) -> None:
    rng = random.Random(rules.name)
    n = rules.players
    sides = len(rules.sides)
    for _ in range(2000):
        scores = [rng.choice([rng.randint(-400, 700), rules.target_score,
                              rules.losing_score or 0]) for _ in range(sides)]
        if rng.random() < 0.2:
            scores[-1] = scores[0]  # a tie
        if rng.random() < 0.1:  # one side takes every trick
            tricks = [0] * n
            tricks[rules.sides[rng.randrange(sides)][0]] = rules.hand_size
        else:
            cuts = sorted(rng.randint(0, rules.hand_size) for _ in range(n - 1))
            bounds = [0, *cuts, rules.hand_size]
            tricks = [bounds[i + 1] - bounds[i] for i in range(n)]
        assert game_over(rules, scores, boston_side(rules, tricks)) == rulebook_game_end(
            rules, scores, tricks)
