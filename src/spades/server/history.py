"""What a returning socket missed, rebuilt from the store when the hub no longer holds it (a
restart, or further back than the changes kept in memory; docs/protocol.md, "Reconnecting").

The store keeps every action as a row by step: the session replays the game from its stored
decks (``spades.session.replayed``), and each action after ``since`` becomes, for the seat,
the events the engine's projection lets it learn (``Change.events``, as when it happened),
marked ``played_for`` where the computer player acted for an absent person (``stand_ins``).
What a person was told on coming back ("While you were away") is rebuilt the same way, so
that any process may tell it, whichever process led the table meanwhile."""

from __future__ import annotations

from spades.engine import rules_from_json
from spades.session import replayed
from spades.store import Store, StoredGame

from .wire import Json, Speaker, mark_played_for, narrated_json


def missed_events(stored: StoredGame, stand_ins: dict[int, int], names: tuple[str, ...],
                  seat: int, since: int, upto: int) -> list[Json] | None:
    """The events ``seat`` missed after step ``since`` up to step ``upto``, in order and
    each once; None when the store cannot say."""
    changes = replayed(stored, upto)
    if changes is None or not 0 <= since <= upto:
        return None
    rules = rules_from_json(stored.game.rules)  # it replayed: its rules read
    speaker = Speaker(names, seat, rules.sides)
    events: list[Json] = []
    for change in changes[since:]:
        step = change.after.step
        actor = stand_ins.get(step)
        told = narrated_json(change.events(seat), step, speaker, rules.players)
        if actor is not None:
            told = mark_played_for(told, actor, names[actor])
        events += told
    return events


def rebuild(store: Store, game_id: str, names: tuple[str, ...], seat: int, since: int,
            upto: int) -> list[Json] | None:
    """Blocking: ``missed_events`` of the stored game ``game_id``."""
    stored = store.load_game(game_id)
    if stored is None:
        return None
    stand_ins = store.friends.stand_ins(game_id) if stored.game.options.get("friends") else {}
    return missed_events(stored, stand_ins, names, seat, since, upto)


def played_for(stored: StoredGame, stand_ins: dict[int, int], names: tuple[str, ...],
               seat: int, upto: int, back: bool = False) -> list[Json] | None:
    """What the computer player made for the person at ``seat`` since that person last
    acted (up to step ``upto``), as that person is told it on coming back: the events of
    each such action, marked ``played_for``; None when the store cannot say. ``back``: the
    person was away until now, so their own actions after the last one made for them are
    not counted (made as they came back, at a process that took their intent before the
    table's leader knew they were back)."""
    changes = replayed(stored, upto)
    if changes is None:
        return None
    last_made = max((s for s, who in stand_ins.items() if who == seat and s <= upto),
                    default=0)
    since = 0
    for change in changes:
        step = change.after.step
        if (change.seat == seat and change.action is not None and step not in stand_ins
                and (not back or step < last_made)):
            since = step
    rules = rules_from_json(stored.game.rules)
    speaker = Speaker(names, seat, rules.sides)
    events: list[Json] = []
    for change in changes[since:]:
        step = change.after.step
        if stand_ins.get(step) == seat:
            told = narrated_json(change.events(seat), step, speaker, rules.players)
            events += mark_played_for(told, seat, names[seat])
    return events


def rebuild_played_for(store: Store, game_id: str, names: tuple[str, ...], seat: int,
                       upto: int, back: bool = False) -> list[Json]:
    """Blocking: ``played_for`` of the stored game ``game_id`` ([] when nothing was made
    for the seat, or the store cannot say)."""
    stand_ins = store.friends.stand_ins(game_id)
    if seat not in stand_ins.values():
        return []
    stored = store.load_game(game_id)
    if stored is None:
        return []
    return played_for(stored, stand_ins, names, seat, upto, back) or []
