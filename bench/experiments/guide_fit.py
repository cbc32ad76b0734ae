"""How closely the rule-guided playouts follow the table's play: leads and second seat.

Reads the runs ``bench/experiments/screen.py`` keeps of a baseline (``--cache``), in two
parts.

- **Habits.** At every card the table played wanting tricks (as ``kernel.Guide`` reads the
  score), with no nil alive and a choice, how often each contender did one thing. On lead
  with spades and other suits: led a spade (the Guide never did, unless its only boss was a
  spade). In second seat, able to win the trick or play under it: played to win. The second
  seat's situations are the Guide's own: void in the suit led (it always ruffed), holding a
  sure winner of the suit (it always took it), holding only winners a later seat may beat
  (it always played low).
- **Foresight.** Each hand is played out ``--playouts`` times from its first lead, every
  hand as it was dealt and every bid as made, with the Guide at each ``--habits
  RUFF,SECOND,TRUMP`` (``kernel.Guide``'s ``ruff``, ``second`` and ``trump``; ``1,-1,0`` is
  how the playouts played before them). For each contender: the tricks the playouts give a
  contract's side less those it took at the table, and the log loss of the playouts' chance
  of each contract and each nil (lower is better), on the same playout seeds for every
  setting.

    PYTHONPATH=src python3 bench/experiments/screen.py hard --deals 300 --seed 2 --jobs 2 \\
        --cache /tmp/hard-seed2.pickle
    PYTHONPATH=src python3 bench/experiments/guide_fit.py /tmp/hard-seed2.pickle \\
        --habits 1,-1,0 0.5,0.5,0.3

Figures only; nothing here can fail on strength.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from spades.ai import kernel as k
from spades.ai.arena import ArenaConfig, run_start
from spades.engine import (
    ABOVE,
    FIRST_SPADE,
    NON_SPADES_MASK,
    SUIT_MASK_OF,
    SUIT_OF,
    GameState,
    Phase,
    Play,
    apply,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import nil_chances  # the cache reader and the search's view of a hand in play
import screen  # the cache holds its runs

#: the situations, in the order they are reported: on lead, then in second seat
SITUATIONS = ("lead", "void", "sure", "unsure")


@dataclass(frozen=True)
class Habit:
    """One card played with a choice: by whom, where, and whether it was the habit asked
    about (on lead: a spade; in second seat: a card that wins the trick so far)."""

    player: int
    situation: str
    chose: bool


@dataclass(frozen=True)
class Outcome:
    """One contract or nil at the table: whose, the playouts' chance and mean tricks, the
    fact (``taken``: the tricks the contract's side or the nil bidder took)."""

    player: int
    nil: bool
    chance: float
    mean: float
    made: bool
    taken: int


def situation(book: k.Rulebook, pos: k.Position) -> str | None:
    """The situation of the seat to play, or None when it is not one: neither on lead nor
    second to play, a nil alive at the table, not wanting tricks, or no choice (on lead
    between a spade and another suit; in second seat between winning and playing under)."""
    if len(pos.trick) > 1:
        return None
    guide = k.Guide(book, pos.bids, pos.nils, eps=0.0)
    if any(guide.nil[s] and not pos.tricks[s] for s in range(book.n)):
        return None
    seat = pos.turn
    if not guide.wants_tricks(pos, book.side_of[seat]):
        return None
    legal = k.legal_mask(book, pos)
    if not pos.trick:
        return "lead" if legal & k.SPADES and legal & NON_SPADES_MASK else None
    led = SUIT_MASK_OF[pos.trick[0]]
    winners = legal & k.BEATERS[pos.win_card][SUIT_OF[pos.trick[0]]]
    if not winners or not legal & ~winners:
        return None
    follow = winners & led
    if not follow:
        return "void"
    live = book.deck_mask & ~pos.played & ~pos.hands[seat] & led
    sure = follow & ABOVE[live.bit_length() - 1] if live else follow
    return "sure" if sure else "unsure"


def _hands(config: ArenaConfig,
           runs: Sequence[screen.Run]) -> Iterator[tuple[int, screen.Run, tuple[int, ...],
                                                         GameState]]:
    """Each run with its seats' contenders and the state before its first card."""
    for number, run in enumerate(runs):
        index, which = divmod(number, 2)
        who, _, _, state = run_start(config, index, which)
        for _, action in run.result.actions:
            if isinstance(action, Play):
                break
            state = apply(state, action)
        yield number, run, tuple(who), state


def habits(config: ArenaConfig, runs: Sequence[screen.Run]) -> list[Habit]:
    """Every card of ``runs`` played in a situation, and whether it was the habit."""
    book = k.rulebook_of(config.rules)
    out: list[Habit] = []
    for _, run, who, state in _hands(config, runs):
        for action in _plays(run):
            if state.hand.phase is not Phase.PLAY:
                break
            pos = nil_chances._position(state)
            kind = situation(book, pos)
            card = int(action.card)
            if kind == "lead":
                out.append(Habit(who[pos.turn], kind, card >= FIRST_SPADE))
            elif kind is not None:
                beat = k.BEATERS[pos.win_card][SUIT_OF[pos.trick[0]]]
                out.append(Habit(who[pos.turn], kind, bool(beat >> card & 1)))
            state = apply(state, action)
    return out


def _plays(run: screen.Run) -> list[Play]:
    return [action for _, action in run.result.actions if isinstance(action, Play)]


def foresee(config: ArenaConfig, runs: Sequence[screen.Run], ruff: float, second: float,
            playouts: int, attack: float = 1.0, trump: float = 0.0) -> list[Outcome]:
    """Every contract and nil of ``runs`` with the chance the playouts give it, the Guide
    playing with ``ruff`` and ``second``, a nil's opponents leading low at it ``attack``
    of the time."""
    book = k.rulebook_of(config.rules)
    out: list[Outcome] = []
    for number, run, who, state in _hands(config, runs):
        start = nil_chances._position(state)
        nils = [s for s in range(book.n) if start.nils[s]]
        guide = k.Guide(book, start.bids, start.nils, ruff=ruff, second=second, trump=trump,
                        attack=[attack] * book.n)
        rnd = random.Random(f"{number}/foresight").random
        ends = [k.guided_playout(book, start.copy(), guide, rnd) for _ in range(playouts)]
        tricks = run.result.tricks
        for seat in nils:
            made = sum(not end[seat] for end in ends) / playouts
            mean = sum(end[seat] for end in ends) / playouts
            out.append(Outcome(who[seat], True, made, mean, not tricks[seat], tricks[seat]))
        for side in book.sides:
            bidders = [s for s in side if not start.nils[s]]
            if not bidders:
                continue
            contract = sum(start.bids[s] for s in bidders)
            got = [sum(end[s] for s in bidders) for end in ends]
            taken = sum(tricks[s] for s in bidders)
            out.append(Outcome(who[side[0]], False,
                               sum(g >= contract for g in got) / playouts,
                               sum(got) / playouts, taken >= contract, taken))
    return out


def log_loss(found: Sequence[Outcome]) -> float:
    """The mean of -log(chance given to what happened), each chance kept within 1/1000 of
    0 and 1."""
    return sum(-math.log(min(1 - 1e-3, max(1e-3, f.chance if f.made else 1 - f.chance)))
               for f in found) / len(found)


def report_habits(found: Sequence[Habit], names: Sequence[str]) -> list[str]:
    lines = ["wanting tricks, no nil alive: on lead with spades and other suits, the share "
             "led a spade; in second seat with a choice, the share played to win"]
    for player, name in enumerate(names):
        cells = []
        for kind in SITUATIONS:
            mine = [h for h in found if h.player == player and h.situation == kind]
            share = f"{sum(h.chose for h in mine) / len(mine):.2f}" if mine else "-"
            cells.append(f"{kind} {share} of {len(mine)}")
        lines.append(f"  {name}: " + ", ".join(cells))
    return lines


def report_foresight(found: Sequence[Outcome], names: Sequence[str], ruff: float,
                     second: float, trump: float = 0.0) -> list[str]:
    lines = [f"ruff {ruff:g}, second {second:g}, trump {trump:g}"]
    for player, name in enumerate(names):
        for nil, what in ((False, "contracts"), (True, "nils")):
            mine = [f for f in found if f.player == player and f.nil == nil]
            if not mine:
                lines.append(f"  {name}'s {what}: none")
                continue
            over = sum(f.mean - f.taken for f in mine) / len(mine)
            chance = sum(f.chance for f in mine) / len(mine)
            made = sum(f.made for f in mine) / len(mine)
            lines.append(f"  {name}'s {what}: {len(mine)}, tricks over the table's "
                         f"{over:+.3f}, made {chance:.3f} (the table {made:.3f}), log loss "
                         f"{log_loss(mine):.4f}")
    return lines


def _setting(text: str) -> tuple[float, float, float]:
    parts = [float(part) for part in text.split(",")]
    return parts[0], parts[1], parts[2] if len(parts) > 2 else 0.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cache", type=Path,
                        help="a baseline's runs kept by bench/experiments/screen.py")
    parser.add_argument("--habits", type=_setting, nargs="+", default=[(1.0, -1.0, 0.0)],
                        metavar="RUFF,SECOND", help="Guide settings, each compared")
    parser.add_argument("--attack", type=float, default=1.0,
                        help="the chance that a nil's opponents lead low at it")
    parser.add_argument("--playouts", type=int, default=300, help="playouts a hand")
    args = parser.parse_args(argv)
    kept = nil_chances.read_cache(args.cache)
    print(kept.title)
    print("\n".join(report_habits(habits(kept.config, kept.runs), kept.names)))
    for ruff, second, trump in args.habits:
        found = foresee(kept.config, kept.runs, ruff, second, args.playouts, args.attack, trump)
        print("\n".join(report_foresight(found, kept.names, ruff, second, trump)))

if __name__ == "__main__":
    main()
