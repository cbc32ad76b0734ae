"""The store round-trips games on SQLite and on PostgreSQL: a game row, its seats, the decks
as dealt, the append-only actions (each one bumping the version, guarded by it) and looks."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import secrets
import threading
from pathlib import Path

import platformdirs
import pytest
import sqlalchemy as sa

from spades.engine import GameState, apply, legal_actions, make_rules, new_game
from spades.engine.cards import CODE_OF
from spades.engine.record import action_to_json, rules_to_json
from spades.session import state_from_store
from spades.store import (
    OVER,
    PLAYING,
    ActionRow,
    GameExistsError,
    GameRow,
    SeatRow,
    StaleVersionError,
    Store,
    StoreError,
    default_url,
)
from spades.store.database import make_engine

pytestmark = pytest.mark.timeout(60)




def make_row(game_id: str, owner: str = "player-aaaa-0001", players: int = 4) -> GameRow:
    moment = dt.datetime.now(dt.UTC)
    seats = (SeatRow(seat=0, kind="human", name="You", player_id=owner),
             *(SeatRow(seat=s, kind="computer", name=f"Bot {s}", level="easy")
               for s in range(1, players)))
    return GameRow(id=game_id, owner=owner, rules={"preset": "house", "target_score": 300},
                   seed=secrets.token_hex(16), first_dealer=players - 1,
                   options={"preset": "house", "level": "easy"}, seats=seats,
                   created=moment, updated=moment, result={"hands": 0, "scores": [0, 0]})


DECK = [CODE_OF[c] for c in range(52)]


def old_look(store: Store, game_id: str, hand: int, seat: int) -> None:
    """A row of the ``looks`` table, where servers saved looks before they were actions."""
    with store.engine.begin() as conn:
        conn.execute(sa.insert(store.tables.looks).values(
            game_id=game_id, hand=hand, seat=seat, created=dt.datetime.now(dt.UTC)))


def test_a_game_round_trips(store: Store) -> None:
    row = make_row("g1")
    store.create_game(row, DECK)
    loaded = store.load_game("g1")
    assert loaded is not None
    game = loaded.game
    assert (game.id, game.owner, game.rules, game.seed, game.first_dealer, game.options,
            game.seats, game.status, game.version, game.result) == (
        row.id, row.owner, row.rules, row.seed, row.first_dealer, row.options, row.seats,
        PLAYING, 0, row.result)
    assert game.created.tzinfo is not None
    assert abs((game.created - row.created).total_seconds()) < 1
    assert loaded.decks == (tuple(DECK),) and loaded.actions == () and loaded.looks == set()
    assert store.get_game("g1") == game
    assert store.load_game("nope") is None and store.get_game("nope") is None
    with pytest.raises(GameExistsError):
        store.create_game(row, DECK)


def test_each_action_bumps_the_version_once(store: Store) -> None:
    store.create_game(make_row("g2"), DECK)
    first = ActionRow(seq=1, hand=0, seat=0, action={"seat": 0, "bid": 3})
    assert store.append_action("g2", 0, first) == 1
    with pytest.raises(StaleVersionError):  # a duplicate from the same version
        store.append_action("g2", 0, first)
    with pytest.raises(StaleVersionError):  # a version from the future
        store.append_action("g2", 5, ActionRow(seq=2, hand=0, seat=1, action={"seat": 1}))
    old_look(store, "g2", hand=0, seat=0)  # as a server before looks were actions saved it
    second = ActionRow(seq=2, hand=0, seat=1, action={"seat": 1, "bid": "nil"})
    assert store.append_action("g2", 1, second, deck=(1, DECK[::-1]), status=OVER,
                               result={"hands": 1, "scores": [10, -40]}) == 2
    loaded = store.load_game("g2")
    assert loaded is not None
    assert loaded.actions == (first, second)
    assert loaded.decks == (tuple(DECK), tuple(DECK[::-1]))
    assert loaded.looks == {(0, 0)}, "the looks of older saves are still read"
    assert (loaded.game.version, loaded.game.status, loaded.game.result) == (
        2, OVER, {"hands": 1, "scores": [10, -40]})
    assert loaded.game.updated >= loaded.game.created


def test_a_refused_change_writes_nothing(store: Store) -> None:
    store.create_game(make_row("g3"), DECK)
    store.append_action("g3", 0, ActionRow(seq=1, hand=0, seat=0, action={"seat": 0}))
    # the version matches but the step is taken: the whole transaction rolls back
    with pytest.raises(StaleVersionError):
        store.append_action("g3", 1, ActionRow(seq=1, hand=0, seat=1, action={"seat": 1}),
                            deck=(1, DECK))
    loaded = store.load_game("g3")
    assert loaded is not None
    assert loaded.game.version == 1 and len(loaded.actions) == 1 and len(loaded.decks) == 1


def test_two_writers_from_one_version_one_wins(store: Store) -> None:
    store.create_game(make_row("g4"), DECK)
    results: list[str] = []
    barrier = threading.Barrier(4)

    def write(seat: int) -> None:
        barrier.wait()
        try:
            store.append_action("g4", 0, ActionRow(seq=1, hand=0, seat=seat,
                                                    action={"seat": seat, "bid": seat + 1}))
            results.append("saved")
        except StaleVersionError:
            results.append("stale")

    threads = [threading.Thread(target=write, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["saved", "stale", "stale", "stale"]
    loaded = store.load_game("g4")
    assert loaded is not None and loaded.game.version == 1 and len(loaded.actions) == 1


def test_games_are_listed_per_player(store: Store) -> None:
    store.create_game(make_row("older", owner="player-aaaa-0001"), DECK)
    store.create_game(make_row("theirs", owner="player-bbbb-0002"), DECK)
    store.create_game(make_row("newer", owner="player-aaaa-0001"), DECK)
    store.append_action("older", 0, ActionRow(seq=1, hand=0, seat=0, action={"seat": 0}))
    assert [g.id for g in store.list_games("player-aaaa-0001")] == ["older", "newer"]
    assert [g.id for g in store.list_games("player-bbbb-0002")] == ["theirs"]
    assert store.list_games("player-cccc-0003") == []
    (theirs,) = store.list_games("player-bbbb-0002")
    assert [s.name for s in theirs.seats] == ["You", "Bot 1", "Bot 2", "Bot 3"]


@pytest.mark.parametrize("preset", ["house", "two-player", "three-player-kitty"])
def test_a_whole_game_saved_action_by_action_replays_exactly(store: Store, preset: str) -> None:
    rules = make_rules(preset, target_score=120, losing_score=-100)
    seed = secrets.token_hex(16)
    state = new_game(rules, seed)
    row = dataclasses.replace(make_row(f"whole-{preset}", players=rules.players),
                              rules=rules_to_json(rules), seed=seed,
                              first_dealer=state.first_dealer,
                              # as the lobby saves it (without, the older shuffle deals)
                              options={"preset": preset, "level": "easy",
                                       "shuffle": state.shuffle.version})
    store.create_game(row, [CODE_OF[c] for c in state.hand.deck])
    rng = random.Random(11)
    version = 0
    step = 0
    while not state.over and step < 4000:
        action = rng.choice(legal_actions(state))
        seat = state.hand.turn
        after = apply(state, action)
        step += 1
        deck = None
        if not after.over and after.hand.number != state.hand.number:
            deck = (after.hand.number, [CODE_OF[c] for c in after.hand.deck])
        version = store.append_action(
            row.id, version, ActionRow(seq=step, hand=state.hand.number, seat=seat,
                                       action=action_to_json(seat, action)),
            deck=deck, status=OVER if after.over else None)
        state = after
        if step % 97 == 0:  # resuming mid-game gives the same state, seed included
            loaded = store.load_game(row.id)
            assert loaded is not None
            assert same_game(state_from_store(loaded), state)
    assert state.over
    loaded = store.load_game(row.id)
    assert loaded is not None
    assert loaded.game.status == OVER and loaded.game.version == step
    assert same_game(state_from_store(loaded), state)


def same_game(resumed: GameState, played: GameState) -> bool:
    """Equal but for ``decks``: the replay holds the stored decks, the game in play dealt
    them from the same secret seed."""
    dealt = [r.deck for r in played.results] + ([] if played.over else [played.hand.deck])
    return (list(resumed.decks) == dealt[: len(resumed.decks)]
            and resumed._replace(decks=()) == played._replace(decks=()))


def test_an_unreachable_database_is_a_clear_error() -> None:
    with pytest.raises(StoreError, match="cannot open the store at postgresql"):
        Store("postgresql+psycopg://nobody:secret@127.0.0.1:1/none")


def test_the_password_never_shows() -> None:
    assert "secret" not in Store.describe("postgresql+psycopg://me:secret@db/x")


def test_the_default_store_is_sqlite_in_the_user_data_folder() -> None:
    url = default_url()
    folder = platformdirs.user_data_path("spades", appauthor=False)
    assert url == f"sqlite:///{folder / 'spades.db'}"


def test_a_new_sqlite_file_opened_at_once_by_many_opens_for_all(tmp_path: Path) -> None:
    """Several servers (or threads) opening a new file at the same moment all get it, in
    write-ahead mode: none is told "database is locked" while another makes the log."""
    rounds, count = 60, 4
    failures: list[str] = []
    modes: list[str] = []
    for n in range(rounds):
        url = f"sqlite:///{tmp_path / f'new-{n}.db'}"
        barrier = threading.Barrier(count)

        def open_it(url: str = url, barrier: threading.Barrier = barrier) -> None:
            engine = make_engine(url)  # one each, as separate servers have
            barrier.wait()
            try:
                with engine.connect() as conn:
                    modes.append(str(conn.exec_driver_sql("PRAGMA journal_mode").scalar()))
            except sa.exc.OperationalError as error:
                failures.append(str(error.orig))
            finally:
                engine.dispose()

        threads = [threading.Thread(target=open_it) for _ in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert failures == []
    assert modes == ["wal"] * rounds * count


def test_a_sqlite_file_is_created_with_its_folder(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "games.db"
    store = Store(f"sqlite:///{path}")
    try:
        store.create_game(make_row("g"), DECK)
    finally:
        store.close()
    assert path.is_file()
    again = Store(f"sqlite:///{path}")
    try:
        assert again.get_game("g") is not None
    finally:
        again.close()
