"""A review that keeps nobody waiting (issue 38 item 2): a search out of its node budget
gives bounds, not a hang; what it cannot solve is an estimate that says so, the rest exact;
the first plays are told while the rest are worked out."""

from __future__ import annotations

import random

import pytest

from spades.ai import kernel as k
from spades.ai import review as review_module
from spades.ai.review import HandReview, _line, _start, review_hand, review_line
from spades.ai.tricks import TrickSolver
from spades.engine import GameState, apply, find_preset, legal_actions, new_game


def _game(preset: str, seed: int) -> GameState:
    rng = random.Random(f"test-review-budget/{preset}/{seed}")
    state = new_game(find_preset(preset), seed)
    while not state.results:
        state = apply(state, rng.choice(list(legal_actions(state))))
    return state


def test_a_search_out_of_nodes_gives_true_bounds_and_the_same_count_with_no_limit() -> None:
    state = _game("partnership", 1)
    book = k.rulebook_of(state.rules)
    start, _ = _start(book, state.results[0])
    exact = TrickSolver(book, 0).tricks(start)
    low, high = TrickSolver(book, 0).span(start, nodes=50)
    assert low <= exact <= high and low < high  # cut off: bounds, both true
    assert TrickSolver(book, 0).span(start) == (exact, exact)
    # a solver cut off goes on answering exactly (its table holds only true entries)
    solver = TrickSolver(book, 0)
    solver.span(start, nodes=2_000)
    assert solver.tricks(start) == exact
    assert solver.best_moves(start, nodes=10) == []  # out of its budget: none named
    assert solver.best_moves(start) == TrickSolver(book, 0).best_moves(start)


def _small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_module, "ATTEMPT_NODES", 3_000)
    monkeypatch.setattr(review_module, "REVIEW_NODES", 6_000)
    monkeypatch.setattr(review_module, "LATE_NODES", 3_000)
    monkeypatch.setattr(review_module, "REVIEW_SECONDS", float("inf"))  # a busy machine


def test_what_cannot_be_solved_in_budget_is_an_estimate_that_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = _game("partnership", 2)
    with monkeypatch.context() as unlimited:
        unlimited.setattr(review_module, "ATTEMPT_NODES", 10**12)
        unlimited.setattr(review_module, "REVIEW_NODES", 10**12)
        unlimited.setattr(review_module, "REVIEW_SECONDS", float("inf"))
        full = review_hand(state, 1)
    assert all(p.exact for p in full.plays) and full.notes == ()
    _small_budget(monkeypatch)
    short = review_hand(state, 1)
    estimated = [p for p in short.plays if not p.exact]
    assert estimated and estimated[0] is short.plays[0]  # the opening lead is the hard one
    assert short.notes and short.notes[0].startswith("An estimate: the counts of trick")
    assert "not exact" in short.notes[0]
    assert not any(m.kind == "cost" for p in estimated for m in p.marks)
    assert short.to_json()["plays"][0]["exact"] is False
    # every count the budget reached is the exact one
    for cut, whole in zip(short.plays, full.plays, strict=True):
        assert cut.card == whole.card
        if cut.exact:
            assert (cut.before, cut.after) == (whole.before, whole.after)
    assert short.plays[-1].exact
    assert short.nodes < full.nodes


def test_a_hand_too_big_to_solve_stays_within_its_node_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A three-player hand with a kitty (17 tricks, three sides) once ran for 13 minutes."""
    monkeypatch.setattr(review_module, "REVIEW_SECONDS", float("inf"))  # nodes, not time
    state = _game("three-player-kitty", 1)
    review = review_hand(state, 1)
    budget = (review_module.REVIEW_NODES + review.positions * review_module.LATE_NODES
              + 3 * review_module.BEST_NODES * len(review.plays))
    assert review.nodes <= budget
    assert len(review.plays) == 51
    assert review.plays[-1].exact


def test_the_first_plays_are_told_while_the_rest_are_worked_out() -> None:
    state = _game("partnership", 3)
    heard: list[HandReview] = []
    progress: list[int] = []
    review = review_hand(state, 1, lambda done, total: progress.append(done), heard.append)
    assert heard, "no play was told before the end"
    assert all(h.partial for h in heard) and not review.partial
    counts = [len(h.plays) for h in heard]
    assert counts == sorted(set(counts)) and counts[0] < len(review.plays)
    for told in heard:  # what was told is what the whole review says
        assert told.plays == review.plays[:len(told.plays)]


def test_endings_are_exact_within_the_budget() -> None:
    """The last tricks of a hand are always within reach: exact, as before."""
    state = _game("five-player", 1)
    book = k.rulebook_of(state.rules)
    start, line = _start(book, state.results[0])
    positions = _line(book, start, line)
    first = len(line) - 4 * book.n
    review = review_line(book, positions[first], line[first:], state.results[0].bids)
    assert all(p.exact for p in review.plays) and all(s.exact for s in review.sides)


def test_a_review_past_its_wall_clock_limit_ends_soon_and_says_what_is_estimated() -> None:
    """A machine far too busy: past ``seconds`` each attempt gets a tenth of LATE_NODES."""
    state = _game("three-player-kitty", 1)
    result = state.results[0]
    book = k.rulebook_of(state.rules)
    start, line = _start(book, result)
    review = review_line(book, start, line, result.bids, seconds=0.0)
    assert review.nodes <= (review.positions * review_module.LATE_NODES // 10
                            + 3 * review_module.BEST_NODES * len(review.plays))
    assert review.notes and not review.plays[0].exact and review.plays[-1].exact


def test_three_sides_spend_a_smaller_share_and_agree_where_both_are_exact(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With three sides the opening positions are mostly out of reach: a smaller share of
    the budget spends fewer nodes, and every count that both reviews solved is the same."""
    monkeypatch.setattr(review_module, "REVIEW_SECONDS", float("inf"))  # nodes, not time
    assert review_module.review_budget(3) < review_module.review_budget(2) * 2 // 3
    state = _game("three-player", 4)
    small = review_hand(state, 1)
    monkeypatch.setattr(review_module, "THREE_SIDES", 2 / 3)
    large = review_hand(state, 1)
    assert small.nodes < large.nodes
    assert small.plays[-1].exact and large.plays[-1].exact
    both = [(s, b) for s, b in zip(small.plays, large.plays, strict=True) if s.exact and b.exact]
    assert len(both) >= len(small.plays) // 2
    assert all((s.before, s.after) == (b.before, b.after) for s, b in both)
