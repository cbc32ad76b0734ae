"""The store behind one small interface: create a game, append an action, load a game.

Any SQLAlchemy URL works; SQLite (the default, in the user's data folder) and PostgreSQL
(``postgresql+psycopg://...``) are tested. Every change is one transaction that also bumps
the game's version, guarded by the version it was made from, so that two writers can never
both append the same step.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import platformdirs
import sqlalchemy as sa

from . import migrate
from .accounts import Accounts
from .database import (
    StoreError,
    among,
    aware,
    bad_url,
    failed,
    file_identity,
    make_engine,
    sqlite_file,
)
from .friends import Friends
from .leases import Leases
from .migrate import Upgrade
from .schema import Tables, make_tables
from .statements import Statements

PLAYING = "playing"
OVER = "over"
#: A game its creator deleted before its end (``Store.abandon``): its rows stay as they
#: were (every record made of it still verifies), but no route lists, opens or plays it.
ABANDONED = "abandoned"


class StaleVersionError(StoreError):
    """The game changed since the version a change was made from; nothing was written."""


class GameExistsError(StoreError):
    """A game with that id is already stored."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who sits in a seat: a person (``player_id``) or a computer player (``level``)."""

    seat: int
    kind: str  # "human" or "computer"
    name: str
    player_id: str | None = None
    level: str | None = None

    @property
    def computer_level(self) -> str | None:
        """A computer player's level ("unknown" if none was kept), None for a person: what
        a game record's ``levels`` holds for the seat."""
        return (self.level or "unknown") if self.kind == "computer" else None


@dataclass(frozen=True, slots=True)
class GameRow:
    id: str
    owner: str
    rules: dict[str, Any]
    seed: str
    first_dealer: int
    options: dict[str, Any]
    seats: tuple[SeatRow, ...]
    created: dt.datetime
    updated: dt.datetime
    status: str = PLAYING
    version: int = 0
    result: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ActionRow:
    seq: int  # 1, 2, ... over the whole game
    hand: int  # the hand number, from 0
    seat: int
    action: dict[str, Any]  # a record action, e.g. {"seat": 0, "play": "AS"}


@dataclass(frozen=True, slots=True)
class Append:
    """One action to append to a game (``Store.append_actions``), made from ``version``:
    with it, the deck of a hand it deals (hand, cards), the game's new status and result,
    and ``stand_in``, (step, seat), when a computer player made it for an absent person."""

    game_id: str
    version: int
    action: ActionRow
    deck: tuple[int, Sequence[str]] | None = None
    status: str | None = None
    result: Mapping[str, Any] | None = None
    stand_in: tuple[int, int] | None = None


#: The key of a stored row that is a person's entropy for a shuffle, not a game action:
#: ``{"seat": 0, "entropy": "9f3a...", "hand": 4}`` (``hand``: the hand it shuffles, from 0;
#: the row's own ``hand`` is the hand in play when it was given). Kept among the actions so
#: that it has its step and version like any change, and needs no table of its own.
ENTROPY = "entropy"
#: The key of a stored row that marks the game practice (issue 41): ``{"seat": 0,
#: "practice": "hint"}``; a row like any change (nothing stored is ever rewritten).
PRACTICE = "practice"


@dataclass(frozen=True, slots=True)
class StoredGame:
    """Everything stored about a game: enough to replay it exactly."""

    game: GameRow
    decks: tuple[tuple[str, ...], ...]  # hand number -> deck, top card first
    actions: tuple[ActionRow, ...]  # the game's actions (no entropy), in step order
    looks: frozenset[tuple[int, int]]  # (hand, seat) pairs
    #: the people's entropy for the shuffles (``ENTROPY`` rows), in step order
    entropy: tuple[ActionRow, ...] = ()
    #: the practice marks (``PRACTICE`` rows), in step order
    marks: tuple[ActionRow, ...] = ()

    @property
    def rows(self) -> int:
        """How many rows were appended (actions, entropy and marks): the ``seq`` of the
        last."""
        return len(self.actions) + len(self.entropy) + len(self.marks)


