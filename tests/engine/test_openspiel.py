"""A cross-check against OpenSpiel's ``spades`` game on the core both implement.

The same 52 cards are dealt to the same seats, the same bids made and the same random legal
cards played in both; then both must agree on the legal plays (whenever a seat follows, and
whenever it leads before any spade has broken spades), on every trick's winner, and on the
hand's points for each side.

Read from OpenSpiel's source (open_spiel/games/spades/spades.cc and spades_scoring.cc); none
of its code is copied. Its conventions and the known differences from our rulebooks:

- Cards: OpenSpiel's card ``suit * 13 + rank`` with suits C, D, H, S and ranks 2..A is our
  card index exactly (clubs 0-12, diamonds 13-25, hearts 26-38, spades 39-51).
- Seats and dealer: OpenSpiel has no dealer; its i-th chance action (a card) goes to player
  ``i % 4``, North (0) bids first and leads the first trick. Ours deals one card at a time
  from the dealer's left and the first dealer is seat 3, so with the same deck seat ``s``
  gets the same cards as OpenSpiel's player ``s``, and seat 0 bids and leads first in both.
  Partnerships are [0, 2] and [1, 3] in both.
- Spades never break in OpenSpiel: ``is_spades_broken_`` starts false and is never set, so
  a leader who holds any other suit may never lead a spade. Ours lets a spade be led once
  spades are broken. Compared: every follow, and every lead while ours is not broken; once
  broken, OpenSpiel's leads must be a subset of ours (checked), and both play from it.
- Partners' bids are capped at 13 together in OpenSpiel (ours allows 0-13 each): the bids
  drawn here keep each side's total at 13 or less.
- OpenSpiel counts a nil bidder's tricks toward the side's contract; ours (every rulebook)
  never does. Nil bids are left out here (bids are 1-13), so the points are comparable.
- OpenSpiel's bag penalty reads the bags from the last digit of a side's running score; one
  hand from 0-0 is compared, where that is the same as our bag count of 0.
- OpenSpiel's game is one hand; ``returns()`` are each side's points for it.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from spades.engine import PRESETS, Bid, Card, Play, apply, cards_in, legal_actions, new_game

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (PyPI open-spiel) is not installed")

HANDS = 1000
BID_BASE = 52  # OpenSpiel's bid actions: 52 + tricks


def _spade(card: int) -> bool:
    return card >= 39


def test_same_hands_as_openspiel() -> None:
    game = pyspiel.load_game("spades")
    rules = PRESETS["partnership"]
    rng = random.Random(20240601)
    seen: Counter[str] = Counter()
    for number in range(HANDS):
        deck = rng.sample(list(rules.deck), 52)
        ours = new_game(rules, decks=[deck])
        theirs = game.new_initial_state()
        for card in deck:
            assert theirs.is_chance_node()
            theirs.apply_action(int(card))

        # bids: seat 0 first in both; no nil; each side's total at most 13
        bids = [0, 0, 0, 0]
        for seat in range(4):
            assert theirs.current_player() == ours.hand.turn == seat
            partner = (seat + 2) % 4
            top = 13 - bids[partner] if seat >= 2 else 13
            bid = rng.randint(1, min(top, 13 - (1 if seat < 2 else 0)))
            bids[seat] = bid
            assert BID_BASE + bid in theirs.legal_actions()
            assert Bid(bid) in legal_actions(ours)
            theirs.apply_action(BID_BASE + bid)
            ours = apply(ours, Bid(bid))

        # play: the same legal plays where both rules agree, the same trick winners
        winners: list[int] = []
        for step in range(52):
            hand = ours.hand
            seat = hand.turn
            assert theirs.current_player() == seat, f"hand {number}, card {step}"
            mine = {a.card for a in legal_actions(ours) if isinstance(a, Play)}
            other = set(theirs.legal_actions())
            held = cards_in(hand.hands[seat])
            if hand.trick:
                assert mine == other, "following: the same plays"
                seen["follow"] += 1
            elif not hand.broken:
                assert mine == other, "leading before spades are broken: the same plays"
                seen["lead, not broken"] += 1
            else:
                assert other <= mine
                plain = {c for c in held if not _spade(c)}
                assert other == (plain or set(held)), "OpenSpiel never breaks spades"
                if plain and any(_spade(c) for c in held):
                    assert mine - other, "ours lets a spade be led once broken"
                    seen["lead, broken: ours may lead a spade"] += 1
            card = rng.choice(sorted(other))
            theirs.apply_action(card)
            ours = apply(ours, Play(Card(card)))
            if step % 4 == 3:
                winner = theirs.current_player() if step < 51 else None
                if winner is not None:
                    assert ours.hand.turn == winner, "the same trick winner"
                    winners.append(winner)
        assert theirs.is_terminal()
        result = ours.results[0]
        assert list(result.bids) == [Bid(b) for b in bids]
        ours_winners = [t.winner for t in result.history]
        assert ours_winners[:-1] == winners
        assert sum(result.tricks) == 13
        returns = theirs.returns()
        assert returns[0] == returns[2] and returns[1] == returns[3]
        assert list(result.score.points) == [int(returns[0]), int(returns[1])], (
            f"hand {number}: bids {bids}, tricks {result.tricks}")
        seen["hands"] += 1
    assert seen["hands"] == HANDS
    assert seen["follow"] > 0 and seen["lead, not broken"] > 0
    assert seen["lead, broken: ours may lead a spade"] > 0
