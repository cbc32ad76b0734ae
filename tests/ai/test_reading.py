"""How Hard reads a bid: a line fitted on a mix of styles (``spades.ai.reading``), used by
the deal sampler for the bids made and by Hard for the bids still to come, with a chance of
nil fitted on the same mix; and the bench that fits them (``bench/bid_fit.py``) recovers a
line and a chance it is given."""

from __future__ import annotations

import importlib.util
import math
import random
import statistics
import sys
from pathlib import Path
from types import ModuleType

import pytest

from spades.ai import kernel as k
from spades.ai.hard import OPPONENT_EDGE, HardPlayer, _fill_bids
from spades.ai.reading import (
    FITS,
    NIL_FITS,
    SOFTEN,
    BidReading,
    NilReading,
    kind_of,
    nil_reading_of,
    reading_of,
)
from spades.ai.sampler import DealSampler, estimate_tricks, nil_likelihood
from spades.engine import NIL, PRESETS, Bid, apply, make_rules, new_game, player_view

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


@pytest.mark.parametrize("name", sorted(n for n, r in PRESETS.items()
                                         if r.nil and not r.suicide))
def test_every_preset_with_nil_has_a_fitted_chance_of_nil(name: str) -> None:
    """Each kind of table where nil is a free choice was fitted (``bench/bid_fit.py``): the
    chance falls with the hand's count and rises with its nil likelihood."""
    rules = PRESETS[name]
    assert kind_of(rules) in NIL_FITS, f"{name}: no fitted chance of nil for {kind_of(rules)}"
    intercept, count, likelihood = NIL_FITS[kind_of(rules)]
    assert count < 0 < likelihood
    assert nil_reading_of(rules) == NilReading(intercept, count, likelihood)


def test_the_chance_of_nil_is_the_mixs_rate_on_random_hands() -> None:
    """Over random partnership hands the fitted chance averages about what the mix bid (7.9 %
    of its bids were nil); the rule it replaced imagined nil on under 4 % of them."""
    rules = PRESETS["partnership"]
    book = k.rulebook_of(rules)
    nil = nil_reading_of(rules)
    rng = random.Random(11)
    hands = [hand for _ in range(1500) for hand in k.deal(book, rng)]
    mean = statistics.fmean(nil.chance(estimate_tricks(h, book), nil_likelihood(h, book))
                            for h in hands)
    assert 0.06 < mean < 0.10
    rule = statistics.fmean(estimate_tricks(h, book) < 1.2 and nil_likelihood(h, book) >= 0.4
                            for h in hands)
    assert rule < 0.045


def test_a_chance_of_nil_is_logistic_and_bounded() -> None:
    nil = NilReading(intercept=1.0, count=-2.0, likelihood=1.0)
    assert nil.chance(0.5, 1.0) == pytest.approx(0.5)  # z = 1 - 1 + 0
    assert nil.chance(0.0, 1.0) == pytest.approx(1 / (1 + math.exp(-1.0)))
    assert nil.chance(0.0, 0.5) < nil.chance(0.0, 1.0)
    assert nil.chance(3.0, 1.0) < nil.chance(1.0, 1.0)
    assert 0.0 < nil.chance(1000.0, 0.0) < 1e-12  # no overflow, no log of zero
    assert nil.chance(-1000.0, 1.0) == pytest.approx(1.0)


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
    book = k.rulebook_of(rules)
    state = new_game(rules, seed=5)
    state = apply(state, Bid(3))
    state = apply(state, Bid(3))
    sampler = DealSampler(player_view(state, 3), reading=reading, edge=edge)
    rng = random.Random(2)
    return [estimate_tricks(sampler.sample(rng)[seat], book) for _ in range(draws)]


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