def is_entropy(row: ActionRow) -> bool:
    """Whether a stored row is a person's entropy for a shuffle (not a game action)."""
    return isinstance(row.action, dict) and ENTROPY in row.action


def is_mark(row: ActionRow) -> bool:
    """Whether a stored row marks the game practice (not a game action)."""
    return isinstance(row.action, dict) and PRACTICE in row.action


#: The game option that holds where a game from a chosen deal starts: ``{"scores": [...],
#: "bags": [...]}`` (its first deck is the chosen one).
START = "start"


def stored_record(stored: StoredGame, format_name: str) -> dict[str, Any]:
    """The stored game as a game record of ``format_name`` (every deck: it stays on the
    server's side): each hand's actions in step order (undos included), where a game from a
    chosen deal starts, and the practice marks."""
    game = stored.game
    actions: list[list[dict[str, Any]]] = [[] for _ in stored.decks]
    for row in stored.actions:
        if not 0 <= row.hand < len(actions):
            raise StoreError(f"game {game.id!r}: action {row.seq} is for a hand with no deck")
        actions[row.hand].append(row.action)
    record: dict[str, Any] = {
        "format": format_name, "rules": game.rules, "first_dealer": game.first_dealer,
        "hands": [{"deck": list(deck), "actions": acts}
                  for deck, acts in zip(stored.decks, actions, strict=True)]}
    if game.options.get(START) is not None:
        record[START] = game.options[START]
    marks = sorted({str(row.action[PRACTICE]) for row in stored.marks})
    if marks:
        record[PRACTICE] = marks
    return record


def default_url() -> str:
    """SQLite in the user's data folder (created on first use)."""
    path = platformdirs.user_data_path("spades", appauthor=False) / "spades.db"
    return f"sqlite:///{path}"


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def upgrade(url: str | None = None, *, prefix: str = "") -> Upgrade:
    """Bring the store at ``url`` to the newest schema (``spades serve``, ``spades db``)."""
    store = Store(url, prefix=prefix, create=False)
    try:
        return store.upgrade()
    finally:
        store.close()


