"""A side's contract and a made nil, as the engine writes them once (``contract_of``,
``nil_made``) for its own scoring and for the statistics: a nil bidder's tricks never count
towards the partner's bid (001), and a nil is made by taking no trick."""

from __future__ import annotations

from spades.engine import NIL, Bid, Contract, contract_of, nil_made


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
