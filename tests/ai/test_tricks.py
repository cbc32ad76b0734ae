"""The double-dummy trick solver gives exactly what a plain minimax over every legal card
gives, on small endings of several presets and every ``spades_break`` mode, and keeps its
answers when one solver (one transposition table) is reused along a line of play. Each test
runs on the pure-Python solver (the reference) and on the compiled one where it is in use
(tests/ai/test_native.py compares the two on many more positions)."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades.ai import kernel as k
from spades.ai import native, tricks
from spades.engine import PRESETS, Rules, make_rules

RULES: dict[str, Rules] = {
    "partnership": PRESETS["partnership"],
    "two-player": PRESETS["two-player"],
    "cutthroat": PRESETS["cutthroat"],
    "three-player": PRESETS["three-player"],
    "five-player": PRESETS["five-player"],
    "jokers+void": make_rules("jokers", spades_break="void"),
    "partnership+any-spade": make_rules("partnership", spades_break="any-spade"),
    "partnership+lowest-club": make_rules("partnership", first_lead="lowest-club"),
    "two-player+lowest-club": make_rules("two-player", first_lead="lowest-club"),
}


#: The solvers under test: the pure one always, the compiled one where it is in use.
SOLVERS = [pytest.param(native.pure("tricks"), id="pure"),
           *([pytest.param(tricks, id="compiled")] if native.COMPILED else [])]
each_solver = pytest.mark.parametrize("solver", SOLVERS)


def _side_taken(book: k.Rulebook, pos: k.Position, side: int) -> int:
    return sum(pos.tricks[s] for s in book.sides[side])


def _minimax(book: k.Rulebook, pos: k.Position, side: int, memo: dict[tuple[object, ...], int]
             ) -> int:
    """Tricks ``side`` takes from ``pos`` on: every legal card of every seat tried."""
    if pos.over:
        return 0
    key = (*pos.hands, tuple(pos.trick), pos.leader, pos.broken, pos.first)
    if key in memo:
        return memo[key]
    values = []
    for card in k.cards_of(k.legal_mask(book, pos)):
        child = pos.copy()
        k.play(book, child, card)
        gained = _side_taken(book, child, side) - _side_taken(book, pos, side)
        values.append(gained + _minimax(book, child, side, memo))
    value = max(values) if book.side_of[pos.turn] == side else min(values)
    memo[key] = value
    return value


def _ending(rules: Rules, rng: random.Random, tricks_left: int, first: bool) -> k.Position:
    """A random position with ``tricks_left`` tricks to go, sometimes mid-trick. With
    ``first`` the cards are dealt straight into the ending and it is the hand's first trick
    (so the lowest-club lead applies)."""
    book = k.rulebook_of(rules)
    n = rules.players
    hands = k.deal(book, rng)
    if first:
        trimmed = []
        for h in hands:
            cards = k.cards_of(h)
            rng.shuffle(cards)
            trimmed.append(sum(1 << c for c in cards[:tricks_left]))
        pos = k.Position(hands=trimmed, leader=rng.randrange(n), tricks=[0] * n,
                         bids=[1] * n, nils=[k.PLAIN] * n, players=n)
        if book.lowest_club:
            clubs = 0
            for h in trimmed:
                clubs |= h & k.CLUBS
            if clubs:
                low = clubs & -clubs
                pos.leader = pos.turn = next(s for s in range(n) if trimmed[s] & low)
        return pos
    pos = k.Position(hands=hands, leader=rng.randrange(n), tricks=[0] * n, bids=[1] * n,
                     nils=[k.PLAIN] * n, players=n)
    pos.first = False
    for _ in range((rules.hand_size - tricks_left) * n + rng.randrange(n)):
        k.play(book, pos, k.random_card(k.legal_mask(book, pos), rng.random))
    return pos


def _check(solver: ModuleType, rules: Rules, seed: int, tricks_left: int,
           first: bool) -> None:
    book = k.rulebook_of(rules)
    rng = random.Random(seed)
    pos = _ending(rules, rng, tricks_left, first)
    for side in range(len(book.sides)):
        memo: dict[tuple[object, ...], int] = {}
        want = _minimax(book, pos, side, memo)
        assert solver.solve_tricks(book, pos, side) == want
        keep = []
        for card in k.cards_of(k.legal_mask(book, pos)):
            child = pos.copy()
            k.play(book, child, card)
            value = (_side_taken(book, child, side) - _side_taken(book, pos, side)
                     + _minimax(book, child, side, memo))
            if value == want:
                keep.append(card)
        assert solver.best_moves(book, pos, side) == keep


@each_solver
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(RULES)), seed=st.integers(0, 2**32),
       tricks_left=st.integers(1, 4), first=st.booleans())
def test_tricks_equal_plain_minimax(solver: ModuleType, name: str, seed: int,
                                    tricks_left: int, first: bool) -> None:
    _check(solver, RULES[name], seed, tricks_left, first)


@each_solver
@pytest.mark.parametrize("name", ["two-player", "two-player+lowest-club", "partnership",
                                  "jokers+void", "three-player"])
def test_five_trick_endings_equal_plain_minimax(solver: ModuleType, name: str) -> None:
    for seed in range(3):
        _check(solver, RULES[name], seed, 5, first=seed == 0)


@each_solver
def test_one_solver_along_a_line_of_play(solver: ModuleType) -> None:
    """A hand review solves every position of a hand with one solver: its answers equal
    fresh solvers' answers, best play keeps the value, and any other card loses by it."""
    rules = PRESETS["partnership"]
    book = k.rulebook_of(rules)
    rng = random.Random(13)
    pos = _ending(rules, rng, 7, first=False)
    while pos.trick:  # start at a trick boundary
        k.play(book, pos, k.random_card(k.legal_mask(book, pos), rng.random))
    review = solver.TrickSolver(book, 0)
    total = _side_taken(book, pos, 0) + review.tricks(pos)
    while not pos.over:
        assert review.tricks(pos) == solver.solve_tricks(book, pos, 0)
        assert _side_taken(book, pos, 0) + review.tricks(pos) == total
        keep = review.best_moves(pos)
        legal = k.cards_of(k.legal_mask(book, pos))
        assert keep and set(keep) <= set(legal)
        for card in set(legal) - set(keep):
            child = pos.copy()
            k.play(book, child, card)
            after = _side_taken(book, child, 0) + solver.solve_tricks(book, child, 0)
            assert after != total
        k.play(book, pos, rng.choice(keep))
    assert _side_taken(book, pos, 0) == total