class Store:
    """Games, seats, decks and actions in a SQL database.

    The methods are blocking (call them from a thread in async code); each is one
    transaction. ``prefix`` starts every table name (tests use a unique one).
    """

    def __init__(self, url: str | None = None, *, prefix: str = "", create: bool = True):
        """Open the store; with ``create`` (the default), bring its tables to the newest
        schema first (create them, adopt tables made before migrations, or upgrade)."""
        self.url = url or default_url()
        self.prefix = prefix
        try:
            self.engine = make_engine(self.url)
        except (sa.exc.ArgumentError, ValueError, ImportError) as error:
            raise StoreError(f"cannot open the store: {bad_url(self.url, error)}") from error
        except (sa.exc.SQLAlchemyError, OSError) as error:
            raise StoreError(f"cannot open the store at {self.safe_url}: {error}") from error
        self.tables: Tables = make_tables(prefix)
        self._statements = Statements(self.tables)
        if create:
            try:
                self.upgrade()
            except StoreError:
                self.engine.dispose()
                raise
        self._file = sqlite_file(self.url)
        self._identity = file_identity(self._file)
        self.accounts = Accounts(self.engine, self.tables, self.check_file)
        self.friends = Friends(self.engine, self.tables, self.check_file)
        self.leases = Leases(self.engine, self.tables, self.check_file)

    def upgrade(self) -> Upgrade:
        """Bring the tables to the newest schema, once however many processes ask at once."""
        try:
            return migrate.upgrade(self.engine, self.prefix)
        except migrate.MigrationError as error:
            raise StoreError(f"cannot upgrade the store at {self.safe_url}: {error}") from error
        except sa.exc.SQLAlchemyError as error:
            raise failed(f"cannot open the store at {self.safe_url}", error) from error

    def revision(self) -> str | None:
        """The schema revision of the tables (None: none yet, or made before migrations)."""
        try:
            with self.engine.connect() as conn:
                return migrate.current(conn, self.prefix)
        except sa.exc.SQLAlchemyError as error:
            raise failed(f"cannot open the store at {self.safe_url}", error) from error

    def is_legacy(self) -> bool:
        """Whether the tables were made before migrations (``upgrade`` adopts them)."""
        try:
            with self.engine.connect() as conn:
                return migrate.is_legacy(conn, self.prefix)
        except sa.exc.SQLAlchemyError as error:
            raise failed(f"cannot open the store at {self.safe_url}", error) from error

    def check_file(self) -> None:
        """Refuse to write when the SQLite file was deleted or replaced since it was opened:
        what would be written could never be read again."""
        if self._file is None or self._identity is None:
            return
        if file_identity(self._file) != self._identity:
            cause = "the database file was deleted or replaced"
            raise StoreError(f"{cause} while the server ran ({self._file}); nothing more "
                             "can be saved: restart the server", cause)

    @property
    def safe_url(self) -> str:
        """The URL without its password, for messages."""
        return self.describe(self.url)

    @staticmethod
    def describe(url: str) -> str:
        try:
            return sa.make_url(url).render_as_string(hide_password=True)
        except (sa.exc.ArgumentError, ValueError):  # not a URL: it holds no password we know
            return repr(url)

    def close(self) -> None:
        self.engine.dispose()

    def drop_tables(self) -> None:
        """Drop the store's tables and its migration version (tests clean up with this)."""
        self.tables.metadata.drop_all(self.engine)
        version = sa.Table(migrate.version_table(self.prefix), sa.MetaData())
        version.drop(self.engine, checkfirst=True)

    # ------------------------------------------------------------------ writing

    def create_game(self, game: GameRow, deck: Sequence[str]) -> None:
        """Store a new game and the deck of its first hand."""
        t = self.tables
        self.check_file()
        try:
            with self.engine.begin() as conn:
                conn.execute(sa.insert(t.games).values(
                    id=game.id, owner=game.owner, created=game.created, updated=game.updated,
                    status=game.status, version=game.version, rules=game.rules,
                    seed=game.seed, first_dealer=game.first_dealer, options=game.options,
                    result=game.result))
                conn.execute(sa.insert(t.seats), [
                    {"game_id": game.id, "seat": s.seat, "kind": s.kind, "name": s.name,
                     "player_id": s.player_id, "level": s.level} for s in game.seats])
                conn.execute(sa.insert(t.decks).values(game_id=game.id, hand=0,
                                                       cards=list(deck)))
        except sa.exc.IntegrityError as error:
            raise GameExistsError(f"a game {game.id!r} is already stored") from error
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not save the new game", error) from error

    def append_action(self, game_id: str, version: int, action: ActionRow, *,
                      deck: tuple[int, Sequence[str]] | None = None,
                      status: str | None = None,
                      result: Mapping[str, Any] | None = None,
                      stand_in: tuple[int, int] | None = None) -> int:
        """Append one action made from ``version``; with it, the deck of a hand dealt by
        this action, the game's new status and result, and ``stand_in``, (step, seat), when
        a computer player made it for an absent person (``Friends.stand_ins``: in the same
        transaction, so whoever reads the action reads its mark). Returns the new version."""
        done = self.append_actions([Append(game_id, version, action, deck, status, result,
                                           stand_in)])[0]
        if isinstance(done, StoreError):
            raise done
        return done

    def append_actions(self, appends: Sequence[Append], retry: bool = True
                       ) -> list[int | StoreError]:
        """Append several games' actions in one transaction, one commit for them all (a
        group commit: what a busy server's tables made meanwhile). Each is checked against
        its game's version on its own: a stale one writes nothing and is a
        ``StaleVersionError`` in its place, the others are kept. For each, in order, its
        game's new version or why it was not kept (a failed transaction fails them all).
        They are written in the order of their games' ids (one game's in the order given):
        processes writing batches at the same time lock the games' rows in the same order,
        so that none waits for another that waits for it. A connection found lost (the
        database restarted since its last use) fails nothing: they are written again,
        once, on a new one; those whose first try was kept after all are then stale."""
        try:
            self.check_file()
        except StoreError as error:
            return [StoreError(str(error), error.reason) for _ in appends]
        done: list[int | StoreError] = []
        order = sorted(range(len(appends)), key=lambda i: appends[i].game_id)
        try:
            ordered = [appends[i] for i in order]
            written = (self._append_alone(appends) or self._append_many(ordered)
                       or self._append_together(ordered))
            if written is None:  # one is stale: each on its own, in one transaction
                with self.engine.begin() as conn:
                    written = [self._append(conn, appends[i]) for i in order]
            by_index = dict(zip(order, written, strict=True))
            done = [by_index[i] for i in range(len(appends))]
        except sa.exc.IntegrityError as error:
            if len(appends) > 1:  # which one? each again on its own: only it fails
                return [again for one in appends for again in self.append_actions([one])]
            game_id = appends[0].game_id if appends else ""
            return [StaleVersionError(f"game {game_id!r} changed meanwhile: {error}")]
        except sa.exc.DBAPIError as error:
            if retry and error.connection_invalidated:
                return self.append_actions(appends, retry=False)
            return [failed("could not save", error) for _ in appends]
        except sa.exc.SQLAlchemyError as error:
            return [failed("could not save", error) for _ in appends]
        return done

    def _append_alone(self, appends: Sequence[Append]) -> list[int | StoreError] | None:
        """A lone action (a card at a table alone in its transaction) in one
        statement and one round trip (``Statements.together``); None, with nothing done,
        for anything else (SQLite, several, a deck, a stand-in, a status or result)."""
        if len(appends) != 1 or self.engine.dialect.name != "postgresql":
            return None
        one = appends[0]
        if any(x is not None for x in (one.deck, one.stand_in, one.status, one.result)):
            return None
        statements, action = self._statements, one.action
        values = statements.bump_values(one.game_id, one.version, now(), {})
        values.update(seq=action.seq, hand=action.hand, seat=action.seat,
                      action=action.action)
        with self.engine.connect() as conn:
            kept = conn.execution_options(isolation_level="AUTOCOMMIT").execute(
                statements.together(), values).first()
        return [one.version + 1 if kept is not None else _stale(one)]

    def _append_many(self, ones: Sequence[Append]) -> list[int | StoreError] | None:
        """Games' actions, one a game, in one statement and one round trip
        (``Statements.many``, PostgreSQL), with their decks, stand-in marks and the games'
        new status and result (a hand's or the game's end): each kept or stale on its own.
        None, with nothing done, for anything else (SQLite, none, a game twice)."""
        if (not ones or self.engine.dialect.name != "postgresql"
                or len({one.game_id for one in ones}) != len(ones)):
            return None
        statement = self._statements.many(self.engine.dialect.identifier_preparer.quote)
        with self.engine.connect() as conn:
            kept = set(conn.execution_options(isolation_level="AUTOCOMMIT").execute(
                statement, many_values(ones, now())).scalars())
        return [one.version + 1 if one.game_id in kept else _stale(one) for one in ones]

    def _append_together(self, ones: Sequence[Append]) -> list[int | StoreError] | None:
        """``ones`` (in their games' order) written with one statement of each kind for
        them all (a statement's own cost is most of an append's CPU): the games' versions,
        then the actions, decks and stand-in marks (SQLite; on PostgreSQL only a batch
        holding a game twice comes here). None, with nothing kept, when one is stale (its
        game no longer at its version) or they change the games differently (a status or
        result: rare, written one by one)."""
        if len(ones) < 2 or any(one.status is not None or one.result is not None
                                for one in ones):
            return None
        statements, when = self._statements, now()
        with self.engine.begin() as conn:
            bumped = conn.execute(statements.bump(()), [
                statements.bump_values(one.game_id, one.version, when, {}) for one in ones])
            if bumped.rowcount != len(ones):
                conn.rollback()
                return None
            conn.execute(statements.action, [
                {"game_id": one.game_id, "seq": one.action.seq, "hand": one.action.hand,
                 "seat": one.action.seat, "action": one.action.action, "created": when}
                for one in ones])
            decks = [{"game_id": one.game_id, "hand": one.deck[0], "cards": list(one.deck[1])}
                     for one in ones if one.deck is not None]
            if decks:
                conn.execute(statements.deck, decks)
            marks = [{"game_id": one.game_id, "seq": one.stand_in[0], "seat": one.stand_in[1]}
                     for one in ones if one.stand_in is not None]
            if marks:
                conn.execute(statements.stand_in, marks)
        return [one.version + 1 for one in ones]

    def _append(self, conn: sa.Connection, one: Append) -> int | StoreError:
        statements, action = self._statements, one.action
        extra: dict[str, Any] = {}
        if one.status is not None:
            extra["status"] = one.status
        if one.result is not None:
            extra["result"] = dict(one.result)
        bumped = conn.execute(statements.bump(tuple(extra)), statements.bump_values(
            one.game_id, one.version, now(), extra))
        if bumped.rowcount != 1:
            return _stale(one)
        conn.execute(statements.action, {
            "game_id": one.game_id, "seq": action.seq, "hand": action.hand,
            "seat": action.seat, "action": action.action, "created": now()})
        if one.deck is not None:
            conn.execute(statements.deck, {"game_id": one.game_id, "hand": one.deck[0],
                                           "cards": list(one.deck[1])})
        if one.stand_in is not None:
            conn.execute(statements.stand_in, {"game_id": one.game_id,
                                               "seq": one.stand_in[0],
                                               "seat": one.stand_in[1]})
        return one.version + 1

    def set_seat(self, game_id: str, seat: SeatRow) -> None:
        """Change who sits in a seat of a game (a person's seat given to a computer player
        for good, or a computer player's taken by an invited person)."""
        t = self.tables
        self.check_file()
        try:
            with self.engine.begin() as conn:
                conn.execute(sa.update(t.seats).where(
                    t.seats.c.game_id == game_id, t.seats.c.seat == seat.seat).values(
                    kind=seat.kind, name=seat.name, player_id=seat.player_id,
                    level=seat.level))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not change a seat", error) from error

    def abandon(self, game_id: str) -> bool:
        """Mark an unfinished game abandoned (nothing else changes); False if it is not
        stored or not in play."""
        t = self.tables
        self.check_file()
        try:
            with self.engine.begin() as conn:
                done = conn.execute(
                    sa.update(t.games)
                    .where(t.games.c.id == game_id, t.games.c.status == PLAYING)
                    .values(status=ABANDONED, updated=now()))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not delete the game", error) from error
        return bool(done.rowcount == 1)

    # ------------------------------------------------------------------ reading

    def count_unfinished(self, owners: Collection[str]) -> int:
        """How many games in play these player ids created."""
        t = self.tables
        try:
            with self.engine.connect() as conn:
                found = conn.execute(
                    sa.select(sa.func.count()).select_from(t.games)
                    .where(t.games.c.owner.in_(sorted(owners)),
                           t.games.c.status == PLAYING)).scalar_one()
        except sa.exc.SQLAlchemyError as error:
            raise StoreError(f"could not count games: {error}") from error
        return int(found)

    def check(self) -> None:
        """A trivial read of the games table (the health check); StoreError if it fails."""
        self.check_file()
        try:
            with self.engine.connect() as conn:
                conn.execute(sa.select(self.tables.games.c.id).limit(1)).all()
        except sa.exc.SQLAlchemyError as error:
            raise failed("the store cannot be read", error) from error

    def get_game(self, game_id: str) -> GameRow | None:
        t = self.tables
        try:
            with self.engine.connect() as conn:
                row = conn.execute(sa.select(t.games).where(t.games.c.id == game_id)).first()
                if row is None:
                    return None
                seats = self._seats(conn, [game_id])[game_id]
        except sa.exc.SQLAlchemyError as error:
            raise StoreError(f"could not read game {game_id!r}: {error}") from error
        return _game_row(row, seats)

    def load_game(self, game_id: str) -> StoredGame | None:
        """The game, its decks, actions and looks, read in one transaction."""
        t = self.tables
        try:
            with self.engine.begin() as conn:
                row = conn.execute(sa.select(t.games).where(t.games.c.id == game_id)).first()
                if row is None:
                    return None
                seats = self._seats(conn, [game_id])[game_id]
                decks = conn.execute(
                    sa.select(t.decks.c.hand, t.decks.c.cards)
                    .where(t.decks.c.game_id == game_id).order_by(t.decks.c.hand)).all()
                actions = conn.execute(
                    sa.select(t.actions.c.seq, t.actions.c.hand, t.actions.c.seat,
                              t.actions.c.action)
                    .where(t.actions.c.game_id == game_id).order_by(t.actions.c.seq)).all()
                looks = conn.execute(
                    sa.select(t.looks.c.hand, t.looks.c.seat)
                    .where(t.looks.c.game_id == game_id)).all()
        except sa.exc.SQLAlchemyError as error:
            raise StoreError(f"could not read game {game_id!r}: {error}") from error
        if [d.hand for d in decks] != list(range(len(decks))):
            raise StoreError(f"game {game_id!r}: the stored decks are not hands 0..n-1")
        if [a.seq for a in actions] != list(range(1, len(actions) + 1)):
            raise StoreError(f"game {game_id!r}: the stored actions are not steps 1..n")
        rows = [ActionRow(seq=a.seq, hand=a.hand, seat=a.seat, action=a.action)
                for a in actions]
        return StoredGame(
            game=_game_row(row, seats),
            decks=tuple(tuple(d.cards) for d in decks),
            actions=tuple(r for r in rows if not is_entropy(r) and not is_mark(r)),
            looks=frozenset((lk.hand, lk.seat) for lk in looks),
            entropy=tuple(r for r in rows if is_entropy(r)),
            marks=tuple(r for r in rows if is_mark(r)))

    def rows_after(self, game_id: str, seq: int) -> tuple[int, tuple[ActionRow, ...]] | None:
        """The game's version and its rows after row ``seq`` (actions, entropy, undos and
        marks, in order), read in one transaction: what another process kept since a table
        in memory was at row ``seq``. None when the game is not stored."""
        found = self.missed(game_id, seq)
        return None if found is None else (found[0], found[1])

    def missed(self, game_id: str, seq: int, marks_after: int | None = None
               ) -> tuple[int, tuple[ActionRow, ...], dict[int, int]] | None:
        """``rows_after``, and in the same transaction, with ``marks_after``, the game's
        stand-in marks after that step (``Friends.stand_ins``; each is kept with its
        action, so every mark of the rows read is there)."""
        reading = self._statements
        try:
            with self.engine.begin() as conn:
                version = conn.execute(reading.version, {"game_id": game_id}).scalar()
                if version is None:
                    return None
                found = conn.execute(reading.rows, {"game_id": game_id, "seq": seq}).all()
                marks = {} if marks_after is None else {m.seq: m.seat for m in conn.execute(
                    reading.marks, {"game_id": game_id, "seq": marks_after})}
        except sa.exc.SQLAlchemyError as error:
            raise StoreError(f"could not read game {game_id!r}: {error}") from error
        rows = tuple(ActionRow(seq=a.seq, hand=a.hand, seat=a.seat, action=a.action)
                     for a in found)
        if [r.seq for r in rows] != list(range(seq + 1, seq + 1 + len(rows))):
            raise StoreError(f"game {game_id!r}: the stored rows after {seq} are not in order")
        return int(version), rows, marks

    def versions(self, game_ids: Collection[str]) -> dict[str, int]:
        """The stored version of each of ``game_ids`` (a game not stored is left out)."""
        t = self.tables
        if not game_ids:
            return {}
        try:
            with self.engine.connect() as conn:
                found = conn.execute(sa.select(t.games.c.id, t.games.c.version).where(
                    among(self.engine, t.games.c.id, sorted(set(game_ids))))).all()
        except sa.exc.SQLAlchemyError as error:
            raise StoreError(f"could not read the games' versions: {error}") from error
        return {row.id: int(row.version) for row in found}

    def list_games(self, player_id: str | Collection[str], limit: int = 200) -> list[GameRow]:
        """The games where ``player_id`` (or any of several ids: an account's) has a seat,
        most recently played first; not those abandoned."""
        t = self.tables
        players = [player_id] if isinstance(player_id, str) else sorted(player_id)
        try:
            with self.engine.connect() as conn:
                ids = sa.select(t.seats.c.game_id).where(t.seats.c.player_id.in_(players))
                rows = conn.execute(
                    sa.select(t.games).where(t.games.c.id.in_(ids),
                                             t.games.c.status != ABANDONED)
                    .order_by(t.games.c.updated.desc(), t.games.c.id).limit(limit)).all()
                seats = self._seats(conn, [r.id for r in rows])
        except sa.exc.SQLAlchemyError as error:
            raise StoreError(f"could not list games: {error}") from error
        return [_game_row(r, seats[r.id]) for r in rows]

    def _seats(self, conn: sa.Connection, game_ids: list[str]) -> dict[str, tuple[SeatRow, ...]]:
        t = self.tables
        out: dict[str, list[SeatRow]] = {g: [] for g in game_ids}
        if not game_ids:
            return {}
        rows = conn.execute(sa.select(t.seats).where(among(self.engine, t.seats.c.game_id,
                                                          game_ids))
                            .order_by(t.seats.c.game_id, t.seats.c.seat)).all()
        for r in rows:
            out[r.game_id].append(SeatRow(seat=r.seat, kind=r.kind, name=r.name,
                                          player_id=r.player_id, level=r.level))
        return {g: tuple(s) for g, s in out.items()}


