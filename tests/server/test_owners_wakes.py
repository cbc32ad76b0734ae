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
    monkeypatch.setattr(owners, "follow", lambda game, told=None: followed.append((game, told)))
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
