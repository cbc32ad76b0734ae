"""The spectators of one game (docs/protocol.md, "Spectators"): a listener of the game's
session that sends each spectator's socket what the table shows everyone, made from the
engine's public projections only (the spectators' update, ``Change.update(NO_SEAT)``: the
public view and events, made once a change): never a seat's cards."""

from __future__ import annotations

from collections.abc import Callable

from spades.engine import NO_SEAT
from spades.session import Change, Session, Snapshot

from .connections import Connection
from .wire import Json, Speaker, mark_played_for, narrated_json, shuffle_json, view_json


def public_state_json(meta: Json, snapshot: Snapshot, events: list[Json],
                      names: tuple[str, ...]) -> Json:
    """The ``state`` message of a spectator: no seat of its own, no cards, nothing to do."""
    view = view_json(snapshot.view(NO_SEAT))
    view["hand"] = None
    thinking = None
    if snapshot.thinking is not None:
        thinking = {"seat": snapshot.thinking, "name": names[snapshot.thinking]}
    return {"type": "state", "version": snapshot.version, "step": snapshot.step,
            "game": {**meta, "you": None, "partner": None}, "view": view, "legal": None,
            "suggestion": None, "thinking": thinking, "events": events,
            "shuffle": shuffle_json(snapshot)}


class Audience:
    """The spectators' sockets of one game; ``meta`` gives the game's facts as told now."""

    def __init__(self, session: Session, meta: Callable[[], Json]):
        self.session = session
        self.meta = meta
        self.connections: set[Connection] = set()

    def message(self, snapshot: Snapshot | None = None, events: list[Json] | None = None) -> Json:
        return public_state_json(self.meta(), snapshot or self.session.snapshot, events or [],
                                 self.session.names)

    def join(self, conn: Connection) -> None:
        self.connections.add(conn)
        conn.send(self.message())

    def leave(self, conn: Connection) -> None:
        self.connections.discard(conn)

    def changed(self, change: Change) -> None:
        if not self.connections or (change.action is None and not change.undone
                                    and not change.whole):
            return
        change.update(NO_SEAT)  # the public view and events, made once
        rules = change.after.rules
        speaker = Speaker(self.session.names, NO_SEAT, rules.sides)
        events = narrated_json(change.events(NO_SEAT), change.after.step, speaker,
                               rules.players)
        if change.stand_in:
            events = mark_played_for(events, change.seat, self.session.names[change.seat])
        message = self.message(change.after, events)
        for conn in list(self.connections):
            conn.send(message)

    def thinking(self, seat: int, snapshot: Snapshot) -> None:
        message = {"type": "thinking", "version": snapshot.version, "seat": seat,
                   "name": self.session.names[seat]}
        for conn in list(self.connections):
            conn.send(message)
