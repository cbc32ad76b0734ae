"""Wake-ups between server processes (``server/owners.py``): those made while one is being
published go together in one message; a process reads both forms, one wake-up or many,
takes the row a wake-up carries (the store's otherwise), and drops what is not a wake-up
without failing."""

from __future__ import annotations

import asyncio
import json
import logging
from types import SimpleNamespace
from typing import Any

import pytest
from server_testkit import run_async

from spades.server.owners import WAKES, Owners
from spades.session import Missed
from spades.store import ActionRow

pytestmark = pytest.mark.timeout(30)


class SlowRedis:
    """Publishes into a list; each publish takes a moment, as over the network."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def publish(self, channel: str, message: str) -> int:
        await asyncio.sleep(0.01)
        self.sent.append((channel, json.loads(message)))
        return 1


def _owners(client: Any = None, tables: dict[str, Any] | None = None,
            loading: frozenset[str] = frozenset()) -> Owners:
    lobby = SimpleNamespace(tables=tables or {}, loading=lambda game_id: game_id in loading)
    return Owners(store=None, lobby=lobby, client=client)  # type: ignore[arg-type]


def test_wake_ups_made_meanwhile_go_in_one_message() -> None:
    client = SlowRedis()
    owners = _owners(client)

    async def go() -> None:
        owners.wake("g1", 5)
        owners.wake("g2", 8)
        owners.wake("g3", 2, thinking=1)  # the same turn of the loop: one message
        await asyncio.sleep(0.005)  # that message is on its way
        owners.wake("g1", 6)
        owners.wake("g4", 1)
        await asyncio.sleep(0.05)
        owners.wake("g5", 3)  # alone: the one-wake-up form
        await asyncio.sleep(0.05)

    run_async(go())
    assert [channel for channel, _ in client.sent] == [WAKES] * 3
    first, second, third = (message for _, message in client.sent)
    assert first == {"from": owners.me, "wakes": [
        {"game": "g1", "version": 5}, {"game": "g2", "version": 8},
        {"game": "g3", "version": 2, "thinking": 1}]}
    assert second == {"from": owners.me, "wakes": [
        {"game": "g1", "version": 6}, {"game": "g4", "version": 1}]}
    assert third == {"from": owners.me, "game": "g5", "version": 3}


class Table:
    def __init__(self, version: int) -> None:
        self.version = version
        self.heard: list[tuple[int, int]] = []
        self.session = SimpleNamespace(
            heard_thinking=lambda seat, version: self.heard.append((seat, version)))


def test_a_process_reads_one_wake_up_or_many_and_drops_the_rest(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = {"a": Table(3), "b": Table(7), "c": Table(1)}
    owners = _owners(tables=tables)
    followed: list[tuple[str, Missed | None]] = []
    monkeypatch.setattr(owners, "follow",
                        lambda game, told=None, version=None: followed.append((game, told)))
    other = {"from": "another process"}
    row = [12, 1, 3, {"seat": 3, "play": "QH"}]
    owners._woken(json.dumps({**other, "game": "a", "version": 4, "row": row}))
    owners._woken(json.dumps({**other, "wakes": [
        {"game": "b", "version": 7, "thinking": 2},  # its version: who thinks, no follow
        {"game": "c", "version": 2, "row": [1, "x", 0, {}]},  # not a row: the store's
        {"game": "zz", "version": 9},  # not held here
        {"game": "a", "version": 3}]}))  # not ahead
    owners._woken(json.dumps({**other, "game": "b", "version": 8, "row": row,
                              "stand_in": 12}))
    owners._woken(json.dumps({"from": owners.me, "game": "b", "version": 99}))  # our own
    played = ActionRow(seq=12, hand=1, seat=3, action={"seat": 3, "play": "QH"})
    assert followed == [("a", Missed(4, (played,))), ("c", None),
                        ("b", Missed(8, (played,), frozenset({12})))]
    assert tables["b"].heard == [(2, 7)]
    with caplog.at_level(logging.WARNING, logger="spades.server"):
        for garbage in ("not json", "[1, 2]", json.dumps({**other, "wakes": 5}),
                        json.dumps({**other, "wakes": [{"game": "a"}]})):
            owners._woken(garbage)
    assert len(followed) == 3
    dropped = [r for r in caplog.records if "not a wake-up" in r.getMessage()]
    assert len(dropped) == 4


class Leases:
    def take(self, game_id: str, owner: str, seconds: float) -> bool:
        return True


def test_a_wake_up_while_the_table_is_loaded_is_followed_once_it_is_served(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The table being loaded was read from the store before the change the wake-up tells
    of: once served it follows (else it would wait for the next reading of the versions,
    up to ``POLL`` seconds); a game woken that is not being loaded here leaves nothing."""
    owners = _owners(loading=frozenset({"g"}))
    owners.store = SimpleNamespace(leases=Leases())  # type: ignore[assignment]
    followed: list[str] = []
    monkeypatch.setattr(owners, "follow", lambda game, told=None: followed.append(game))
    other = {"from": "another process"}
    owners._woken(json.dumps({**other, "game": "g", "version": 5}))
    owners._woken(json.dumps({**other, "game": "elsewhere", "version": 2}))
    assert followed == []
    session = SimpleNamespace(leading=False, listen=lambda listener: None)
    table = SimpleNamespace(id="g", session=session)
    run_async(owners.adopt(table))  # type: ignore[arg-type]
    assert followed == ["g"] and session.leading
    run_async(owners.adopt(table))  # type: ignore[arg-type]
    assert followed == ["g"]  # once


