"""Each for themselves, Hard with ``standing=True`` weighs a hand by its effect on its chance
of winning the game (issue 40 item 3, ``spades.ai.standing``): the margin to each opponent
counts by that opponent's threat to win. Partnership (two sides) keeps the zero-sum
valuation exactly. (Off by default: docs/ai-tuning.md#hard-standing.)"""

from __future__ import annotations

import random
from typing import Any

import pytest

from spades.ai import hard as hard_module
from spades.ai import kernel as k
from spades.ai.hard import HardPlayer
from spades.ai.standing import scale, threat_weights, win_chances
from spades.engine import (
    PRESETS,
    Bid,
    GameState,
    Phase,
    Play,
    apply,
    legal_actions,
    new_game,
    parse_card,
    player_view,
)

CUTTHROAT = PRESETS["cutthroat"]


# ---------------------------------------------------------------------------- the weights

def test_level_scores_weigh_every_opponent_alike() -> None:
    assert threat_weights(CUTTHROAT, 0, (0, 0, 0, 0)) is None
    assert threat_weights(CUTTHROAT, 2, (120, 120, 40, 120)) is None
    assert win_chances(CUTTHROAT, (0, 0, 0, 0)) == pytest.approx((0.25,) * 4)


@pytest.mark.parametrize("preset", ["partnership", "two-player", "suicide", "jokers"])
def test_two_sides_keep_the_zero_sum_valuation(preset: str) -> None:
    rules = PRESETS[preset]
    for scores in ((0, 0), (450, 100), (-150, 300)):
        assert threat_weights(rules, 0, scores) is None


def test_the_leader_weighs_most_and_more_so_near_the_target() -> None:
    early = threat_weights(CUTTHROAT, 0, (0, 60, 0, 0))
    late = threat_weights(CUTTHROAT, 0, (400, 460, 400, 400))
    assert early is not None and late is not None
    assert early[0] == late[0] == 0.0
    assert sum(early) == pytest.approx(1.0) and sum(late) == pytest.approx(1.0)
    assert early[1] > early[2] == pytest.approx(early[3])
    assert late[1] > early[1]  # 60 points matter more with fewer hands left
    assert scale(CUTTHROAT, (400, 460, 400, 400)) < scale(CUTTHROAT, (0, 60, 0, 0))


def test_the_evaluator_weighs_each_opponents_points() -> None:
    book = k.rulebook_of(CUTTHROAT)
    bids = [2, 4, 3, 3]
    plain = [k.PLAIN] * 4
    tricks = [4, 3, 3, 3]  # seat 0 takes two bags, seat 1 is set
    even = k.Evaluator(book, 0, bids=bids, nils=plain, scores=[0] * 4, bags=[0] * 4)
    alike = k.Evaluator(book, 0, bids=bids, nils=plain, scores=[0] * 4, bags=[0] * 4,
                        weights=(0.0, 1 / 3, 1 / 3, 1 / 3))
    leader = k.Evaluator(book, 0, bids=bids, nils=plain, scores=[0] * 4, bags=[0] * 4,
                         weights=(0.0, 0.5, 0.25, 0.25))
    # 22 points less two bags' share (10 each) of the 100 at ten bags; 0, 30, 30
    assert even(tricks) == pytest.approx(2 - 60 / 3)
    assert alike(tricks) == pytest.approx(even(tricks))
    assert leader(tricks) == pytest.approx(2 - 0.5 * 0 - 0.25 * 30 - 0.25 * 30)


# ---------------------------------------------------------------------------- scenarios

def _last_two_tricks(hands: list[str], trick: list[str], leader: int, bids: list[int],
                     tricks: list[int], scores: tuple[int, ...]) -> GameState:
    """A hand-built cutthroat position with two tricks left; every card not in a hand or
    on the table has been played."""
    state = new_game(CUTTHROAT, seed=0)
    masks = tuple(sum(1 << parse_card(c) for c in h.split()) for h in hands)
    held = 0
    for mask in masks:
        held |= mask
    on_table = tuple(parse_card(c) for c in trick)
    played = sum(1 << c for c in CUTTHROAT.deck) & ~held
    hand = state.hand._replace(
        phase=Phase.PLAY, hands=masks, played=played, trick=on_table, leader=leader,
        turn=(leader + len(on_table)) % 4, bids=tuple(Bid(b) for b in bids),
        tricks=tuple(tricks), broken=True, history=())
    return state._replace(hand=hand, scores=scores, bags=(0, 0, 0, 0))


