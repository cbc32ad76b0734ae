"""Inference from play: are the habits ``spades.ai.clues`` reads true of players, and do the
deals Hard samples find the cards better for reading them?

For each style it plays hands with that style at every seat and, at each of seat 0's and
seat 2's cards after the first trick, reads the clues in the others' plays from the seat's
view. Per habit it prints how often the true holdings break a clue against how often deals
drawn without the clues do (a habit worth reading is broken far less often by the truth).
Then it samples deals for the same views with each ``--trust`` (0: bids only; -1: not even
the bids) and prints the mean chance the samples give each unseen card's true holder,
overall and from the seventh trick on. Figures only; nothing here can fail.

    PYTHONPATH=src python3 bench/experiments/clues.py           # from the project root
    PYTHONPATH=src python3 bench/experiments/clues.py --styles frozen --deals 60 --trust=-1,0,0.9
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from spades.ai.arena import parse_contender
from spades.ai.clues import HIGHEST, LOWEST, WINNER, clues_of
from spades.ai.kernel import cards_of
from spades.ai.sampler import DealSampler, ImpossibleDeal
from spades.engine import Look, Phase, PlayerView, apply, find_preset, new_game, player_view

HABITS = {LOWEST: "lowest loser / cheapest winner", HIGHEST: "nil bidder's highest loser",
          WINNER: "took the trick when it could"}


def belief(view: PlayerView, hands: tuple[int, ...], trust: float, draws: int,
           rng: random.Random) -> float:
    """The mean share of ``draws`` sampled deals that give each unseen card its true holder."""
    try:
        sampler = DealSampler(view, trust=max(trust, 0.0), evidence=trust >= 0)
    except ImpossibleDeal:
        return float("nan")
    hits: dict[tuple[int, int], int] = defaultdict(int)
    seat = view.seat
    for _ in range(draws):
        deal = sampler.sample(rng)
        for holder, held in enumerate(deal[:len(hands)]):
            if holder != seat:
                for card in cards_of(held):
                    hits[(card, holder)] += 1
    shares = [hits[(card, holder)] / draws for holder, held in enumerate(hands)
              if holder != seat for card in cards_of(int(held))]
    return statistics.mean(shares) if shares else float("nan")


def _mean(values: list[float]) -> float:
    values = [v for v in values if not math.isnan(v)]
    return statistics.mean(values) if values else float("nan")


def run(style: str, preset: str, deals: int, trusts: list[float], draws: int,
        seed: str) -> None:
    rules = find_preset(preset)
    n = rules.players
    true_broken: dict[int, list[bool]] = defaultdict(list)
    random_broken: dict[int, list[float]] = defaultdict(list)
    beliefs: dict[float, list[float]] = defaultdict(list)
    late: dict[float, list[float]] = defaultdict(list)
    for index in range(deals):
        players = [parse_contender(style).make() for _ in range(n)]
        rngs = [random.Random(f"{seed}/{index}/{s}") for s in range(n)]
        state = new_game(rules, seed=f"{seed}/clues/{index}", first_dealer=index % n)
        rng = random.Random(f"{seed}/{index}")
        while not state.results:
            seat = state.hand.turn
            view = player_view(state, seat)
            if state.phase is Phase.PLAY and seat in (0, 2 % n) and view.history:
                hands = state.hand.hands
                clues = clues_of(view)
                uniform = DealSampler(view, evidence=False)
                drawn = [uniform.uniform(rng) for _ in range(10)]
                for clue in clues:
                    true_broken[clue.habit].append(clue.broken(hands[clue.seat]))
                    random_broken[clue.habit].append(
                        sum(clue.broken(d[clue.seat]) for d in drawn) / len(drawn))
                for trust in trusts:
                    share = belief(view, hands, trust, draws, random.Random(f"{index}/{seat}"))
                    beliefs[trust].append(share)
                    if len(view.history) >= 6:
                        late[trust].append(share)
            action = Look(seat) if view.face_down else players[seat].choose(view, rngs[seat])
            state = apply(state, action)
    print(f"{style} at every seat, {preset}, {deals} hands")
    for habit, name in HABITS.items():
        got = true_broken[habit]
        if got:
            print(f"  {name:32} {len(got):5} clues read: broken by the true hands "
                  f"{sum(got) / len(got):.3f}, by deals drawn without them "
                  f"{statistics.mean(random_broken[habit]):.3f}")
    for trust in trusts:
        label = "no evidence" if trust < 0 else f"trust {trust:g}"
        print(f"  {label:12} true holder's share {_mean(beliefs[trust]):.4f} over "
              f"{len(beliefs[trust])} views; from trick 7 {_mean(late[trust]):.4f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--styles", default="normal,frozen,hard:iterations=100")
    parser.add_argument("--preset", default="partnership")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--trust", default="-1,0,0.5,0.9")
    parser.add_argument("--draws", type=int, default=40)
    parser.add_argument("--seed", default="1")
    args = parser.parse_args(argv)
    trusts = [float(x) for x in args.trust.split(",")]
    for style in args.styles.split(","):
        run(style, args.preset, args.deals, trusts, args.draws, args.seed)


if __name__ == "__main__":
    if not Path("bench/yardstick").is_dir():
        sys.exit("run from the project's root (bench/yardstick holds the frozen Normal)")
    main()
