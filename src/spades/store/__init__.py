"""Persistence behind one small interface: a game is its rules, decks and ordered actions."""

from .accounts import AccountExistsError, AccountRow, Accounts, LoginRow
from .database import StoreError
from .friends import CLOSED, FINISHED, STARTED, WAITING, Friends, FriendSeat, FriendTable
from .leases import Leases
from .migrate import Upgrade
from .store import (
    ABANDONED,
    ENTROPY,
    OVER,
    PLAYING,
    PRACTICE,
    START,
    ActionRow,
    Append,
    GameExistsError,
    GameRow,
    SeatRow,
    StaleVersionError,
    Store,
    StoredGame,
    default_url,
    stored_record,
    upgrade,
)

__all__ = [
    "ABANDONED",
    "CLOSED",
    "ENTROPY",
    "FINISHED",
    "OVER",
    "PLAYING",
    "PRACTICE",
    "START",
    "STARTED",
    "WAITING",
    "AccountExistsError",
    "AccountRow",
    "Accounts",
    "ActionRow",
    "Append",
    "FriendSeat",
    "FriendTable",
    "Friends",
    "GameExistsError",
    "GameRow",
    "Leases",
    "LoginRow",
    "SeatRow",
    "StaleVersionError",
    "Store",
    "StoreError",
    "StoredGame",
    "Upgrade",
    "default_url",
    "stored_record",
    "upgrade",
]
