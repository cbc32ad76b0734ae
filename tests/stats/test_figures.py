"""The statistics worked out from records: hand-made games whose right figures are known (a
nil made, a nil failed, a blind nil, a set, bags past the bag limit), and a property: over
random whole games of every preset, the statistics equal a plain tally of ``summary``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades.engine import (
    PRESETS,
    Bid,
    apply,
    find_preset,
    legal_actions,
    new_game,
    record_of,
    summary,
)
from spades.stats import (
    GameFigures,
    StatsError,
    Tally,
    figures_of_state,
    game_figures,
    player_stats,
    tally,
)

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def golden(name: str, seats: list[int]) -> GameFigures:
    record = json.loads((GOLDEN / f"{name}.json").read_text())
    return game_figures(record, seats, game=name)


def test_a_nil_made_beside_a_contract_made() -> None:
    # partnership, one hand: seat 0 nil (took 0), partner bid 4 took 5: 100 + 41 = 141
    t = tally([golden("scoring_001_nil_made_and_failed", [0])])
    assert (t.hands, t.nil, t.nil_made, t.blind_nil) == (1, 1, 1, 0)
    assert (t.contracts, t.made, t.sets) == (1, 1, 0)
    assert (t.points, t.bags) == (141, 1)
    assert (t.games, t.in_play, t.win_rate) == (0, 1, None)


def test_a_nil_failed_and_its_tricks_as_bags() -> None:
    # the other side of the same hand: seat 1 nil took 2, partner bid 5 took 6:
    # -100 + 2 (failed nil tricks, as bags) + 51 = -47, bags 2 + 1
    t = tally([golden("scoring_001_nil_made_and_failed", [1])])
    assert (t.nil, t.nil_made, t.made, t.sets) == (1, 0, 1, 0)
    assert (t.points, t.bags, t.bags_per_hand, t.points_per_hand) == (-47, 3, 3.0, -47.0)


def test_blind_nil_made_then_failed() -> None:
    # two-player: hand 1 seat 0 blind nil (took 0, +200, no contract), seat 1 bid 12 took 13;
    # hand 2 seat 0 bid 5 took 10, seat 1 blind nil took 3
    me = tally([golden("scoring_000_blind_nil_made_then_failed", [0])])
    assert (me.hands, me.blind_nil, me.blind_nil_made, me.nil) == (2, 1, 1, 0)
    assert (me.contracts, me.made, me.sets) == (1, 1, 0)
    assert (me.points, me.bags) == (255, 5)
    other = tally([golden("scoring_000_blind_nil_made_then_failed", [1])])
    assert (other.blind_nil, other.blind_nil_made, other.contracts, other.made) == (1, 0, 1, 1)
    assert (other.points, other.bags) == (124, 4)


def test_bags_are_new_bags_each_hand_even_past_the_limit() -> None:
    # online (10 bags cost 100): side 0 bid 1+1, took 10 then 9: 8 and 7 new bags; the
    # running count wraps (8, then 5 after a penalty) but the player took 15 bags
    t = tally([golden("scoring_003_fifteen_bags", [0])])
    assert (t.hands, t.made, t.bags, t.bags_per_hand) == (2, 2, 15, 7.5)
    assert t.points == 28 - 83


def test_a_moon_missed_is_a_set() -> None:
    t = tally([golden("scoring_000_moon_missed", [0])])
    assert (t.contracts, t.made, t.sets, t.points) == (1, 0, 1, 9)


def set_game() -> Any:
    """Partnership: seats 0 and 2 bid 7 each (14 of 13 tricks: certainly set), seats 1 and
    3 bid 1; every card the first legal one."""
    state = new_game(find_preset("partnership"), 11)
    while not state.results:
        if state.phase.value == "bid":
            state = apply(state, Bid(7 if state.turn in (0, 2) else 1))
        else:
            state = apply(state, legal_actions(state)[0])
    return state


def test_a_set_costs_ten_a_trick_bid() -> None:
    state = set_game()
    mine = tally([figures_of_state(state, [2], game="set")])
    assert (mine.hands, mine.contracts, mine.made, mine.sets) == (1, 1, 0, 1)
    assert (mine.points, mine.bags, mine.made_rate) == (-140, 0, 0.0)
    theirs = tally([figures_of_state(state, [3], game="set")])
    taken = state.results[0].tricks[1] + state.results[0].tricks[3]
    assert (theirs.made, theirs.bags, theirs.points) == (1, taken - 2, 20 + taken - 2)


def test_finished_games_count_as_played_and_won_by_side() -> None:
    state = finished_game("partnership", 3)
    winner = state.winner
    assert state.over and winner is not None
    side = state.rules.sides[winner]
    for seat in range(4):
        t = tally([figures_of_state(state, [seat], game="g")])
        assert (t.games, t.in_play) == (1, 0)
        assert t.wins == (seat in side)
        assert t.win_rate == (1.0 if seat in side else 0.0)


def test_groups_by_variant_and_level() -> None:
    a = figures_of_state(finished_game("partnership", 1), [0], game="a", level="easy")
    b = figures_of_state(finished_game("cutthroat", 2), [1], game="b", level="hard")
    c = figures_of_state(finished_game("partnership", 3), [2], game="c", level="hard")
    stats = player_stats([a, b, c])
    assert [g.key for g in stats.by_preset] == ["cutthroat", "partnership"]
    assert stats.by_preset[1].tally == tally([a, c])
    assert [g.key for g in stats.by_level] == ["easy", "hard"]
    assert stats.by_level[1].tally == tally([b, c])
    assert stats.overall == tally([a, b, c]) and stats.overall.games == 3
    data = stats.to_json(recent=2)
    assert [g["game"] for g in data["recent"]] == ["a", "b"]
    assert data["by_level"][0]["label"] == "easy"
    assert json.loads(json.dumps(data)) == data


def test_a_seat_the_game_has_not_is_refused() -> None:
    state = finished_game("two-player", 1)
    with pytest.raises(StatsError, match="seat 2 is not a seat of a 2-player game"):
        figures_of_state(state, [2], game="g")
    with pytest.raises(StatsError, match="no seat"):
        figures_of_state(state, [], game="g")


# ---------------------------------------------------------------------------- property

def finished_game(preset: str, seed: int) -> Any:
    """A whole game of random legal actions (a short target and the mercy rule keep it
    quick)."""
    rules = find_preset(preset)
    rules = rules.with_options(target_score=min(rules.target_score, 200), losing_score=-200)
    rng = random.Random(seed)
    state = new_game(rules, seed)
    for _ in range(20_000):
        if state.over:
            return state
        state = apply(state, rng.choice(legal_actions(state)))
    raise AssertionError("the game did not end")


def direct_tally(data: dict[str, Any], rules: Any, seats: list[int]) -> Tally:
    """The figures added up straight from ``summary`` output (the score sheet)."""
    counts = dict.fromkeys(Tally.__slots__, 0)
    final = data["final"]
    mine = [i for i, side in enumerate(data["sides"]) if any(s in seats for s in side)]
    counts["games" if final["over"] else "in_play"] = 1
    counts["wins"] = int(final["over"] and final["winner"] in mine)
    for hand in data["hands"]:
        bids, tricks = hand["bids"], hand["tricks"]
        for i in mine:
            side = data["sides"][i]
            bidders = [s for s in side if isinstance(bids[s], int) and not (
                bids[s] == 0 and rules.nil)]
            contract = sum(bids[s] for s in bidders)
            taken = sum(tricks[s] for s in bidders)
            counts["hands"] += 1
            counts["points"] += hand["points"][i]
            if bidders:
                counts["contracts"] += 1
                counts["made" if taken >= contract else "sets"] += 1
            for s in side:
                if s in seats and bids[s] in ("nil", "blind-nil"):
                    kind = "nil" if bids[s] == "nil" else "blind_nil"
                    counts[kind] += 1
                    counts[kind + "_made"] += tricks[s] == 0
            failed = sum(tricks[s] for s in side if s not in bidders)
            bags = failed if rules.failed_nil in ("bags", "penalty-bags") else 0
            moon = (rules.moon_value is not None and len(side) == 1 and bidders
                    and contract == rules.hand_size)
            if moon:
                bags += 0 if taken == contract else taken
            elif bidders and taken >= contract:
                bags += taken - contract
            counts["bags"] += bags
    return Tally(**counts)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1),
       data=st.data())
def test_stats_equal_a_direct_tally_of_summary(preset: str, seed: int, data: Any) -> None:
    state = finished_game(preset, seed)
    seat = data.draw(st.integers(0, state.rules.players - 1))
    record = record_of(state)
    figures = game_figures(record, [seat], game="g")
    assert tally([figures]) == direct_tally(summary(state), state.rules, [seat])
    assert figures.over and figures.preset == preset
