"""The record is the save: one stored row per action, resuming by replaying the record.

A ``Saver`` is told each change before anyone hears of it; ``StoreSaver`` appends it to the
store (with the deck of a hand it deals, and the game's standing), ``RecordFile`` writes the
whole ``spades-record/2`` to a file (``spades play --save``), ``Unsaved`` keeps nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from spades.engine import (
    CODE_OF,
    RECORD_FORMAT,
    Action,
    GameState,
    Look,
    RecordError,
    Shuffle,
    action_to_json,
    apply,
    can_bid_blind_nil,
    load_record,
    record_of,
)
from spades.store import (
    ENTROPY,
    OVER,
    PRACTICE,
    ActionRow,
    Append,
    StaleVersionError,
    Store,
    StoredGame,
    StoreError,
    stored_record,
)

from .appending import Appender
from .refusal import Refusal

log = logging.getLogger("spades.session")
#: The shuffle version of games saved without one (Python's random, before spades-shuffle/1).
LEGACY_SHUFFLE = 1


def progress(state: GameState) -> dict[str, Any]:
    """The game's standing, kept with the game row for the list of games."""
    return {"hands": len(state.results), "scores": list(state.scores),
            "winner": state.winner, "over": state.over}


def entropy_of(stored: StoredGame) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The people's entropy stored for each hand's shuffle: ``(hand, contributions)`` in
    the order given, as ``Shuffle.entropy`` holds it."""
    given: dict[int, list[str]] = {}
    for row in stored.entropy:
        hand, value = row.action.get("hand"), row.action.get(ENTROPY)
        if not isinstance(hand, int) or isinstance(hand, bool) or not isinstance(value, str):
            raise StoreError(f"game {stored.game.id!r}: step {row.seq} is not a contribution "
                             "to a shuffle we can read")
        given.setdefault(hand, []).append(value)
    return tuple(sorted((hand, tuple(values)) for hand, values in given.items()))


def contributors(stored: StoredGame) -> frozenset[tuple[int, int]]:
    """(hand, seat): who gave entropy to which hand's shuffle."""
    return frozenset((row.action["hand"], row.seat) for row in stored.entropy
                     if isinstance(row.action.get("hand"), int))


def state_from_store(stored: StoredGame) -> GameState:
    """Replay the stored record through the engine; the secret seed deals later hands,
    with the entropy the people gave (so a resumed game deals as it would have).

    Looks are actions now; a game saved before kept them in the ``looks`` table: each such
    look of the hand in play whose seat has not acted on its cards since is replayed at the
    end, so the game resumes the same."""
    game = stored.game
    record = stored_record(stored, RECORD_FORMAT)
    try:
        # games saved before spades-shuffle/1 say no shuffle: they keep the old one
        shuffle = Shuffle(version=game.options.get("shuffle", LEGACY_SHUFFLE),
                          entropy=entropy_of(stored))
        # the stored decks dealt from the seed stay so: their commitments and reveals hold
        state = load_record(record, seed=game.seed, shuffle=shuffle, from_seed=True)
    except RecordError as error:
        raise StoreError(f"game {game.id!r} does not replay: {error}") from error
    for hand, seat in sorted(stored.looks):
        if hand == state.hand.number and can_bid_blind_nil(state, seat):
            state = apply(state, Look(seat))
    return state


class Missed(NamedTuple):
    """What another writer kept: the stored version, the rows after ours, and the steps
    among them a computer player made for an absent person (when asked)."""

    version: int
    rows: tuple[ActionRow, ...]
    marks: frozenset[int] = frozenset()


class Saver(Protocol):
    async def save(self, version: int, step: int, before: GameState, after: GameState,
                   seat: int, action: Action, stand_in: int | None = None) -> int:
        """Keep the change made from ``version`` (the ``step``-th row kept); the new
        version. ``stand_in``: the game's step after the action, when a computer player
        made it for an absent person (its mark is kept with it). Raises ``Refusal`` when it
        cannot (nothing was kept)."""

    async def save_entropy(self, version: int, step: int, state: GameState, seat: int,
                           hand: int, value: str) -> int:
        """Keep ``seat``'s contribution ``value`` to the shuffle of ``hand`` (from 0), given
        while ``state``'s hand is in play (the ``step``-th row kept); the new version.
        Raises ``Refusal`` when it cannot (nothing was kept)."""

    async def save_undo(self, version: int, step: int, before: GameState, after: GameState,
                        seat: int) -> int:
        """Keep ``seat``'s undo (``after`` is ``engine.undo(before, seat)``): a new row,
        the actions taken back stay kept; the new version. ``Refusal`` when it cannot."""

    async def save_mark(self, version: int, step: int, after: GameState, seat: int,
                        reason: str) -> int:
        """Keep the game's practice mark ``reason`` (``after`` holds it); the new version.
        ``Refusal`` when it cannot (nothing was kept)."""

    async def reload(self) -> tuple[GameState, int, int, int]:
        """The stored truth after another writer: (state, version, game actions, rows)."""

    async def rows_after(self, rows: int, marks_after: int | None = None) -> Missed | None:
        """The stored version and the rows after the first ``rows`` (another writer's), and
        with ``marks_after`` the steps after it a computer player made for an absent person
        (read after the rows: each is kept with its action); None when the game is no
        longer stored."""


