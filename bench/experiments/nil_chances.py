"""Which nils at the table could have gone the other way, double dummy.

Reads the runs ``bench/experiments/screen.py`` keeps of a baseline (``--cache``) and
replays each hand with a nil bid in it. From the first position with at most ``--tricks``
tricks left whose answer the search finds within ``--nodes`` positions, it asks, every hand
visible: can the nil bidder's opponents still force it to take a trick, whatever its side
plays? A made nil
that was breakable there was let through by a later card of the defence; a lost nil that
could be held there was thrown by a later card of the bidder's side. The rest were beyond
saving (or breaking) by then, whoever played them, so no card play gains them back: they
are the bids' doing, or the first tricks'.

    PYTHONPATH=src python3 bench/experiments/screen.py hard --deals 300 --seed 2 --jobs 2 \\
        --cache /tmp/hard-seed2.pickle
    PYTHONPATH=src python3 bench/experiments/nil_chances.py /tmp/hard-seed2.pickle

Figures only; nothing here can fail on strength.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path

from spades.ai import kernel as k
from spades.ai.arena import ArenaConfig, parse_contender, run_start
from spades.ai.hard import _bids_of
from spades.ai.hard import _position as hard_position
from spades.ai.solver import distinct
from spades.engine import PRESETS, GameState, Phase, Play, apply, player_view

sys.path.insert(0, str(Path(__file__).resolve().parent))
import screen  # the cache holds its runs


class TooDeep(Exception):
    """The search visited more positions than it may."""


def forced(book: k.Rulebook, pos: k.Position, seat: int, nodes: int) -> bool | None:
    """Can the sides against ``seat`` make it win a trick from ``pos``, every hand visible,
    whatever ``seat``'s side plays? None when the answer takes more than ``nodes``
    positions to find."""
    try:
        return _forced(book, pos, seat, {}, [nodes])
    except TooDeep:
        return None


def _forced(book: k.Rulebook, pos: k.Position, seat: int, memo: dict[tuple[object, ...], bool],
            budget: list[int]) -> bool:
    if pos.tricks[seat]:
        return True
    if not pos.left:
        return False
    key: tuple[object, ...] | None = None
    if not pos.trick:
        key = (*pos.hands, pos.leader, pos.broken)
        known = memo.get(key)
        if known is not None:
            return known
    budget[0] -= 1
    if budget[0] < 0:
        raise TooDeep
    turn = pos.turn
    attacking = book.side_of[turn] != book.side_of[seat]
    others = 0
    for s, hand in enumerate(pos.hands):
        if s != turn:
            others |= hand
    for card in pos.trick:
        others |= 1 << card
    answer = not attacking
    for card in distinct(k.legal_mask(book, pos), others):
        child = pos.copy()
        k.play(book, child, card)
        if _forced(book, child, seat, memo, budget) == attacking:
            answer = attacking
            break
    if key is not None:
        memo[key] = answer
    return answer


@dataclass(frozen=True)
class Chance:
    """One nil bid: who bid it, whether it was made, and the answers ``forced`` gave from
    ``tricks`` tricks left on (empty: the search found none within its limit)."""

    bidder: int
    made: bool
    answers: frozenset[bool]
    #: the search answered before the last card (else only the nil's fate is known)
    searched: bool

    @property
    def turned(self) -> bool:
        """Card play decided it: a made nil was breakable at some point (a card of the
        defence gave that away), a lost nil could be held (a card of the bidder's side
        threw it)."""
        return self.made in self.answers


def _position(state: GameState) -> k.Position:
    """The hand in play as Hard's search builds it, with every hand visible."""
    view = player_view(state, state.hand.turn)
    bids, nils = _bids_of(view)
    return hard_position(view, list(state.hand.hands), bids, nils)


