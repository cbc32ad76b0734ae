"""Persistence behind one small interface: a game is its rules, decks and ordered actions."""

from .accounts import AccountExistsError, AccountRow, Accounts, LoginRow
from .database import StoreError
from .migrate import Upgrade
from .store import (
    ABANDONED,
    ENTROPY,
    OVER,
    PLAYING,
    ActionRow,
    GameExistsError,
    GameRow,
    SeatRow,
    StaleVersionError,
    Store,
    StoredGame,
    default_url,
    upgrade,
)

__all__ = [
    "ABANDONED",
    "ENTROPY",
    "OVER",
    "PLAYING",
    "AccountExistsError",
    "AccountRow",
    "Accounts",
    "ActionRow",
    "GameExistsError",
    "GameRow",
    "LoginRow",
    "SeatRow",
    "StaleVersionError",
    "Store",
    "StoreError",
    "StoredGame",
    "Upgrade",
    "default_url",
    "upgrade",
]
