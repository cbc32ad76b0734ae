"""One table served: a game's session (``spades.session``: the single writer, the turn
loop, saving, pacing) and its hub (the sockets watching it). The server keeps no turn loop
of its own: a person's intent goes to the session, and what the session tells goes out
through the hub. Nor does it hold the game's state: it reads the session's snapshots
(``Snapshot``: each seat's projections), never ``GameState``."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from spades.session import (
    PERSON,
    Appender,
    Refusal,
    Reviews,
    Snapshot,
    Thinker,
    hint_view,
    open_session,
)
from spades.store import SeatRow, Store, StoredGame

from .audience import Audience
from .connections import Connection
from .history import rebuild
from .hub import Hub
from .messages import meta_json
from .review import send_review
from .wire import Json


class ServedTable:
    """One game the server serves: its session (the single writer) and the hub of the
    sockets watching it; the lobby keeps one for each game in memory."""

    def __init__(self, stored: StoredGame, game: Snapshot, store: Store, thinker: Thinker,
                 pace: float, reviews: Reviews | None = None,
                 appender: Appender | None = None):
        row = stored.game
        self.row = row
        self.id = row.id
        self.session = open_session(stored, game, store, thinker, pace, appender)
        self.names = self.session.names
        self.hub = Hub(self.session, meta_json(row.id, game.rules, self.names, row.options),
                       thinker.suggest)
        self.store = store
        self.hub.history = self._history
        self.session.listen(self.hub)
        #: the spectators' sockets (a table for friends whose host allows watching)
        self.audience = Audience(self.session, lambda: self.hub.meta)
        self.session.listen(self.audience)
        #: the server's hand reviews (shared by its tables)
        self.reviews = reviews if reviews is not None else Reviews(thinker)
        #: the reviews being sent, and to which socket (a socket gone stops its own)
        self._reviewing: dict[asyncio.Task[None], Connection] = {}
        self.thinker = thinker
        #: the event loop's time when it was last asked for (``touch``)
        self.used = 0.0
        #: the card hints being worked out
        self._hinting: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ the session

    @property
    def snapshot(self) -> Snapshot:
        """The game now, to be read through its projections."""
        return self.session.snapshot

    @property
    def version(self) -> int:
        return self.session.version

    @property
    def lock(self) -> Any:
        return self.session.lock

    @property
    def people(self) -> tuple[int, ...]:
        """The seats of people (a review says what Hard would have done beside theirs)."""
        return tuple(s.seat for s in self.session.seats if s.kind == PERSON)

    def seat_of(self, player_id: str) -> int | None:
        return self.session.seat_of(player_id)

    async def act(self, seat: int, version: int, data: dict[str, Any]) -> None:
        """A person's intent, made from ``version``; ``Refusal`` if refused."""
        await self.session.act(seat, version, data)

    async def contribute(self, seat: int, hand: Any, value: Any) -> None:
        """A person's entropy for the shuffle of ``hand`` (from 0); ``Refusal`` if refused."""
        await self.session.contribute(seat, hand, value)

    async def _history(self, seat: int, since: int, upto: int) -> list[Json] | None:
        """The events ``seat`` missed after step ``since`` (up to ``upto``), from the store."""
        return await asyncio.to_thread(rebuild, self.store, self.id, self.names, seat, since,
                                       upto)

    def kick(self) -> None:
        self.session.kick()

    def reseat(self, seat: int, row: SeatRow) -> None:
        """Someone else sits in ``seat`` now (a person's seat given to a computer player,
        or a computer player's taken by a person): the session and the messages follow."""
        seats = tuple(row if s.seat == seat else s for s in self.session.seats)
        self.session.reseat(seats)
        self.names = self.session.names
        self.row = dataclasses.replace(self.row, seats=seats)
        self.hub.meta = meta_json(self.id, self.snapshot.rules, self.names, self.row.options)
        self.session.kick()

    # ------------------------------------------------------------------ the sockets

    def touch(self) -> None:
        """Someone uses the table now (the lobby lets go of those unused for a while)."""
        self.used = asyncio.get_running_loop().time()

    def join(self, conn: Connection, since: int | None = None) -> None:
        self.touch()
        self.hub.join(conn, since)
        self.session.kick()

    def leave(self, conn: Connection) -> None:
        self.hub.leave(conn)
        for task, asker in list(self._reviewing.items()):
            if asker is conn:  # nobody to send it to: a review nobody else waits for stops
                task.cancel()

    def reply(self, conn: Connection, error: Json) -> None:
        self.hub.reply(conn, error)

    def review(self, conn: Connection, hand: int) -> None:
        """Send ``conn`` the review of finished hand ``hand`` (its progress first), or an
        error; the socket goes on meanwhile."""
        task = asyncio.get_running_loop().create_task(
            send_review(self.reviews, self.id, self.snapshot, conn, hand, self.people))
        self._reviewing[task] = conn
        task.add_done_callback(lambda done: self._reviewing.pop(done, None))

    def hint(self, conn: Connection, version: int) -> None:
        """Send ``conn`` the card hint for its seat's turn to play, asked from ``version``
        (docs/protocol.md): worked out by the thinking processes, never under the session's
        lock; ``Refusal("hint")`` at once when no hint may be given now."""
        view = hint_view(self.session.snapshot, conn.seat, version, self.hub.hints)

        async def send() -> None:
            try:
                answer = await self.thinker.hint(view, self.id)
                # a game played with hints is practice: its statistics count apart
                await self.session.mark_practice("hint", conn.seat)
            except Refusal as refusal:
                conn.send({"type": "error", "code": refusal.code, "message": refusal.message,
                           "version": version, "intent": "hint"})
                return
            conn.send({"type": "hint", "version": version, **answer})

        task = asyncio.get_running_loop().create_task(send())
        self._hinting.add(task)
        task.add_done_callback(self._hinting.discard)

    def note(self, conn: Connection, error: Json) -> None:
        self.hub.note(conn, error)

    async def state_message(self, seat: int, events: list[Json] | None = None,
                            late: bool = True) -> Json:
        """The seat's state now; ``late``: its bid suggestion may follow (``Hub.message``)."""
        return await self.hub.message(seat, events, late)

    @property
    def idle(self) -> bool:
        return self.hub.idle and self.session.idle and not self.audience.connections

    def unwatched(self, seconds: float) -> bool:
        """No socket of a person or a spectator at this table in this process, and nobody
        asked for it here (``touch``) for ``seconds``."""
        return (not self.hub.sockets and not self.audience.connections
                and asyncio.get_running_loop().time() - self.used >= seconds)

    async def stop(self) -> None:
        for task in [*self._reviewing, *self._hinting]:
            task.cancel()
        await self.session.stop()
        await self.hub.stop()