def _card(state: GameState, player: HardPlayer, seed: int) -> str:
    action = player.choose(player_view(state, 0), random.Random(seed))
    assert isinstance(action, Play)
    return str(action.card)


def _setting_the_leader() -> GameState:
    # seat 1 leads the game with 400 and needs one more trick for its four: its king of
    # hearts wins unless seat 0 (made its two) overtakes with the ace, and then the four
    # of hearts takes the last trick too (the others hold clubs): two bags (18 points)
    # against a set of forty points
    return _last_two_tricks(["AH 4H", "2C", "3C", "4C"], ["KH", "2H", "3H"], leader=1,
                            bids=[2, 4, 3, 3], tricks=[2, 3, 3, 3],
                            scores=(250, 400, 150, 150))


def _helping_the_last() -> GameState:
    # seat 2, last with 50, needs one more trick for its seven: ducking lets its queen of
    # hearts make it (seventy points to the player least likely to win); the ace sets it
    # for two bags, with the leader (400) untouched
    return _last_two_tricks(["AH 4H", "2C", "3C", "4C"], ["2H", "QH", "3H"], leader=1,
                            bids=[2, 2, 7, 1], tricks=[2, 2, 6, 1],
                            scores=(250, 400, 50, 150))


@pytest.mark.parametrize("seed", range(2))
def test_setting_the_games_leader_is_worth_two_bags(seed: int) -> None:
    state = _setting_the_leader()
    assert _card(state, HardPlayer(standing=True), seed) == "AH"
    # the opponents' average counts the leader's forty as a third: not worth two bags
    assert _card(state, HardPlayer(standing=False), seed) == "4H"


@pytest.mark.parametrize("seed", range(2))
def test_a_trick_that_only_helps_the_last_player_is_worth_giving(seed: int) -> None:
    state = _helping_the_last()
    assert _card(state, HardPlayer(standing=True), seed) == "4H"
    assert _card(state, HardPlayer(standing=False), seed) == "AH"


# ---------------------------------------------------------------------------- bids

def test_bid_playouts_and_card_search_are_weighed_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bid playouts and the card search both get the standing's weights."""
    seen: list[tuple[float, ...]] = []
    real = k.Evaluator

    def recording(*args: Any, **kwargs: Any) -> k.Evaluator:
        seen.append(tuple(kwargs.get("weights") or ()))
        return real(*args, **kwargs)

    monkeypatch.setattr(hard_module.k, "Evaluator", recording)
    scores = (100, 300, 50, 200)
    expected = threat_weights(CUTTHROAT, 0, scores)
    assert expected is not None
    state = new_game(CUTTHROAT, seed=3, first_dealer=3)._replace(scores=scores)
    player = HardPlayer(iterations=30, standing=True)
    assert state.hand.turn == 0
    bid = player.choose(player_view(state, 0), random.Random(0))  # seat 0 bids first
    assert seen and set(seen) == {expected}
    seen.clear()
    state = apply(state, bid)
    for _ in range(3):
        state = apply(state, Bid(3))
    lead = player.choose(player_view(state, 0), random.Random(0))
    assert lead in legal_actions(state)
    assert seen and set(seen) == {expected}


# ---------------------------------------------------------------------------- partnership

@pytest.mark.parametrize("preset", ["partnership", "two-player"])
def test_partnership_decisions_are_unchanged(preset: str) -> None:
    """Two sides: Hard's every decision through a hand at uneven scores is the one it
    makes without the standing (the zero-sum valuation of before issue 40)."""
    rules = PRESETS[preset]
    state = new_game(rules, seed=11)._replace(scores=(380, 120))
    rng = random.Random(5)
    decisions = 0
    while decisions < 40:
        seat = state.hand.turn
        view = player_view(state, seat)
        seed = rng.getrandbits(32)
        action = HardPlayer(iterations=60, standing=True).choose(view, random.Random(seed))
        assert action == HardPlayer(iterations=60, standing=False).choose(
            view, random.Random(seed))
        state = apply(state, action)
        decisions += 1
