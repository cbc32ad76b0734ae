"""The tables of the store: a game is its rules, its decks and its ordered actions.

``games`` holds one row per game (the secret seed stays here, never sent anywhere),
``seats`` who sits where (a player id per human seat, so that tables with several people
and accounts need no new shape), ``decks`` each hand's deck as it is dealt, ``actions`` the
append-only list of actions (a look at face-down cards is one of them), and ``looks``, where
servers saved such looks before they were actions: it is only read now, so that those games
resume the same.

Accounts (optional, migration 0002): ``accounts`` (an email, the argon2id hash of its
password and the player id its new games seat it with), ``logins`` (server-side sessions:
the id is the SHA-256 of the cookie's token, never the token), ``account_players`` (every
player id whose games are the account's, or that was asked to move and said no) and
``resets`` (one-use password reset links, by the SHA-256 of their token).

Tables with friends (migration 0003): ``friend_tables`` (a table's host, status, options, the
SHA-256 of its invite and watch codes, the people removed from it, the turn timer's deadline),
``friend_seats`` (each person seated: player id, display name, presence and the end of their
grace period) and ``stand_ins`` (the actions a computer player made for an absent person).
A table's id is its game's id once started.

Leases (migration 0005): ``leases`` names the server process that owns each game's table
for a few seconds at a time (``spades serve`` with several processes: the owner runs the
table's computer players and timers); a row is worth nothing once its time is past.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

#: The length of ids we accept: game ids and player ids.
ID_LENGTH = 64
#: The longest email address (RFC 5321's path limit).
EMAIL_LENGTH = 254


@dataclass(frozen=True)
class Tables:
    metadata: sa.MetaData
    games: sa.Table
    seats: sa.Table
    decks: sa.Table
    actions: sa.Table
    looks: sa.Table
    accounts: sa.Table
    logins: sa.Table
    account_players: sa.Table
    resets: sa.Table
    friend_tables: sa.Table
    friend_seats: sa.Table
    stand_ins: sa.Table
    leases: sa.Table


def make_tables(prefix: str = "") -> Tables:
    """The tables, their names starting with ``prefix`` (tests use a unique one)."""
    md = sa.MetaData()
    games = sa.Table(
        f"{prefix}games", md,
        sa.Column("id", sa.String(ID_LENGTH), primary_key=True),
        sa.Column("owner", sa.String(ID_LENGTH), nullable=False, index=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
    )
    seats = sa.Table(
        f"{prefix}seats", md,
        sa.Column("game_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(games.c.id, ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(ID_LENGTH), nullable=True, index=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("level", sa.String(32), nullable=True),
    )
    decks = sa.Table(
        f"{prefix}decks", md,
        sa.Column("game_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(games.c.id, ondelete="CASCADE"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("cards", sa.JSON, nullable=False),
    )
    actions = sa.Table(
        f"{prefix}actions", md,
        sa.Column("game_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(games.c.id, ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    looks = sa.Table(
        f"{prefix}looks", md,
        sa.Column("game_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(games.c.id, ondelete="CASCADE"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    accounts, logins, account_players, resets = account_tables(md, prefix)
    friend_tables, friend_seats, stand_ins = friends_tables(md, prefix, games)
    return Tables(md, games, seats, decks, actions, looks, accounts, logins, account_players,
                  resets, friend_tables, friend_seats, stand_ins, lease_table(md, prefix))


def lease_table(md: sa.MetaData, prefix: str) -> sa.Table:
    """Which server process owns each game's table for now (migration 0005). No foreign
    key: a lease is taken and renewed every second, and outlives nothing."""
    return sa.Table(
        f"{prefix}leases", md,
        sa.Column("game_id", sa.String(ID_LENGTH), primary_key=True),
        sa.Column("owner", sa.String(ID_LENGTH), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
    )


def friends_tables(md: sa.MetaData, prefix: str, games: sa.Table) -> tuple[sa.Table, ...]:
    """The tables of tables with friends (migration 0003)."""
    friend_tables = sa.Table(
        f"{prefix}friend_tables", md,
        sa.Column("id", sa.String(ID_LENGTH), primary_key=True),
        sa.Column("host", sa.String(ID_LENGTH), nullable=True, index=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("touched", sa.DateTime(timezone=True), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("invite", sa.String(ID_LENGTH), nullable=True, index=True),
        sa.Column("watch", sa.String(ID_LENGTH), nullable=True, index=True),
        sa.Column("barred", sa.JSON, nullable=False),
        sa.Column("next_id", sa.String(ID_LENGTH), nullable=True),
        sa.Column("timer_seat", sa.Integer, nullable=True),
        sa.Column("timer_until", sa.DateTime(timezone=True), nullable=True),
        # the invite code itself, kept only while anyone seated may share it (0004)
        sa.Column("shared", sa.String(16), nullable=True),
    )
    friend_seats = sa.Table(
        f"{prefix}friend_seats", md,
        sa.Column("table_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(friend_tables.c.id, ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(ID_LENGTH), nullable=True, index=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("away_until", sa.DateTime(timezone=True), nullable=True),
    )
    stand_ins = sa.Table(
        f"{prefix}stand_ins", md,
        sa.Column("game_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(games.c.id, ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
    )
    return friend_tables, friend_seats, stand_ins


def account_tables(md: sa.MetaData, prefix: str) -> tuple[sa.Table, ...]:
    """The tables of accounts and login sessions (migration 0002)."""
    accounts = sa.Table(
        f"{prefix}accounts", md,
        sa.Column("id", sa.String(ID_LENGTH), primary_key=True),
        sa.Column("email", sa.String(EMAIL_LENGTH), nullable=False, unique=True),
        sa.Column("password", sa.String(255), nullable=False),
        sa.Column("player_id", sa.String(ID_LENGTH), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    logins = sa.Table(
        f"{prefix}logins", md,
        sa.Column("id", sa.String(ID_LENGTH), primary_key=True),
        sa.Column("player_id", sa.String(ID_LENGTH), nullable=False),
        sa.Column("account_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(accounts.c.id, ondelete="CASCADE"), nullable=True, index=True),
        sa.Column("csrf", sa.String(ID_LENGTH), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("device", sa.String(128), nullable=False),
        sa.Column("moving", sa.String(ID_LENGTH), nullable=True),
    )
    account_players = sa.Table(
        f"{prefix}account_players", md,
        sa.Column("player_id", sa.String(ID_LENGTH), primary_key=True),
        sa.Column("account_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(accounts.c.id, ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("moved", sa.Boolean, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    resets = sa.Table(
        f"{prefix}resets", md,
        sa.Column("id", sa.String(ID_LENGTH), primary_key=True),
        sa.Column("account_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(accounts.c.id, ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=True),
    )
    return accounts, logins, account_players, resets