def many_values(ones: Sequence[Append], updated: dt.datetime) -> dict[str, Any]:
    """The parameters of ``Statements.many`` for ``ones``: their rows as one JSON array
    (``null`` where an append has no deck or no stand-in mark; an action's JSON as the
    store's JSON columns write it) and the time."""
    rows = [{"game_id": one.game_id, "version": one.version, "seq": one.action.seq,
             "hand": one.action.hand, "seat": one.action.seat, "action": one.action.action,
             "dealt": None if one.deck is None else one.deck[0],
             "cards": None if one.deck is None else list(one.deck[1]),
             "in_seq": None if one.stand_in is None else one.stand_in[0],
             "in_seat": None if one.stand_in is None else one.stand_in[1],
             "status": one.status,
             "result": None if one.result is None else dict(one.result)} for one in ones]
    return {"rows": json.dumps(rows), "updated": updated}


def _stale(one: Append) -> StaleVersionError:
    """Why ``one`` was not kept: its game is no longer at the version it was made from."""
    return StaleVersionError(f"game {one.game_id!r} is no longer at version {one.version}")


def _game_row(row: Any, seats: tuple[SeatRow, ...]) -> GameRow:
    return GameRow(id=row.id, owner=row.owner, rules=dict(row.rules), seed=row.seed,
                   first_dealer=row.first_dealer, options=dict(row.options), seats=seats,
                   created=aware(row.created), updated=aware(row.updated),
                   status=row.status, version=row.version,
                   result=dict(row.result) if row.result is not None else None)
