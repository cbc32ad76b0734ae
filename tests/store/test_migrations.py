"""Migrations: a database made by the release before migrations is adopted with every game
intact and resumable; a new one is made by the migrations, which agree with the models;
processes upgrading at once upgrade once; a database from a newer version is left alone."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import json
import os
import random
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import release_schema
import sqlalchemy as sa
from storekit import Database, drop_prefixed, prefixed_tables

import spades
from spades.engine import GameState, Shuffle, apply, legal_actions, make_rules, new_game
from spades.engine.cards import CODE_OF
from spades.engine.record import action_to_json, rules_to_json
from spades.session import state_from_store
from spades.store import (
    OVER,
    ActionRow,
    GameRow,
    SeatRow,
    Store,
    StoreError,
    Upgrade,
    migrate,
    upgrade,
)

pytestmark = pytest.mark.timeout(300)

#: The tables of the release before migrations, and the tables now (0002 added accounts,
#: 0003 tables with friends, 0005 leases).
RELEASE = ("games", "seats", "decks", "actions", "looks")
TABLES = (*RELEASE, "accounts", "logins", "account_players", "resets", "friend_tables",
          "friend_seats", "stand_ins", "leases")
OWNER = "player-aaaa-0001"


@dataclasses.dataclass
class Played:
    """A game as it was played before the upgrade: its state and stored version."""

    id: str
    state: GameState
    version: int


def play(store: Store, game_id: str, preset: str, steps: int, seed: int,
         look: bool = False) -> Played:
    """Deal a game as the release did and store ``steps`` random legal actions through the
    store's API (all of them when ``steps`` is large), with a blind-nil look first when
    ``look``. Its options name no shuffle, as the release's did not."""
    rules = make_rules(preset, target_score=150, losing_score=-100)
    secret = secrets.token_hex(16)
    state = new_game(rules, secret, shuffle=Shuffle(version=1))  # the release's shuffle
    moment = dt.datetime.now(dt.UTC)
    seats = (SeatRow(seat=0, kind="human", name="You", player_id=OWNER),
             *(SeatRow(seat=s, kind="computer", name=f"Bot {s}", level="normal")
               for s in range(1, rules.players)))
    store.create_game(GameRow(id=game_id, owner=OWNER, rules=rules_to_json(rules), seed=secret,
                              first_dealer=state.first_dealer, options={"preset": preset},
                              seats=seats, created=moment, updated=moment),
                      [CODE_OF[c] for c in state.hand.deck])
    version = release_look(store, game_id, 0, hand=0, seat=0) if look else 0
    rng = random.Random(seed)
    step = 0
    while not state.over and step < steps:
        action = rng.choice(legal_actions(state))
        seat = state.hand.turn
        after = apply(state, action)
        step += 1
        deck = None
        if not after.over and after.hand.number != state.hand.number:
            deck = (after.hand.number, [CODE_OF[c] for c in after.hand.deck])
        version = store.append_action(
            game_id, version, ActionRow(seq=step, hand=state.hand.number, seat=seat,
                                        action=action_to_json(seat, action)),
            deck=deck, status=OVER if after.over else None,
            result={"hands": len(after.results)} if after.over else None)
        state = after
    return Played(game_id, state, version)


def release_look(store: Store, game_id: str, version: int, hand: int, seat: int) -> int:
    """A seat turned up its cards, saved as the release did: a ``looks`` row and a new
    version (looks are actions now; the table is still read for such games)."""
    t = store.tables
    with store.engine.begin() as conn:
        bumped = conn.execute(sa.update(t.games).where(t.games.c.id == game_id,
                                                       t.games.c.version == version)
                              .values(version=version + 1))
        assert bumped.rowcount == 1
        conn.execute(sa.insert(t.looks).values(game_id=game_id, hand=hand, seat=seat,
                                               created=dt.datetime.now(dt.UTC)))
    return version + 1


def same_game(resumed: GameState, played: GameState) -> bool:
    """Equal but for ``decks``: the replay holds the stored decks, the game in play dealt
    them from the same secret seed."""
    dealt = [r.deck for r in played.results] + ([] if played.over else [played.hand.deck])
    return (list(resumed.decks) == dealt[: len(resumed.decks)]
            and resumed._replace(decks=()) == played._replace(decks=()))


def as_before(store: Store) -> None:
    """``store`` writes each action in a transaction, as the store did before the later
    revisions: the statement of several games' actions names their tables (the stand-in
    marks), which a database at an earlier revision does not have."""
    store._append_many = lambda ones: None  # type: ignore[method-assign]


