"""Who sits where: a person (a player id) or a computer player (a level) at each seat, and a
new game's row and first deal for a seating."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spades.engine import GameState, Rules, new_game, rules_to_json
from spades.seats import seat_names
from spades.store import PLAYING, START, GameRow, SeatRow
from spades.store.store import now

from .saving import progress

PERSON = "human"
COMPUTER = "computer"
#: Names of computer players at seats the usual names give to a person.
SPARE_NAMES: tuple[str, ...] = ("Rowan", "Hazel", "Willow")


@dataclass(frozen=True, slots=True)
class Sitter:
    """Who is to sit in a seat: ``player`` (a person's id) or ``level`` (a computer)."""

    player: str | None = None
    level: str | None = None

    @property
    def is_person(self) -> bool:
        return self.player is not None


def one_person(owner: str, players: int, level: str, seat: int = 0) -> tuple[Sitter, ...]:
    """``owner`` at ``seat``, computer players of ``level`` at the others."""
    return tuple(Sitter(player=owner) if s == seat else Sitter(level=level)
                 for s in range(players))


def seat_rows(sitters: Sequence[Sitter]) -> tuple[SeatRow, ...]:
    """The seats' rows with names: a lone person at seat 0 is "You" and the rest keep the
    table's names; with people elsewhere each person is "Player n" and a computer player at
    seat 0 takes a spare name."""
    usual = seat_names(len(sitters))
    classic = sitters[0].is_person and sum(s.is_person for s in sitters) == 1
    rows = []
    for seat, sitter in enumerate(sitters):
        if sitter.is_person:
            name = usual[seat] if classic else f"Player {seat + 1}"
            rows.append(SeatRow(seat=seat, kind=PERSON, name=name, player_id=sitter.player))
        else:
            name = usual[seat] if seat else SPARE_NAMES[0]
            rows.append(SeatRow(seat=seat, kind=COMPUTER, name=name, level=sitter.level))
    return tuple(rows)


def new_game_row(owner: str, rules: Rules, sitters: Sequence[Sitter], options: dict[str, Any],
                 first_dealer: int | None = None) -> tuple[GameRow, GameState]:
    """A new game's row and its first deal, from a secret seed that never leaves the
    server; ``options`` are kept with it (preset, label, level, house rules)."""
    if len(sitters) != rules.players:
        raise ValueError(f"the rules seat {rules.players} players, not {len(sitters)}")
    state = new_game(rules, secrets.token_hex(16), first_dealer=first_dealer)
    return game_row_of(owner, state, sitters, options)


def game_row_of(owner: str, state: GameState, sitters: Sequence[Sitter],
                options: dict[str, Any]) -> tuple[GameRow, GameState]:
    """The row of a new game already dealt (``state``, from its secret seed; a deal played
    again keeps where it starts in the ``start`` option)."""
    rules, seed = state.rules, str(state.seed)
    if len(sitters) != rules.players:
        raise ValueError(f"the rules seat {rules.players} players, not {len(sitters)}")
    if state.start is not None:
        options = {**options, START: {"scores": list(state.start.scores),
                                      "bags": list(state.start.bags)}}
    moment = now()
    row = GameRow(
        id=secrets.token_urlsafe(9), owner=owner, rules=rules_to_json(rules), seed=seed,
        first_dealer=state.first_dealer,
        options={**options, "shuffle": state.shuffle.version},
        seats=seat_rows(sitters), created=moment, updated=moment, status=PLAYING, version=0,
        result=progress(state))
    return row, state
