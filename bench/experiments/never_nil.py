"""Not a command: the Normal player (whose bid is the bid suggestion's) that never bids nil
when it has a number to bid, seated by path, to measure what the suggestion's nils are worth.

Wherever Normal (and so the suggestion) would bid nil by choice, this player bids the number
Normal would bid were nil not allowed; every other decision is Normal's. Paired against
Normal on the same deals (issue 38 item 4, bench/RESULTS.md):

    PYTHONPATH=src python3 bench/experiments/paired.py normal \\
        bench/experiments/never_nil.py --against normal --preset two-player --deals 600
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from spades.ai.bidding import normal_bid
from spades.ai.normal import NormalPlayer
from spades.engine import Action, Bid, Phase, PlayerView


@dataclass
class NeverNil(NormalPlayer):
    """Normal, except that a nil chosen by choice becomes Normal's number."""

    name: str = "never-nil"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        action = super().choose(view, rng)
        if view.phase is not Phase.BID or not isinstance(action, Bid) or not action.nil:
            return action
        plain = tuple(a for a in view.legal if not (isinstance(a, Bid) and a.nil))
        if not any(isinstance(a, Bid) for a in plain):
            return action  # nil is forced (suicide): nothing else to bid
        # Normal's own number: its bid with nil taken off the table
        return normal_bid(replace(view, legal=plain)).bid


def make_player(**options: Any) -> NeverNil:
    """The arena's entry point for a contender given by path."""
    return NeverNil(**options)