def action_row(step: int, before: GameState, seat: int, action: Action) -> ActionRow:
    """The store's row of ``seat``'s ``action`` at ``before``, row ``step`` of the game."""
    return ActionRow(seq=step, hand=before.hand.number, seat=seat,
                     action=action_to_json(seat, action))


def unsaved(error: StoreError) -> Refusal:
    """The refusal of a change that could not be saved, with its cause when known."""
    cause = error.reason
    if cause:
        return Refusal("server", f"the table could not be saved: {cause}; nothing changed")
    return Refusal("server", "the table could not be saved; nothing changed: try again")


class StoreSaver:
    """One row per action in the store, in the transaction that bumps the version (the
    tables of a server share an ``Appender``: one transaction for what they make
    meanwhile)."""

    def __init__(self, store: Store, game_id: str, appender: Appender | None = None):
        self.store = store
        self.game_id = game_id
        self.appender = appender or Appender(store)

    async def save(self, version: int, step: int, before: GameState, after: GameState,
                   seat: int, action: Action, stand_in: int | None = None) -> int:
        row = action_row(step, before, seat, action)
        deck = None
        if not after.over and after.hand.number != before.hand.number:
            deck = (after.hand.number, [CODE_OF[c] for c in after.hand.deck])
        finished = len(after.results) > len(before.results)
        return await self._append(Append(
            self.game_id, version, row, deck=deck, status=OVER if after.over else None,
            result=progress(after) if finished else None,
            stand_in=None if stand_in is None else (stand_in, seat)), "an action")

    async def save_entropy(self, version: int, step: int, state: GameState, seat: int,
                           hand: int, value: str) -> int:
        row = ActionRow(seq=step, hand=state.hand.number, seat=seat,
                        action={"seat": seat, ENTROPY: value, "hand": hand})
        return await self._append(Append(self.game_id, version, row), "entropy")

    async def save_undo(self, version: int, step: int, before: GameState, after: GameState,
                        seat: int) -> int:
        taken = len(after.undos[-1].taken)
        row = ActionRow(seq=step, hand=before.hand.number, seat=seat,
                        action={"seat": seat, "undo": taken})
        return await self._append(Append(self.game_id, version, row), "an undo")

    async def save_mark(self, version: int, step: int, after: GameState, seat: int,
                        reason: str) -> int:
        row = ActionRow(seq=step, hand=after.hand.number, seat=seat,
                        action={"seat": seat, PRACTICE: reason})
        return await self._append(Append(self.game_id, version, row), "a practice mark")

    async def _append(self, one: Append, what: str) -> int:
        try:
            saved = await self.appender.append(one)
        except StaleVersionError:
            raise
        except StoreError as error:
            log.exception("could not save %s of game %s", what, self.game_id)
            raise unsaved(error) from None
        return saved

    async def reload(self) -> tuple[GameState, int, int, int]:
        stored = await asyncio.to_thread(self.store.load_game, self.game_id)
        if stored is None:
            raise StoreError(f"game {self.game_id!r} is gone")
        state = await asyncio.to_thread(state_from_store, stored)
        return state, stored.game.version, len(stored.actions), stored.rows

    async def rows_after(self, rows: int, marks_after: int | None = None) -> Missed | None:
        return await asyncio.to_thread(self._rows_after, rows, marks_after)

    def _rows_after(self, rows: int, marks_after: int | None) -> Missed | None:
        found = self.store.missed(self.game_id, rows, marks_after)
        return None if found is None else Missed(found[0], found[1], frozenset(found[2]))


class RecordFile:
    """The whole game record, rewritten to a file after every action."""

    def __init__(self, path: str | Path | None, names: tuple[str, ...],
                 levels: tuple[str | None, ...] | None = None):
        self.path = None if path is None else Path(path)
        self.names = names
        #: each seat's computer player level (None: a person), kept in the record
        self.levels = levels

    async def save(self, version: int, step: int, before: GameState, after: GameState,
                   seat: int, action: Action, stand_in: int | None = None) -> int:
        self._write(after)
        return version + 1

    async def save_entropy(self, version: int, step: int, state: GameState, seat: int,
                           hand: int, value: str) -> int:
        # the contribution is in the record once its hand is over (with its seed)
        return version + 1

    async def save_undo(self, version: int, step: int, before: GameState, after: GameState,
                        seat: int) -> int:
        self._write(after)
        return version + 1

    async def save_mark(self, version: int, step: int, after: GameState, seat: int,
                        reason: str) -> int:
        self._write(after)
        return version + 1

    def _write(self, state: GameState) -> None:
        """The record so far, each finished hand with its revealed seed and salt, so that
        ``spades verify`` checks the file."""
        if self.path is None:
            return
        text = json.dumps(record_of(state, list(self.names), reveal=True, levels=self.levels))
        try:
            self.path.write_text(text, encoding="utf-8")
        except OSError as error:
            raise Refusal("server", f"the game could not be saved to {self.path}: "
                          f"{error.strerror}") from None

    async def reload(self) -> tuple[GameState, int, int, int]:
        raise RuntimeError("a game saved to a file has no other writer")

    async def rows_after(self, rows: int, marks_after: int | None = None) -> Missed | None:
        raise RuntimeError("a game saved to a file has no other writer")


class Unsaved(RecordFile):
    """Nothing kept (a game in the terminal without ``--save``)."""

    def __init__(self, names: tuple[str, ...] = ()):
        super().__init__(None, names)
