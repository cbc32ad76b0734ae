"""The Easy and Normal players are fair: they decide from the seat's view and nothing else,
and they only ever choose a legal action.

Fairness is shown directly: for many positions of every preset, the other seats' hidden
cards (and the kitty, and the undrawn stock) are dealt again in a way that the seat cannot
tell apart (same counts, shown voids respected, known cards left in place). The two views are
equal, and the same seed gives the same decision.
"""

from __future__ import annotations

import random

import pytest

from spades.ai.base import Player
from spades.ai.easy import EasyPlayer
from spades.ai.normal import NormalPlayer
from spades.ai.simple import RandomPlayer
from spades.engine import (
    PRESETS,
    GameState,
    Phase,
    Rules,
    apply,
    make_rules,
    new_game,
    player_view,
)
from spades.engine.cards import CARDS, NON_SPADES_MASK, SUIT_MASKS, SUIT_OF

CONFIGS: dict[str, Rules] = dict(PRESETS)
CONFIGS["blind-nil-pass"] = make_rules("partnership", blind_nil=True, blind_nil_pass=2)
CONFIGS["nil-kitty"] = make_rules("three-player-kitty", nil=True)
CONFIGS["lowest-club"] = make_rules("cutthroat", first_lead="lowest-club")


def _forbidden(state: GameState) -> list[int]:
    """Cards each seat is publicly known not to hold: suits it failed to follow, and every
    side suit for a seat that led a spade before spades were broken."""
    rules = state.rules
    hand = state.hand
    n = rules.players
    out = [0] * n
    broken = False
    tricks = [(t.leader, t.cards) for t in hand.history]
    if hand.trick:
        tricks.append((hand.leader, hand.trick))
    for leader, cards in tricks:
        led = SUIT_OF[cards[0]]
        if cards[0] >= 39 and not broken:
            out[leader] |= NON_SPADES_MASK
        for i in range(1, len(cards)):
            seat = (leader + i) % n
            card = cards[i]
            if SUIT_OF[card] != led:
                out[seat] |= SUIT_MASKS[led]
            if not broken:
                if rules.spades_break == "void":
                    broken = SUIT_OF[card] != led
                elif card >= 39:
                    broken = rules.spades_break == "any-spade" or led != 3
        if cards[0] >= 39:
            broken = True
    return out


def _bits(mask: int) -> list[int]:
    return [c for c in range(54) if mask >> c & 1]