class Following:
    """A session that follows the rows it is told (the store's: up to ``stored``)."""

    def __init__(self, version: int, stored: int) -> None:
        self.version, self.stored = version, stored
        self.told: list[Missed | None] = []

    async def follow(self, told: Missed | None = None) -> bool:
        self.told.append(told)
        await asyncio.sleep(0.01)  # a read of the store, or the engine's replay
        if told is not None and told.rows[0].seq == self.version + 1:
            self.version = told.version
        elif told is None:
            self.version = self.stored
        return True


class Served:
    def __init__(self, session: Following) -> None:
        self.session = session

    @property
    def version(self) -> int:
        return self.session.version


def _row(seq: int) -> ActionRow:
    return ActionRow(seq=seq, hand=1, seat=2, action={})


def test_wake_ups_that_come_together_are_all_followed_at_once() -> None:
    """A person who plays twice in a row at another process (the trick's last card, then
    the next lead): both wake-ups come before the follow of the first has begun. The second
    is taken after the first (its row, no reading of the store), not left for the reading
    of the versions up to ``POLL`` seconds later."""
    session = Following(version=10, stored=12)
    owners = _owners(tables={"g": Served(session)})
    other = {"from": "another process"}

    async def go() -> None:
        owners._woken(json.dumps({**other, "game": "g", "version": 11, "row": [11, 1, 2, {}]}))
        owners._woken(json.dumps({**other, "game": "g", "version": 12, "row": [12, 1, 2, {}]}))
        await asyncio.sleep(0.1)

    run_async(go())
    assert session.version == 12
    assert [t.version if t else None for t in session.told] == [11, 12]
    assert session.told[1] is not None and [r.seq for r in session.told[1].rows] == [12]
    assert not owners._queued and not owners._following


def test_wake_ups_queued_meanwhile_go_as_one_or_read_the_store() -> None:
    """Several wake-ups queued during one follow are taken together: their rows as one,
    by version, when each carried its row; the store read when one did not; those the
    follow already covered are dropped."""
    session = Following(version=10, stored=15)
    owners = _owners(tables={"g": Served(session)})
    told = {v: Missed(v, (_row(v),)) for v in range(11, 16)}

    async def go() -> None:
        owners.follow("g", told[11])
        owners.follow("g", told[11])  # covered by the follow under way: dropped
        owners.follow("g", told[13])
        owners.follow("g", told[12])
        await asyncio.sleep(0.05)
        owners.follow("g", told[14])
        owners.follow("g", None, 15)  # no row: the store is read
        owners.follow("g", told[15])
        await asyncio.sleep(0.05)

    run_async(go())
    assert session.told[0] == told[11]
    assert session.told[1] == Missed(13, (_row(12), _row(13)))
    assert session.told[2:] == [told[14], None] and session.version == 15
    assert not owners._queued and not owners._following


class Lease:
    """The store's leases: ``free`` says whether a take succeeds; what was asked is kept."""

    def __init__(self, free: bool) -> None:
        self.free = free
        self.asked: list[tuple[str, ...]] = []

    def take(self, game_id: str, owner: str, seconds: float) -> bool:
        self.asked.append(("take", game_id))
        return self.free

    def drop(self, game_ids: list[str], owner: str) -> None:
        self.asked.append(("drop", *game_ids))


class Led:
    """A table served here: its session's lead, the kicks of its turn loop."""

    def __init__(self, game_id: str, leading: bool = False) -> None:
        self.id, self.version, self.kicks = game_id, 7, 0
        self.session = SimpleNamespace(leading=leading, snapshot=SimpleNamespace(over=False),
                                       settle=self._settle)

    async def _settle(self) -> None:
        await asyncio.sleep(0)

    def kick(self) -> None:
        self.kicks += 1

    def unwatched(self, seconds: float) -> bool:
        return True


@pytest.mark.parametrize("free", [True, False])
def test_a_lease_given_up_is_taken_at_once_by_a_process_holding_the_table(
        free: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The news that a leader handed a table over makes a process holding it take the
    lease now (when the store gives it) and play on, not at its next renewal."""
    table, elsewhere = Led("g"), Led("h", leading=True)
    owners = _owners(tables={"g": table, "h": elsewhere})
    lease = Lease(free)
    owners.store = SimpleNamespace(leases=lease)  # type: ignore[assignment]
    followed: list[str] = []
    monkeypatch.setattr(owners, "follow", lambda game, told=None, version=None:
                        followed.append(game))

    async def go() -> None:
        other = {"from": "another process"}
        owners._woken(json.dumps({**other, "wakes": [
            {"game": "g", "version": 7, "free": True},
            {"game": "h", "version": 7, "free": True},  # led here already: nothing asked
            {"game": "zz", "version": 7, "free": True}]}))  # not held here
        await asyncio.sleep(0.05)

    run_async(go())
    assert lease.asked == [("take", "g")]
    assert table.session.leading is free
    assert (followed, table.kicks) == ((["g"], 1) if free else ([], 0))
    assert elsewhere.session.leading and elsewhere.kicks == 0


def test_a_table_handed_over_says_its_lease_is_free_once_it_is_dropped() -> None:
    client = SlowRedis()
    table = Led("g", leading=True)
    let_go: list[str] = []
    owners = _owners(client, tables={"g": table})
    owners.lobby.let_go = lambda t: let_go.append(t.id)
    lease = Lease(True)
    owners.store = SimpleNamespace(leases=lease)  # type: ignore[assignment]

    async def go() -> None:
        await owners.hand_over(table)  # type: ignore[arg-type]
        await asyncio.sleep(0.05)

    run_async(go())
    assert not table.session.leading and let_go == ["g"] and lease.asked == [("drop", "g")]
    assert client.sent == [(WAKES, {"from": owners.me, "game": "g", "version": 7,
                                    "free": True})]
