"""The arena: duplicate deals where luck cancels, honest tallies, and intervals."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from spades.ai.arena import (
    ArenaConfig,
    Contender,
    DealOutcome,
    Tally,
    mean_interval,
    parse_contender,
    parse_field,
    parse_value,
    play_deal,
    play_run,
    proportion_interval,
    quantile_interval,
    run_arena,
    seat_contenders,
    summarise,
    tally_hand,
)
from spades.engine import NIL, PRESETS, Bid, HandResult, HandScore, Play, make_rules

RANDOM = Contender("random")


def test_contender_specs() -> None:
    assert parse_contender("hard") == Contender("hard")
    spec = parse_contender("Hard:iterations=300, time_limit=none,blind_nil=true")
    assert spec == Contender("hard", (("iterations", 300), ("time_limit", None),
                                      ("blind_nil", True)))
    assert spec.label == "hard:iterations=300,time_limit=None,blind_nil=True"
    assert parse_value("0.5") == 0.5 and parse_value("x") == "x"
    for bad in ("", ":iterations=3", "hard:iterations"):
        with pytest.raises(ValueError):
            parse_contender(bad)


@pytest.mark.parametrize("name", ["partnership", "cutthroat", "three-player", "two-player",
                                  "five-player"])
def test_the_runs_of_a_deal_swap_the_chairs(name: str) -> None:
    config = ArenaConfig((RANDOM, RANDOM), PRESETS[name])
    for index in range(12):
        first, second = (seat_contenders(config, index, run) for run in (0, 1))
        assert [1 - c for c in first] == second
        if config.rules.partnership:
            assert first == [0, 1, 0, 1]  # side 0 first, as the arena always did


def test_swapping_the_contenders_replays_the_same_games() -> None:
    """Swapping which contender is "first" replays the same games in the other order, so the
    margin of a deal changes sign exactly; an even match sits near zero."""
    rules = PRESETS["partnership"]
    easy = Contender("easy")
    forward = ArenaConfig((easy, RANDOM), rules, deals=2, seed=5)
    backward = ArenaConfig((RANDOM, easy), rules, deals=2, seed=5)
    for index in range(2):
        a = play_deal(forward, index)
        b = play_deal(backward, index)
        assert a.margin == pytest.approx(-b.margin)
        assert a.tallies[0].made == b.tallies[1].made
        assert a.tallies[0].times and b.tallies[1].times


def test_tallies_add_up() -> None:
    rules = make_rules("partnership", target_score=150)
    config = ArenaConfig((RANDOM, RANDOM), rules, deals=6, seed=1)
    report = run_arena(config)
    assert report.deals == 6 and report.hands == 12
    total_made = 0.0
    for level in report.levels:
        assert level.decisions == 12 * 52 // 2 + 12 * 4 // 2
        assert level.bids_made.value + level.sets.value == pytest.approx(1.0)
        assert level.games_won is None
        total_made += level.bids_made.value
    first, second = report.levels
    assert first.duplicate_points.value == pytest.approx(-second.duplicate_points.value)
    assert report.margin == first.duplicate_points


def test_games_mode_counts_wins() -> None:
    rules = make_rules("partnership", target_score=100, losing_score=-100)
    hard = Contender("hard", (("iterations", 10),))
    report = run_arena(ArenaConfig((hard, RANDOM), rules, deals=2, seed=2, mode="games"))
    first, second = report.levels
    assert first.games == second.games == 4
    assert first.games_won is not None and second.games_won is not None
    wins = first.games_won.value * 4 + second.games_won.value * 4
    assert wins == pytest.approx(4)  # a game to 100 with a mercy rule always ends
    assert first.games_won.value >= 0.5


def test_process_workers_give_the_same_report() -> None:
    config = ArenaConfig((RANDOM, Contender("easy")), PRESETS["cutthroat"], deals=3, seed=9)
    seen: list[tuple[int, int]] = []
    one = run_arena(config, jobs=1)
    two = run_arena(config, jobs=2, progress=lambda done, total: seen.append((done, total)))
    assert one.margin == two.margin
    assert [lv.bids_made for lv in one.levels] == [lv.bids_made for lv in two.levels]
    assert seen[-1] == (3, 3) and len(seen) == 3


def test_unknown_levels_fail_before_any_deal() -> None:
    config = ArenaConfig((Contender("grandmaster"), RANDOM), PRESETS["partnership"], deals=1)
    with pytest.raises(ValueError):
        run_arena(config)
    with pytest.raises(ValueError):
        run_arena(ArenaConfig((RANDOM, RANDOM), PRESETS["partnership"], deals=0))


def test_intervals() -> None:
    rate = proportion_interval(7, 10)
    assert rate.value == 0.7
    assert rate.low == pytest.approx(0.3968, abs=1e-3)   # Wilson, 95 %
    assert rate.high == pytest.approx(0.8922, abs=1e-3)
    mean = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean.value == 2.5
    assert mean.high - mean.value == pytest.approx(1.96 * 1.2910 / 2, abs=1e-3)
    rng = random.Random(0)
    xs = [rng.random() for _ in range(2000)]
    p95 = quantile_interval(xs, 0.95)
    assert p95.low <= p95.value <= p95.high
    assert abs(p95.value - 0.95) < 0.02 and p95.high - p95.low < 0.03
    assert math.isnan(mean_interval([]).value)
    assert mean_interval([3.0]).low == -math.inf


def _result(dealer: int, order: list[tuple[int, Bid]], tricks: tuple[int, ...]) -> HandResult:
    bids = [Bid(0)] * 4
    for seat, bid in order:
        bids[seat] = bid
    return HandResult(number=0, dealer=dealer, deck=(), actions=tuple(order),
                      bids=tuple(bids), tricks=tricks, history=(),
                      score=HandScore(points=(0, 0), bags=(0, 0), scores=(0, 0)))


def test_calibration_sets_and_bags_on_handcrafted_hands() -> None:
    """Two hands with contender 0 at seats 0 and 2: every figure worked out by hand."""
    rules = PRESETS["partnership"]
    who = [0, 1, 0, 1]
    tallies = (Tally(), Tally())
    # seat 0 bids 3 and takes 4; seat 2's nil is made; seats 1 and 3 bid 4 + 2, take 3 + 6
    tally_hand(rules, _result(3, [(0, Bid(3)), (1, Bid(4)), (2, NIL), (3, Bid(2))],
                               (4, 3, 0, 6)), who, tallies)
    # bidding from seat 1: 5, 4, 3, 4; tricks 1, 6, 2, 4: side 0 (8 bid, 3 taken) is set
    tally_hand(rules, _result(0, [(1, Bid(5)), (2, Bid(4)), (3, Bid(3)), (0, Bid(4))],
                               (1, 6, 2, 4)), who, tallies)
    assert tallies[0].calibration == [[1], [-2], [], [-3]]
    assert tallies[1].calibration == [[1], [-1], [1], [4]]
    config = ArenaConfig((RANDOM, RANDOM), rules, deals=1)
    outcome = DealOutcome(index=0, margin=0.0, margin_bags_charged=0.0, hands=2,
                          tallies=tallies)
    first, second = summarise(config, [outcome]).levels
    assert [c.value for c in first.calibration[:2]] == [1, -2]
    assert math.isnan(first.calibration[2].value) and first.calibration[3].value == -3
    assert first.calibration_bids == (1, 1, 0, 1)
    assert [c.value for c in second.calibration] == [1, -1, 1, 4]
    assert first.sets.value == 0.5 and second.sets.value == 0.0
    assert first.bags_per_hand.value == 0.5     # 1 bag, then none (set)
    assert second.bags_per_hand.value == 2.5    # 3 bags, then 2
    data = first.to_dict()
    assert data["calibration"][0] == {"position": 1, "bids": 1,
                                      "tricks_minus_bid": {"value": 1.0, "low": None,
                                                           "high": None}}
    assert data["calibration"][2]["tricks_minus_bid"]["value"] is None


def test_calibration_pools_every_deal() -> None:
    a, b = Tally(), Tally()
    a.bid_at(1).extend([1.0, -1.0])
    b.bid_at(0).append(2.0)
    b.bid_at(1).append(3.0)
    a.add(b)
    assert a.calibration == [[2.0], [1.0, -1.0, 3.0]]


def test_a_field_of_opponents_takes_turns() -> None:
    rules = PRESETS["partnership"]
    easy = Contender("easy")
    report = run_arena(ArenaConfig((easy, RANDOM), rules, deals=5, seed=4),
                       field=(RANDOM, Contender("normal")))
    assert report.levels[1].label == "field[random,normal]"
    assert [part.levels[1].label for part in report.field] == ["random", "normal"]
    assert [part.deals for part in report.field] == [3, 2]
    # deal i was played against field[i % 2]: the same as a plain match on that deal
    for number, opponent in enumerate((RANDOM, Contender("normal"))):
        plain = ArenaConfig((easy, opponent), rules, deals=5, seed=4)
        margins = [play_deal(plain, i).margin for i in range(number, 5, 2)]
        assert report.field[number].margin.value == pytest.approx(statistics.fmean(margins))
    pooled = statistics.fmean([p.margin.value * p.deals for p in report.field]) * 2 / 5
    assert report.margin.value == pytest.approx(pooled)
    assert len(report.to_dict()["field"]) == 2


def test_a_field_is_parsed_with_options() -> None:
    field = parse_field("easy, hard:iterations=30,time_limit=1 ,bench/yardstick")
    assert field == (Contender("easy"),
                     Contender("hard", (("iterations", 30), ("time_limit", 1))),
                     Contender("bench/yardstick"))
    with pytest.raises(ValueError, match="name the field"):
        parse_field(" , ")


def _before_the_cards(result: HandResult) -> list[object]:
    return [action for _, action in result.actions[:next(
        i for i, (_, a) in enumerate(result.actions) if isinstance(a, Play))]]


def test_a_run_bid_alike_is_played_alike_to_the_end() -> None:
    """What ``bench/experiments/screen.py`` stands on: a seat's random stream is the deal's
    and the seat's, and Hard takes one draw from it per decision however it searches, so a
    version that bids differently (here a larger nil credit) plays every run it bids alike
    exactly as the other did."""
    rules = PRESETS["partnership"]
    alike = unlike = 0
    for index in range(6):
        for run in (0, 1):
            results = []
            for spec in ("hard:iterations=24", "hard:iterations=24,nil_saved=1.5"):
                config = ArenaConfig((parse_contender(spec), Contender("normal")), rules,
                                     deals=6, seed="screen")
                _, _, _, state = play_run(config, index, run, (Tally(), Tally()))
                results.append(state.results[0])
            first, second = results
            if _before_the_cards(first) == _before_the_cards(second):
                alike += 1
                assert first == second
            else:
                unlike += 1
    assert alike and unlike  # (both kinds of run were met)