@each_solver
def test_a_side_out_of_range_is_refused(solver: ModuleType) -> None:
    book = k.rulebook_of(PRESETS["partnership"])
    with pytest.raises(ValueError, match="no side 2"):
        solver.TrickSolver(book, 2)


@each_solver
def test_a_worked_ending(solver: ModuleType) -> None:
    """West (A♠ 2♥) and East (K♠ 3♥) against North (A♥ 2♣) and South (3♣ 4♥), West to
    lead: cash the A♠ and North's A♥ takes the last trick; lead the 2♥ and North either wins
    it (North must follow) and West ruffs North's club. One trick each way."""
    book = k.rulebook_of(PRESETS["partnership"])
    two_h, three_h, four_h, ace_h = 26, 27, 28, 38
    ace_s, king_s, two_c, three_c = 51, 50, 0, 1
    hands = [(1 << ace_s) | (1 << two_h), (1 << ace_h) | (1 << two_c),
             (1 << king_s) | (1 << three_h), (1 << three_c) | (1 << four_h)]
    pos = k.Position(hands=hands, leader=0, tricks=[0] * 4, bids=[1] * 4,
                     nils=[k.PLAIN] * 4, players=4, broken=True, first=False)
    assert solver.solve_tricks(book, pos, 0) == 1
    assert solver.solve_tricks(book, pos, 1) == 1
    assert solver.best_moves(book, pos) == [two_h, ace_s]
    k.play(book, pos, two_h)
    assert solver.best_moves(book, pos) == [ace_h]  # North must follow hearts
    k.play(book, pos, ace_h)
    assert pos.turn == 2 and solver.solve_tricks(book, pos, 0) == 1


