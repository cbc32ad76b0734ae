"""How Hard reads a bid: a line fitted on a mix of styles (``spades.ai.reading``), used by
the deal sampler for the bids made and by Hard for the bids still to come; and the bench that
fits it (``bench/bid_fit.py``) recovers a line it is given."""

from __future__ import annotations

import importlib.util
import random
import statistics
import sys
from pathlib import Path
from types import ModuleType

import pytest

from spades.ai import kernel as k
from spades.ai.hard import OPPONENT_EDGE, HardPlayer, _fill_bids
from spades.ai.reading import FITS, SOFTEN, BidReading, kind_of, reading_of
from spades.ai.sampler import DealSampler, estimate_tricks
from spades.engine import PRESETS, Bid, apply, make_rules, new_game, player_view

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    path = ROOT / "bench" / "bid_fit.py"
    spec = importlib.util.spec_from_file_location("bid_fit_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_has_a_fitted_line(name: str) -> None:
    """Each kind of table was fitted (``bench/bid_fit.py --presets kinds``): players bid
    about a trick per trick of count, under it, give or take under a trick."""
    rules = PRESETS[name]
    assert kind_of(rules) in FITS, f"{name}: no fitted line for {kind_of(rules)}"
    intercept, slope, spread = FITS[kind_of(rules)]
    assert 0.6 < slope < 1.3 and 0.2 < spread < 1.5
    reading = reading_of(rules)
    assert reading == BidReading(intercept, slope, SOFTEN * spread)
    assert SOFTEN > 1.0  # softer than the fit: a player unlike the mix moves the deals only


def test_an_unfitted_table_reads_bids_as_partnership_does() -> None:
    odd = make_rules("cutthroat", jokers=True)
    assert kind_of(odd) not in FITS
    assert reading_of(make_rules("partnership", target_score=300)) == reading_of(
        PRESETS["partnership"])
    assert isinstance(reading_of(odd), BidReading)


def test_a_reading_is_a_line_and_a_gap_in_spreads() -> None:
    line = BidReading(intercept=-0.5, slope=1.0, spread=0.5)
    assert line.expected(4.0) == pytest.approx(3.5)
    assert line.gap(3, 4.0) == pytest.approx(-1.0)  # a bid of 3 is one spread under 3.5
    assert line.gap(4, 4.0) == pytest.approx(1.0)


def _counts(reading: BidReading, seat: int, edge: float = 0.0,
            draws: int = 1500) -> list[float]:
    """The counts of the hands dealt to ``seat`` when seat 0 (an opponent of the viewer,
    seat 3) and seat 1 (its partner) have each bid three."""
    rules = PRESETS["partnership"]
    t = k.table_of(rules)
    state = new_game(rules, seed=5)
    state = apply(state, Bid(3))
    state = apply(state, Bid(3))
    sampler = DealSampler(player_view(state, 3), reading=reading, edge=edge)
    rng = random.Random(2)
    return [estimate_tricks(sampler.sample(rng)[seat], t) for _ in range(draws)]


def test_a_bid_read_under_the_count_deals_a_stronger_hand() -> None:
    """Players bid under their count: read by a line half a trick under the count, a seat
    that bid three is dealt a hand worth about half a trick more than read at face value,
    partner and opponent alike; a tight reading deals counts closer together than a soft
    one."""
    face = BidReading(0.0, 1.0, 0.8)
    under = BidReading(-0.5, 1.0, 0.8)
    for seat in (0, 1):
        assert statistics.fmean(_counts(under, seat)) > statistics.fmean(
            _counts(face, seat)) + 0.25
    loose = BidReading(-0.5, 1.0, 3.0)
    assert statistics.stdev(_counts(under, 0)) < statistics.stdev(_counts(loose, 0)) - 0.1


def test_the_opponents_edge_deals_them_stronger_hands_and_not_the_partner() -> None:
    line = BidReading(-0.5, 1.0, 0.8)
    level = [statistics.fmean(_counts(line, seat)) for seat in (0, 1)]
    edged = [statistics.fmean(_counts(line, seat, edge=1.0)) for seat in (0, 1)]
    assert edged[0] > level[0] + 0.3  # seat 0 opposes the viewer
    assert abs(edged[1] - level[1]) < 0.1  # seat 1 is its partner
    assert 0.0 < OPPONENT_EDGE < 1.0 and HardPlayer().edge == OPPONENT_EDGE


def test_hard_reads_by_the_fitted_line_unless_given_one() -> None:
    assert HardPlayer().reading is None  # the table's own: reading_of(rules)
    rules = PRESETS["partnership"]
    state = new_game(rules, seed=5)
    view = player_view(state, 0)
    mine = HardPlayer(iterations=40).choose(view, random.Random(3))
    assert isinstance(mine, Bid)
    given = HardPlayer(iterations=40, reading=reading_of(rules)).choose(view, random.Random(3))
    assert given == mine


def test_seats_yet_to_bid_are_imagined_bidding_by_the_reading() -> None:
    """On a sampled deal the bids still to come are the reading's bid for the hand's count
    (the way the sampler reads the bids made), not the count itself."""
    rules = PRESETS["partnership"]
    view = player_view(new_game(rules, seed=5), 0)  # first to bid
    reads = [(0.0, 0.0), (4.2, 0.0), (4.2, 0.0), (4.2, 0.0)]
    bids, nils = _fill_bids(view, reads, Bid(3), BidReading(-1.0, 1.0, 1.0))
    assert (bids, nils) == ([3, 3, 3, 3], [0, 0, 0, 0])
    bids, _ = _fill_bids(view, reads, Bid(3), BidReading(0.0, 1.5, 1.0))
    assert bids == [3, 6, 6, 6]
    bids, _ = _fill_bids(view, reads, Bid(3))
    assert bids == [3, 4, 4, 4]  # no reading: the counts themselves


# ---------------------------------------------------------------------------- the bench


def test_the_bench_recovers_a_line_it_is_given() -> None:
    bench = _bench()
    rng = random.Random(7)
    rows = []
    for _ in range(3000):
        count = rng.uniform(0.0, 8.0)
        rows.append(bench.Row("s", 0, rng.randrange(4), count,
                              round(-0.4 + 0.9 * count + rng.gauss(0.0, 0.5))))
    line = bench.fit(rows)
    assert line.intercept == pytest.approx(-0.4, abs=0.08)
    assert line.slope == pytest.approx(0.9, abs=0.02)
    assert line.spread == pytest.approx((0.5 ** 2 + 1 / 12) ** 0.5, abs=0.05)  # + rounding
    assert line.bids == 3000


def test_the_mix_weighs_every_style_alike() -> None:
    """A style with ten times the bids does not pull the mix's line to its own."""
    bench = _bench()
    low = [bench.Row("low", 0, 0, c / 10, round(c / 10) - 1) for c in range(0, 80)]
    high = [bench.Row("high", 0, 0, c / 100, round(c / 100) + 1) for c in range(0, 800)]
    mix = bench.fit_mix(low + high)
    plain = bench.fit(low + high)
    assert mix.intercept == pytest.approx(0.0, abs=0.15)
    assert plain.intercept > 0.6  # unweighted, the bigger style wins


def test_an_auction_records_every_plain_bid_with_its_hands_count() -> None:
    bench = _bench()
    rules = PRESETS["partnership"]
    t = k.table_of(rules)
    seen = 0
    for index in range(6):
        rows = bench.auction(("partnership", "easy;normal", index, "t"))
        state = new_game(rules, seed=f"t/{index}", first_dealer=index % rules.players)
        for row in rows:
            assert row.style in ("easy", "normal") and 1 <= row.bid <= 13
            assert (row.seat - state.hand.dealer - 1) % rules.players == row.position
            assert row.count == estimate_tricks(state.hand.hands[row.seat], t)
        seen += len(rows)
    assert seen >= 12  # most bids are plain
