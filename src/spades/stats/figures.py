"""A player's figures, worked out from game records replayed through the engine.

Pure: no I/O, no clock, no cache. ``game_figures`` replays one record (the engine's public
``replay``) and keeps, for every finished hand, what the player's side bid, took and scored;
``tally`` adds games up; ``player_stats`` groups them overall, by variant and by level.
Only finished hands count (the hand in play is nobody's business yet), and only finished
games count as played or won. Practice games (an undo, a hint or a chosen deal: the
engine's ``practice_of``) are counted apart, in ``Stats.practice``, and in no other figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from spades.engine import (
    REGISTRY,
    GameState,
    HandResult,
    Rules,
    contract_of,
    nil_made,
    parse_record,
    practice_of,
    replay,
    side_points,
)

#: The level of a game whose computer players' level is not known (a record file).
UNKNOWN_LEVEL = "unknown"
#: The level of a game with no computer player at it.
NO_COMPUTER = "people only"


class StatsError(ValueError):
    """The seats asked for are not seats of the game, or the record does not replay."""


@dataclass(frozen=True, slots=True)
class HandFigures:
    """One finished hand as one side of the player saw it."""

    side: int
    bid: int  # the side's contract: the tricks its non-nil bidders bid
    took: int  # the tricks its non-nil bidders took
    contract: bool  # a non-nil bidder sat on the side
    made: bool  # the contract was made (False when there was none)
    nil: int  # nil bids by the player (not blind)
    nil_made: int
    blind_nil: int  # blind nil bids by the player
    blind_nil_made: int
    points: int  # the side's points for the hand, bag penalty included
    bags: int  # the side's new bags (overtricks, and failed-nil tricks where they count)


@dataclass(frozen=True, slots=True)
class GameFigures:
    """One game of the player: which, and its finished hands."""

    game: str  # the game id, or the record's file name
    preset: str
    label: str
    level: str
    seats: tuple[int, ...]
    over: bool
    won: bool
    hands: tuple[HandFigures, ...]
    when: str | None = None  # ISO time of the last change, when known
    #: why the game is practice (an undo, a hint, a chosen deal); empty when it counts
    practice: tuple[str, ...] = ()

    @property
    def points(self) -> int:
        return sum(h.points for h in self.hands)


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


@dataclass(frozen=True, slots=True)
class Tally:
    """Games and hands added up."""

    games: int = 0  # finished games
    wins: int = 0
    in_play: int = 0  # games not finished (their finished hands count below)
    hands: int = 0  # side-hands: one per finished hand and side of the player
    contracts: int = 0  # hands the side had a contract
    made: int = 0
    sets: int = 0
    nil: int = 0
    nil_made: int = 0
    blind_nil: int = 0
    blind_nil_made: int = 0
    points: int = 0
    bags: int = 0

    @property
    def win_rate(self) -> float | None:
        return _ratio(self.wins, self.games)

    @property
    def made_rate(self) -> float | None:
        return _ratio(self.made, self.contracts)

    @property
    def points_per_hand(self) -> float | None:
        return _ratio(self.points, self.hands)

    @property
    def bags_per_hand(self) -> float | None:
        return _ratio(self.bags, self.hands)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games, "wins": self.wins, "win_rate": self.win_rate,
            "in_play": self.in_play, "hands": self.hands, "contracts": self.contracts,
            "made": self.made, "sets": self.sets, "made_rate": self.made_rate,
            "nil": self.nil, "nil_made": self.nil_made,
            "blind_nil": self.blind_nil, "blind_nil_made": self.blind_nil_made,
            "points": self.points, "points_per_hand": self.points_per_hand,
            "bags": self.bags, "bags_per_hand": self.bags_per_hand,
        }


@dataclass(frozen=True, slots=True)
class Group:
    """The tally of the games of one variant or one level."""

    key: str
    label: str
    tally: Tally

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, **self.tally.to_json()}


@dataclass(frozen=True, slots=True)
class Stats:
    """The games that count (overall, by variant, by level) and the practice games, apart."""

    overall: Tally
    by_preset: tuple[Group, ...]
    by_level: tuple[Group, ...]
    games: tuple[GameFigures, ...] = field(default=())  # as given (newest first, say)
    practice: Tally = field(default=Tally())

    def to_json(self, recent: int = 20) -> dict[str, Any]:
        """JSON for the API and ``--json``; ``recent`` games listed one by one."""
        return {
            "overall": self.overall.to_json(),
            "by_preset": [g.to_json() for g in self.by_preset],
            "by_level": [g.to_json() for g in self.by_level],
            "practice": self.practice.to_json(),
            "recent": [game_json(g) for g in self.games[:recent]],
        }


def game_json(game: GameFigures) -> dict[str, Any]:
    t = tally([game])
    return {"game": game.game, "preset": game.preset, "label": game.label,
            "level": game.level, "when": game.when, "over": game.over, "won": game.won,
            "hands": t.hands, "points": t.points, "points_per_hand": t.points_per_hand,
            "made": t.made, "sets": t.sets, "nil": t.nil + t.blind_nil,
            "nil_made": t.nil_made + t.blind_nil_made, "bags": t.bags,
            "practice": list(game.practice)}


# ---------------------------------------------------------------------------- one game

def hand_figures(rules: Rules, result: HandResult, seats: Sequence[int]) -> list[HandFigures]:
    """The hand as each side holding one of ``seats`` saw it, by the engine's rules: the
    side's contract, its nils made, and its new bags before any penalty."""
    bids, tricks = result.bids, result.tricks
    out = []
    for index, side in enumerate(rules.sides):
        mine = [s for s in side if s in seats]
        if not mine:
            continue
        contract = contract_of(side, bids, tricks)
        nils = [s for s in mine if bids[s].nil and not bids[s].blind]
        blinds = [s for s in mine if bids[s].blind]
        out.append(HandFigures(
            side=index, bid=contract.bid if contract else 0,
            took=contract.taken if contract else 0, contract=contract is not None,
            made=contract is not None and contract.made,
            nil=len(nils), nil_made=sum(nil_made(tricks[s]) for s in nils),
            blind_nil=len(blinds), blind_nil_made=sum(nil_made(tricks[s]) for s in blinds),
            points=result.score.points[index], bags=side_points(rules, side, bids, tricks)[1]))
    return out


