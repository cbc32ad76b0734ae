"""The hub makes the sockets' messages outside the session's lock: the bid suggestion never
runs under it, and every socket gets the versions in order."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from server_testkit import run_async

from spades.ai.simple import RandomPlayer
from spades.engine import PlayerView, find_preset, new_game
from spades.server.connections import Connection
from spades.server.hub import Hub
from spades.server.messages import meta_json
from spades.session import InlineThinker, Session, Sitter, Unsaved, seat_rows

pytestmark = pytest.mark.timeout(60)


def test_the_suggestion_is_made_without_the_session_lock() -> None:
    async def scenario() -> tuple[list[bool], list[int]]:
        rules = find_preset("partnership")
        seats = seat_rows((Sitter(level="random"), Sitter(level="random"),
                           Sitter(player="person-at-2"), Sitter(level="random")))
        computers = {s: RandomPlayer() for s in (0, 1, 3)}
        session = Session("g", seats, new_game(rules, 11), saver=Unsaved(),
                          thinker=InlineThinker(computers, random.Random(2)))
        locked: list[bool] = []

        async def suggest(view: PlayerView, table: str) -> dict[str, Any] | None:
            locked.append(session.lock.locked())
            await asyncio.sleep(0.05)  # a slow suggestion: the table goes on meanwhile
            return {"bid": 3, "label": "3", "reasons": []}

        hub = Hub(session, meta_json("g", rules, session.names, {}), suggest)
        session.listen(hub)
        sent: list[dict[str, Any]] = []

        async def send_text(text: str) -> None:
            sent.append(json.loads(text))

        conn = Connection(2, send_text)
        pump = asyncio.create_task(conn.pump(json.dumps))
        hub.join(conn)
        await session.run()  # the computer players bid up to seat 2
        await asyncio.sleep(0.3)  # the hub's outbox drains
        conn.close()
        await pump
        versions = [m["version"] for m in sent if m["type"] == "state"]
        assert sent[-1]["legal"]["kind"] == "bid"
        assert sent[-1]["suggestion"]["bid"] == 3
        return locked, versions

    locked, versions = run_async(scenario())
    assert locked and not any(locked)
    assert versions == sorted(versions)
