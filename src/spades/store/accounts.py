"""Accounts and login sessions in the store (schema: ``accounts``, ``logins``,
``account_players``, ``resets``; migration 0002).

Nothing secret is stored as it was given: a login's id and a reset link's id are the SHA-256
of a token that only the browser (or the email) holds, and a password is its argon2id hash
(``spades.accounts.passwords``). Each method is one transaction; call them from a thread in
async code.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .database import aware, failed
from .schema import Tables

#: The name of a seat whose person deleted their account (a computer player plays it).
FORMER_PLAYER = "a former player"


class AccountExistsError(Exception):
    """An account with that email (or player id) is already stored."""


@dataclass(frozen=True, slots=True)
class AccountRow:
    id: str
    email: str
    password: str  # the argon2id hash
    player_id: str  # the player id its new games seat it with
    created: dt.datetime


@dataclass(frozen=True, slots=True)
class LoginRow:
    """A login session: anonymous (``account_id`` None) or signed in."""

    id: str  # the SHA-256 of the cookie's token, in hex
    player_id: str
    account_id: str | None
    csrf: str
    created: dt.datetime
    last_seen: dt.datetime
    expires: dt.datetime
    device: str
    moving: str | None = None  # an anonymous id whose games wait for "move them?"


def _login(row: Any) -> LoginRow:
    return LoginRow(id=row.id, player_id=row.player_id, account_id=row.account_id,
                    csrf=row.csrf, created=aware(row.created),
                    last_seen=aware(row.last_seen), expires=aware(row.expires),
                    device=row.device, moving=row.moving)


def _account(row: Any) -> AccountRow:
    return AccountRow(id=row.id, email=row.email, password=row.password,
                      player_id=row.player_id, created=aware(row.created))


class Accounts:
    """The account tables of one store: its database's ``engine`` and ``tables``;
    ``check_file`` refuses a write the store could not read back (``Store.check_file``)."""

    def __init__(self, engine: sa.Engine, tables: Tables, check_file: Callable[[], None]):
        self.engine = engine
        self.tables = tables
        self.check_file = check_file

    def _write(self) -> Any:
        self.check_file()
        return self.engine.begin()

    def _read(self) -> Any:
        return self.engine.connect()

    # ------------------------------------------------------------------ accounts

    def create(self, account: AccountRow) -> None:
        t = self.tables
        try:
            with self._write() as conn:
                conn.execute(sa.insert(t.accounts).values(
                    id=account.id, email=account.email, password=account.password,
                    player_id=account.player_id, created=account.created))
        except sa.exc.IntegrityError as error:
            raise AccountExistsError("an account with that email exists") from error
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not save the account", error) from error

    def by_email(self, email: str) -> AccountRow | None:
        return self._one(self.tables.accounts.c.email == email)

    def get(self, account_id: str) -> AccountRow | None:
        return self._one(self.tables.accounts.c.id == account_id)

    def _one(self, where: Any) -> AccountRow | None:
        t = self.tables
        try:
            with self._read() as conn:
                row = conn.execute(sa.select(t.accounts).where(where)).first()
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not read the account", error) from error
        return None if row is None else _account(row)

    def set_password(self, account_id: str, password: str) -> None:
        t = self.tables
        try:
            with self._write() as conn:
                conn.execute(sa.update(t.accounts).where(t.accounts.c.id == account_id)
                             .values(password=password))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not change the password", error) from error

    def delete(self, account_id: str) -> list[str]:
        """Delete the account and its logins; take its player ids out of every game where
        someone else sits (each of its seats goes to a computer player of the game's level,
        named "a former player") and delete the other games it sits at or made; the ids of
        the games deleted."""
        t = self.tables
        try:
            with self._write() as conn:
                players = self._players(conn, account_id)
                ids = self._forget(conn, players)
                for table in (t.logins, t.account_players, t.resets):
                    conn.execute(sa.delete(table).where(table.c.account_id == account_id))
                conn.execute(sa.delete(t.accounts).where(t.accounts.c.id == account_id))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not delete the account", error) from error
        return ids

    def forget_player(self, player_id: str) -> list[str]:
        """Delete an anonymous person's data (a player id no account holds): as ``delete``
        does for an account's ids, its seats in shared games go to computer players named
        "a former player", the other games it sits at or made are deleted, and so are its
        anonymous logins; the ids of the games deleted."""
        t = self.tables
        try:
            with self._write() as conn:
                ids = self._forget(conn, [player_id])
                conn.execute(sa.delete(t.logins).where(t.logins.c.player_id == player_id,
                                                       t.logins.c.account_id.is_(None)))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not delete the player's data", error) from error
        return ids

    def _forget(self, conn: sa.Connection, players: list[str]) -> list[str]:
        """Take ``players`` out of every game and table: shared games go on without them,
        the others are deleted (their ids)."""
        t = self.tables
        ids = self._leave_shared(conn, players)
        for table in (t.looks, t.actions, t.decks, t.seats, t.stand_ins):
            conn.execute(sa.delete(table).where(table.c.game_id.in_(ids)))
        conn.execute(sa.delete(t.games).where(t.games.c.id.in_(ids)))
        conn.execute(sa.update(t.friend_seats)
                     .where(t.friend_seats.c.player_id.in_(players))
                     .values(player_id=None, name=FORMER_PLAYER, state="left"))
        return ids

    def _leave_shared(self, conn: sa.Connection, players: list[str]) -> list[str]:
        """Give ``players``' seats in shared games to computer players; the ids of the games
        nobody else sits at (made by ``players`` or with a seat of theirs)."""
        t = self.tables
        seated = sa.select(t.seats.c.game_id).where(t.seats.c.player_id.in_(players))
        games = conn.execute(sa.select(t.games.c.id, t.games.c.options).where(sa.or_(
            t.games.c.owner.in_(players), t.games.c.id.in_(seated)))).all()
        alone = []
        for game in games:
            others = conn.execute(sa.select(t.seats.c.seat).where(
                t.seats.c.game_id == game.id, t.seats.c.player_id.is_not(None),
                t.seats.c.player_id.not_in(players))).first()
            if others is None:
                alone.append(game.id)
                continue
            level = str(dict(game.options).get("level") or "normal")
            conn.execute(sa.update(t.seats).where(
                t.seats.c.game_id == game.id, t.seats.c.player_id.in_(players)).values(
                kind="computer", player_id=None, name=FORMER_PLAYER, level=level))
        return alone

    def games_of(self, account_id: str | None, players: Collection[str] = ()) -> list[str]:
        """The games where one of the account's player ids (or of ``players``) sits."""
        t = self.tables
        try:
            with self._read() as conn:
                players = [*players, *(self._players(conn, account_id)
                                       if account_id is not None else [])]
                return list(conn.execute(sa.select(t.seats.c.game_id).distinct()
                                         .where(t.seats.c.player_id.in_(players))).scalars())
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not read the account's games", error) from error

    # ------------------------------------------------------------------ player ids

    def _players(self, conn: sa.Connection, account_id: str) -> list[str]:
        t = self.tables
        own = conn.execute(sa.select(t.accounts.c.player_id)
                           .where(t.accounts.c.id == account_id)).scalars().all()
        moved = conn.execute(sa.select(t.account_players.c.player_id).where(
            t.account_players.c.account_id == account_id,
            t.account_players.c.moved.is_(True))).scalars().all()
        return [*own, *moved]

    def players(self, account_id: str) -> frozenset[str]:
        """Every player id whose games are the account's: its own and those moved in."""
        try:
            with self._read() as conn:
                return frozenset(self._players(conn, account_id))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not read the account", error) from error

    def owner_of(self, player_id: str) -> str | None:
        """The account whose games are those of ``player_id`` (None: nobody's)."""
        t = self.tables
        try:
            with self._read() as conn:
                own = conn.execute(sa.select(t.accounts.c.id)
                                   .where(t.accounts.c.player_id == player_id)).first()
                if own is not None:
                    return str(own.id)
                moved = conn.execute(sa.select(t.account_players.c.account_id).where(
                    t.account_players.c.player_id == player_id,
                    t.account_players.c.moved.is_(True))).first()
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not read the accounts", error) from error
        return None if moved is None else str(moved.account_id)

    def asked(self, player_id: str) -> bool:
        """Whether moving the games of ``player_id`` into an account was asked already."""
        t = self.tables
        try:
            with self._read() as conn:
                row = conn.execute(sa.select(t.account_players.c.player_id)
                                   .where(t.account_players.c.player_id == player_id)).first()
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not read the accounts", error) from error
        return row is not None

    def answer_move(self, login_id: str, account_id: str, player_id: str, move: bool,
                    when: dt.datetime) -> bool:
        """Remember the answer for ``player_id`` (its games join the account or stay
        apart) and clear the login's question; False if it was answered already."""
        t = self.tables
        try:
            with self._write() as conn:
                conn.execute(sa.update(t.logins).where(t.logins.c.id == login_id)
                             .values(moving=None))
                known = conn.execute(sa.select(t.account_players.c.player_id).where(
                    t.account_players.c.player_id == player_id)).first()
                if known is not None:
                    return False
                conn.execute(sa.insert(t.account_players).values(
                    player_id=player_id, account_id=account_id, moved=move, created=when))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not move the games", error) from error
        return True

    def count_games(self, player_id: str) -> int:
        t = self.tables
        try:
            with self._read() as conn:
                return int(conn.execute(
                    sa.select(sa.func.count(sa.distinct(t.seats.c.game_id)))
                    .where(t.seats.c.player_id == player_id)).scalar_one())
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not count the games", error) from error

    # ------------------------------------------------------------------ logins

    def add_login(self, login: LoginRow, *, replaces: str | None = None) -> None:
        """Store a login (deleting ``replaces``, the one it rotates, and expired ones)."""
        t = self.tables
        try:
            with self._write() as conn:
                conn.execute(sa.delete(t.logins).where(t.logins.c.expires < login.created))
                if replaces is not None:
                    conn.execute(sa.delete(t.logins).where(t.logins.c.id == replaces))
                conn.execute(sa.insert(t.logins).values(
                    id=login.id, player_id=login.player_id, account_id=login.account_id,
                    csrf=login.csrf, created=login.created, last_seen=login.last_seen,
                    expires=login.expires, device=login.device, moving=login.moving))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not save the login", error) from error

    def login(self, login_id: str, when: dt.datetime) -> LoginRow | None:
        """The login, if it exists and has not expired at ``when``."""
        t = self.tables
        try:
            with self._read() as conn:
                row = conn.execute(sa.select(t.logins).where(t.logins.c.id == login_id)).first()
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not read the login", error) from error
        if row is None:
            return None
        login = _login(row)
        return login if login.expires > when else None

    def touch(self, login_id: str, when: dt.datetime, expires: dt.datetime) -> None:
        t = self.tables
        try:
            with self._write() as conn:
                conn.execute(sa.update(t.logins).where(t.logins.c.id == login_id)
                             .values(last_seen=when, expires=expires))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not save the login", error) from error

    def logins(self, account_id: str) -> list[LoginRow]:
        """The account's logins (its devices), the most recently seen first."""
        t = self.tables
        try:
            with self._read() as conn:
                rows = conn.execute(sa.select(t.logins).where(t.logins.c.account_id == account_id)
                                    .order_by(t.logins.c.last_seen.desc())).all()
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not read the logins", error) from error
        return [_login(r) for r in rows]

    def sign_out(self, login_ids: Collection[str] = (), account_id: str | None = None) -> None:
        """Delete these logins, or every login of ``account_id``."""
        t = self.tables
        try:
            with self._write() as conn:
                if login_ids:
                    conn.execute(sa.delete(t.logins).where(t.logins.c.id.in_(list(login_ids))))
                if account_id is not None:
                    conn.execute(sa.delete(t.logins).where(t.logins.c.account_id == account_id))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not sign out", error) from error

    # ------------------------------------------------------------------ reset links

    def add_reset(self, reset_id: str, account_id: str, expires: dt.datetime) -> None:
        t = self.tables
        try:
            with self._write() as conn:
                conn.execute(sa.insert(t.resets).values(id=reset_id, account_id=account_id,
                                                        expires=expires, used=None))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not save the reset link", error) from error

    def reset_owner(self, reset_id: str, when: dt.datetime) -> AccountRow | None:
        """The account of a reset link that is unused and not expired at ``when``."""
        t = self.tables
        try:
            with self._read() as conn:
                row = conn.execute(sa.select(t.accounts).join(
                    t.resets, t.resets.c.account_id == t.accounts.c.id).where(
                    t.resets.c.id == reset_id, t.resets.c.used.is_(None),
                    t.resets.c.expires > when)).first()
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not read the reset link", error) from error
        return None if row is None else _account(row)

    def reset_password(self, reset_id: str, password: str, when: dt.datetime) -> str | None:
        """Use the reset link once: set the password, sign its account out everywhere and
        return the account's id; None if the link is unknown, used or expired."""
        t = self.tables
        try:
            with self._write() as conn:
                row = conn.execute(sa.select(t.resets).where(t.resets.c.id == reset_id)).first()
                if row is None or row.used is not None or aware(row.expires) <= when:
                    return None
                used = conn.execute(sa.update(t.resets).where(
                    t.resets.c.id == reset_id, t.resets.c.used.is_(None)).values(used=when))
                if used.rowcount != 1:
                    return None
                account_id = str(row.account_id)
                conn.execute(sa.update(t.accounts).where(t.accounts.c.id == account_id)
                             .values(password=password))
                conn.execute(sa.delete(t.logins).where(t.logins.c.account_id == account_id))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not reset the password", error) from error
        return account_id