def chances(config: ArenaConfig, runs: list[screen.Run], tricks: int,
            nodes: int) -> list[Chance]:
    """Every nil bid in ``runs`` (the runs of ``config``, two a deal), replayed."""
    rules = config.rules
    book = k.rulebook_of(rules)
    out: list[Chance] = []
    for number, run in enumerate(runs):
        index, which = divmod(number, 2)
        who, _, _, start = run_start(config, index, which)
        result = run.result
        for seat, bid in enumerate(result.bids):
            if not bid.nil:
                continue
            state = start
            answers: set[bool] = set()
            searched = False
            for _, action in result.actions:
                state = apply(state, action)
                if not isinstance(action, Play):
                    continue
                if state.hand.phase is not Phase.PLAY:  # the last card: the nil's fate
                    answers.add(bool(result.tricks[seat]))
                    break
                if max(h.bit_count() for h in state.hand.hands) > tricks:
                    continue
                answer = forced(book, _position(state), seat, nodes)
                if answer is not None:
                    answers.add(answer)
                    searched = True
                if answers == {True, False}:
                    break
            out.append(Chance(who[seat], not result.tricks[seat], frozenset(answers),
                              searched))
    return out


def report(found: list[Chance], names: tuple[str, str], tricks: int) -> list[str]:
    lines = []
    for bidder, name in enumerate(names):
        mine = [c for c in found if c.bidder == bidder]
        made = [c for c in mine if c.made]
        lost = [c for c in mine if not c.made]
        other = names[1 - bidder]
        lines += [
            f"{name}'s nils: {len(mine)}, made {len(made)}",
            f"  made, breakable with {tricks} tricks left or fewer, let through by {other}: "
            f"{sum(c.turned for c in made)}",
            f"  made, beyond breaking from {tricks} tricks left: "
            f"{sum(not c.turned for c in made)}",
            f"  lost, could be held with {tricks} tricks left or fewer, thrown by {name}'s "
            f"side: {sum(c.turned for c in lost)}",
            f"  lost, beyond holding from {tricks} tricks left (or lost before): "
            f"{sum(not c.turned for c in lost)}"]
        unsearched = sum(not c.searched for c in mine)
        if unsearched:
            lines.append(f"  (of these, {unsearched} known only from the last card: the "
                         f"search found no earlier answer within its limit)")
    return lines


class _Unpickler(pickle.Unpickler):
    """Reads ``screen``'s runs, pickled as ``__main__.Run`` where it ran as a script."""

    def find_class(self, module: str, name: str) -> type:
        if module == "__main__" and name == "Run":
            return screen.Run
        return super().find_class(module, name)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Kept:
    """A baseline's runs kept by ``screen`` (``--cache``), with the arena they were played
    in: its contenders' names and a title line for a report."""

    config: ArenaConfig
    runs: list[screen.Run]
    names: tuple[str, str]
    title: str


def read_cache(path: Path) -> Kept:
    """The runs ``screen`` kept at ``path``."""
    with path.open("rb") as stream:
        key, runs = _Unpickler(stream).load()
    baseline, against, preset, seed, deals = key
    config = ArenaConfig((parse_contender(baseline), parse_contender(against)),
                         PRESETS[preset], deals=deals,
                         seed=int(seed) if seed.lstrip("-").isdigit() else seed)
    return Kept(config, runs, (baseline, against),
                f"{deals} deals, seed {seed}, {preset}: {baseline} against {against}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cache", type=Path,
                        help="a baseline's runs kept by bench/experiments/screen.py")
    parser.add_argument("--tricks", type=int, default=10,
                        help="ask from the first position with this many tricks left or fewer")
    parser.add_argument("--nodes", type=int, default=400_000,
                        help="positions the search may visit for one answer")
    args = parser.parse_args(argv)
    kept = read_cache(args.cache)
    print(kept.title)
    print("\n".join(report(chances(kept.config, kept.runs, args.tricks, args.nodes),
                           kept.names, args.tricks)))


if __name__ == "__main__":
    main()
