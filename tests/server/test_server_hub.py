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


def _bidding_table(suggest: Any) -> tuple[Session, Hub]:
    """Seat 2 a person, the others computer players that bid up to it at once."""
    rules = find_preset("partnership")
    seats = seat_rows((Sitter(level="random"), Sitter(level="random"),
                       Sitter(player="person-at-2"), Sitter(level="random")))
    computers = {s: RandomPlayer() for s in (0, 1, 3)}
    session = Session("g", seats, new_game(rules, 11), saver=Unsaved(),
                      thinker=InlineThinker(computers, random.Random(2)))
    hub = Hub(session, meta_json("g", rules, session.names, {}), suggest)
    session.listen(hub)
    return session, hub


class _Slow:
    """A bid suggestion that comes only when ``release`` is set (a busy machine)."""

    def __init__(self, bid: int, reasons: tuple[str, ...] = ()):
        self.release = asyncio.Event()
        self.answer = {"bid": bid, "label": str(bid), "reasons": list(reasons)}

    async def __call__(self, view: PlayerView, table: str) -> dict[str, Any] | None:
        await self.release.wait()
        return self.answer


class _Socket:
    """A seat's socket, its messages as they come; ``late``: its hello said
    ``late_suggestion`` (the page's)."""

    def __init__(self, hub: Hub, seat: int, late: bool = True):
        self.sent: list[dict[str, Any]] = []
        self.conn = Connection(seat, self._send, late=late)
        self.pump = asyncio.create_task(self.conn.pump(json.dumps))
        hub.join(self.conn)

    async def _send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] == "state"]

    async def close(self) -> None:
        self.conn.close()
        await self.pump


async def _at_the_turn(suggest: _Slow) -> tuple[Session, Hub, _Socket]:
    """The table of ``_bidding_table`` at seat 2's turn to bid, with a page's socket there
    (its hello says ``late_suggestion``), the suggestion still being worked out."""
    session, hub = _bidding_table(suggest)
    socket = _Socket(hub, 2)
    await session.run()
    await asyncio.sleep(0.1)
    return session, hub, socket


def test_the_suggestion_is_made_without_the_session_lock() -> None:
    async def scenario() -> tuple[list[bool], list[int]]:
        locked: list[bool] = []

        async def suggest(view: PlayerView, table: str) -> dict[str, Any] | None:
            locked.append(session.lock.locked())
            await asyncio.sleep(0.05)  # a slow suggestion: the table goes on meanwhile
            return {"bid": 3, "label": "3", "reasons": []}

        session, hub = _bidding_table(suggest)
        socket = _Socket(hub, 2, late=False)
        await session.run()  # the computer players bid up to seat 2
        await asyncio.sleep(0.3)  # the hub's outbox drains
        await socket.close()
        versions = [m["version"] for m in socket.states()]
        assert socket.sent[-1]["legal"]["kind"] == "bid"
        assert socket.sent[-1]["suggestion"]["bid"] == 3
        return locked, versions

    locked, versions = run_async(scenario())
    assert locked and not any(locked)
    assert versions == sorted(versions)


def test_the_turn_to_bid_does_not_wait_for_its_suggestion() -> None:
    """The state that asks the seat to bid reaches it while the suggestion is still being
    worked out; the suggestion follows in a state of the same step with no events, and
    a socket that joins later gets it in its first state."""
    async def scenario() -> None:
        suggest = _Slow(4, ("slow",))
        _session, hub, socket = await _at_the_turn(suggest)
        turn = socket.states()[-1]
        assert turn["legal"]["kind"] == "bid" and turn["suggestion"] is None
        suggest.release.set()
        await asyncio.sleep(0.1)
        again = socket.states()[-1]
        assert again is not turn
        assert (again["step"], again["events"]) == (turn["step"], [])
        assert again["version"] >= turn["version"]
        assert again["suggestion"] == {"bid": 4, "label": "4", "reasons": ["slow"]}
        late = _Socket(hub, 2)
        await asyncio.sleep(0.1)
        assert late.states()[0]["suggestion"]["bid"] == 4
        for s in (socket, late):
            await s.close()
        await hub.stop()

    run_async(scenario())


