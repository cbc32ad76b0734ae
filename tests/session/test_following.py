"""Following a game another server process writes (issue 42 item 1): a session that does not
lead reads the rows the leading one kept and tells its listeners the same changes, entropy,
undos and practice marks included; a person's intent may be committed at either; of two
racing intents exactly one is kept; only the leading session plays the computer players."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sessionkit import Ear, run_async

from spades.ai import Player
from spades.ai.simple import RandomPlayer
from spades.engine import CODE_OF, GameState, Play, find_preset, legal_actions
from spades.session import (
    Change,
    InlineThinker,
    Missed,
    Refusal,
    Session,
    Sitter,
    Snapshot,
    StoreSaver,
    new_game_row,
    state_from_store,
)
from spades.store import Store

pytestmark = pytest.mark.timeout(120)
ME = "me-0000000000"


def two_processes(tmp_path: Path, undo: bool = True) -> tuple[Store, Session, Session]:
    """One game in one store and a session of it in each of two "processes": the first
    leads (plays the computer players), the second follows."""
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    sitters = (Sitter(player=ME), Sitter(level="random"), Sitter(level="random"),
               Sitter(level="random"))
    rules = find_preset("partnership").with_options(undo=undo)
    row, state = new_game_row(ME, rules, sitters, {"preset": "partnership"}, first_dealer=3)
    store.create_game(row, [CODE_OF[c] for c in state.hand.deck])
    sessions = []
    for n in range(2):
        stored = store.load_game(row.id)
        assert stored is not None
        computers: dict[int, Player] = {s.seat: RandomPlayer() for s in row.seats
                                        if s.kind == "computer"}
        sessions.append(Session(row.id, row.seats, state_from_store(stored),
                                saver=StoreSaver(store, row.id),
                                thinker=InlineThinker(computers, random.Random(n))))
    sessions[1].leading = False
    return store, sessions[0], sessions[1]


async def settle(*sessions: Session) -> None:
    await asyncio.sleep(0)
    while not all(s.idle for s in sessions):
        await asyncio.sleep(0.01)


def card(state: GameState) -> str:
    action = legal_actions(state)[0]
    assert isinstance(action, Play)
    return CODE_OF[action.card]


def same(a: GameState, b: GameState) -> bool:
    return a._replace(decks=()) == b._replace(decks=())


def test_the_follower_tells_the_same_changes_as_the_leader(tmp_path: Path) -> None:
    store, leader, follower = two_processes(tmp_path)
    heard, followed = Ear(), Ear()
    leader.listen(heard)
    follower.listen(followed)

    async def go() -> None:
        await leader.contribute(0, 1, "ab12")  # entropy for the next hand's shuffle
        await leader.act(0, leader.version, {"bid": 3})
        await settle(leader)
        await leader.act(0, leader.version, {"play": card(leader.state)})
        await settle(leader)
        await leader.undo(0)
        await leader.mark_practice("hint")
        assert await follower.follow()
        assert not await follower.follow()  # nothing new
    try:
        run_async(go())
        assert same(follower.state, leader.state) and follower.state.marks == ("hint",)
        assert (follower.version, follower.step, follower.rows, follower.given) == (
            leader.version, leader.step, leader.rows, leader.given)
        assert followed.told() == heard.told() and len(heard.told()) > 8
        assert all(c.followed for c in followed.changes)
        assert [c.undone for c in followed.changes] == [c.undone for c in heard.changes]
    finally:
        store.close()


def test_an_intent_kept_by_the_follower_is_played_on_by_the_leader(tmp_path: Path) -> None:
    store, leader, follower = two_processes(tmp_path)

    async def go() -> None:
        await leader.act(0, leader.version, {"bid": 3})
        await settle(leader)
        await follower.follow()
        await follower.act(0, follower.version, {"play": card(follower.state)})
        await settle(follower)
        # the follower plays no computer player: its turn waits for the leader
        assert follower.state.turn != 0 and follower.idle
        mine = follower.version
        assert await leader.follow()  # a wake-up: the leader reads it and plays on
        await settle(leader)
        assert leader.version > mine and leader.state.turn == 0
        await follower.follow()
        assert same(follower.state, leader.state)
    try:
        run_async(go())
    finally:
        store.close()


def test_of_two_racing_intents_exactly_one_is_kept(tmp_path: Path) -> None:
    store, leader, follower = two_processes(tmp_path)
    heard = Ear()
    follower.listen(heard)

    async def go() -> list[str]:
        await leader.act(0, leader.version, {"bid": 3})
        await settle(leader)
        await follower.follow()
        version = leader.version
        assert follower.version == version
        bids = await asyncio.gather(
            leader.act(0, version, {"play": card(leader.state)}),
            follower.act(0, version, {"play": card(follower.state)}),
            return_exceptions=True)
        await settle(leader, follower)
        return ["kept" if b is None else b.code if isinstance(b, Refusal) else repr(b)
                for b in bids]
    try:
        outcome = run_async(go())
        assert sorted(outcome) == ["kept", "stale"]
        stored = store.load_game(leader.id)
        assert stored is not None
        plays = [r for r in stored.actions if r.seat == 0 and "play" in r.action]
        assert len(plays) == 1  # one card of seat 0 kept, not two
        # the refused one caught up with the card that was kept, and told it
        told = [c.action for c in heard.changes if c.seat == 0 and isinstance(c.action, Play)]
        assert len(told) == 1 and isinstance(told[0], Play)
        assert CODE_OF[told[0].card] == plays[0].action["play"]
    finally:
        store.close()


def test_rows_that_disagree_are_read_whole_and_told(tmp_path: Path) -> None:
    store, leader, follower = two_processes(tmp_path)
    heard = Ear()
    follower.listen(heard)

    async def go() -> None:
        await leader.act(0, leader.version, {"bid": 3})
        await settle(leader)
        with store.engine.begin() as conn:  # a version that no row explains
            conn.execute(sa.update(store.tables.games).values(
                version=store.tables.games.c.version + 1))
        assert await follower.follow()
    try:
        run_async(go())
        stored = store.load_game(leader.id)
        assert stored is not None and follower.version == stored.game.version
        assert same(follower.state, leader.state)
        last = heard.changes[-1]
        assert last.followed and last.whole and last.before is last.after.state  # as it is now
    finally:
        store.close()


class LateVersion(StoreSaver):
    """A store read whose version came before a row kept meanwhile (each statement sees
    its own moment): the rows hold one more change than the version says."""

    async def rows_after(self, rows: int, marks_after: int | None = None) -> Missed | None:
        found = await super().rows_after(rows, marks_after)
        assert found is not None
        return found._replace(version=found.version - 1)


def test_rows_kept_after_the_version_was_read_are_followed_as_rows(tmp_path: Path) -> None:
    store, leader, follower = two_processes(tmp_path)
    follower.saver = LateVersion(store, follower.id)
    heard = Ear()
    follower.listen(heard)

    async def go() -> None:
        await leader.act(0, leader.version, {"bid": 3})
        await settle(leader)
        assert await follower.follow()
    try:
        run_async(go())
        assert same(follower.state, leader.state) and follower.version == leader.version
        assert heard.changes and not any(c.whole for c in heard.changes)
        assert len(heard.changes) == leader.step
    finally:
        store.close()


def test_the_follower_marks_what_the_computer_played_for_an_absent_person(
        tmp_path: Path) -> None:
    """At a table for friends, a computer player's action for an absent person is kept
    with its mark (in the action's transaction), and the follower's change says so too."""
    store, leader, follower = two_processes(tmp_path)
    leader.friends = follower.friends = True
    assert isinstance(leader.thinker, InlineThinker)
    leader.thinker.players[0] = RandomPlayer()  # the stand-in for the person at seat 0
    heard, followed = Ear(), Ear()
    leader.listen(heard)
    follower.listen(followed)

    async def go() -> None:
        await leader.act(0, leader.version, {"bid": 3})
        await settle(leader)
        leader.listen(Back(leader, at=14))  # back once a few cards were played for them
        leader.stand_in(0, True)  # the person at seat 0 went away: played for
        await settle(leader)
        assert leader.state.turn == 0 and leader.step >= 14
        assert await follower.follow()
    try:
        run_async(go())
        for_person = [(c.after.step, c.seat) for c in heard.changes if c.stand_in]
        assert for_person and all(seat == 0 for _, seat in for_person)
        assert store.friends.stand_ins(leader.id) == dict(for_person)
        assert [(c.after.step, c.seat) for c in followed.changes if c.stand_in] == for_person
        assert all(c.followed for c in followed.changes)
    finally:
        store.close()


class Back:
    """A listener that brings the person at seat 0 back once the game is at step ``at``."""

    def __init__(self, session: Session, at: int):
        self.session, self.at = session, at

    def changed(self, change: Change) -> None:
        if change.after.step >= self.at:
            self.session.stand_in(0, False)

    def thinking(self, seat: int, snapshot: Snapshot) -> None:
        return None


class CountingSaver(StoreSaver):
    """Counts the store reads of a follower."""

    reads = 0

    async def rows_after(self, rows: int, marks_after: int | None = None) -> Missed | None:
        self.reads += 1
        return await super().rows_after(rows, marks_after)


def test_rows_a_wake_up_carried_are_taken_without_reading_the_store(tmp_path: Path) -> None:
    """Each card or bid made here gives its stored row (``Change.row``, what a wake-up
    sends): a follower one version behind takes it as the store would give it; rows that
    do not come right after its own, or miss a version, send it to the store."""
    store, leader, follower = two_processes(tmp_path)
    saver = follower.saver = CountingSaver(store, follower.id)
    heard, followed = Ear(), Ear()
    leader.listen(heard)
    follower.listen(followed)

    def told(change: Change) -> Missed:
        row = change.row()
        assert row is not None
        return Missed(change.after.version, (row,))

    async def go() -> None:
        await leader.act(0, leader.version, {"bid": 3})
        await settle(leader)  # the three computer players bid: four rows
        for change in heard.changes:
            assert await follower.follow(told(change))
        assert saver.reads == 0 and same(follower.state, leader.state)
        await leader.act(0, leader.version, {"play": card(leader.state)})
        await settle(leader)
        skipped = heard.changes[-1]  # the last of several: rows in between are missing
        assert leader.version - follower.version > 1
        assert await follower.follow(told(skipped))
        assert saver.reads == 1 and same(follower.state, leader.state)

    try:
        run_async(go())
        assert followed.told() == heard.told()
        stored = store.load_game(leader.id)
        assert stored is not None
        rows = [c.row() for c in heard.changes]
        assert rows == list(stored.actions)  # each change's row is the one the store kept
    finally:
        store.close()


class Gate:
    """A thinker that decides only once its gate opens (a computer player thinking while
    another process keeps a change)."""

    def __init__(self, thinker: InlineThinker) -> None:
        self.thinker = thinker
        self.open = asyncio.Event()
        self.asked = 0

    async def decide(self, level: str, view: Any, table: str = "") -> Any:
        self.asked += 1
        await self.open.wait()
        return await self.thinker.decide(level, view, table)


def test_a_computer_turn_beaten_by_another_process_is_played_again_at_once(
        tmp_path: Path) -> None:
    """While the leader's computer player thinks, a person at the other process adds to the
    shuffle: the leader's change is refused as stale, it follows the other's row and
    plays the turn again at once (not after the back-off of a store that failed)."""
    store, leader, follower = two_processes(tmp_path)
    gate = Gate(leader.thinker)  # type: ignore[arg-type]
    leader.thinker = gate

    async def go() -> float:
        await leader.act(0, leader.version, {"bid": 3})
        while not gate.asked:
            await asyncio.sleep(0.01)
        await follower.follow()
        await follower.contribute(0, 1, "ab12")  # kept first, at the other process
        began = time.monotonic()
        gate.open.set()
        while leader.state.turn != 0:
            await asyncio.sleep(0.005)
        return time.monotonic() - began
    try:
        took = run_async(go())
        assert took < 0.5, f"the computer players took {took:.2f} s to play on"
        assert leader.failures == 0 and not leader.raced
        assert leader.given == follower.given == frozenset({(1, 0)})
        stored = store.load_game(leader.id)
        assert stored is not None and stored.game.version == leader.version
    finally:
        store.close()
