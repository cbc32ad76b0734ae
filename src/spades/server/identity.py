"""Who a request comes from (a stand-in until the accounts branch's identity lands: the
header ``X-Spades-Player`` only; the contract is the same)."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request
from starlette.websockets import WebSocket

from .common import PLAYER_HEADER
from .lobby import is_player_id


@dataclass(frozen=True)
class Identity:
    player: str
    players: frozenset[str]
    account: str | None = None
    login: str | None = None


async def identify(conn: Request | WebSocket) -> Identity | None:
    value = conn.headers.get(PLAYER_HEADER)
    if not is_player_id(value):
        return None
    assert value is not None
    return Identity(value, frozenset({value}))