def redeal(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same position for ``seat`` with the hidden cards dealt differently."""
    rules = state.rules
    hand = state.hand
    n = rules.players
    if rules.draw:
        if hand.phase is not Phase.DRAW:
            return state  # the other hand is known from the face-up discards
        other = 1 - seat
        start = hand.stock + 1 if hand.turn == seat else hand.stock
        pool = _bits(hand.hands[other]) + list(hand.deck[start:])
        rng.shuffle(pool)
        kept = hand.hands[other].bit_count()
        hands = list(hand.hands)
        hands[other] = sum(1 << c for c in pool[:kept])
        deck = hand.deck[:start] + tuple(CARDS[c] for c in pool[kept:])
        return state._replace(hand=hand._replace(hands=tuple(hands), deck=deck))
    forbidden = [*_forbidden(state), 0]
    fixed = [0] * (n + 1)
    for giver, receiver, cards in hand.passes:
        if giver == seat:
            fixed[receiver] |= sum(1 << c for c in cards)
    view = player_view(state, seat)
    holders: list[int] = [s for s in range(n) if s != seat]
    held = [*hand.hands, 0]
    if rules.kitty and hand.kitty is not None:
        # the kitty card is hidden until it is taken (then the two of clubs is there)
        if view.kitty_taken is False or hand.phase is Phase.KITTY:
            holders.append(n)
            held[n] = 1 << hand.kitty
        if view.kitty_holder is not None and view.kitty_holder != seat and not view.kitty_taken:
            fixed[view.kitty_holder] |= 1  # the holder kept the two of clubs
    for _ in range(300):
        a, b = rng.sample(holders, 2) if len(holders) > 1 else (holders[0], holders[0])
        if a == b:
            break
        free_a = _bits(held[a] & ~fixed[a] & ~forbidden[b])
        free_b = _bits(held[b] & ~fixed[b] & ~forbidden[a])
        if not free_a or not free_b:
            continue
        x, y = rng.choice(free_a), rng.choice(free_b)
        held[a] ^= (1 << x) | (1 << y)
        held[b] ^= (1 << x) | (1 << y)
    kitty = hand.kitty
    if n in holders:
        kitty = CARDS[held[n].bit_length() - 1]
    return state._replace(hand=hand._replace(hands=tuple(held[:n]), kitty=kitty))


_SAMPLE = {Phase.DRAW: 0.08, Phase.PLAY: 0.15}


def _positions(name: str, rules: Rules, count: int, seed: int) -> list[GameState]:
    """Positions of one game, at random decision points of every phase."""
    rng = random.Random(f"{name}/{seed}")
    mix: list[Player] = [NormalPlayer(blind_nil=True), EasyPlayer(blind_nil=True),
                         RandomPlayer()]
    state = new_game(rules, seed=seed)
    out: list[GameState] = []
    steps = 0
    while not state.over and len(out) < count and steps < 5000:
        steps += 1
        view = player_view(state, state.hand.turn)
        if len(view.legal) > 1 and rng.random() < _SAMPLE.get(state.hand.phase, 0.6):
            out.append(state)
        player = mix[rng.randrange(3)]
        state = apply(state, player.choose(view, rng))
    return out


LEVELS: list[Player] = [NormalPlayer(), EasyPlayer(), NormalPlayer(blind_nil=True),
                        EasyPlayer(blind_nil=True)]


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_same_view_same_decision(name: str) -> None:
    rules = CONFIGS[name]
    changed = 0
    checked = 0
    for game in range(2):
        for state in _positions(name, rules, 20, game):
            seat = state.hand.turn
            other = redeal(state, seat, random.Random(checked))
            if other.hand.hands != state.hand.hands or other.hand.kitty != state.hand.kitty:
                changed += 1
            view = player_view(state, seat)
            assert player_view(other, seat) == view, "the redeal must not show in the view"
            other_view = player_view(other, seat)
            for player in LEVELS:
                for seed in (0, 1):
                    first = player.choose(view, random.Random(seed))
                    second = player.choose(other_view, random.Random(seed))
                    assert first == second, (name, player.name, str(first), str(second))
                    assert first in view.legal
            checked += 1
    assert checked >= 20
    assert changed >= checked // 3, f"only {changed} of {checked} positions were redealt"


def _play_out(rules: Rules, players: list[Player], seed: int, hands: int) -> GameState:
    """Play a game to its end, or to ``hands`` hands (suicide games can run long)."""
    state = new_game(rules, seed=seed)
    rngs = [random.Random(f"{seed}/{s}") for s in range(rules.players)]
    while not state.over and len(state.results) < hands:
        seat = state.hand.turn
        view = player_view(state, seat)
        action = players[seat].choose(view, rngs[seat])
        assert action in view.legal, (rules.name, players[seat].name, str(action))
        state = apply(state, action)
    return state


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_whole_games_only_legal_actions(name: str) -> None:
    rules = CONFIGS[name]
    n = rules.players
    tables: list[list[Player]] = [
        [NormalPlayer() if s % 2 == 0 else EasyPlayer() for s in range(n)],
        [EasyPlayer(blind_nil=True) if s % 2 == 0 else NormalPlayer(blind_nil=True)
         for s in range(n)],
    ]
    for index, players in enumerate(tables):
        state = _play_out(rules, players, seed=index, hands=40)
        assert state.over or len(state.results) == 40
