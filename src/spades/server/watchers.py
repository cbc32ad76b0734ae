"""Who each open game socket belongs to, so that ending a login ends its sockets
(docs/protocol.md, "When a sign-in ends").

A socket is opened with a ticket, and the ticket remembers the login it was asked for with
(the cookie's session; none for a script's ``X-Spades-Player`` header). Each socket is a
``Watcher`` here from the moment its ticket is taken until it is gone. Signing out ends the
watchers of that login; signing out everywhere, or a password reset, those of every login of
the account; deleting the account those too, and every watcher of its games. A login that
expires (unused for its lifetime) ends its own sockets (``sockets.watch_expiry``).

``end`` marks a watcher ended and calls its socket's ``on_end`` at once, before it returns:
so the HTTP answer of a sign-out is sent only after each of its sockets has stopped taking
intents (the socket checks ``ended`` before each message, in the same event loop). A socket
still on its way in checks ``ended`` before it joins its table.

Watchers live in this process's memory; with ``--redis`` every end is also told to the
server's other processes, which end their own (``endings.Endings``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from dataclasses import astuple, dataclass, field
from typing import Any

from .endings import Endings

#: The close code of a socket whose sign-in ended.
SIGNED_OUT_CLOSE = 4410
#: The close code of a socket whose game is gone (as for an unknown game).
GONE_CLOSE = 4404


@dataclass(frozen=True)
class Farewell:
    """Why a socket is closed: the close code, the error code of its last message, and the
    reason a player reads (at most 120 bytes: a close reason's limit is 123)."""

    close: int
    code: str
    reason: str


SIGNED_OUT = Farewell(SIGNED_OUT_CLOSE, "signed-out", "signed out: sign in again to go on")
SIGNED_OUT_EVERYWHERE = Farewell(SIGNED_OUT_CLOSE, "signed-out",
                                 "signed out on every device: sign in again to go on")
PASSWORD_RESET = Farewell(SIGNED_OUT_CLOSE, "signed-out", "the password was changed and "
                          "every device signed out: sign in again to go on")
SIGN_IN_EXPIRED = Farewell(SIGNED_OUT_CLOSE, "signed-out",
                           "this sign-in expired, unused for too long: sign in again to go on")
ACCOUNT_DELETED = Farewell(SIGNED_OUT_CLOSE, "signed-out",
                           "the account was deleted, with its games")
GAME_DELETED = Farewell(GONE_CLOSE, "not-found", "this game was deleted with its account")
GAME_ABANDONED = Farewell(GONE_CLOSE, "not-found", "this game was deleted by whoever started it")
#: A person removed from a table for friends, or who left it, and spectators when the host
#: closes watching: the answer of a table that does not exist.
NOT_SEATED = Farewell(GONE_CLOSE, "not-found", "no such game for this player")


@dataclass(eq=False)
class Watcher:
    """One socket of a game: the player id it sits as, the login and account of its ticket
    (None for a header's player id), and what to do when it is ended."""

    game: str
    player: str
    login: str | None = None
    account: str | None = None
    ended: Farewell | None = None
    on_end: Callable[[Farewell], None] | None = field(default=None, repr=False)
    #: a spectator's socket (a watch code's ticket), not a seat's
    watching: bool = False

    def end(self, why: Farewell) -> bool:
        """End this socket (once); whether it was open."""
        if self.ended is not None:
            return False
        self.ended = why
        if self.on_end is not None:
            self.on_end(why)
        return True


class Watchers:
    """Every socket's watcher, found by its login, its account and its game."""

    def __init__(self) -> None:
        self._all: set[Watcher] = set()
        #: the other processes of the server, told of every end (``--redis``), or None
        self.endings: Endings | None = None
        #: the closings under way (each task is kept until it is done)
        self._closing: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        return len(self._all)

    def add(self, watcher: Watcher) -> Watcher:
        self._all.add(watcher)
        return watcher

    def discard(self, watcher: Watcher) -> None:
        self._all.discard(watcher)

    def keep(self, closing: asyncio.Task[None]) -> None:
        """Hold a socket's closing task until it is done."""
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)

    async def end(self, why: Farewell, *, logins: Collection[str] = (),
                  account: str | None = None, games: Collection[str] = ()) -> int:
        """End the sockets of these logins, of every login of ``account``, and on these
        games, here and on every other process of the server; how many were open here.
        This process's are ended before the first ``await``."""
        count = self._end(why, logins, account, games)
        if self.endings is not None:
            await self.endings.tell({"why": list(astuple(why)), "logins": list(logins),
                                     "account": account, "games": list(games)})
        return count

    async def end_at(self, why: Farewell, game: str, players: Collection[str] = (),
                     watching: bool = False) -> int:
        """End the sockets at ``game`` of these player ids (seats' sockets), or its
        spectators' (``watching``), here and on every other process; how many were open
        here."""
        count = self._end_at(why, game, players, watching)
        if self.endings is not None:
            await self.endings.tell({"why": list(astuple(why)), "game": game,
                                     "players": list(players), "watching": watching})
        return count

    def end_order(self, order: dict[str, Any]) -> int:
        """Carry out another process's order (``endings``): KeyError or TypeError if it is
        not one."""
        close, code, reason = order["why"]
        why = Farewell(int(close), str(code), str(reason)[:120])
        if "game" in order:
            return self._end_at(why, str(order["game"]), _texts(order["players"]),
                                order["watching"] is True)
        account = order["account"]
        return self._end(why, _texts(order["logins"]),
                         None if account is None else str(account), _texts(order["games"]))

    def _end(self, why: Farewell, logins: Collection[str], account: str | None,
             games: Collection[str]) -> int:
        chosen = [w for w in self._all
                  if (w.login is not None and w.login in logins)
                  or (account is not None and w.account == account)
                  or w.game in games]
        return sum(w.end(why) for w in chosen)

    def _end_at(self, why: Farewell, game: str, players: Collection[str],
                watching: bool) -> int:
        chosen = [w for w in self._all if w.game == game and (
            (watching and w.watching) or (not w.watching and w.player in players))]
        return sum(w.end(why) for w in chosen)


def _texts(values: Any) -> list[str]:
    if not isinstance(values, list):
        raise TypeError("a list of texts was expected")
    return [str(v) for v in values]
