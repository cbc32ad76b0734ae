"""The watchdog of a connection's messages (``Connection._check``): a message unsent for
``timeout`` seconds disconnects the client; a slow client whose every message goes within
it stays; the server's own cancel of the pump is not taken for a timeout."""

from __future__ import annotations

import asyncio
import json

import pytest

from spades.server.connections import Connection

pytestmark = pytest.mark.timeout(30)


def test_a_slow_client_whose_every_message_goes_in_time_stays() -> None:
    async def run() -> tuple[list[str], bool, int]:
        sent: list[str] = []
        hung = asyncio.Event()

        async def send_text(text: str) -> None:
            await asyncio.sleep(0.12)  # each within 0.2 s, all together far longer
            sent.append(text)

        async def hang_up() -> None:
            hung.set()

        conn = Connection(0, send_text, hang_up=hang_up, timeout=0.2)
        pump = asyncio.create_task(conn.pump(json.dumps))
        for version in range(6):
            conn.send({"type": "pong", "version": version})
        conn.close()
        await asyncio.wait_for(pump, 10)
        timers = 0 if conn._watchdog is None else 1
        return sent, hung.is_set(), timers

    sent, hung, timers = asyncio.run(run())
    assert len(sent) == 6 and not hung
    assert timers == 0  # nothing left armed once the pump is done


def test_a_message_unsent_past_the_timeout_disconnects_once() -> None:
    async def run() -> tuple[int, float]:
        hung: list[float] = []
        loop = asyncio.get_running_loop()

        async def send_text(text: str) -> None:
            if "late" in text:
                await asyncio.sleep(10)

        async def hang_up() -> None:
            hung.append(loop.time())

        conn = Connection(0, send_text, hang_up=hang_up, timeout=0.3)
        pump = asyncio.create_task(conn.pump(json.dumps))
        conn.send({"type": "pong"})
        await asyncio.sleep(0.2)  # the watchdog armed by the first message is still due
        start = loop.time()
        conn.send({"type": "late"})
        await asyncio.wait_for(pump, 5)
        return len(hung), hung[0] - start

    count, after = asyncio.run(run())
    assert count == 1
    assert 0.25 <= after < 1.0  # from the late message's start, not the first's


def test_the_servers_cancel_of_a_pump_is_a_cancel() -> None:
    async def run() -> bool:
        async def send_text(text: str) -> None:
            await asyncio.sleep(10)

        conn = Connection(0, send_text, timeout=5)
        pump = asyncio.create_task(conn.pump(json.dumps))
        conn.send({"type": "pong"})
        await asyncio.sleep(0.05)
        pump.cancel()
        with pytest.raises(asyncio.CancelledError):
            await pump
        return pump.cancelled()

    assert asyncio.run(run())