def release_database(db: Database) -> list[Played]:
    """A database as the release before migrations left it: its ``create_all`` tables and
    games written through the store's API (a finished one, a look, three variants)."""
    engine = sa.create_engine(db.url)
    release_schema.make_tables(db.prefix).metadata.create_all(engine)
    engine.dispose()
    store = Store(db.url, prefix=db.prefix, create=False)
    store.tables = release_schema.make_tables(db.prefix)  # type: ignore[assignment]
    as_before(store)
    try:
        return [play(store, "house-mid", "house", 37, seed=1, look=True),
                play(store, "two-player", "two-player", 61, seed=2),
                play(store, "kitty", "three-player-kitty", 5, seed=3),
                play(store, "house-over", "house", 10_000, seed=4),
                play(store, "just-dealt", "partnership", 0, seed=5)]
    finally:
        store.close()


def dump(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the release, in key order."""
    tables = release_schema.make_tables(db.prefix)
    engine = sa.create_engine(db.url)
    try:
        with engine.connect() as conn:
            return {name: [tuple(r) for r in conn.execute(
                        sa.select(table).order_by(*table.primary_key.columns))]
                    for name, table in zip(RELEASE, (tables.games, tables.seats, tables.decks,
                                                    tables.actions, tables.looks), strict=True)}
    finally:
        engine.dispose()


def differences(db: Database) -> list[Any]:
    engine = sa.create_engine(db.url)
    try:
        with engine.connect() as conn:
            return migrate.differences(conn, db.prefix)
    finally:
        engine.dispose()


def test_a_release_database_is_adopted_and_every_game_stays_and_resumes(
        database: Database) -> None:
    played = release_database(database)
    assert played[3].state.over and not played[0].state.over
    before = dump(database)
    assert len(before["games"]) == 5 and before["looks"]
    store = Store(database.url, prefix=database.prefix, create=False)
    try:
        stored = {p.id: store.load_game(p.id) for p in played}
        assert store.revision() is None and store.is_legacy()
    finally:
        store.close()

    done = upgrade(database.url, prefix=database.prefix)

    assert done == Upgrade(before=None, after=migrate.head(), adopted=True)
    assert "every game stays" in done.describe()
    assert dump(database) == before  # not a row touched
    assert differences(database) == []  # the adopted tables are what the models say
    store = Store(database.url, prefix=database.prefix)  # opening again: nothing to do
    try:
        assert store.revision() == migrate.head() and not store.is_legacy()
        assert sorted(g.id for g in store.list_games(OWNER)) == sorted(p.id for p in played)
        for game in played:
            loaded = store.load_game(game.id)
            assert loaded == stored[game.id]
            assert loaded is not None and loaded.game.version == game.version
            assert same_game(state_from_store(loaded), game.state)
            if game.state.over:
                continue
            # and it resumes: the next action is saved from the stored version
            state = state_from_store(loaded)
            action = legal_actions(state)[0]
            seat = state.hand.turn
            step = len(loaded.actions) + 1
            assert store.append_action(game.id, game.version, ActionRow(
                seq=step, hand=state.hand.number, seat=seat,
                action=action_to_json(seat, action))) == game.version + 1
            again = store.load_game(game.id)
            assert again is not None
            assert same_game(state_from_store(again), apply(game.state, action))
        assert upgrade(database.url, prefix=database.prefix) == Upgrade(
            before=migrate.head(), after=migrate.head())
    finally:
        store.close()


def test_a_new_database_is_made_by_the_migrations_which_agree_with_the_models(
        database: Database) -> None:
    done = upgrade(database.url, prefix=database.prefix)
    assert done == Upgrade(before=None, after=migrate.head())
    expected = {f"{database.prefix}{t}" for t in (*TABLES, "alembic_version")}
    assert prefixed_tables(database.url, database.prefix) == expected
    assert differences(database) == []
    if database.kind == "sqlite":  # a file of its own: nothing but the prefix's tables
        engine = sa.create_engine(database.url)
        assert set(sa.inspect(engine).get_table_names()) == expected
        engine.dispose()
    # the round trip: down to nothing, up again, still what the models say
    store = Store(database.url, prefix=database.prefix, create=False)
    try:
        migrate.downgrade(store.engine, database.prefix)
        assert prefixed_tables(database.url, database.prefix) == {
            f"{database.prefix}alembic_version"}
        assert store.revision() is None
        assert store.upgrade() == Upgrade(before=None, after=migrate.head())
    finally:
        store.close()
    assert differences(database) == []


def test_the_comparison_sees_a_schema_that_is_not_the_models(database: Database) -> None:
    """compare_metadata is no rubber stamp: a column the models lack is reported."""
    upgrade(database.url, prefix=database.prefix)
    engine = sa.create_engine(database.url)
    with engine.begin() as conn:
        conn.execute(sa.text(f"ALTER TABLE {database.prefix}games ADD COLUMN extra INTEGER"))
    engine.dispose()
    (found,) = differences(database)
    assert found[0] == "remove_column" and found[2] == f"{database.prefix}games"


def test_each_prefix_has_its_own_tables_and_version(database: Database) -> None:
    other = dataclasses.replace(database, prefix=f"u{secrets.token_hex(4)}_")
    try:
        assert upgrade(database.url, prefix=database.prefix).before is None
        assert upgrade(other.url, prefix=other.prefix) == Upgrade(before=None,
                                                                  after=migrate.head())
        assert f"{other.prefix}alembic_version" in prefixed_tables(other.url, other.prefix)
        assert differences(other) == [] and differences(database) == []
        store = Store(other.url, prefix=other.prefix, create=False)
        try:
            migrate.downgrade(store.engine, other.prefix)  # one prefix down, the other stays
        finally:
            store.close()
        assert differences(database) == []
        assert prefixed_tables(other.url, other.prefix) == {f"{other.prefix}alembic_version"}
    finally:
        drop_prefixed(other.url, other.prefix)


CHILD = """
import json, pathlib, sys, time
from spades.store import upgrade
url, prefix, folder, me = sys.argv[1:]
folder = pathlib.Path(folder)
(folder / f"ready-{me}").touch()
while not (folder / "go").exists():
    time.sleep(0.002)
try:
    done = upgrade(url, prefix=prefix)
    print(json.dumps({"before": done.before, "after": done.after, "adopted": done.adopted}))
except Exception as error:
    print(json.dumps({"error": repr(error)}))
"""


def upgrade_in_processes(db: Database, folder: Path, count: int) -> list[dict[str, Any]]:
    """``count`` processes, started and imported, told to upgrade at the same moment."""
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(spades.__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")])}
    children = [subprocess.Popen([sys.executable, "-c", CHILD, db.url, db.prefix,
                                  str(folder), str(n)], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env)
                for n in range(count)]
    try:
        deadline = time.monotonic() + 60
        while len(list(folder.glob("ready-*"))) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        (folder / "go").touch()
        outputs = [child.communicate(timeout=90) for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    results = []
    for (out, err), child in zip(outputs, children, strict=True):
        assert child.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def upgrade_in_threads(db: Database, count: int) -> list[dict[str, Any]]:
    barrier = threading.Barrier(count)
    results: list[dict[str, Any]] = []

    def run() -> None:
        barrier.wait()
        try:
            done = upgrade(db.url, prefix=db.prefix)
            results.append({"before": done.before, "after": done.after,
                            "adopted": done.adopted})
        except Exception as error:
            results.append({"error": repr(error)})

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(150)
    assert not any(t.is_alive() for t in threads), f"upgrades still running, got {results}"
    return results


@pytest.mark.parametrize("how", ["processes", "threads"])
@pytest.mark.parametrize("start", ["new", "release"])
def test_upgrades_started_at_once_upgrade_once(database: Database, tmp_path: Path,
                                               how: str, start: str) -> None:
    played = release_database(database) if start == "release" else []
    before = dump(database) if played else None
    count = 4
    if how == "processes":
        results = upgrade_in_processes(database, tmp_path / "sync", count)
    else:
        results = upgrade_in_threads(database, count)
    head = migrate.head()
    assert [r for r in results if "error" in r] == []
    first = {"before": None, "after": head, "adopted": start == "release"}
    rest = {"before": head, "after": head, "adopted": False}
    assert sorted(results, key=lambda r: r["before"] or "") == [first] + [rest] * (count - 1), (
        results)
    assert differences(database) == []
    if before is not None:
        assert dump(database) == before


def test_a_database_from_a_newer_version_is_left_alone(database: Database) -> None:
    upgrade(database.url, prefix=database.prefix)
    engine = sa.create_engine(database.url)
    version = sa.table(f"{database.prefix}alembic_version", sa.column("version_num"))
    with engine.begin() as conn:
        conn.execute(sa.update(version).values(version_num="9999_future"))
    engine.dispose()
    tables = prefixed_tables(database.url, database.prefix)
    with pytest.raises(StoreError, match="revision 9999_future, which this version of "
                                         "Spades does not know: a newer version"):
        Store(database.url, prefix=database.prefix)
    store = Store(database.url, prefix=database.prefix, create=False)
    try:
        assert store.revision() == "9999_future"
    finally:
        store.close()
    assert prefixed_tables(database.url, database.prefix) == tables


def test_tables_not_made_by_spades_are_left_alone(database: Database) -> None:
    engine = sa.create_engine(database.url)
    lone = sa.Table(f"{database.prefix}games", sa.MetaData(), sa.Column("id", sa.Integer))
    lone.create(engine)
    engine.dispose()
    with pytest.raises(StoreError, match=f"no {database.prefix}seats, .*nothing was changed"):
        upgrade(database.url, prefix=database.prefix)
    assert prefixed_tables(database.url, database.prefix) == {f"{database.prefix}games"}


def test_the_migrations_ship_inside_the_package() -> None:
    """No alembic.ini, no source checkout: the scripts are package files, found by name."""
    folder = Path(migrate.__file__).parent / "migrations"
    assert (folder / "env.py").is_file() and (folder / "script.py.mako").is_file()
    assert (folder / "__init__.py").is_file() and (folder / "versions" / "__init__.py").is_file()
    revisions = list(migrate.scripts().walk_revisions())
    assert migrate.revisions() == tuple(r.revision for r in revisions)
    assert revisions[-1].revision == migrate.BASELINE and revisions[-1].down_revision is None
    # one line of history: two branches that each added a migration after the same one must
    # renumber one of them when they meet (docs/migrations.md)
    assert list(migrate.scripts().get_heads()) == [revisions[0].revision]
    assert all(r.down_revision == n.revision for r, n in itertools.pairwise(revisions))
    for r in revisions:  # named NNNN_what.py after its revision
        assert Path(r.path).name.startswith(f"{r.revision}_")
    assert {Path(r.path).parent for r in revisions} == {folder / "versions"}


LATER = '''"""A later migration, as a developer would write one (tests only)."""

import sqlalchemy as sa
from alembic import op

from spades.store.migrate import prefixed

revision = "{revision}"
down_revision = "{down}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    games = prefixed("games")
    # SQLite alters by copying the table: the hard case, where a careless upgrade would
    # cascade the drop of the old games table to every seat, deck and action
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table(games, recreate="always" if sqlite else "auto") as batch:
        batch.alter_column("status", type_=sa.String(32), existing_nullable=False)
        batch.add_column(sa.Column("note", sa.String(64), nullable=True))
    op.create_table(
        prefixed("notes"),
        sa.Column("game_id", sa.String(64), sa.ForeignKey(f"{{games}}.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("text", sa.String(64), nullable=False))
    op.execute(f"INSERT INTO {{prefixed('notes')}} (game_id, text) "
               f"SELECT id, 'migrated' FROM {{games}}")
    {fail}


def downgrade() -> None:
    op.drop_table(prefixed("notes"))
    with op.batch_alter_table(prefixed("games")) as batch:
        batch.drop_column("note")
'''


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """Add a later migration (a data migration too) after the packaged ones; ``later(fail=
    True)`` makes it fail at its very end."""
    packaged = Path(migrate.__file__).parent / "migrations" / "versions"
    real_config = migrate.config

    def add(fail: bool = False) -> str:
        folder = tmp_path / "later_versions"
        folder.mkdir()
        revision = "9001_later"
        (folder / f"{revision}.py").write_text(LATER.format(
            revision=revision, down=migrate.head(),
            fail='raise RuntimeError("the disk is full")' if fail else "pass"))

        def config(*args: Any, **kwargs: Any) -> Any:
            cfg = real_config(*args, **kwargs)
            cfg.set_main_option("version_locations", os.pathsep.join([str(packaged),
                                                                      str(folder)]))
            return cfg

        monkeypatch.setattr(migrate, "config", config)
        migrate.reread()
        return revision

    yield add
    migrate.reread()


def count(db: Database, table: str) -> int:
    engine = sa.create_engine(db.url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text(f"SELECT count(*) FROM {db.prefix}{table}"))
                       .scalar_one())
    finally:
        engine.dispose()


def test_a_later_migration_upgrades_a_release_database_keeping_every_game(
        database: Database, later: Any) -> None:
    played = release_database(database)
    store = Store(database.url, prefix=database.prefix, create=False)
    try:
        stored = {p.id: store.load_game(p.id) for p in played}
    finally:
        store.close()
    rows = {name: len(table) for name, table in dump(database).items()}
    revision = later()
    results = upgrade_in_threads(database, 3)  # at once, and still once: one note per game

    assert sorted(results, key=lambda r: r["before"] or "") == [
        {"before": None, "after": revision, "adopted": True},
        *[{"before": revision, "after": revision, "adopted": False}] * 2]
    assert count(database, "notes") == len(played)
    assert {name: count(database, name) for name in RELEASE} == rows
    store = Store(database.url, prefix=database.prefix)
    try:
        for game in played:
            assert store.load_game(game.id) == stored[game.id]
    finally:
        store.close()


def test_a_failing_migration_changes_nothing(database: Database, later: Any) -> None:
    played = release_database(database)
    before = dump(database)
    tables = prefixed_tables(database.url, database.prefix)
    later(fail=True)
    with pytest.raises(StoreError, match="the disk is full"):
        upgrade(database.url, prefix=database.prefix)
    assert prefixed_tables(database.url, database.prefix) == tables  # no version, no notes
    assert dump(database) == before
    store = Store(database.url, prefix=database.prefix, create=False)
    try:
        assert store.is_legacy() and len(store.list_games(OWNER)) == len(played)
    finally:
        store.close()
