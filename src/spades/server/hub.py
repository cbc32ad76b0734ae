"""What a table tells its watchers: the ``Hub`` listens to a session and sends each socket
the state for its seat, in the order the changes happened.

The session tells a change while it holds its lock; the hub only queues it there. Its own
task then renders the messages from each seat's update (``Change.update``: the view and
events the engine's observation layer made once for the seat) without the session's lock,
one change after the other, so that every socket gets the versions in order.

A seat's turn to bid is sent at once to a socket whose hello said ``late_suggestion`` (the
page does): its bid suggestion (Hard's bid, worked out by the thinking processes within
Hard's time limit) follows in a state of the same step with no events, if the table has
not moved on meanwhile. Another socket (a client of before) gets the turn with its
suggestion in it, as before: its state is held until the suggestion is worked out, while
the table and its other sockets go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable

from spades.engine import PlayerView
from spades.session import Change, Session, Snapshot, can_undo

from .connections import Connection
from .messages import state_json, wants_suggestion
from .wire import Json, Speaker, mark_played_for, narrated_json

log = logging.getLogger("spades.server")

#: Changes kept for sockets that come back (a hand of four players and its bids).
KEEP_CHANGES = 64
#: Steps back a socket's missed events are rebuilt from the store (a few hands); further
#: back, its state holds it all (``"missed": true``).
REBUILD_STEPS = 256
Suggest = Callable[[PlayerView, str], Awaitable[Json | None]]
Job = Callable[[], Awaitable[None]]
Greet = Callable[[Connection], Awaitable[list[Json]]]
History = Callable[[int, int, int], Awaitable[list[Json] | None]]


class Hub:
    def __init__(self, session: Session, meta: Json, suggest: Suggest):
        self.session = session
        self.meta = meta
        self.suggest = suggest
        self.connections: set[Connection] = set()
        #: the last snapshot told to the sockets
        self.told: Snapshot = session.snapshot
        self._outbox: asyncio.Queue[Job] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        #: the bid suggestion last worked out, by (step, seat)
        self._suggestions: dict[tuple[int, int], Json | None] = {}
        #: the suggestions being worked out, by (step, seat)
        self._working: dict[tuple[int, int], asyncio.Task[None]] = {}
        #: the state held for a socket that takes its turn with the suggestion in it (not
        #: ``late``), while that suggestion is worked out
        self._held: dict[Connection, Json] = {}
        #: the sockets joined whose first state is not sent yet (``_welcome``)
        self._joining: set[Connection] = set()
        #: whether the bid suggestion is given (a table for friends may turn it off)
        self.hints = True
        #: the last changes, for a socket that comes back and says the last step it saw
        self.log: deque[Change] = deque(maxlen=KEEP_CHANGES)
        #: what a new socket hears right after its first state (a table for friends: the
        #: table and its turn timer), made when it joins the sockets told of every change
        self.greet: Greet | None = None
        #: the events a seat missed (seat, since, up to step), rebuilt from the store when
        #: they go further back than the changes kept (``history.rebuild``)
        self.history: History | None = None

    # ------------------------------------------------------------------ the session's news

    def changed(self, change: Change) -> None:
        if change.action is not None:
            self.log.append(change.bare())  # kept without its seats' views
        self._post(lambda: self._tell_change(change))

    def thinking(self, seat: int, snapshot: Snapshot) -> None:
        self._post(lambda: self._tell_thinking(seat, snapshot))

    # ------------------------------------------------------------------ sockets

    def join(self, conn: Connection, since: int | None = None) -> None:
        """A new socket: it gets the table as told so far (with the events its seat missed
        after step ``since``, if it says), then every change after."""
        self._joining.add(conn)
        self._post(lambda: self._welcome(conn, since))

    def leave(self, conn: Connection) -> None:
        self.connections.discard(conn)
        self._joining.discard(conn)
        self._held.pop(conn, None)

    def reply(self, conn: Connection, error: Json) -> None:
        """A refused intent: the error and the table as it is, together."""
        self._post(lambda: self._refuse(conn, error))

    def note(self, conn: Connection, error: Json) -> None:
        """A refused contribution of entropy: the error alone (the table did not move)."""
        self._post(lambda: self._note(conn, error))

    async def message(self, seat: int, events: list[Json] | None = None,
                      late: bool = True) -> Json:
        """The state message of ``seat`` for the snapshot told last; for a client of before
        (not ``late``), once the seat's bid suggestion is worked out, with it."""
        if not late:
            self._suggestion(self.told, seat)  # worked out if it is not yet
            working = self._working.get((self.told.step, seat))
            if working is not None:
                await asyncio.shield(working)
        return await self._state(self.told, seat, events or [])

    @property
    def idle(self) -> bool:
        return not self.connections and not self._joining and self._outbox.empty()

    @property
    def sockets(self) -> int:
        """The sockets told of the table, and those joining it."""
        return len(self.connections) + len(self._joining)

    async def stop(self) -> None:
        for task in [*self._working.values(), self._task]:
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._working.clear()

    # ------------------------------------------------------------------ the outbox

    def _post(self, job: Job) -> None:
        self._outbox.put_nowait(job)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._drain(), name=f"hub {self.session.id}")

    async def _drain(self) -> None:
        while not self._outbox.empty():
            job = self._outbox.get_nowait()
            try:
                await job()
            except Exception:
                log.exception("a message of game %s could not be made", self.session.id)

    # ------------------------------------------------------------------ the bid suggestion

    def _suggestion(self, snapshot: Snapshot, seat: int) -> Json | None:
        """The bid suggestion of ``seat`` at ``snapshot`` if it is worked out already; else
        None, and it is being worked out: it follows on its own (``_suggested``)."""
        if not self.hints or not wants_suggestion(snapshot, seat):
            return None
        key = (snapshot.step, seat)
        if key in self._suggestions:
            return self._suggestions[key]
        if key not in self._working:
            self._working[key] = asyncio.get_running_loop().create_task(
                self._work_out(snapshot, seat), name=f"suggestion {self.session.id}")
        return None

    async def _work_out(self, snapshot: Snapshot, seat: int) -> None:
        try:
            suggestion = await self.suggest(snapshot.view(seat), self.session.id)
        except Exception:  # a suggestion is a help, never a reason to fail
            log.exception("the bid suggestion of game %s failed", self.session.id)
            suggestion = None
        self._suggestions = {(snapshot.step, seat): suggestion}
        self._post(lambda: self._suggested(snapshot, seat, suggestion))

    async def _suggested(self, snapshot: Snapshot, seat: int, suggestion: Json | None) -> None:
        """A suggestion worked out (and kept by ``_work_out``, for the seat's sockets that
        come while it is the turn): sent to the seat's sockets, as the state they have with
        the suggestion in it, if the table is still at the same step (a contribution to a
        shuffle since raises the version, and changes nothing at the table)."""
        self._working.pop((snapshot.step, seat), None)
        late = suggestion is not None and self.told.step == snapshot.step
        message = await self._state(self.told, seat, []) if late else None
        for conn in list(self.connections):
            if conn.seat != seat:
                continue
            held = self._held.get(conn)
            if held is not None and held["step"] == snapshot.step:
                del self._held[conn]  # the turn, now with its suggestion (or none: failed)
                conn.send({**held, "suggestion": suggestion})
            elif conn.late and message is not None:
                self._send(conn, message)

    def _send(self, conn: Connection, message: Json, step: int | None = None) -> None:
        """Send ``message`` to ``conn``, after the state held for it (as it is: the table
        moved on). A state of ``step`` whose bid suggestion is being worked out is held
        instead for a socket that takes its turn with the suggestion in it."""
        held = self._held.pop(conn, None)
        if held is not None:
            conn.send(held)
        if not conn.late and step is not None and (step, conn.seat) in self._working:
            self._held[conn] = message
        else:
            conn.send(message)

    async def _state(self, snapshot: Snapshot, seat: int, events: list[Json]) -> Json:
        suggestion = self._suggestion(snapshot, seat)
        return state_json(self.meta, snapshot, seat, events, suggestion, self.session.names,
                          can_undo(self.session, snapshot, seat))

    def speaker(self, seat: int) -> Speaker:
        return Speaker(self.session.names, seat, self.told.rules.sides)

    async def _tell_change(self, change: Change) -> None:
        self.told = change.after
        if change.action is None and not change.undone and not change.whole:
            # entropy for a shuffle changes nothing at the table: the next update carries it
            # (sending a state now would only race the person's next click)
            return
        players = change.after.rules.players
        messages: dict[int, Json] = {}
        for conn in list(self.connections):
            seat = conn.seat
            if seat not in messages:
                change.update(seat)  # the seat's view and events, made once
                events = narrated_json(change.events(seat), change.after.step,
                                       self.speaker(seat), players)
                if change.stand_in:
                    events = mark_played_for(events, change.seat,
                                             self.session.names[change.seat])
                messages[seat] = await self._state(change.after, seat, events)
            self._send(conn, messages[seat], change.after.step)

    async def _tell_thinking(self, seat: int, snapshot: Snapshot) -> None:
        self.told = snapshot
        message = {"type": "thinking", "version": snapshot.version, "seat": seat,
                   "name": self.session.names[seat]}
        for conn in list(self.connections):
            self._send(conn, message)

    async def _welcome(self, conn: Connection, since: int | None = None) -> None:
        """The first state of a new socket, then its greeting. The socket joins the sockets
        told of every change only when its state is made: no change slips by meanwhile (the
        hub's jobs run one at a time), and what other parts of the server send to the
        table's sockets (the table for friends, presence) cannot come before its state
        while it waits for the bid suggestion or for the events it missed."""
        missed = None if since is None else self._missed(conn.seat, since)
        if (since is not None and missed is None and self.history is not None
                and self.told.step - since <= REBUILD_STEPS):
            try:  # ``told`` holds meanwhile: only this task changes it
                missed = await self.history(conn.seat, since, self.told.step)
            except Exception:  # the store cannot say: the state holds it all
                log.exception("the events missed at game %s could not be rebuilt",
                              self.session.id)
        try:
            message = await self.message(conn.seat, missed or [], conn.late)
            if conn.closed or conn not in self._joining:
                return  # it left meanwhile
        finally:
            self._joining.discard(conn)
        if since is not None and missed is None:
            message["missed"] = True  # further back than kept: the view holds it all
        self.connections.add(conn)
        conn.send(message)
        if self.greet is not None:
            # made after the socket joined: whatever changes from now on reaches it too
            for extra in await self.greet(conn):
                conn.send(extra)

    def _missed(self, seat: int, since: int) -> list[Json] | None:
        """The events ``seat`` missed after step ``since`` up to the state told last, in
        order and each once; None when they go further back than the changes kept."""
        told = [c for c in self.log if c.after.version <= self.told.version]
        if since >= self.told.step:
            return []
        if not told or told[0].after.step - 1 > since:
            return None
        events: list[Json] = []
        players = self.told.rules.players
        for change in told:
            if change.after.step <= since:
                continue
            told_events = narrated_json(change.events(seat), change.after.step,
                                        self.speaker(seat), players)
            if change.stand_in:
                told_events = mark_played_for(told_events, change.seat,
                                              self.session.names[change.seat])
            events += told_events
        return events

    async def _note(self, conn: Connection, error: Json) -> None:
        self._send(conn, {**error, "version": self.told.version})

    async def _refuse(self, conn: Connection, error: Json) -> None:
        self._send(conn, {**error, "version": self.told.version})
        self._send(conn, await self.message(conn.seat), self.told.step)
