"""Several server processes, one table each at a time (``spades serve --redis``; docs/
architecture.md, "Several processes").

Any process may serve any table: the sockets of one game may be spread over several. The
store is the authority (every change is a versioned row, kept only from the version it was
made from, so of two racing intents exactly one is kept). Each process that holds a table
in memory:

- publishes a wake-up on Redis after each change it keeps (``WAKES``: the game and its new
  version; the wake-ups made while one is being published go together in the next
  message, ``{"from", "wakes": [...]}``, one command and one message for them all);
- on a wake-up from another process, reads the rows it missed from the store
  (``Session.follow``) and tells its own sockets; so a lost message costs a delay, never an
  event: the store is also read every ``POLL`` seconds (every ``POLL_ALONE`` while Redis is
  unreachable) for any table whose stored version is ahead;
- takes or renews the table's lease (``Store.leases``, ``LEASE`` seconds, every ``RENEW``):
  only the owner plays the table's computer players, so when a process dies its tables are
  taken over by another process that serves them within ``LEASE + RENEW`` seconds;
- hands over a table for friends it leads whose people's sockets are all at other
  processes (``hand_over``: the lease given up, the table let go, a wake-up saying so),
  so that one of those leads it at once and its turns stop crossing between processes
  (each change applied and told at one process, not two, with no wake-up between a
  person's card and the computer players' turns).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from redis.exceptions import RedisError

from spades.session import Change, Missed, Session, Snapshot
from spades.store import ActionRow, Store, StoreError

from .lobby import Lobby
from .table import ServedTable

log = logging.getLogger("spades.server")
#: The Redis channel of wake-ups: ``{"from", "game", "version"}`` (``"thinking"``: a seat;
#: ``"free": true``: the sender gave up the table's lease), or several at once:
#: ``{"from", "wakes": [{"game", "version"}, ...]}``.
WAKES = "spades:wakes"
#: Seconds a table's lease lasts; it is renewed every ``RENEW`` seconds.
LEASE = 3.0
RENEW = 1.0
#: Seconds between two readings of the store's versions, with Redis listening and without.
POLL = 2.0
POLL_ALONE = 0.5


class Waker:
    """A session's listener: tells the other processes of each change this one kept."""

    def __init__(self, owners: Owners, game_id: str, session: Session):
        self.owners = owners
        self.game_id = game_id
        self.session = session

    def changed(self, change: Change) -> None:
        """Tell the others; a card or bid goes with its row (and its stand-in mark), so
        that a process one version behind takes it without reading the store."""
        if change.followed:
            return
        made = change.row()
        row = None if made is None else [made.seq, made.hand, made.seat, made.action]
        self.owners.wake(self.game_id, change.after.version, row=row,
                         stand_in=change.after.step if change.stand_in else None)

    def thinking(self, seat: int, snapshot: Snapshot) -> None:
        """The computer player at ``seat`` thinks here: the others' sockets hear it too
        (only the leader says so: a follower told of it says nothing)."""
        if snapshot.thinking == seat and self.session.leading:
            self.owners.wake(self.game_id, snapshot.version, thinking=seat)


def _told(wake: dict[str, Any]) -> Missed | None:
    """The row a wake-up carried, as the store would give it (None: none, or not a row:
    the store is read instead)."""
    row, version, stand_in = wake.get("row"), wake.get("version"), wake.get("stand_in")
    if not (isinstance(row, list) and len(row) == 4 and isinstance(version, int)
            and all(type(x) is int for x in row[:3]) and isinstance(row[3], dict)):
        return None
    marks = frozenset({stand_in}) if type(stand_in) is int else frozenset()
    return Missed(version, (ActionRow(seq=row[0], hand=row[1], seat=row[2], action=row[3]),),
                  marks)


def _joined(told: list[Missed | None]) -> Missed | None:
    """The rows of several wake-ups as one, by version (None when one of them carried
    none: the store is read instead; ``Session.follow`` reads it too when the rows do not
    follow its own, one version each)."""
    known = sorted((t for t in told if t is not None), key=lambda t: t.version)
    if len(known) < len(told):
        return None
    return Missed(known[-1].version, tuple(row for t in known for row in t.rows),
                  frozenset().union(*(t.marks for t in known)))


def process_name() -> str:
    """A name for this process, unique among the server's processes (at most 64 letters)."""
    return f"{socket.gethostname()[:32]}-{os.getpid()}-{secrets.token_hex(4)}"


