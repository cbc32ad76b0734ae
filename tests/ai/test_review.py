"""The hand review: its counts agree with plain minimax on the endings of real hands of
several presets, and a handcrafted costly card and a broken nil are marked in words."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from spades.ai import kernel as k
from spades.ai import review as review_module
from spades.ai.review import (
    ReviewError,
    _line,
    _start,
    review_hand,
    review_line,
)
from spades.engine import NIL, Bid, GameState, apply, find_preset, legal_actions, new_game


def _minimax(book: k.Rulebook, pos: k.Position, side: int) -> int:
    """The side's tricks from ``pos`` on: every legal card tried, nothing clever."""
    if pos.over:
        return 0
    best: int | None = None
    mine = book.side_of[pos.turn] == side
    for card in k.cards_of(k.legal_mask(book, pos)):
        child = pos.copy()
        k.play(book, child, card)
        won = sum(child.tricks[s] for s in book.sides[side]) - sum(
            pos.tricks[s] for s in book.sides[side])
        value = won + _minimax(book, child, side)
        if best is None or (value > best if mine else value < best):
            best = value
    assert best is not None
    return best


def _total(book: k.Rulebook, pos: k.Position, side: int) -> int:
    return sum(pos.tricks[s] for s in book.sides[side]) + _minimax(book, pos, side)


def _game(preset: str, seed: int) -> GameState:
    rng = random.Random(f"test-review/{preset}/{seed}")
    state = new_game(find_preset(preset), seed)
    while not state.results:
        state = apply(state, rng.choice(list(legal_actions(state))))
    return state


@pytest.mark.parametrize("preset", ["partnership", "two-player", "cutthroat", "three-player",
                                    "jokers", "five-player"])
@pytest.mark.parametrize("seed", [1, 2])
def test_endings_agree_with_brute_force(preset: str, seed: int) -> None:
    state = _game(preset, seed)
    result = state.results[0]
    book = k.rulebook_of(state.rules)
    start, line = _start(book, result)
    positions = _line(book, start, line)
    tricks = 3 if book.n > 3 else 4
    first = len(line) - tricks * book.n
    review = review_line(book, positions[first], line[first:], result.bids)
    assert len(review.plays) == tricks * book.n
    for side in review.sides:
        assert side.par == _total(book, positions[first], side.side)
        assert side.took == sum(result.tricks[s] for s in side.seats)
    for offset, play in enumerate(review.plays):
        i = first + offset
        assert play.seat == positions[i].turn
        assert play.before == _total(book, positions[i], play.side)
        assert play.after == _total(book, positions[i + 1], play.side)
        assert (play.after < play.before) == any(m.kind == "cost" for m in play.marks)


def _ending(hands: dict[int, str], leader: int, tricks: list[int]) -> k.Position:
    from spades.engine import parse_card
    masks = [0] * 4
    for seat, cards in hands.items():
        for code in cards.split():
            masks[seat] |= 1 << int(parse_card(code))
    return k.Position(hands=masks, leader=leader, broken=True, tricks=tricks, first=False,
                      bids=[3] * 4, nils=[k.PLAIN] * 4, players=4)


def _codes(text: str) -> list[int]:
    from spades.engine import parse_card
    return [int(parse_card(c)) for c in text.split()]


def test_a_king_led_into_the_ace_costs_a_trick_and_says_so() -> None:
    book = k.rulebook_of(find_preset("partnership"))
    start = _ending({0: "KH AC", 1: "AH 2H", 2: "3C 4C", 3: "5C 6C"}, 0, [3, 4, 2, 2])
    line = _codes("KH AH 3C 5C 2H 4C 6C AC")
    review = review_line(book, start, line, [Bid(3)] * 4)
    first = review.plays[0]
    assert (first.before, first.after) == (6, 5)  # 3 + 2 taken, and the ace of clubs
    assert first.best == ("AC",)
    assert [m.kind for m in first.marks] == ["cost"]
    assert first.marks[0].text == ("The king of hearts cost a trick: the ace of hearts was "
                                   "still out; the ace of clubs kept it.")
    assert first.marks[0].cards == ("AH", "AC")
    assert not any(p.marks for p in review.plays[1:] if p.side == 0)


