"""The endgame solver gives the same values as a plain minimax over every card, with far
fewer positions, on random endgames of several variants."""

from __future__ import annotations

import math
import random

import pytest

from spades.ai import kernel as k
from spades.ai.solver import distinct, solve, solve_counting
from spades.engine import PRESETS, Rules, make_rules


def _minimax(book: k.Rulebook, pos: k.Position, evaluate: k.Evaluator, side: int) -> float:
    if pos.over:
        return evaluate(pos.tricks)
    values = []
    for card in k.cards_of(k.legal_mask(book, pos)):
        child = pos.copy()
        k.play(book, child, card)
        values.append(_minimax(book, child, evaluate, side))
    return max(values) if book.side_of[pos.turn] == side else min(values)


def _endgame(rules: Rules, rng: random.Random, tricks_left: int) -> k.Position:
    """A random position with ``tricks_left`` tricks to go, sometimes mid-trick."""
    book = k.rulebook_of(rules)
    n = rules.players
    bids = [rng.randint(1, 4) for _ in range(n)]
    nils = [k.NIL if rules.nil and rng.random() < 0.2 else k.PLAIN for _ in range(n)]
    pos = k.Position(hands=k.deal(book, rng), leader=rng.randrange(n), tricks=[0] * n,
                     bids=bids, nils=nils, players=n)
    plays = (rules.hand_size - tricks_left) * n + rng.randrange(n)
    for _ in range(plays):
        k.play(book, pos, k.random_card(k.legal_mask(book, pos), rng.random))
    return pos


@pytest.mark.parametrize("rules", [PRESETS["partnership"], PRESETS["cutthroat"],
                                   PRESETS["three-player"],
                                   make_rules("jokers", spades_break="void", bag_limit=3)],
                         ids=lambda r: r.name)
def test_solver_values_equal_plain_minimax(rules: Rules) -> None:
    book = k.rulebook_of(rules)
    rng = random.Random(rules.name)
    for _ in range(25):
        pos = _endgame(rules, rng, tricks_left=3)
        side = book.side_of[pos.turn]
        evaluate = k.Evaluator(book, side, bids=pos.bids, nils=pos.nils,
                               scores=[rng.randint(300, 480) for _ in book.sides],
                               bags=[rng.randint(0, 9) for _ in book.sides])
        moves = k.cards_of(k.legal_mask(book, pos))
        got = solve(book, pos, moves, evaluate, side)
        for card, value in zip(moves, got, strict=True):
            child = pos.copy()
            k.play(book, child, card)
            assert value == pytest.approx(_minimax(book, child, evaluate, side))


def test_pruning_visits_fewer_positions() -> None:
    rules = PRESETS["partnership"]
    book = k.rulebook_of(rules)
    rng = random.Random(4)
    searched = plain = 0
    for _ in range(6):
        pos = _endgame(rules, rng, tricks_left=3)
        side = book.side_of[pos.turn]
        evaluate = k.Evaluator(book, side, bids=pos.bids, nils=pos.nils, scores=[0, 0],
                               bags=[0, 0])
        moves = k.cards_of(k.legal_mask(book, pos))
        _, nodes = solve_counting(book, pos, moves, evaluate, side)
        searched += nodes
        plain += _count(book, pos)
    assert searched * 3 < plain


def _count(book: k.Rulebook, pos: k.Position) -> int:
    if pos.over:
        return 1
    total = 1
    for card in k.cards_of(k.legal_mask(book, pos)):
        child = pos.copy()
        k.play(book, child, card)
        total += _count(book, child)
    return total


def test_equivalent_cards_are_tried_once() -> None:
    # 9H and TH in one hand with no other hand holding a heart between them: one run
    nine, ten, queen = 26 + 7, 26 + 8, 26 + 10
    jack = 26 + 9
    assert distinct((1 << nine) | (1 << ten), 1 << queen) == [nine]
    assert distinct((1 << nine) | (1 << queen), 1 << ten) == [nine, queen]
    assert distinct((1 << nine) | (1 << queen), 1 << jack) == [nine, queen]
    assert math.isfinite(float(nine))
