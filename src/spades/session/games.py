"""A served game's state kept behind the session's API: made, stored, loaded, dealt again
and replayed here, so that a transport (the web server) holds ``Snapshot``s, ``Change``s
and ``Session``s, asks them for a seat's projections, and never a ``GameState`` itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spades.engine import (
    CODE_OF,
    GameState,
    Rules,
    apply,
    deal_again,
    new_game,
    parse_action,
    rules_from_json,
)
from spades.store import GameRow, Store, StoredGame

from .appending import Appender
from .saving import StoreSaver, contributors, state_from_store
from .seating import Sitter, game_row_of, new_game_row, one_person
from .session import Change, Session, Snapshot, Thinking


def first_deal(owner: str, rules: Rules, sitters: Sequence[Sitter], options: dict[str, Any],
               first_dealer: int | None = None) -> tuple[GameRow, Snapshot]:
    """A new game's row and its first deal (``new_game_row``), at version 0."""
    row, state = new_game_row(owner, rules, sitters, options, first_dealer)
    return row, Snapshot(state, 0, 0)


def dealt_again(game: Snapshot, hand: int, seed: str, from_scores: bool, owner: str,
                seat: int, level: str, options: dict[str, Any]) -> tuple[GameRow, Snapshot]:
    """A new game for ``owner`` at ``seat`` (computer players of ``level`` elsewhere) dealt
    the cards of finished hand ``hand`` (from 0) of ``game`` (``engine.deal_again``: from
    0-0 or the scores before it), at version 0; ``ValueError`` says why not."""
    state = deal_again(game.state, hand, seed, from_scores=from_scores)
    row, state = game_row_of(owner, state, one_person(owner, state.rules.players, level, seat),
                             options)
    return row, Snapshot(state, 0, 0)


def store_first(store: Store, row: GameRow, first: Snapshot) -> StoredGame:
    """Blocking: keep a new game (its row and first deck) and give it as stored."""
    deck = tuple(CODE_OF[c] for c in first.state.hand.deck)
    store.create_game(row, deck)
    return StoredGame(game=row, decks=(deck,), actions=(), looks=frozenset())


def loaded(stored: StoredGame) -> Snapshot:
    """Blocking: the stored game replayed (``state_from_store``), at its version."""
    return Snapshot(state_from_store(stored), stored.game.version, len(stored.actions))


def open_session(stored: StoredGame, game: Snapshot, store: Store, thinker: Thinking,
                 pace: float, appender: Appender | None = None) -> Session:
    """The session of a stored game at ``game`` (its first deal, or ``loaded``), saving to
    ``store`` (through ``appender``, shared by a server's tables): the single writer of
    the game."""
    row = stored.game
    session = Session(row.id, row.seats, game.state,
                      saver=StoreSaver(store, row.id, appender),
                      thinker=thinker, version=row.version, step=len(stored.actions),
                      pace=pace, rows=stored.rows, given=contributors(stored))
    session.friends = bool(row.options.get("friends"))
    return session


def replayed(stored: StoredGame, upto: int) -> list[Change] | None:
    """The changes of the first ``upto`` actions (index = step - 1), replayed from the
    stored decks; None when the record does not replay so (an older game's looks were
    kept apart, or fewer actions are stored). Their snapshots' versions are 0 (unknown)."""
    if upto > len(stored.actions):
        return None
    game = stored.game
    try:
        state: GameState = new_game(rules_from_json(game.rules), game.seed,
                                    decks=stored.decks, first_dealer=game.first_dealer)
        changes = []
        for step, row in enumerate(stored.actions[:upto], 1):
            seat, action = parse_action(row.action, state.rules)
            after = apply(state, action)
            changes.append(Change(state, Snapshot(after, 0, step), seat, action))
            state = after
    except ValueError:  # the engine's errors of rules, cards, decks and actions
        return None
    return changes