class Owners:
    def __init__(self, store: Store, lobby: Lobby, client: Any):
        self.store = store
        self.lobby = lobby
        self.client = client
        self.me = process_name()
        #: whether the wake-up channel is heard now (else the store is read more often)
        self.heard = False
        self._following: dict[str, asyncio.Task[None]] = {}
        #: wake-ups not yet published, and the task publishing them (one at a time)
        self._outgoing: list[dict[str, object]] = []
        self._publisher: asyncio.Task[None] | None = None
        #: the wake-ups (version, rows told; None: not known) that came while their table
        #: was being followed: taken once the follow under way is done
        self._queued: dict[str, list[tuple[int | None, Missed | None]]] = {}
        #: the tables being handed over (their lease is not renewed meanwhile)
        self._leaving: set[str] = set()
        #: the games woken while this process was loading them (read from the store
        #: before that change): followed once they are served
        self._early: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        #: told when this process gains (True) or loses (False) a table's lease: the
        #: grace periods and turn timers of tables for friends (``Presence``)
        self.on_lead: Callable[[ServedTable, bool], None] | None = None

    # ------------------------------------------------------------------ a table served

    async def adopt(self, table: ServedTable) -> None:
        """A table this process now serves: it follows the others' changes (those woken
        while it was being loaded at once: the store may have been read before them), tells
        its own, and leads at once if nobody else holds its lease."""
        table.session.leading = False
        table.session.listen(Waker(self, table.id, table.session))
        if table.id in self._early:
            self._early.discard(table.id)
            self.follow(table.id)
        if await self._taken(table.id):
            table.session.leading = True

    async def _taken(self, game_id: str) -> bool:
        """Take ``game_id``'s lease: whether this process holds it now (False when the
        store could not say: the next renewal tries again)."""
        try:
            return await asyncio.to_thread(self.store.leases.take, game_id, self.me, LEASE)
        except StoreError as error:
            log.error("could not take the lease of game %s: %s", game_id, error)
            return False

    def wake(self, game_id: str, version: int, thinking: int | None = None,
             row: list[Any] | None = None, stand_in: int | None = None,
             free: bool = False) -> None:
        """Publish that this process kept ``game_id``'s change to ``version`` (or that the
        computer player at seat ``thinking`` thinks about it, or, ``free``, that it gave
        up the table's lease); ``row``: the change's row, ``[seq, hand, seat, action]``,
        and ``stand_in`` the step if a computer player made it for an absent person."""
        news: dict[str, object] = {"game": game_id, "version": version}
        if thinking is not None:
            news["thinking"] = thinking
        if free:
            news["free"] = True
        if row is not None:
            news["row"] = row
        if stand_in is not None:
            news["stand_in"] = stand_in
        self._outgoing.append(news)
        if self._publisher is None or self._publisher.done():
            self._publisher = self._spawn(self._publish())

    async def _publish(self) -> None:
        """Publish the waiting wake-ups, one message for those made meanwhile, until none
        is left (a busy process sends fewer, larger messages)."""
        while self._outgoing:
            batch, self._outgoing = self._outgoing, []
            message = orjson.dumps({"from": self.me, **batch[0]} if len(batch) == 1
                                   else {"from": self.me, "wakes": batch})
            try:
                await self.client.publish(WAKES, message)
            except (RedisError, OSError) as error:  # the others read the store meanwhile
                log.warning("could not publish %d wake-up(s): %s", len(batch), error)

    def follow(self, game_id: str, told: Missed | None = None,
               version: int | None = None) -> None:
        """Take what another process kept of ``game_id`` (up to ``version``, when known):
        ``told``, the rows its wake-up carried, or else the store's. One follow at a time
        per table: a wake-up meanwhile is queued and taken after it, even one that came
        before the follow under way began (a person who plays twice in a row at another
        process: the second card's wake-up must not wait for the reading of the versions)."""
        running = self._following.get(game_id)
        if running is not None and not running.done():
            woken = told.version if told is not None else version
            self._queued.setdefault(game_id, []).append((woken, told))
            return
        self._following[game_id] = self._spawn(self._follow(game_id, told))

    async def _follow(self, game_id: str, told: Missed | None) -> None:
        while (table := self.lobby.tables.get(game_id)) is not None:
            try:
                await table.session.follow(told)
            except StoreError as error:
                log.error("could not follow game %s: %s", game_id, error)
            queued = [(v, t) for v, t in self._queued.pop(game_id, [])
                      if v is None or v > table.version]
            if not queued:
                break
            told = _joined([t for _, t in queued])
        self._queued.pop(game_id, None)
        self._following.pop(game_id, None)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ------------------------------------------------------------------ the loops

    def start(self) -> list[asyncio.Task[None]]:
        """The loops of the server's lifetime: leases, wake-ups, the store's versions."""
        loop = asyncio.get_running_loop()
        return [loop.create_task(self._every(RENEW, self.renew)),
                loop.create_task(self.listen()),
                loop.create_task(self._poll())]

    async def _every(self, seconds: float, step: Any) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await step()
            except StoreError as error:
                log.error("the store could not be read: %s", error)

    async def renew(self) -> None:
        """Take or renew the leases of the unfinished tables held in memory; a table whose
        lease this process now holds catches up first, then plays on."""
        tables = [t for t in self.lobby.tables.values()
                  if not t.session.snapshot.over and t.id not in self._leaving]
        try:
            held = await asyncio.to_thread(self.store.leases.take_all,
                                           [t.id for t in tables], self.me, LEASE)
        except StoreError as error:  # without the store nobody can prove it leads
            log.error("could not renew the tables' leases: %s", error)
            held = set()
        for table in tables:
            self._lead(table, table.id in held)

    def _lead(self, table: ServedTable, leading: bool) -> None:
        """This process leads ``table`` now, or no longer: a table it gains catches up
        first, then plays on."""
        was = table.session.leading
        table.session.leading = leading
        if leading and not was:
            log.info("leading game %s now", table.id)
            self.follow(table.id)
            table.kick()
        if leading != was and self.on_lead is not None:
            self.on_lead(table, leading)

    async def _take(self, table: ServedTable) -> None:
        """Take the lease another process gave up (``hand_over``) now, not at the next
        renewal: the computer players' turn waits for a leader meanwhile."""
        if table.session.leading or table.session.snapshot.over or table.id in self._leaving:
            return
        if await self._taken(table.id) and self.lobby.tables.get(table.id) is table:
            self._lead(table, True)

    async def hand_over(self, table: ServedTable) -> None:
        """Give up ``table``, led here while its people's sockets are all at other
        processes: it stops leading (the computer players' turn under way ends first), its
        lease is dropped and the table let go, and a wake-up says the lease is free, so
        that a process holding their sockets takes it at once (else at its next renewal,
        within ``RENEW`` seconds) and leads. A socket that came here meanwhile keeps the
        table here: it leads again at the next renewal."""
        session = table.session
        if not session.leading:  # not leading, or being handed over already
            return
        self._leaving.add(table.id)
        try:
            session.leading = False
            if self.on_lead is not None:
                self.on_lead(table, False)
            await session.settle()
            if not table.unwatched(0):
                return
            self.lobby.let_go(table)
            await asyncio.to_thread(self.store.leases.drop, [table.id], self.me)
            self.wake(table.id, table.version, free=True)  # its people's process leads now
            log.info("handed game %s over to the process of its people", table.id)
        except StoreError as error:  # the lease runs out on its own
            log.warning("could not give up the lease of game %s: %s", table.id, error)
        finally:
            self._leaving.discard(table.id)

    async def listen(self) -> None:
        """Hear the other processes' wake-ups until cancelled (Redis lost: again every
        second, the store read every ``POLL_ALONE`` seconds meanwhile)."""
        while True:
            try:
                async with self.client.pubsub() as pubsub:
                    await pubsub.subscribe(WAKES)
                    self.heard = True
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            self._woken(message.get("data"))
            except (RedisError, OSError) as error:
                log.error("lost the wake-ups channel: %s; again in 1 s", error)
            self.heard = False
            await asyncio.sleep(1)

    def _woken(self, data: Any) -> None:
        try:
            message = orjson.loads(data)
            if message.get("from") == self.me:
                return
            wakes = message.get("wakes", [message])
            for wake in wakes:
                self._wake(wake["game"], wake["version"], wake.get("thinking"),
                           _told(wake), wake.get("free") is True)
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            log.warning("dropped a message on %s that is not a wake-up: %s", WAKES, error)

    def _wake(self, game_id: Any, version: Any, thinking: Any, told: Missed | None,
              free: bool = False) -> None:
        """Another process kept ``game_id``'s change to ``version`` (``told``: its row, if
        it sent it), or says the computer player at seat ``thinking`` thinks about it, or
        (``free``) that it gave up the table's lease: this process takes it if it holds
        the table."""
        table = self.lobby.tables.get(game_id) if isinstance(game_id, str) else None
        if table is None and isinstance(game_id, str) and self.lobby.loading(game_id):
            self._early.add(game_id)  # it may have been read before this change
            return
        if table is None or not isinstance(version, int):
            return
        if free:
            self._spawn(self._take(table))
        if version > table.version:
            self.follow(game_id, told, version)
        elif isinstance(thinking, int):
            table.session.heard_thinking(thinking, version)

    async def _poll(self) -> None:
        """Read the stored versions of the tables held in memory; follow those ahead."""
        while True:
            await asyncio.sleep(POLL if self.heard else POLL_ALONE)
            self._early = {g for g in self._early if self.lobby.loading(g)}
            tables = dict(self.lobby.tables)
            try:
                stored = await asyncio.to_thread(self.store.versions, list(tables))
            except StoreError as error:
                log.error("could not read the games' versions: %s", error)
                continue
            for game_id, version in stored.items():
                table = tables[game_id]
                if version > table.version:
                    self.follow(game_id, version=version)

    async def close(self) -> None:
        """Give up this process's leases (another process may take them at once)."""
        for task in list(self._tasks):
            task.cancel()
        held = [t.id for t in self.lobby.tables.values() if t.session.leading]
        try:
            await asyncio.to_thread(self.store.leases.drop, held, self.me)
        except StoreError as error:
            log.warning("could not give up the leases: %s", error)
