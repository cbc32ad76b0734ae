"""A table is handed to nobody before it is ready: while its loader gives it what it needs
(its lease, the presence of a table for friends), whoever else asks for the game waits. A
socket handed a table whose presence was not prepared yet was not counted as here, so its
person was never taken for away when it closed (a flaky test of two processes found it)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from server_testkit import PLAYER, client, new_game_id

from spades.engine import rules_from_json
from spades.server.lobby import new_game_row
from spades.server.table import ServedTable


def test_whoever_asks_while_a_table_is_made_ready_gets_it_once_it_is_ready(
        tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        lobby: Any = http.app.state.lobby  # type: ignore[attr-defined]
        prepare = lobby.prepare

        async def ask() -> list[Any]:
            lobby.tables.pop(game_id)  # let go: the next ask loads it again
            release = asyncio.Event()
            ready: list[str] = []

            async def slow(table: ServedTable) -> None:
                await release.wait()
                await prepare(table)
                ready.append(table.id)

            lobby.prepare = slow
            first = asyncio.create_task(lobby.table(game_id, PLAYER))
            while game_id not in lobby.tables:  # served, not yet ready
                await asyncio.sleep(0.01)
            others = [asyncio.create_task(lobby.table(game_id, PLAYER)),
                      asyncio.create_task(lobby.watched(game_id))]
            await asyncio.sleep(0.2)
            waited = [not t.done() for t in others]
            release.set()
            tables = await asyncio.gather(first, *others)
            return [waited, ready, tables]

        try:
            waited, ready, tables = http.portal.call(ask)  # type: ignore[union-attr]
        finally:
            lobby.prepare = prepare
        assert waited == [True, True]  # nobody got the table while it was made ready
        assert ready == [game_id]  # made ready once
        assert len({id(t) for t in tables}) == 1 and tables[0] is lobby.tables[game_id]
        assert lobby._loading == {}


def test_a_new_game_is_handed_to_nobody_before_it_is_ready(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        lobby: Any = http.app.state.lobby  # type: ignore[attr-defined]
        prepare = lobby.prepare
        game_id = new_game_id(http)  # a first game: the store and the lobby are warm
        row = lobby.tables[game_id].row

        async def ask() -> list[Any]:
            release = asyncio.Event()

            async def slow(table: ServedTable) -> None:
                await release.wait()
                await prepare(table)

            lobby.prepare = slow
            fresh, state = new_game_row(PLAYER, rules_from_json(row.rules), {}, "random")
            making = asyncio.create_task(lobby.store_new(fresh, state))
            while fresh.id not in lobby.tables:
                await asyncio.sleep(0.01)
            asking = asyncio.create_task(lobby.table(fresh.id, PLAYER))
            await asyncio.sleep(0.2)
            waited = not asking.done()
            release.set()
            made, got = await asyncio.gather(making, asking)
            return [waited, made is got]

        try:
            waited, same = http.portal.call(ask)  # type: ignore[union-attr]
        finally:
            lobby.prepare = prepare
        assert waited and same
