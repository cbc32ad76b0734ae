"""Is the bid suggestion's nil right where a failed nil costs no points (two-player)?

    PYTHONPATH=src python3 bench/experiments/free_nil.py [--preset two-player] \\
        [--deals 4000] [--seed 38] [--jobs 2]

The suggestion's bid is the Normal player's. Normal plays every seat of the arena's deals
(``spades arena``'s seeds and dealers); at each bid where Normal bids nil by choice, the hand
is played on twice from there, every other decision Normal's: once with the nil, once with
the number Normal bids when nil is off the table (``never_nil.py``). Paired per hand: the
nil bidder's points for the hand minus its opponents' (bags not charged, and charged their
share of the bag penalty), nil against the number, with the 95 % interval; the nils made;
what the suggestion's reason says of them on average (``suggest.nil_points`` against
``contract_value``); and where the suggestion now bids the number instead, what that
gains. Figures only (issue 38 item 4; bench/RESULTS.md).
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from never_nil import NeverNil  # (this folder)

from spades.ai.arena import seat_choice
from spades.ai.bidding import contract_value, normal_bid
from spades.ai.normal import NormalPlayer
from spades.ai.suggest import nil_points, suggest_bid
from spades.engine import (
    Action,
    Bid,
    GameState,
    Phase,
    Rules,
    apply,
    find_preset,
    new_game,
    player_view,
)


@dataclass(frozen=True)
class Fork:
    """One nil by choice, played on both ways."""

    nil_margin: float
    number_margin: float
    nil_charged: float
    number_charged: float
    made: bool
    said_nil: float  #: the reason's expected points of the nil
    said_number: float  #: and of the number
    suggested_nil: bool  #: whether the suggestion (now) bids the nil


def _finish(state: GameState, rngs: list[random.Random]) -> GameState:
    normal = NormalPlayer()
    while not state.results:
        seat = state.hand.turn
        state = apply(state, seat_choice(normal, player_view(state, seat), rngs[seat]))
    return state


def _margins(rules: Rules, state: GameState, seat: int) -> tuple[float, float]:
    """The seat's side's points for the hand minus the mean of the other sides', as scored
    and with each side's bags charged their share of the penalty."""
    score = state.results[0].score
    share = rules.bag_penalty / rules.bag_limit if rules.bag_limit else 0.0
    side = rules.side_of[seat]
    points = [float(p) for p in score.points]
    charged = [p - share * b for p, b in zip(points, score.bags, strict=True)]
    out = []
    for values in (points, charged):
        others = [v for s, v in enumerate(values) if s != side]
        out.append(values[side] - statistics.fmean(others))
    return out[0], out[1]


def forks(job: tuple[str, str, int]) -> list[Fork]:
    """The nils by choice of deal ``index``, each played on both ways."""
    preset, seed, index = job
    rules = find_preset(preset)
    normal, never = NormalPlayer(), NeverNil()
    state = new_game(rules, seed=f"{seed}/{index}", first_dealer=index % rules.players)
    rngs = [random.Random(f"{seed}/{index}/{s}") for s in range(rules.players)]
    found: list[Fork] = []
    while not state.results:
        seat = state.hand.turn
        view = player_view(state, seat)
        action: Action = seat_choice(normal, view, rngs[seat])
        if view.phase is Phase.BID and isinstance(action, Bid) and action.nil:
            other = never.choose(view, copy.deepcopy(rngs[seat]))
            if other != action:
                est = normal_bid(view).estimate
                assert isinstance(other, Bid)
                ends = [_finish(apply(state, bid), copy.deepcopy(rngs)) for bid in (action, other)]
                (nil, nil_c), (num, num_c) = (_margins(rules, end, seat) for end in ends)
                found.append(Fork(nil, num, nil_c, num_c, ends[0].results[0].tricks[seat] == 0,
                                  nil_points(rules, est.nil_chance, est.tricks),
                                  contract_value(est.tricks, rules, other.tricks),
                                  suggest_bid(view).bid.nil))
        state = apply(state, action)
    return found


def _interval(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean:+7.2f} ± {half:5.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="two-player")
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", default="38")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    jobs = [(args.preset, args.seed, i) for i in range(args.deals)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            found = [f for part in pool.map(forks, jobs, chunksize=20) for f in part]
    else:
        found = [f for job in jobs for f in forks(job)]
    print(f"{args.deals} deals of {args.preset}, seed {args.seed}: {len(found)} nils by choice")
    if not found:
        return
    made = sum(f.made for f in found)
    print(f"  nils made: {made} of {len(found)}")
    for name, nil, num in (("not charged", [f.nil_margin for f in found],
                            [f.number_margin for f in found]),
                           ("bags charged", [f.nil_charged for f in found],
                            [f.number_charged for f in found])):
        diff = [a - b for a, b in zip(nil, num, strict=True)]
        print(f"  {name:12s}: margin with the nil {statistics.fmean(nil):+7.2f}, with the "
              f"number {statistics.fmean(num):+7.2f}; nil minus number {_interval(diff)}")
    said_nil = statistics.fmean(f.said_nil for f in found)
    said_number = statistics.fmean(f.said_number for f in found)
    print(f"  the reason's figures on average: nil {said_nil:+.1f}, the number {said_number:+.1f}")
    kept = [f for f in found if f.suggested_nil]
    gain = [0.0 if f.suggested_nil else f.number_charged - f.nil_charged for f in found]
    print(f"  the suggestion now bids the nil in {len(kept)} of them; its gain over Normal's "
          f"nil, bags charged: {_interval(gain)} a nil")


if __name__ == "__main__":
    main()