def figures_of_state(state: GameState, seats: Iterable[int], *, game: str,
                     preset: str | None = None, label: str | None = None,
                     level: str = UNKNOWN_LEVEL, when: str | None = None) -> GameFigures:
    """The player's figures in a replayed game where ``seats`` are theirs."""
    rules = state.rules
    mine = tuple(sorted(set(seats)))
    if not mine:
        raise StatsError(f"game {game}: the player has no seat in it")
    bad = [s for s in mine if not 0 <= s < rules.players]
    if bad:
        raise StatsError(f"game {game}: seat {bad[0]} is not a seat of a "
                         f"{rules.players}-player game (seats 0 to {rules.players - 1})")
    hands = tuple(h for result in state.results for h in hand_figures(rules, result, mine))
    sides = {rules.side_of[s] for s in mine}
    preset = preset or rules.name
    entry = REGISTRY.get(preset)
    return GameFigures(
        game=game, preset=preset, label=label or (entry.label if entry else preset),
        level=level, seats=mine, over=state.over,
        won=state.over and state.winner in sides, hands=hands, when=when,
        practice=practice_of(state))


def game_figures(record: Any, seats: Iterable[int], *, game: str,
                 preset: str | None = None, label: str | None = None,
                 level: str | None = None, when: str | None = None) -> GameFigures:
    """Replay ``record`` (a game record as parsed JSON) through the engine and take the
    player's figures from it; a record that does not replay raises RecordError. The level
    is the record's own (its ``levels``) unless given."""
    parsed = parse_record(record)
    if level is None:
        level = UNKNOWN_LEVEL if parsed.levels is None else level_of_seats(parsed.levels)
    return figures_of_state(replay(parsed), seats, game=game, preset=preset,
                            label=label, level=level, when=when)


def level_of_seats(levels: Iterable[str | None]) -> str:
    """The computer players' level at a table from each seat's (None: a person): their one
    level, "mixed" when they differ, ``NO_COMPUTER`` when nobody is a computer player."""
    found = {level for level in levels if level is not None}
    if not found:
        return NO_COMPUTER
    return found.pop() if len(found) == 1 else "mixed"


# ---------------------------------------------------------------------------- adding up

def tally(games: Iterable[GameFigures]) -> Tally:
    counts = dict.fromkeys(Tally.__slots__, 0)
    for game in games:
        if game.over:
            counts["games"] += 1
            counts["wins"] += game.won
        else:
            counts["in_play"] += 1
        for hand in game.hands:
            counts["hands"] += 1
            counts["contracts"] += hand.contract
            counts["made"] += hand.made
            counts["sets"] += hand.contract and not hand.made
            counts["nil"] += hand.nil
            counts["nil_made"] += hand.nil_made
            counts["blind_nil"] += hand.blind_nil
            counts["blind_nil_made"] += hand.blind_nil_made
            counts["points"] += hand.points
            counts["bags"] += hand.bags
    return Tally(**counts)


def _groups(games: Sequence[GameFigures], key: str) -> tuple[Group, ...]:
    keys: dict[str, str] = {}
    for game in games:
        keys.setdefault(getattr(game, key), game.label if key == "preset" else game.level)
    return tuple(Group(k, label, tally(g for g in games if getattr(g, key) == k))
                 for k, label in sorted(keys.items()))


def player_stats(games: Sequence[GameFigures]) -> Stats:
    """Overall, by variant (preset) and by the computer players' level, of the games that
    count; the practice games apart."""
    counted = [g for g in games if not g.practice]
    return Stats(overall=tally(counted), by_preset=_groups(counted, "preset"),
                 by_level=_groups(counted, "level"), games=tuple(games),
                 practice=tally(g for g in games if g.practice))
