"""A side's contract and a made nil, as the engine writes them once (``contract_of``,
``nil_made``) for its own scoring and for the statistics: a nil bidder's tricks never count
towards the partner's bid (001), and a nil is made by taking no trick."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spades.engine import (
    BLIND_NIL,
    NIL,
    PRESETS,
    Bid,
    Contract,
    contract_of,
    contract_points,
    nil_made,
    score_hand,
    side_points,
)


def test_a_side_contract_adds_its_non_nil_bids_and_their_tricks() -> None:
    bids = [Bid(3), NIL, Bid(4), Bid(2)]
    tricks = [4, 1, 5, 3]
    assert contract_of((0, 2), bids, tricks) == Contract(bid=7, taken=9, bidders=2)
    # seat 1 bid nil and took a trick: it does not help seat 3's bid of 2
    assert contract_of((1, 3), bids, tricks) == Contract(bid=2, taken=3, bidders=1)


def test_a_contract_is_made_at_its_bid_and_missed_below_it() -> None:
    assert Contract(bid=5, taken=5, bidders=2).made
    assert Contract(bid=5, taken=8, bidders=2).made
    assert not Contract(bid=5, taken=4, bidders=2).made


def test_a_side_of_nil_bidders_has_no_contract() -> None:
    assert contract_of((0, 2), [NIL, Bid(3), NIL, Bid(3)], [0, 6, 2, 5]) is None


def test_a_nil_is_made_by_taking_no_trick() -> None:
    assert nil_made(0)
    assert not nil_made(1)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_side_points_scores_the_contract_contract_of_makes(data: st.DataObject) -> None:
    """``side_points`` sums a side's contract in the pass that scores its nils (it is the
    playouts' scoring): what it scores is each nil's points and bags plus what
    ``contract_of``'s contract scores (``contract_points``, its overtricks as bags, or a
    shot at the moon), on random bids and tricks under every preset."""
    rules = PRESETS[data.draw(st.sampled_from(sorted(PRESETS)), label="preset")]
    n = rules.players
    bids = data.draw(st.lists(st.sampled_from([NIL, BLIND_NIL, *(Bid(t) for t in range(
        rules.hand_size + 1))]), min_size=n, max_size=n), label="bids")
    tricks = data.draw(st.lists(st.integers(0, rules.hand_size), min_size=n, max_size=n),
                       label="tricks")
    for side in rules.sides:
        nils = [(side_points(rules, [s], bids, tricks) if bids[s].nil else (0, 0))
                for s in side]
        expected = [sum(p for p, _ in nils), sum(b for _, b in nils)]
        contract = contract_of(side, bids, tricks)
        if contract is not None:
            moon = (rules.moon_value is not None and contract.bidders == 1
                    and len(side) == 1 and contract.bid == rules.hand_size)
            if moon:
                points, bags = ((rules.moon_value, 0) if contract.made
                                else (contract.taken, contract.taken))
            else:
                points = contract_points(rules, contract.bid, contract.taken)
                bags = contract.taken - contract.bid if contract.made else 0
            expected = [expected[0] + points, expected[1] + bags]
        assert side_points(rules, side, bids, tricks) == tuple(expected)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_a_hand_score_says_the_bags_each_side_took(data: st.DataObject) -> None:
    """``bags_taken`` (sent on every score sheet line, so that a page never works bags out
    itself) is what ``side_points`` counts: a failed nil's or moon's tricks included where
    the rules make them bags; the bags after the hand are those before plus these, less the
    penalties paid."""
    rules = PRESETS[data.draw(st.sampled_from(sorted(PRESETS)), label="preset")]
    n = rules.players
    bids = data.draw(st.lists(st.sampled_from([NIL, BLIND_NIL, *(Bid(t) for t in range(
        rules.hand_size + 1))]), min_size=n, max_size=n), label="bids")
    tricks = data.draw(st.lists(st.integers(0, rules.hand_size), min_size=n, max_size=n),
                       label="tricks")
    before = data.draw(st.lists(st.integers(0, 9), min_size=len(rules.sides),
                                max_size=len(rules.sides)), label="bags")
    score = score_hand(rules, bids, tricks, [0] * len(rules.sides), before)
    assert score.bags_taken == tuple(side_points(rules, side, bids, tricks)[1]
                                     for side in rules.sides)
    for i in range(len(rules.sides)):
        limit = rules.bag_limit
        total = before[i] + score.bags_taken[i]
        assert score.bags[i] == (total if limit is None else total % limit)
