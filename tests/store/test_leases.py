"""A game's lease (one owner at a time, taken over once its time is past) and what a second
process reads to follow a game: the rows after the ones it holds, and the games' versions."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from test_store import DECK, make_row

from spades.store import ActionRow, Leases, StaleVersionError, Store

pytestmark = pytest.mark.timeout(60)




class Clock:
    def __init__(self) -> None:
        self.now = dt.datetime(2026, 12, 5, 9, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now


def test_one_owner_until_its_lease_runs_out(store: Store) -> None:
    clock = Clock()
    leases = Leases(store.engine, store.tables, store.check_file, clock)
    assert leases.take("g1", "a", 3)
    assert not leases.take("g1", "b", 3)  # a holds it
    clock.now += dt.timedelta(seconds=2)
    assert leases.take("g1", "a", 3)  # renewed: until 9:00:05
    clock.now += dt.timedelta(seconds=2.5)
    assert not leases.take("g1", "b", 3)
    clock.now += dt.timedelta(seconds=1)  # a's time is past: b takes it over
    assert leases.take("g1", "b", 3)
    assert not leases.take("g1", "a", 3)
    holder = leases.holder("g1")
    assert holder is not None and holder[0] == "b"
    assert holder[1] == clock.now + dt.timedelta(seconds=3)


def test_taking_several_at_once_and_giving_them_up(store: Store) -> None:
    leases = store.leases
    assert leases.take_all(["g1", "g2"], "a", 5) == {"g1", "g2"}
    assert leases.take_all(["g2", "g3"], "b", 5) == {"g3"}
    leases.drop(["g1", "g2", "g3"], "a")  # g3 is b's: it stays
    assert leases.holder("g1") is None and leases.holder("g2") is None
    assert leases.take_all(["g1", "g2", "g3"], "b", 5) == {"g1", "g2", "g3"}
    assert leases.take_all([], "b", 5) == set()


def race(store: Store, game_id: str, racers: int = 4) -> list[str]:
    """``racers`` threads take ``game_id``'s lease at the same moment; who got it."""
    won: list[str] = []
    barrier = threading.Barrier(racers)

    def take(owner: str) -> None:
        barrier.wait()
        if store.leases.take(game_id, owner, 5):
            won.append(owner)

    threads = [threading.Thread(target=take, args=(f"p{n}",)) for n in range(racers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return won


def test_processes_racing_for_a_free_lease_one_wins(store: Store) -> None:
    store.leases.take("expired", "dead", -1)  # its time is already past
    for game_id in ("free", "expired"):
        won = race(store, game_id)
        assert len(won) == 1, (game_id, won)
        holder = store.leases.holder(game_id)
        assert holder is not None and holder[0] == won[0]


class Beaten(Leases):
    """Leases whose first insert of a game is beaten by ``first``'s take of it (another
    thread's, between this renewal's read and its insert)."""

    def __init__(self, store: Store, first: str) -> None:
        super().__init__(store.engine, store.tables, store.check_file)
        self.store, self.first = store, first

    def _insert(self, game_id: str, owner: str, until: dt.datetime) -> bool:
        assert self.store.leases.take(game_id, self.first, 3)
        return super()._insert(game_id, owner, until)


@pytest.mark.parametrize(("first", "held"), [("a", {"g1", "g2"}), ("b", {"g1"})])
def test_a_renewal_beaten_to_a_first_lease_by_its_own_owner_holds_it(
        store: Store, first: str, held: set[str]) -> None:
    """A process renews its tables' leases while it takes a new table's first one: the
    renewal that finds the lease inserted meanwhile by the same owner holds it (else the
    process would stop leading the table it had just taken, until the next renewal)."""
    store.leases.take("g1", "a", 3)
    assert Beaten(store, first).take_all(["g1", "g2"], "a", 3) == held
    holder = store.leases.holder("g2")
    assert holder is not None and holder[0] == first


def test_the_rows_after_a_step_and_the_versions(store: Store) -> None:
    store.create_game(make_row("g1"), DECK)
    store.create_game(make_row("g2"), DECK)
    rows = [ActionRow(seq=1, hand=0, seat=1, action={"seat": 1, "bid": 3}),
            ActionRow(seq=2, hand=0, seat=0, action={"seat": 0, "entropy": "ab", "hand": 1}),
            ActionRow(seq=3, hand=0, seat=2, action={"seat": 2, "bid": 4})]
    for version, row in enumerate(rows):
        store.append_action("g1", version, row)
    assert store.rows_after("g1", 0) == (3, tuple(rows))
    assert store.rows_after("g1", 2) == (3, (rows[2],))
    assert store.rows_after("g1", 3) == (3, ())
    assert store.rows_after("g2", 0) == (0, ())
    assert store.rows_after("nosuch", 0) is None
    assert store.versions(["g1", "g2", "nosuch"]) == {"g1": 3, "g2": 0}
    assert store.versions([]) == {}


def test_a_stand_ins_mark_is_kept_with_its_action_or_not_at_all(store: Store) -> None:
    """What a computer player made for an absent person is marked in the action's own
    transaction (a follower reading the action reads its mark); a stale action leaves no
    mark."""
    store.create_game(make_row("g1"), DECK)
    bid = ActionRow(seq=1, hand=0, seat=1, action={"seat": 1, "bid": 3})
    assert store.append_action("g1", 0, bid, stand_in=(1, 1)) == 1
    with pytest.raises(StaleVersionError):
        store.append_action("g1", 0, ActionRow(seq=2, hand=0, seat=2,
                                               action={"seat": 2, "bid": 4}),
                            stand_in=(2, 2))
    store.append_action("g1", 1, ActionRow(seq=2, hand=0, seat=2,
                                           action={"seat": 2, "bid": 4}))
    assert store.friends.stand_ins("g1") == {1: 1}
    assert store.friends.stand_ins("g1", after=1) == {}


def test_what_a_follower_missed_with_its_marks_in_one_read(store: Store) -> None:
    store.create_game(make_row("g1"), DECK)
    rows = [ActionRow(seq=1, hand=0, seat=1, action={"seat": 1, "bid": 3}),
            ActionRow(seq=2, hand=0, seat=2, action={"seat": 2, "bid": 4})]
    store.append_action("g1", 0, rows[0], stand_in=(1, 1))
    store.append_action("g1", 1, rows[1], stand_in=(2, 2))
    assert store.missed("g1", 0) == (2, tuple(rows), {})
    assert store.missed("g1", 0, marks_after=0) == (2, tuple(rows), {1: 1, 2: 2})
    assert store.missed("g1", 1, marks_after=1) == (2, (rows[1],), {2: 2})
    assert store.missed("nosuch", 0, marks_after=0) is None


def test_renewing_many_leases_is_one_statement_text_on_postgresql(store: Store) -> None:
    """A process renews the leases of every table it holds each second: on PostgreSQL the
    statements' text does not grow with their count (one array parameter), so the driver
    and the server convert and plan it once."""
    import sqlalchemy as sa

    texts: list[str] = []

    def seen(conn: object, cursor: object, statement: str, *rest: object) -> None:
        texts.append(statement)

    sa.event.listen(store.engine, "before_cursor_execute", seen)
    try:
        few, many = [f"g{i}" for i in range(3)], [f"g{i}" for i in range(300)]
        assert store.leases.take_all(few, "a", 5) == set(few)
        assert store.leases.take_all(many, "a", 5) == set(many)
        assert store.leases.take_all(many, "b", 5) == set()  # a's, in time
        assert set(store.versions(many)) == set()  # no game stored
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", seen)
    updates = {text for text in texts if text.lstrip().upper().startswith("UPDATE")}
    if store.engine.dialect.name == "postgresql":
        assert len(updates) == 1 and all(len(text) < 400 for text in texts), updates
    else:
        assert len(updates) == 2  # IN with 3 parameters, and with 300
