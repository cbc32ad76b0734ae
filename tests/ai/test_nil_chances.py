"""``bench/experiments/nil_chances.py``'s question, whether a nil can be forced to take a
trick with every hand visible, checked against brute force on small endings."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType

import pytest

from spades.ai import kernel as k
from spades.engine import PRESETS, parse_card


@pytest.fixture(scope="module")
def chances(bench_tool: Callable[[str], ModuleType]) -> ModuleType:
    return bench_tool("nil_chances")


def _brute(book: k.Rulebook, pos: k.Position, seat: int) -> bool:
    """Every legal card tried, no memo, no card equivalence."""
    if pos.tricks[seat]:
        return True
    if not pos.left:
        return False
    attacking = book.side_of[pos.turn] != book.side_of[seat]
    answers = []
    for card in k.cards_of(k.legal_mask(book, pos)):
        child = pos.copy()
        k.play(book, child, card)
        answers.append(_brute(book, child, seat))
    return any(answers) if attacking else all(answers)


def _endings(count: int, left: int) -> list[k.Position]:
    """Positions with ``left`` tricks to go, seat 2 a nil bidder yet to take a trick, some
    with a trick half played."""
    book = k.rulebook_of(PRESETS["partnership"])
    rng = random.Random("nil-endings")
    out: list[k.Position] = []
    while len(out) < count:
        pos = k.Position(hands=k.deal(book, rng), leader=rng.randrange(4), tricks=[0] * 4,
                         bids=[3, 3, 0, 3], nils=[k.PLAIN, k.PLAIN, k.NIL, k.PLAIN],
                         players=4)
        stop = rng.randrange(4)  # cards of the last trick played into the ending
        while pos.left > left or (pos.left == left and len(pos.trick) < stop):
            k.play(book, pos, k.random_card(k.legal_mask(book, pos), rng.random))
        if not pos.tricks[2]:
            out.append(pos)
    return out


def test_a_nil_forced_double_dummy_is_found_as_brute_force_finds_it(
        chances: ModuleType) -> None:
    book = k.rulebook_of(PRESETS["partnership"])
    answers = []
    for pos in _endings(150, 4):
        answer = chances.forced(book, pos.copy(), 2, 100_000)
        assert answer == _brute(book, pos.copy(), 2)
        answers.append(answer)
    assert 20 < sum(answers) < 130  # both answers are common: the check can fail either way


def test_the_search_says_when_it_does_not_know(chances: ModuleType) -> None:
    book = k.rulebook_of(PRESETS["partnership"])
    pos = _endings(1, 13)[0]
    assert chances.forced(book, pos, 2, 5) is None


def test_a_bare_ace_led_through_is_forced(chances: ModuleType) -> None:
    """Seat 2 bid nil with the ace of hearts alone in the suit and seat 1 leads: a heart
    forces it. With the 3 instead, every card it holds can duck."""
    book = k.rulebook_of(PRESETS["partnership"])

    def mask(text: str) -> int:
        return sum(1 << parse_card(c) for c in text.split())

    for nil, answer in (("AH 2C", True), ("3H 2C", False)):
        hands = [mask("KH 3C"), mask("2H 4C"), mask(nil), mask("5H 5C")]
        played = book.deck_mask & ~(hands[0] | hands[1] | hands[2] | hands[3])
        pos = k.Position(hands=hands, leader=1, tricks=[5, 3, 0, 3], bids=[3, 3, 0, 3],
                         nils=[k.PLAIN, k.PLAIN, k.NIL, k.PLAIN], players=4, broken=True,
                         played=played)
        assert chances.forced(book, pos.copy(), 2, 1000) is answer
        assert _brute(book, pos, 2) is answer
