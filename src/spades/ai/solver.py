"""Exact search of the last tricks of one deal with every hand visible (double dummy).

The value of a position is what the finished hand is worth to one side (the kernel's
``Evaluator``: the rules' points, bags and nil included, and the game score), with that side
choosing its cards to raise it and every other side choosing theirs to lower it (for more
than two sides this is the cautious "paranoid" reading). Alpha-beta with three savings from
bridge double-dummy solvers:

- equivalent cards: of cards of one suit in one hand with no other hand's card between them,
  only one is tried (they win and lose the same tricks);
- a transposition table at trick boundaries keyed on the holdings, the leader, spades broken
  and the tricks taken, holding bounds as well as exact values;
- move ordering: winners first for the side to maximise, ducks first for the others.

This search values whole hands in points (nil, bags, the game score), which Hard needs in the
last tricks; ``tricks.py`` is the fast double-dummy solver of trick counts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from spades.engine import ABOVE, SUIT_OF

from . import kernel as k
from .native import adopt

_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Search:
    __slots__ = ("book", "evaluate", "nodes", "side", "table")

    def __init__(self, book: k.Rulebook, evaluate: k.Evaluator, side: int) -> None:
        self.book = book
        self.evaluate = evaluate
        self.side = side
        self.table: dict[tuple[object, ...], tuple[int, float]] = {}
        self.nodes = 0

    def value(self, pos: k.Position, alpha: float, beta: float) -> float:
        self.nodes += 1
        if not pos.left:
            return self.evaluate(pos.tricks)
        key: tuple[object, ...] | None = None
        if not pos.trick:
            key = (*pos.hands, pos.leader, pos.broken, pos.first, *pos.tricks)
            hit = self.table.get(key)
            if hit is not None:
                flag, stored = hit
                if flag == _EXACT:
                    return stored
                if flag == _LOWER and stored >= beta:
                    return stored
                if flag == _UPPER and stored <= alpha:
                    return stored
        book = self.book
        maximise = book.side_of[pos.turn] == self.side
        start_alpha, start_beta = alpha, beta
        best = -math.inf if maximise else math.inf
        for card in self.moves(pos, maximise):
            child = pos.copy()
            k.play(book, child, card)
            v = self.value(child, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        if key is not None:
            if best <= start_alpha:
                self.table[key] = (_UPPER, best)
            elif best >= start_beta:
                self.table[key] = (_LOWER, best)
            else:
                self.table[key] = (_EXACT, best)
        return best

    def moves(self, pos: k.Position, maximise: bool) -> list[int]:
        legal = k.legal_mask(self.book, pos)
        seat = pos.turn
        others = 0
        for s, h in enumerate(pos.hands):
            if s != seat:
                others |= h
        for card in pos.trick:  # a card on the table separates too
            others |= 1 << card
        cards = distinct(legal, others)
        if len(cards) > 1 and pos.trick:
            beat = k.BEATERS[pos.win_card][SUIT_OF[pos.trick[0]]]
            wins = [c for c in cards if (1 << c) & beat]
            loses = [c for c in cards if not (1 << c) & beat]
            cards = wins + loses if maximise else loses + wins
        elif len(cards) > 1 and maximise:
            cards.reverse()
        return cards


def distinct(legal: int, others: int) -> list[int]:
    """One card of each run of ``legal`` cards of a suit with none of ``others`` between."""
    out: list[int] = []
    previous = -1
    mask = legal
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        mask ^= low
        if (previous >= 0 and SUIT_OF[previous] == SUIT_OF[card]
                and not others & ABOVE[previous] & ~ABOVE[card - 1]):
            previous = card
            continue
        out.append(card)
        previous = card
    return out


def solve(book: k.Rulebook, pos: k.Position, moves: Sequence[int], evaluate: k.Evaluator,
          side: int) -> list[float]:
    """The exact value to ``side`` of playing each of ``moves`` (cards of the seat to act)
    in ``pos``, every hand visible, the other sides playing against it."""
    return solve_counting(book, pos, moves, evaluate, side)[0]


def solve_counting(book: k.Rulebook, pos: k.Position, moves: Sequence[int],
                   evaluate: k.Evaluator, side: int) -> tuple[list[float], int]:
    """``solve``, and the number of positions it visited (for tests and benchmarks). The
    transposition table is shared between the moves."""
    search = _Search(book, evaluate, side)
    values: list[float] = []
    for card in moves:
        child = pos.copy()
        k.play(book, child, card)
        values.append(search.value(child, -math.inf, math.inf))
    return values, search.nodes


# the compiled twin's names, where it is built from this source (native.py)
adopt(globals())
