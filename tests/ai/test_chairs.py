"""The arena's chairs (issue 40): at a table where each plays for themselves, every way
to split the chairs between the two contenders is played, each contender holds each chair
equally often, and each contender's points per deal are the mean of the seats it held."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from itertools import combinations

import pytest

from spades.ai.arena import (
    ArenaConfig,
    Contender,
    Tally,
    play_deal,
    play_run,
    run_arena,
    seat_contenders,
)
from spades.ai.chairs import ChairPlan, arrangements
from spades.engine import PRESETS, Rules

RANDOM = Contender("random")
#: a preset for each size of table where each plays for themselves
TABLES = {2: "two-player", 3: "three-player", 4: "cutthroat", 5: "five-player"}


def _held(rules: Rules, index: int, who: list[int]) -> frozenset[int]:
    """The chairs contender 0 holds, counted clockwise from deal ``index``'s dealer."""
    n = rules.players
    return frozenset((seat - index % n) % n for seat in range(n) if who[seat] == 0)


def _balanced_splits(n: int) -> set[frozenset[int]]:
    """Every share of an n-chair table contender 0 may hold: half, or either side of it."""
    return {frozenset(s) for size in {n // 2, (n + 1) // 2}
            for s in combinations(range(n), size)}


def _runs(config: ArenaConfig, deals: int) -> list[tuple[int, list[int]]]:
    return [(index, who) for index in range(deals)
            for who in config.plan.runs(index)]


@pytest.mark.parametrize("n", sorted(TABLES))
def test_each_contender_holds_each_chair_equally_often(n: int) -> None:
    rules = PRESETS[TABLES[n]]
    for chairs in ("rotate", "every"):
        config = ArenaConfig((RANDOM, RANDOM), rules, chairs=chairs)
        deals = n * len(arrangements(rules))
        seats: Counter[tuple[int, int]] = Counter()
        from_dealer: Counter[tuple[int, int]] = Counter()
        for index, who in _runs(config, deals):
            for seat, contender in enumerate(who):
                seats[contender, seat] += 1
                from_dealer[contender, (seat - index % n) % n] += 1
        assert len(seats) == len(from_dealer) == 2 * n
        assert len(set(seats.values())) == 1 and len(set(from_dealer.values())) == 1


@pytest.mark.parametrize("n", sorted(TABLES))
def test_every_split_of_the_chairs_is_played(n: int) -> None:
    """``rotate``: K deals in a row play every split once, each in both halves; ``every``:
    each deal plays them all. The arena before (``swap``, the even chairs then the odd)
    met every split at two and three chairs (the dealer moves on each deal) but never sat
    two of a contender's players side by side at four chairs, nor its two players at five."""
    rules = PRESETS[TABLES[n]]
    wanted = _balanced_splits(n)
    k = len(arrangements(rules))
    assert 2 * k == len(wanted) or (n == 2 and k == 1 and len(wanted) == 2)
    rotate = ArenaConfig((RANDOM, RANDOM), rules)
    seen = [_held(rules, index, who) for index, who in _runs(rotate, k)]
    assert sorted(map(sorted, seen)) == sorted(map(sorted, wanted))
    every = ArenaConfig((RANDOM, RANDOM), rules, chairs="every")
    for index in range(3):
        assert {_held(rules, index, who) for who in every.plan.runs(index)} == wanted
    old = ArenaConfig((RANDOM, RANDOM), rules, chairs="swap")
    old_seen = {_held(rules, index, who) for index, who in _runs(old, 6 * n)}
    assert (old_seen == wanted) == (n <= 3)


def test_a_partnership_is_seated_as_before_in_every_mode() -> None:
    """Side 0 and then side 1, every deal: the partnership figures stay comparable."""
    rules = PRESETS["partnership"]
    for chairs in ("rotate", "every", "swap"):
        config = ArenaConfig((RANDOM, RANDOM), rules, chairs=chairs)
        for index in range(5):
            assert config.plan.runs(index) == [[0, 1, 0, 1], [1, 0, 1, 0]]
    assert "sides swapped" in ChairPlan(rules).describe(range(5))


def test_each_contender_scores_the_mean_of_its_seats() -> None:
    """A three-player deal played in every split: a contender's points in a run are the
    mean of the chairs it held, its points per deal the mean over the six runs, and the
    duplicate margin is the difference."""
    rules = PRESETS["three-player"]
    config = ArenaConfig((RANDOM, Contender("easy")), rules, deals=1, seed=7, chairs="every")
    outcome = play_deal(config, 0)
    assert outcome.hands == 6
    means: list[list[float]] = [[], []]
    for run in range(6):
        _, _, _, state = play_run(config, 0, run, (Tally(), Tally()))
        who = seat_contenders(config, 0, run)
        points = state.results[0].score.points
        for c in (0, 1):
            means[c].append(statistics.fmean(points[s] for s in range(3) if who[s] == c))
    assert outcome.points == pytest.approx((statistics.fmean(means[0]),
                                            statistics.fmean(means[1])))
    assert outcome.margin == pytest.approx(outcome.points[0] - outcome.points[1])


def test_the_report_says_how_the_chairs_were_assigned() -> None:
    rules = PRESETS["three-player"]
    report = run_arena(ArenaConfig((RANDOM, RANDOM), rules, deals=4, seed=3))
    assert "3 ways to split the 3 chairs" in report.chairs
    assert "played 2/1/1 times" in report.chairs and "a multiple of 3" in report.chairs
    first, second = report.levels
    assert report.margin.value == pytest.approx(first.points.value - second.points.value)
    data = json.loads(json.dumps(report.to_dict()))
    assert data["chairs"] == report.chairs
    assert data["levels"][0]["points"]["value"] == pytest.approx(first.points.value)


def test_each_opponent_of_a_field_meets_every_split() -> None:
    """Deals go to a field's opponents in turn; the split moves on once a round, so each
    opponent plays every split (not always the same one)."""
    rules = PRESETS["three-player"]
    config = ArenaConfig((RANDOM, RANDOM), rules, deals=6, seed=2)
    report = run_arena(config, field=(RANDOM, Contender("easy")))
    for part in report.field:
        assert part.deals == 3
        assert "played 1/1/1 times" in part.chairs
    assert "played 2/2/2 times" in report.chairs


def test_a_bad_way_of_seating_is_refused() -> None:
    with pytest.raises(ValueError, match="chairs must be one of"):
        ChairPlan(PRESETS["cutthroat"], "shuffle")  # type: ignore[arg-type]