def test_a_partner_who_ducks_under_the_nil_bidder_breaks_the_nil() -> None:
    book = k.rulebook_of(find_preset("partnership"))
    start = _ending({0: "9H 2C", 1: "5H 3C", 2: "2H AH", 3: "3H 4C"}, 1, [0, 5, 3, 3])
    line = _codes("5H 2H 3H 9H 2C 3C AH 4C")
    bids = [NIL, Bid(3), Bid(4), Bid(3)]
    review = review_line(book, start, line, bids)
    duck = review.plays[1]
    assert duck.card == "2H" and duck.seat == 2
    nil = [m for m in duck.marks if m.kind == "nil"]
    assert nil and nil[0].text == ("The two of hearts broke the partner's nil: with the ace "
                                   "of hearts the nil bidder would not have won the trick.")
    forced = review.plays[3]
    assert forced.card == "9H"
    assert not [m for m in forced.marks if m.kind == "nil"]  # it had no other card to play
    # had the partner covered, nothing would be marked
    covered = review_line(book, start, _codes("5H AH 3H 9H 2C 3C 2H 4C"), bids)
    assert not [m for p in covered.plays for m in p.marks if m.kind == "nil"]


def test_a_bag_taken_after_the_bid_was_made_is_marked() -> None:
    book = k.rulebook_of(find_preset("partnership"))
    assert book.bags_cost
    # side 0 (seats 0 and 2) bid 3 + 3 and has 6; the other side has its 4 + 3 made
    start = _ending({0: "KH 4H", 1: "5H 3C", 2: "2H 4C", 3: "3H 5C"}, 1, [4, 4, 2, 3])
    line = _codes("5H 2H 3H KH 4H 3C 4C 5C")
    bids = [Bid(3), Bid(4), Bid(3), Bid(3)]
    review = review_line(book, start, line, bids)
    king = review.plays[3]
    bags = [m for m in king.marks if m.kind == "bag"]
    assert bags and bags[0].cards == ("4H",)
    assert bags[0].text == ("The king of hearts took a bag: the side had made its bid of 6 "
                            "and the four of hearts would have lost the trick.")
    # the same card with the bid not yet made is no bag
    short = review_line(book, start, line, [Bid(3), Bid(4), Bid(4), Bid(3)])
    assert not [m for m in short.plays[3].marks if m.kind == "bag"]


def test_a_hand_in_play_is_refused() -> None:
    state = _game("two-player", 1)
    assert not state.over and len(state.results) == 1
    with pytest.raises(ReviewError, match="still in play"):
        review_hand(state, 2)
    with pytest.raises(ReviewError, match="no hand 5"):
        review_hand(state, 5)
    with pytest.raises(ReviewError, match="from 1"):
        review_hand(state, 0)


def test_a_whole_hand_to_json() -> None:
    state = _game("two-player", 3)
    seen: list[tuple[int, int]] = []
    review = review_hand(state, 1, lambda done, total: seen.append((done, total)))
    data = review.to_json()
    assert data["format"] == "spades-review/1"
    assert len(data["plays"]) == 2 * state.rules.hand_size
    assert seen and seen[-1][0] == seen[-1][1]
    for play in data["plays"]:
        assert play["cost"] == play["before"] - play["after"]
    assert [s["took"] for s in data["sides"]] == list(state.results[0].tricks)


@pytest.mark.parametrize("preset", ["partnership", "three-player"])
def test_a_guess_changes_only_the_speed(preset: str) -> None:
    """``TrickSolver.tricks(pos, guess)`` gives the same count for every guess, right or
    wrong, as the plain binary search (and as brute force)."""
    from spades.ai.tricks import TrickSolver
    state = _game(preset, 5)
    book = k.rulebook_of(state.rules)
    start, line = _start(book, state.results[0])
    positions = _line(book, start, line)
    first = len(line) - 3 * book.n
    for pos in positions[first:first + book.n + 1]:
        for side in range(len(book.sides)):
            exact = _minimax(book, pos, side)
            solver = TrickSolver(book, side)
            assert solver.tricks(pos) == exact
            for guess in range(-1, pos.left + 2):
                assert TrickSolver(book, side).tricks(pos, guess) == exact
                assert solver.tricks(pos, guess) == exact


def test_a_review_with_no_time_limit_does_not_depend_on_the_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench/decisions.py`` hashes reviews with ``seconds=math.inf`` (issue 40 item 3):
    on a machine slow enough to pass ``REVIEW_SECONDS`` the default review estimates what
    it would have solved and its digest changed with the load; with no limit it is the
    review of the cards alone."""
    state = _game("two-player", 1)
    calm = repr(review_hand(state, 1))
    clock = itertools.count(0.0, 100.0)  # each look at the clock finds 100 s more gone
    monkeypatch.setattr(review_module.time, "monotonic", lambda: next(clock))
    assert repr(review_hand(state, 1, seconds=math.inf)) == calm
    assert repr(review_hand(state, 1)) != calm  # (the clock does cut the default short)