def test_seats_yet_to_bid_are_imagined_bidding_nil_by_their_draw_and_the_chance() -> None:
    """A seat yet to bid bids nil on a sampled deal when its draw is under the fitted chance
    for its hand, unless its partner (for real or imagined earlier in the bidding order) bid
    nil; without a chance of nil, or with a high draw, it bids plain."""
    rules = PRESETS["partnership"]
    state = new_game(rules, seed=5)
    first = (state.hand.dealer + 1) % 4
    view = player_view(state, first)
    line = BidReading(0.0, 1.0, 1.0)
    nil = NilReading(intercept=0.0, count=-1.0, likelihood=1.0)
    reads = [(0.0, 1.0)] * 4  # each hand's chance 0.5
    order = [(first + turn) % 4 for turn in range(4)]
    low = [0.1] * 4
    left, partner = order[1], order[2]
    _, nils = _fill_bids(view, reads, Bid(3), line, nil, low)
    # the left opponent bids nil first, so its partner (order[3]) does not; the viewer's
    # partner, beside a plain bid, does
    assert [bool(x) for x in nils] == [s in (left, partner) for s in range(4)]
    _, nils = _fill_bids(view, reads, NIL, line, nil, low)
    assert [bool(x) for x in nils] == [s in (first, left) for s in range(4)]  # beside mine
    bids, nils = _fill_bids(view, reads, Bid(3), line, nil, [0.9] * 4)
    assert not any(nils) and bids == [3 if s == first else 1 for s in range(4)]
    _, nils = _fill_bids(view, reads, Bid(3), line, None, low)
    assert not any(nils)  # no chance of nil: never imagined
    _, nils = _fill_bids(view, [(0.0, 1.0)] * 4, Bid(3), line, NilReading(5.0, -1.0, 1.0))
    assert [bool(x) for x in nils] == [s in (left, partner) for s in range(4)]  # draw 0.5


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


def test_the_bench_recovers_a_chance_of_nil_it_is_given() -> None:
    """Bids drawn nil with a known logistic chance give back its coefficients; bids made
    after a partner's nil are left out of the fit."""
    bench = _bench()
    rng = random.Random(9)
    truth = (2.5, -2.0, 1.0)
    rows = []
    for _ in range(6000):
        count = rng.uniform(0.0, 5.0)
        likelihood = rng.choice([1.0, 0.6, 0.25, 0.08, 0.02])
        z = truth[0] + truth[1] * count + truth[2] * math.log(likelihood)
        nil = rng.random() < 1 / (1 + math.exp(-z))
        rows.append(bench.Row("s", 0, 0, count, 0 if nil else 3, nil, likelihood))
    noise = [bench.Row("s", 0, 0, 9.0, 0, True, 1.0, partner_nil=True)] * 200
    line = bench.fit_nil(rows + noise)
    assert line.intercept == pytest.approx(truth[0], abs=0.35)
    assert line.count == pytest.approx(truth[1], abs=0.2)
    assert line.likelihood == pytest.approx(truth[2], abs=0.15)
    assert line.calls == 6000 and line.nils == sum(r.nil for r in rows)


def test_an_auction_records_every_bid_on_a_seen_hand_with_its_count_and_likelihood() -> None:
    bench = _bench()
    rules = PRESETS["partnership"]
    book = k.rulebook_of(rules)
    seen = nils = 0
    for index in range(12):
        rows = bench.auction(("partnership", "easy;normal;hard:iterations=40", index, "t"))
        state = new_game(rules, seed=f"t/{index}", first_dealer=index % rules.players)
        assert len(rows) == 4  # no blind nil at this table: every bid is on a seen hand
        for row in rows:
            assert row.style in ("easy", "normal", "hard:iterations=40")
            assert (row.seat - state.hand.dealer - 1) % rules.players == row.position
            hand = state.hand.hands[row.seat]
            assert row.count == estimate_tricks(hand, book)
            assert row.likelihood == nil_likelihood(hand, book)
            assert (row.bid == 0) if row.nil else (1 <= row.bid <= 13)
            partner = next(r for r in rows if r.seat == rules.partner_of[row.seat])
            assert row.partner_nil == (partner.nil and partner.position < row.position)
        seen += len(rows)
        nils += sum(r.nil for r in rows)
    assert seen == 48 and nils >= 1