@each_solver
@pytest.mark.parametrize("mode", ["offsuit", "any-spade", "void"])
@pytest.mark.parametrize("preset", ["partnership", "two-player", "three-player"])
def test_unbroken_endings_of_every_break_mode(solver: ModuleType, preset: str,
                                              mode: str) -> None:
    """Endings dealt with spades not yet broken, where when spades break decides leads."""
    rules = make_rules(preset, spades_break=mode)
    for seed in range(12):
        _check(solver, rules, seed, 3 + seed % 2, first=True)


@each_solver
@pytest.mark.parametrize("name", ["partnership", "cutthroat", "jokers+void"])
def test_one_table_serves_many_deals(solver: ModuleType, name: str) -> None:
    """Table entries hold for every position with the same lengths and owners of the ranks
    that mattered, whatever the deal: one solver reused over many deals answers as fresh
    solvers do, and as plain minimax where that is affordable."""
    rules = RULES[name]
    book = k.rulebook_of(rules)
    rng = random.Random(name)
    shared = [solver.TrickSolver(book, side) for side in range(len(book.sides))]
    for number in range(16):
        pos = _ending(rules, rng, 4 + number % 3, first=False)
        for side, reused in enumerate(shared):
            value = reused.tricks(pos)
            assert value == solver.TrickSolver(book, side).tricks(pos)
            if pos.left <= 4:
                assert value == _minimax(book, pos, side, {})


@each_solver
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(RULES)), seed=st.integers(0, 2**32),
       tricks_left=st.integers(1, 4), data=st.data())
def test_a_guess_and_bounds_change_only_the_speed(solver: ModuleType, name: str, seed: int,
                                                  tricks_left: int,
                                                  data: st.DataObject) -> None:
    """``tricks(pos, guess, at_least=, at_most=)`` with any guess and any bounds that hold
    (as a hand review gives them) answers as plain minimax does, from a fresh solver and
    from one reused across the calls."""
    rules = RULES[name]
    book = k.rulebook_of(rules)
    pos = _ending(rules, random.Random(seed), tricks_left, first=False)
    for side in range(len(book.sides)):
        want = _minimax(book, pos, side, {})
        low = data.draw(st.integers(-1, want), label="at_least")
        high = data.draw(st.integers(want, pos.left + 1), label="at_most")
        reused = solver.TrickSolver(book, side)
        for guess in [None, *range(-1, pos.left + 2)]:
            fresh = solver.TrickSolver(book, side)
            assert fresh.tricks(pos, guess, at_least=low, at_most=high) == want
            assert reused.tricks(pos, guess, at_least=low, at_most=high) == want


#: Opening leads where the solver searches longest (``bench/solver.py --slow``, deal 1/3:
#: about 18 s of CPU here, ten times the median): each seat's cards (kernel card numbers),
#: the leader, and the leader's side's tricks under best play as the solver counted them
#: before its first guess and the review's bounds were added.
SLOW_OPENINGS = [
    ((290618072893840, 2395840201171553, 1249045487719426, 568095865585676), 3, 3),
]


@each_solver
@pytest.mark.slow
@pytest.mark.timeout(1800)  # about 20 s of CPU, far more wall time on a loaded machine
@pytest.mark.parametrize(("hands", "leader", "tricks"), SLOW_OPENINGS)
def test_slow_openings_keep_their_count(solver: ModuleType, hands: tuple[int, ...],
                                        leader: int, tricks: int) -> None:
    """A whole deal from the opening lead, where the search is deepest: the leader's side
    takes its known count."""
    book = k.rulebook_of(PRESETS["partnership"])
    pos = k.Position(hands=list(hands), leader=leader, tricks=[0] * 4, bids=[1] * 4,
                     nils=[k.PLAIN] * 4, players=4)
    side = book.side_of[leader]
    assert solver.TrickSolver(book, side).tricks(pos) == tricks
