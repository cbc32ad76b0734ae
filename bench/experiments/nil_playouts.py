"""How well the rule-guided playouts foresee the nils bid at the table.

Reads the runs ``bench/experiments/screen.py`` keeps of a baseline (``--cache``). For each
hand with a nil bid in it, it plays the hand out from its first lead ``--playouts`` times with
``kernel.Guide``, every hand as it was dealt and every bid as it was made, and counts how
often each nil is made. Against what happened at the table that gives, for the nils of each
contender: the mean chance the playouts gave, the share really made, and the log loss of the
playouts' chance (lower is better), with the nils grouped by that chance. ``--attack`` gives
the chance that a seat leading against an opponent's live nil leads low at it (the Guide's
``attack``; 1 always, as the playouts have played since they were written); several values
are compared on the same hands.

    PYTHONPATH=src python3 bench/experiments/screen.py hard --deals 300 --seed 2 --jobs 2 \\
        --cache /tmp/hard-seed2.pickle
    PYTHONPATH=src python3 bench/experiments/nil_playouts.py /tmp/hard-seed2.pickle --attack 1 0.3

Figures only; nothing here can fail on strength.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from spades.ai import kernel as k
from spades.ai.arena import ArenaConfig, run_start
from spades.engine import Play, apply

sys.path.insert(0, str(Path(__file__).resolve().parent))
import nil_chances  # the cache reader and the search's view of a hand in play
import screen  # the cache holds its runs


@dataclass(frozen=True)
class Foresight:
    """One nil at the table: whose it was (the contender), the playouts' chance, the fact."""

    bidder: int
    chance: float
    made: bool


def foresee(config: ArenaConfig, runs: Sequence[screen.Run], attack: float,
            playouts: int) -> list[Foresight]:
    """Every nil bid in ``runs`` (the runs of ``config``, two a deal), with the chance the
    playouts give it when the nil bidder's opponents lead low at it ``attack`` of the time."""
    book = k.rulebook_of(config.rules)
    out: list[Foresight] = []
    for number, run in enumerate(runs):
        result = run.result
        nil_seats = [seat for seat, bid in enumerate(result.bids) if bid.nil]
        if not nil_seats:
            continue
        index, which = divmod(number, 2)
        who, _, _, state = run_start(config, index, which)
        for _, action in result.actions:
            if isinstance(action, Play):
                break
            state = apply(state, action)
        start = nil_chances._position(state)
        rnd = random.Random(f"{number}/{attack}").random
        for seat in nil_seats:
            side = book.side_of[seat]
            odds = [attack if book.side_of[s] != side else 1.0 for s in range(book.n)]
            guide = k.Guide(book, start.bids, start.nils, attack=odds)
            made = sum(not k.guided_playout(book, start.copy(), guide, rnd)[seat]
                       for _ in range(playouts))
            out.append(Foresight(who[seat], made / playouts, not result.tricks[seat]))
    return out


def log_loss(found: Sequence[Foresight]) -> float:
    """The mean of -log(chance given to what happened), each chance kept within 1/1000 of
    0 and 1 (a nil the playouts never made, made at the table, costs log 1000)."""
    return sum(-math.log(min(1 - 1e-3, max(1e-3, f.chance if f.made else 1 - f.chance)))
               for f in found) / len(found)


def report(found: Sequence[Foresight], names: tuple[str, str], attack: float) -> list[str]:
    lines = [f"attack {attack:g} (opponents of a live nil lead low at it this share of the "
             f"time)"]
    for bidder, name in enumerate(names):
        mine = [f for f in found if f.bidder == bidder]
        if not mine:
            lines.append(f"  {name}'s nils: none")
            continue
        chance = sum(f.chance for f in mine) / len(mine)
        made = sum(f.made for f in mine) / len(mine)
        lines.append(f"  {name}'s nils: {len(mine)}, playouts made {chance:.3f}, the table "
                     f"{made:.3f}, log loss {log_loss(mine):.3f}")
        for low, high in ((0.0, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.01)):
            group = [f for f in mine if low <= f.chance < high]
            if group:
                lines.append(f"    chance {low:.1f}-{min(high, 1.0):.1f}: {len(group):4d} nils, "
                             f"made {sum(f.made for f in group) / len(group):.2f}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cache", type=Path,
                        help="a baseline's runs kept by bench/experiments/screen.py")
    parser.add_argument("--attack", type=float, nargs="+", default=[1.0],
                        help="chances of leading low at a live nil, each compared")
    parser.add_argument("--playouts", type=int, default=200, help="playouts a nil")
    args = parser.parse_args(argv)
    kept = nil_chances.read_cache(args.cache)
    print(kept.title)
    for attack in args.attack:
        print("\n".join(report(foresee(kept.config, kept.runs, attack, args.playouts),
                               kept.names, attack)))

if __name__ == "__main__":
    main()