def test_a_suggestion_for_a_turn_gone_is_not_sent() -> None:
    """The person bids before the suggestion is worked out: it is never sent (it would
    show the bid pad again for a turn that is over)."""
    async def scenario() -> None:
        suggest = _Slow(4)
        session, hub, socket = await _at_the_turn(suggest)
        turn = socket.states()[-1]
        assert turn["legal"]["kind"] == "bid"
        await session.act(2, turn["version"], {"bid": 3})
        await asyncio.sleep(0.1)
        told = len(socket.sent)
        suggest.release.set()
        await asyncio.sleep(0.1)
        assert len(socket.sent) == told, socket.sent[told:]
        assert all(m.get("suggestion") is None for m in socket.states()[1:])
        await socket.close()
        await hub.stop()

    run_async(scenario())


def test_a_client_of_before_gets_its_turn_with_the_suggestion_in_it() -> None:
    """A socket whose hello did not say ``late_suggestion`` gets the turn to bid once, with
    its suggestion, as before; the other seats' sockets are not held meanwhile."""
    async def scenario() -> None:
        suggest = _Slow(4)
        session, hub = _bidding_table(suggest)
        old, other = _Socket(hub, 2, late=False), _Socket(hub, 3, late=False)
        await session.run()
        await asyncio.sleep(0.1)
        # seat 3 has the state of seat 2's turn; seat 2 waits for it with its suggestion
        assert other.states()[-1]["view"]["turn"] == 2
        assert all(m["legal"] is None for m in old.states())
        suggest.release.set()
        await asyncio.sleep(0.1)
        turns = [m for m in old.states() if m["legal"]]
        assert len(turns) == 1 and turns[0]["suggestion"]["bid"] == 4
        assert turns[0]["step"] == other.states()[-1]["step"]
        late_joiner = _Socket(hub, 2, late=False)
        await asyncio.sleep(0.1)
        assert late_joiner.states()[0]["suggestion"]["bid"] == 4
        for s in (old, other, late_joiner):
            await s.close()
        await hub.stop()

    run_async(scenario())


def test_a_client_of_before_joining_meanwhile_waits_for_the_suggestion() -> None:
    async def scenario() -> None:
        suggest = _Slow(5)
        _session, hub, page = await _at_the_turn(suggest)
        old = _Socket(hub, 2, late=False)  # joins while the suggestion is worked out
        await asyncio.sleep(0.1)
        assert old.states() == []
        suggest.release.set()
        await asyncio.sleep(0.1)
        assert [m["suggestion"]["bid"] for m in old.states()] == [5]
        assert [m["suggestion"] and m["suggestion"]["bid"]
                for m in page.states() if m["legal"]] == [None, 5]
        for s in (page, old):
            await s.close()
        await hub.stop()

    run_async(scenario())


def test_a_fresh_state_for_a_client_of_before_waits_for_the_suggestion() -> None:
    """The table as it is now (a socket that fell behind, or syncs): with the suggestion
    in it for a client of before, at once without it for the page."""
    async def scenario() -> None:
        suggest = _Slow(6)
        _session, hub, socket = await _at_the_turn(suggest)
        now = await hub.message(2)
        assert now["legal"]["kind"] == "bid" and now["suggestion"] is None
        waiting = asyncio.create_task(hub.message(2, late=False))
        await asyncio.sleep(0.1)
        assert not waiting.done()
        suggest.release.set()
        assert (await waiting)["suggestion"]["bid"] == 6
        await socket.close()
        await hub.stop()

    run_async(scenario())


def test_a_sockets_first_message_is_its_state_while_its_suggestion_is_worked_out() -> None:
    """What other parts of the server send to a table's sockets (the table for friends,
    presence) while a new socket's first state waits for its suggestion does not reach it
    before that state; a socket that leaves meanwhile is never told anything."""
    async def scenario() -> None:
        suggest = _Slow(3)
        _session, hub, page = await _at_the_turn(suggest)
        old = _Socket(hub, 2, late=False)  # its first state waits for the suggestion
        gone = _Socket(hub, 2, late=False)
        await asyncio.sleep(0.1)
        for conn in list(hub.connections):  # as Rooms.tell does
            conn.send({"type": "table"})
        gone.conn.close()
        hub.leave(gone.conn)
        suggest.release.set()
        await asyncio.sleep(0.1)
        assert [m["type"] for m in old.sent] == ["state"]
        assert old.sent[0]["suggestion"]["bid"] == 3
        assert gone.sent == [] and gone.conn not in hub.connections
        assert [m["type"] for m in page.sent][-2:] == ["table", "state"]
        for s in (page, old):
            hub.leave(s.conn)
            await s.close()
        assert hub.idle  # nobody joining is left behind
        await gone.pump
        await hub.stop()

    run_async(scenario())
