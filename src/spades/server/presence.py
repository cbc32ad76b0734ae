"""Seats held through trouble at a table for friends (docs/protocol.md, "At the table once
started"): who is here, away (a grace period after their last socket closed) or gone (the
computer player plays their turns), the turn timer, and what was played for whom.

The deadlines are kept in the store (``friend_seats.away_until``, ``friend_tables
.timer_until``) and picked up again when the server starts (``resume``). ``clock`` and
``sleep`` can be replaced by tests (a fake clock).

With several server processes (``share``, ``spades serve --redis``) a person's sockets may
be at any process: who is here is read from Redis (``here.py``), and only the process that
leads the table (its lease, ``owners.py``) decides who is away and back, runs the grace
periods, the stand-ins and the turn timer; it picks the deadlines up from the store when it
gains the lease (``lead``) and drops its timers when it loses it. What it decides reaches
the other processes' sockets as news (``heard``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from spades.session import Change, Snapshot
from spades.store import FINISHED, STARTED, FriendTable

from .connections import Connection
from .here import RENEW, Here, News
from .history import rebuild_played_for
from .rooms import Rooms
from .table import ServedTable
from .table_json import table_object
from .tables import Hall
from .wire import Json

log = logging.getLogger("spades.server")
Key = tuple[str, int]
#: Seconds a table led here must have had no socket here, while another process holds one
#: of its people's, before this process hands it over (a socket on its way here stays).
HAND_OVER = 2.0


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Turns:
    """A listener of a friends' game's session: starts each person's turn timer, and
    finishes the table with its game (what the computer player makes for an absent person
    is marked by the store, with the action)."""

    def __init__(self, presence: Presence, served: ServedTable):
        self.presence = presence
        self.served = served

    def changed(self, change: Change) -> None:
        if change.action is not None:
            self.presence.turn_began(self.served)
        if change.ends_game:
            self.presence.finished(self.served.id)

    def thinking(self, seat: int, snapshot: Snapshot) -> None:
        return None


class Presence:
    def __init__(self, hall: Hall, rooms: Rooms, grace: float = 30.0,
                 clock: Callable[[], dt.datetime] = utc_now,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep):
        self.hall = hall
        self.rooms = rooms
        self.lobby = hall.lobby
        self.grace = grace
        self.clock = clock
        self.sleep = sleep
        self.counts: dict[Key, int] = {}
        self._tasks: dict[Key, asyncio.Task[None]] = {}
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._options: dict[str, dict[str, object]] = {}
        self._writes: set[asyncio.Task[None]] = set()
        #: the turn timer running at each table: the seat, its deadline, its length, the
        #: version it was started at (at a process that follows the table: as last heard)
        self._running: dict[str, tuple[int, dt.datetime, object, int]] = {}
        #: several processes: who is where (None: this process alone has the sockets)
        self.shared: Here | None = None
        #: several processes, at the leader: the seats here when last read, and those found
        #: missing at the last reading (away at the next if still missing: a process died)
        self._seen: dict[str, frozenset[int]] = {}
        self._missing: dict[str, frozenset[int]] = {}
        self._reading: dict[str, asyncio.Lock] = {}
        #: when the seats last decided on were read (``time.monotonic``)
        self._read_at: dict[str, float] = {}
        #: several processes: give up a table this process leads whose people's sockets
        #: are all at other processes (``Owners.hand_over``)
        self.hand_over: Callable[[ServedTable], Coroutine[Any, Any, None]] | None = None

    # ------------------------------------------------------------------ serving a game

    async def prepare(self, served: ServedTable) -> None:
        """A game is served: if it is a table for friends, its stand-ins, hints and timer."""
        table = await self.hall.load(served.id)
        if table is None:
            return
        self._options[served.id] = table.options
        session = served.session
        session.stand_in_level = str(table.options["level"])
        served.hub.hints = bool(table.options["hints"])
        if self.shared is None:
            for person in table.seats:
                if person.state == "gone" and person.player_id is not None:
                    session.absent.add(person.seat)
        session.listen(Turns(self, served))
        served.hub.greet = lambda conn: self.greeting(served, conn)
        if self.shared is not None and table.status == STARTED:
            if session.leading:
                await self.lead(served)
            else:
                self._timer_known(served, table)

    def is_friends(self, game_id: str) -> bool:
        return game_id in self._options

    def holds(self, game_id: str) -> bool:
        """Whether a grace period or a turn timer runs for the game here (its table is
        not let go meanwhile: the lobby would serve a second copy of it)."""
        return game_id in self._timers or any(key[0] == game_id for key in self._tasks)

    # ------------------------------------------------------------------ sockets

    def opened(self, served: ServedTable, seat: int) -> None:
        """A seat's game socket joined its table. What follows runs in a task of its own
        (a socket's task may be cancelled as it closes)."""
        if not self.is_friends(served.id):
            return
        key = (served.id, seat)
        self.counts[key] = self.counts.get(key, 0) + 1
        if self.counts[key] == 1 and self.shared is not None:
            self.shared.mine.add(key)
            self._keep(asyncio.get_running_loop().create_task(self._moved(served.id, seat)))
        elif self.counts[key] == 1:
            self._keep(asyncio.get_running_loop().create_task(self._back(served, seat)))
        else:
            self._send_table_to(served)

    async def greeting(self, served: ServedTable, conn: Connection) -> list[Json]:
        """What a seat's new socket hears after its first state (the hub sends it once the
        socket is among those told of every change): the table as it is (who is here, the
        grace periods counting down) and the turn timer running, if the table has one."""
        table = await self.hall.load(served.id)
        out: list[Json] = []
        if table is not None:
            out.append({"type": "table", "table": table_object(
                table, conn.seat, served.row, here=self.rooms.here(served.id))})
            running = self._running.get(served.id)
            if self.shared is not None and not served.session.leading and (
                    running is None or running[3] != served.version):
                self._timer_known(served, table)  # no news of it heard yet: the store's
        if self._options.get(served.id, {}).get("timer"):
            out.append(self.timer_message(served.id))  # read now: the latest
        return out

    def timer_message(self, table_id: str) -> Json:
        """The ``turn-timer`` message of the timer running at the table now (or none)."""
        running = self._running.get(table_id)
        if running is None:
            return {"type": "turn-timer", "seat": None}
        seat, until, of, _ = running
        left = max(0, round((until - self.clock()).total_seconds()))
        return {"type": "turn-timer", "seat": seat, "left": left, "of": of}

    def closed(self, served: ServedTable, seat: int) -> None:
        """A seat's game socket left its table."""
        key = (served.id, seat)
        if key not in self.counts:
            return
        self.counts[key] -= 1
        if self.counts[key] <= 0:
            del self.counts[key]
            loop = asyncio.get_running_loop()
            if self.shared is not None:
                self.shared.mine.discard(key)
                self._keep(loop.create_task(self._moved(served.id, seat, left=True)))
            else:
                self._keep(loop.create_task(self._away(served.id, seat)))

    def _send_table_to(self, served: ServedTable) -> None:
        task = asyncio.get_running_loop().create_task(self.rooms.presence_changed(served.id))
        self._keep(task)

    async def _set(self, table_id: str, seat: int, state: str,
                   until: dt.datetime | None, only_from: tuple[str, ...]) -> FriendTable | None:
        """Set a person's presence (if it is one of ``only_from``); the table, or None."""
        async with self.hall.lock(table_id):
            table = await self.hall.load(table_id)
            person = None if table is None else table.at(seat)
            if (table is None or table.status != STARTED or person is None
                    or person.player_id is None or person.state not in only_from):
                return None
            changed = dataclasses.replace(person, state=state, away_until=until)
            seats = tuple(changed if s.seat == seat else s for s in table.seats)
            table = dataclasses.replace(table, seats=seats)
            await self.hall.save(table)
            return table

    async def _away(self, table_id: str, seat: int) -> None:
        until = self.clock() + dt.timedelta(seconds=self.grace)
        table = await self._set(table_id, seat, "away", until, ("here", "seated"))
        if table is None:
            return
        self._tell(table)
        self._schedule(table_id, seat, self.grace)

    def _schedule(self, table_id: str, seat: int, delay: float) -> None:
        key = (table_id, seat)
        old = self._tasks.pop(key, None)
        if old is not None:
            old.cancel()
        self._tasks[key] = asyncio.get_running_loop().create_task(
            self._gone_after(table_id, seat, delay))

    async def _gone_after(self, table_id: str, seat: int, delay: float) -> None:
        await self.sleep(max(0.0, delay))
        self._tasks.pop((table_id, seat), None)
        await self.gone(table_id, seat)

    async def gone(self, table_id: str, seat: int) -> None:
        """The grace period is over: the computer player plays the person's turns."""
        table = await self._set(table_id, seat, "gone", None, ("away",))
        if table is None:
            return
        served = self.lobby.tables.get(table_id)
        if served is not None:
            served.session.stand_in(seat, True)
        self._tell(table)

    async def _back(self, served: ServedTable, seat: int) -> None:
        upto = served.session.step  # an intent they send as they come back comes after
        task = self._tasks.pop((served.id, seat), None)
        if task is not None:
            task.cancel()
        served.session.stand_in(seat, False)
        table = await self._set(served.id, seat, "here", None, ("away", "gone", "seated"))
        # what was played for them, from the store (whichever process led meanwhile); a
        # person away until now may have acted already at another process
        missed = await asyncio.to_thread(rebuild_played_for, self.hall.store, served.id,
                                         served.names, seat, upto, table is not None)
        if missed:
            name = served.names[seat]
            text = "While you were away: " + " ".join(e["text"] for e in missed)
            told = {"type": "while-away", "name": name, "events": missed, "text": text}
            self._tell_seat(served, seat, told)
            self._publish({"game": served.id, "kind": "while-away", "seat": seat,
                           "message": told})
        if table is not None:
            self._tell(table)
        else:
            self._send_table_to(served)
            self._publish({"game": served.id, "kind": "table"})
        self.turn_began(served)


    def finished(self, table_id: str) -> None:
        """The game is over: the table is too (a restart no longer picks it up)."""
        self._keep(asyncio.get_running_loop().create_task(self._finish(table_id)))

    async def _finish(self, table_id: str) -> None:
        async with self.hall.lock(table_id):
            table = await self.hall.load(table_id)
            if table is not None and table.status == STARTED:
                await self.hall.save(dataclasses.replace(table, status=FINISHED,
                                                         timer_seat=None, timer_until=None))

    def _keep(self, task: asyncio.Task[None]) -> None:
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    # ------------------------------------------------------------------ the turn timer

    def turn_began(self, served: ServedTable) -> None:
        """After every change: a person to decide gets the table's timer, if it has one
        (only where the table is led: the others hear of it)."""
        if not served.session.leading:
            return
        options = self._options.get(served.id, {})
        timer = options.get("timer")
        session = served.session
        running = self._running.get(served.id)
        game = session.snapshot
        if running is not None and running[3] == session.version and (
                running[0] == game.turn):
            return  # the same decision's timer runs on (a socket came back meanwhile)
        old = self._timers.pop(served.id, None)
        if old is not None:
            old.cancel()
        self._running.pop(served.id, None)
        seat = game.turn
        if not isinstance(timer, int) or seat is None or game.over or (
                session.is_computer(seat)):
            if old is not None:
                self.rooms.send_all(served.id, {"type": "turn-timer", "seat": None})
                self._publish({"game": served.id, "kind": "timer", "seat": None})
            return
        self._start_timer(served, seat, float(timer), session.version)

    def _start_timer(self, served: ServedTable, seat: int, left: float, version: int) -> None:
        timer = self._options.get(served.id, {}).get("timer")
        self.rooms.send_all(served.id, {"type": "turn-timer", "seat": seat,
                                        "left": round(left), "of": timer})
        until = self.clock() + dt.timedelta(seconds=left)
        self._running[served.id] = (seat, until, timer, version)
        self._timers[served.id] = asyncio.get_running_loop().create_task(
            self._time_out(served, seat, left, version, until))

    async def _time_out(self, served: ServedTable, seat: int, left: float, version: int,
                        until: dt.datetime) -> None:
        await self._keep_deadline(served.id, seat, until)
        # the other processes hear of it once the store has it (one that loads the table
        # meanwhile reads it there)
        self._publish({"game": served.id, "kind": "timer", "seat": seat, "version": version,
                       "until": until.isoformat(), "of": self._options[served.id]["timer"]})
        await self.sleep(max(0.0, left))
        self._timers.pop(served.id, None)
        self._running.pop(served.id, None)
        served.session.play_once(seat, version)

    async def _keep_deadline(self, table_id: str, seat: int | None,
                             until: dt.datetime | None) -> None:
        async with self.hall.lock(table_id):
            table = await self.hall.load(table_id)
            if table is not None:
                await self.hall.save(dataclasses.replace(table, timer_seat=seat,
                                                         timer_until=until))

    # ------------------------------------------------------------------ a restart

    async def resume(self) -> None:
        """After a start: grace periods and turn timers run on from their stored
        deadlines; the people gone get their stand-ins back."""
        try:
            tables = await asyncio.to_thread(self.hall.store.friends.live)
        except Exception:
            log.exception("could not read the tables for friends")
            return
        for table in tables:
            if table.status != STARTED:
                continue
            if self.shared is not None:  # its leader (this process or another) picks it up
                await self.lobby.watched(table.id)
            else:
                await self._resume(table)

    async def _resume(self, table: FriendTable) -> None:
        pending = [p for p in table.seats if p.state in ("away", "gone", "here")]
        if not pending and table.timer_until is None:
            return
        served = await self.lobby.watched(table.id)
        if served is None:
            return
        if served.snapshot.over:  # over before the table knew (an older server)
            await self._finish(table.id)
            return
        moment = self.clock()
        for person in table.seats:
            if person.state == "here":  # nobody's socket is open after a restart
                await self._away(table.id, person.seat)
            elif person.state == "away" and person.away_until is not None:
                left = (person.away_until - moment).total_seconds()
                self._schedule(table.id, person.seat, left)
        self._timer_from(served, table, moment)
        served.kick()

    def _timer_from(self, served: ServedTable, table: FriendTable,
                    moment: dt.datetime) -> bool:
        """Start the timer the store keeps, if its seat is still to decide; whether it did."""
        seat, until = table.timer_seat, table.timer_until
        if seat is None or until is None or served.snapshot.turn != seat:
            return False
        left = (until - moment).total_seconds()
        self._start_timer(served, seat, left, served.session.version)
        return True

    def close(self) -> None:
        for task in [*self._tasks.values(), *self._timers.values()]:
            task.cancel()

    # ------------------------------------------------------------------ several processes

    def share(self, here: Here) -> list[asyncio.Task[None]]:
        """Several server processes (``--redis``): who is here is read from ``here``, only
        a table's leader runs its grace periods and timer, and its news reach every
        process's sockets. The tasks of the server's lifetime are returned."""
        self.shared = here
        here.on_news = self.heard
        loop = asyncio.get_running_loop()
        return [loop.create_task(here.listen()), loop.create_task(self._renew()),
                loop.create_task(self._sweep())]

    def _publish(self, news: News) -> None:
        if self.shared is not None:
            self._keep(asyncio.get_running_loop().create_task(self.shared.publish(news)))

    def _tell(self, table: FriendTable) -> None:
        """Every socket of the table hears it as it is now, at every process."""
        self.rooms.tell(table)
        self._publish({"game": table.id, "kind": "table"})

    def _tell_seat(self, served: ServedTable, seat: int, message: Json) -> None:
        for conn in list(served.hub.connections):
            if conn.seat == seat:
                conn.send(message)

    async def _moved(self, table_id: str, seat: int, left: bool = False) -> None:
        """This process's first socket of a seat opened, or its last closed: Redis says
        so, and the table's leader decides (this process, or the one the news reaches)."""
        assert self.shared is not None
        await self.shared.sync(table_id, seat)
        await self.reconcile(table_id, frozenset({seat}) if left else frozenset())
        await self.shared.publish({"game": table_id, "kind": "here", "seat": seat,
                                   "left": left})

    def heard(self, news: News) -> None:
        """Another process's news of a table this process serves."""
        game_id = news["game"]
        served = self.lobby.tables.get(game_id)
        if served is None or not self.is_friends(game_id):
            return
        kind, seat = news.get("kind"), news.get("seat")
        loop = asyncio.get_running_loop()
        if kind == "here" and served.session.leading:
            left = frozenset({seat}) if news.get("left") and isinstance(seat, int) else None
            self._keep(loop.create_task(self.reconcile(game_id, left or frozenset())))
        elif kind == "table":
            self._send_table_to(served)
        elif kind == "timer" and not served.session.leading:
            self._timer_heard(served, news)
        elif kind == "while-away" and isinstance(seat, int):
            message = news.get("message")
            if isinstance(message, dict) and message.get("type") == "while-away":
                self._tell_seat(served, seat, message)

    def _timer_heard(self, served: ServedTable, news: News) -> None:
        """The leader's turn timer: kept (for the sockets that open here) and told."""
        seat = news.get("seat")
        if seat is None:
            self._running.pop(served.id, None)
        else:
            try:
                until = dt.datetime.fromisoformat(str(news["until"]))
                self._running[served.id] = (int(seat), until, news.get("of"),
                                            int(news["version"]))
            except (KeyError, TypeError, ValueError) as error:
                log.warning("dropped a turn timer's news of game %s: %s", served.id, error)
                return
        self.rooms.send_all(served.id, self.timer_message(served.id))

    async def reconcile(self, table_id: str, left: frozenset[int] = frozenset(),
                        read: tuple[float, frozenset[int]] | None = None) -> None:
        """At the table's leader: who is here at any process now, against who was. A seat
        found here again is back; a seat is away if its last sockets were just closed
        (``left``) and none is open anywhere, or if it was seen here before and is missing
        at two readings in a row (a process died: its members expired). Nothing changes
        while Redis cannot say. ``read``: (when, the seats) read already (a sweep's), let
        go if a later reading was taken meanwhile."""
        lock = self._reading.setdefault(table_id, asyncio.Lock())
        async with lock:
            served = self.lobby.tables.get(table_id)
            if (self.shared is None or served is None or not served.session.leading
                    or not self.is_friends(table_id)):
                return
            if read is not None and read[0] < self._read_at.get(table_id, 0.0):
                return  # older than what was decided since
            when = read[0] if read is not None else time.monotonic()
            here = read[1] if read is not None else await self.shared.seats(table_id)
            if here is None:
                return
            self._read_at[table_id] = when
            seen = self._seen.get(table_id, frozenset())
            missing = seen - here
            away = (left - here) | (missing & self._missing.get(table_id, frozenset()))
            self._missing[table_id] = missing - away
            self._seen[table_id] = here | (missing - away)
            for seat in sorted(here - seen):
                await self._back(served, seat)
            for seat in sorted(away):
                await self._away(table_id, seat)

    async def _renew(self) -> None:
        """Every ``RENEW`` seconds: renew this process's seats in Redis (a loop of its own:
        a sweep slow to decide for many tables never lets this process's members expire,
        which would make its people away, then back, at every table)."""
        assert self.shared is not None
        while True:
            await asyncio.sleep(RENEW)
            await self.shared.renew()

    async def _sweep(self) -> None:
        """Every ``RENEW`` seconds: read who is here at each unfinished table this process
        leads."""
        assert self.shared is not None
        while True:
            await asyncio.sleep(RENEW)
            led = [table_id for table_id in self._options
                   if (served := self.lobby.tables.get(table_id)) is not None
                   and served.session.leading and not served.snapshot.over]
            when = time.monotonic()
            found = await self.shared.seats_of(led) if led else None
            for table_id, here in (found or {}).items():
                try:
                    await self.reconcile(table_id, read=(when, here.seats))
                except Exception:  # a store error: read again at the next sweep
                    log.exception("could not read who is at game %s", table_id)
                served = self.lobby.tables.get(table_id)
                if (here.elsewhere and served is not None and self.hand_over is not None
                        and served.unwatched(HAND_OVER)):
                    self._keep(asyncio.get_running_loop().create_task(
                        self.hand_over(served)))

    def leading_changed(self, served: ServedTable, leading: bool) -> None:
        """This process gained or lost a table's lease (``Owners.renew``)."""
        if self.shared is None or not self.is_friends(served.id):
            return
        if leading:
            self._keep(asyncio.get_running_loop().create_task(self.lead(served)))
            return
        for key in [k for k in self._tasks if k[0] == served.id]:
            self._tasks.pop(key).cancel()
        timer = self._timers.pop(served.id, None)
        if timer is not None:
            timer.cancel()
        self._seen.pop(served.id, None)
        self._missing.pop(served.id, None)
        self._read_at.pop(served.id, None)
        served.session.absent.clear()  # the leader plays for the people gone
        served.session.once.clear()

    async def lead(self, served: ServedTable) -> None:
        """This process leads the table now: it catches up, and picks up from the store
        who is gone (the computer player stands in), the grace periods and the turn timer
        running; then reads who is here anywhere."""
        table = await self.hall.load(served.id)
        session = served.session
        if table is None or table.status != STARTED or not session.leading:
            return
        session.absent.clear()
        session.absent.update(p.seat for p in table.seats
                              if p.state == "gone" and p.player_id is not None)
        await session.follow()
        if served.snapshot.over:
            await self._finish(served.id)
            return
        self._running.pop(served.id, None)  # what was heard: this process times it now
        self._seen[served.id] = frozenset(p.seat for p in table.seats if p.state == "here")
        self._missing.pop(served.id, None)
        moment = self.clock()
        for person in table.seats:
            if person.state == "away" and person.away_until is not None:
                self._schedule(served.id, person.seat,
                               (person.away_until - moment).total_seconds())
        if not self._timer_from(served, table, moment):
            self.turn_began(served)
        await self.reconcile(served.id)
        served.kick()

    def _timer_known(self, served: ServedTable, table: FriendTable) -> None:
        """At a process that follows the table: the timer the store says runs (until news
        of the next)."""
        seat, until = table.timer_seat, table.timer_until
        if (seat is not None and until is not None and until > self.clock()
                and served.snapshot.turn == seat):
            self._running[served.id] = (seat, until, table.options.get("timer"),
                                        served.session.version)
