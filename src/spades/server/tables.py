"""Tables for friends (docs/protocol.md, "Tables with friends"): made waiting by a host,
joined by invite code, started into a game under the same id.

``Hall`` holds them: one lock per table (every change of a table is read, changed and
written whole under it), the one access check (``reach``: a person seated; ``by_code``: the
holder of a good code) and the changes. What the sockets hear is ``Rooms``'s
(``rooms.py``); who is away and who stands in is ``Presence``'s (``presence.py``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import secrets
from collections.abc import Collection
from typing import Any

from spades.session import COMPUTER, PERSON, Sitter
from spades.store import (
    FINISHED,
    STARTED,
    WAITING,
    FriendSeat,
    FriendTable,
    GameRow,
    SeatRow,
    Store,
)

from .codes import clean_name, digest, new_code, read_code, unique_name
from .guesses import WrongCodes
from .lobby import Lobby, new_game_row
from .presets import ChoiceError, level_of, rules_for
from .table_json import TABLE_LIFE, host_seat, invites_open

#: Waiting tables one person may host at once.
MOST_WAITING = 10
TIMERS = (None, 20, 40, 60)
ONLY_HOST = "only the host can do that"
STARTED_ALREADY = "the game has started"
OPTION_FIELDS = ("preset", "level", "house_rules", "hints", "watching", "timer",
                 "take_seats", "share_link")
#: What the host may change once the game is under way.
LATER_FIELDS = {"take_seats", "share_link"}


class TableError(Exception):
    """A change refused: the HTTP status and a sentence (404 is "no such game")."""

    def __init__(self, status: int, message: str = ""):
        super().__init__(message)
        self.status = status
        self.message = message


class Limited(Exception):
    """Too many wrong codes from one address: try again in ``wait`` seconds."""

    def __init__(self, wait: float):
        super().__init__(wait)
        self.wait = wait


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _flag(data: dict[str, Any], name: str, default: bool) -> bool:
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise ChoiceError(f"{name} is true or false, not {value!r}")
    return value


def table_options(data: dict[str, Any], old: dict[str, Any] | None = None) -> dict[str, Any]:
    """A table's options from a request's fields (over ``old``'s), checked."""
    base = dict(old or {"preset": "house", "level": "normal", "house_rules": None,
                        "hints": True, "watching": False, "timer": None,
                        "take_seats": False, "share_link": False})
    merged = {**base, **{k: v for k, v in data.items() if k in OPTION_FIELDS}}
    if not isinstance(merged["preset"], str):
        raise ChoiceError(f"preset must be a preset name, not {merged['preset']!r}")
    house = merged["house_rules"]
    if house is not None and not isinstance(house, dict):
        raise ChoiceError("house_rules must be an object such as {\"target_score\": 300}")
    _, chosen = rules_for(merged["preset"], house)
    if chosen.get("undo"):  # never an undo at a table with friends (issue 41)
        raise ChoiceError("Allow undo is only for a game against computer players: turn it "
                          "off for a table with friends")
    timer = merged["timer"]
    if timer not in TIMERS or isinstance(timer, bool):
        raise ChoiceError(f"timer is null, 20, 40 or 60 seconds, not {timer!r}")
    return {"preset": merged["preset"], "level": level_of(merged["level"]),
            "house_rules": chosen, "hints": _flag(merged, "hints", True),
            "watching": _flag(merged, "watching", False), "timer": timer,
            "take_seats": _flag(merged, "take_seats", False),
            "share_link": _flag(merged, "share_link", False)}


def seat_number(value: Any, players: int, what: str = "seat") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise ChoiceError(f"{what} is a seat number from 0 to {players - 1}")
    return value


def players_of(table: FriendTable) -> int:
    return rules_for(table.options["preset"], table.options.get("house_rules"))[0].players


class Hall:
    def __init__(self, store: Store, lobby: Lobby, wrong: WrongCodes | None = None):
        self.store = store
        self.lobby = lobby
        self.wrong = wrong or WrongCodes()
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, table_id: str) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def load(self, table_id: str) -> FriendTable | None:
        return await asyncio.to_thread(self.store.friends.get, table_id)

    async def save(self, table: FriendTable) -> None:
        await asyncio.to_thread(self.store.friends.save, table)

    async def touch(self, table_id: str) -> None:
        """Someone opened the waiting table: it lives 24 hours from now."""
        async with self.lock(table_id):
            table = await self.load(table_id)
            if table is not None and table.status == WAITING and not expired(table):
                await self.save(dataclasses.replace(table, touched=now()))

    # ------------------------------------------------------------------ the access check

    async def reach(self, table_id: str, players: Collection[str]) -> tuple[
            FriendTable, FriendSeat] | None:
        """The table and the asker's seat, if one of ``players`` sits at it (never a
        person removed, nor one who left for good); None otherwise."""
        table = await self.load(table_id)
        if table is None or table.status not in (WAITING, STARTED, FINISHED) or expired(table):
            return None
        seat = table.person(players)
        if seat is None or seat.state == "left" or set(players) & set(table.barred):
            return None
        return table, seat

    async def by_code(self, text: Any, address: str, players: Collection[str],
                      watch: bool = False) -> FriendTable | None:
        """The table a code opens for this asker (None: it opens nothing, the answer of a
        table that does not exist); ``Limited`` after too many wrong codes."""
        wait = await self.wrong.wait(address)
        if wait > 0:
            raise Limited(wait)
        code = read_code(text)
        finder = self.store.friends.by_watch if watch else self.store.friends.by_invite
        table = None if code is None else await asyncio.to_thread(finder, digest(code))
        if table is not None and (set(players) & set(table.barred) or expired(table) or not (
                table.options["watching"] if watch else invites_open(table))):
            table = None
        if table is None:
            await self.wrong.wrong(address)
        return table

    # ------------------------------------------------------------------ making and joining

    async def create(self, player: str, players: Collection[str],
                     data: dict[str, Any]) -> tuple[FriendTable, str, str | None]:
        """A waiting table hosted by ``player``, seated; its invite and watch codes."""
        options = table_options(data)
        name = clean_name(data.get("name"))
        count = rules_for(options["preset"], options["house_rules"])[0].players
        seat = seat_number(data.get("seat", 0), count)
        hosted = await asyncio.to_thread(self.store.friends.hosted, players)
        if len([t for t in hosted if not expired(t)]) >= MOST_WAITING:
            raise TableError(409, f"you have {MOST_WAITING} tables waiting to start: start "
                             "or leave one first")
        code, watch = new_code(), new_code() if options["watching"] else None
        moment = now()
        table = FriendTable(
            id=secrets.token_urlsafe(9), host=player, status=WAITING, created=moment,
            touched=moment, options=options,
            seats=(FriendSeat(seat, player, unique_name(name, ())),), invite=digest(code),
            watch=None if watch is None else digest(watch),
            shared=code if options["share_link"] else None)
        await self.save(table)
        return table, code, watch

    async def join(self, table: FriendTable, player: str, players: Collection[str],
                   data: dict[str, Any]) -> tuple[FriendTable, FriendSeat]:
        """Seat the holder of a good code (as it is when this runs, under the lock)."""
        async with self.lock(table.id):
            fresh = await self.load(table.id)
            if fresh is None or not invites_open(fresh):
                raise TableError(404)
            mine = fresh.person(players)
            if mine is not None and mine.state != "left":
                return fresh, mine
            name = clean_name(data.get("name"))
            seat = seat_number(data.get("seat"), players_of(fresh))
            if fresh.status == WAITING:
                return await self._sit(fresh, player, name, seat)
            return await self._take_over(fresh, player, name, seat)

    async def _sit(self, table: FriendTable, player: str, name: str,
                   seat: int) -> tuple[FriendTable, FriendSeat]:
        if table.at(seat) is not None:
            raise TableError(409, f"seat {seat} is taken")
        sitter = FriendSeat(seat, player, unique_name(name, [s.name for s in table.seats]))
        table = dataclasses.replace(table, seats=_sorted((*table.seats, sitter)),
                                    touched=now())
        await self.save(table)
        return table, sitter

    async def _take_over(self, table: FriendTable, player: str, name: str,
                         seat: int) -> tuple[FriendTable, FriendSeat]:
        """An invited person takes a computer player's seat in a game under way (from its
        next decision)."""
        row = await asyncio.to_thread(self.store.get_game, table.id)
        if row is None or row.status != STARTED:
            raise TableError(404)
        if row.seats[seat].kind != COMPUTER:
            raise TableError(409, f"seat {seat} is not a computer player's")
        taken = [s.name for s in row.seats if s.kind != COMPUTER]
        sitter = FriendSeat(seat, player, unique_name(name, taken), state="here")
        others = tuple(s for s in table.seats if s.seat != seat)
        table = dataclasses.replace(table, seats=_sorted((*others, sitter)))
        game_seat = SeatRow(seat=seat, kind=PERSON, name=sitter.name, player_id=player)
        await asyncio.to_thread(self.store.set_seat, table.id, game_seat)
        await self.save(table)
        await self.lobby.reseat(table.id, seat, game_seat)
        return table, sitter

    # ------------------------------------------------------------------ changes

    async def change(self, table_id: str, players: Collection[str], kind: str,
                     data: dict[str, Any]) -> FriendTable:
        """A change of a waiting table by a person seated (``seat``) or its host."""
        async with self.lock(table_id):
            found = await self.reach(table_id, players)
            if found is None:
                raise TableError(404)
            table, mine = found
            if kind == "patch" and table.status == STARTED:
                if table.host is None or table.host not in players:
                    raise TableError(403, ONLY_HOST)
                if not set(data) <= LATER_FIELDS:
                    raise TableError(409, f"{STARTED_ALREADY}: only take_seats and share_link "
                                     "change now")
                return await self._patch(table, mine, data)
            if table.status != WAITING:
                raise TableError(409, STARTED_ALREADY)
            if kind == "seat":
                return await self._move(table, mine.seat, data.get("seat"))
            if host_seat(table) != mine.seat:
                raise TableError(403, ONLY_HOST)
            if kind == "move":
                person = table.at(seat_number(data.get("from"), players_of(table), "from"))
                if person is None:
                    raise TableError(409, "nobody sits in that seat")
                return await self._move(table, person.seat, data.get("to"))
            if kind == "remove":
                return await self._remove(table, mine, data.get("seat"))
            return await self._patch(table, mine, data)

    async def _move(self, table: FriendTable, seat: int, to: Any) -> FriendTable:
        target = seat_number(to, players_of(table), "to")
        if table.at(target) is not None and target != seat:
            raise TableError(409, f"seat {target} is taken")
        seats = [dataclasses.replace(s, seat=target) if s.seat == seat else s
                 for s in table.seats]
        table = dataclasses.replace(table, seats=_sorted(seats), touched=now())
        await self.save(table)
        return table

    async def _remove(self, table: FriendTable, mine: FriendSeat, seat: Any) -> FriendTable:
        target = seat_number(seat, players_of(table))
        person = table.at(target)
        if person is None or person.seat == mine.seat or person.player_id is None:
            raise TableError(409, "nobody else sits in that seat")
        table = dataclasses.replace(
            table, seats=tuple(s for s in table.seats if s.seat != target),
            barred=(*table.barred, person.player_id), touched=now())
        await self.save(table)
        return table

    async def _patch(self, table: FriendTable, mine: FriendSeat,
                     data: dict[str, Any]) -> FriendTable:
        unknown = sorted(set(data) - set(OPTION_FIELDS))
        if unknown:
            raise ChoiceError(f"unknown field(s): {', '.join(unknown)}")
        options = table_options(data, table.options)
        if options["preset"] != table.options["preset"]:
            raise ChoiceError("the preset of a table does not change: make another table")
        watch = table.watch if options["watching"] else None
        # the code is kept only while it may be shared (made shareable: renew the link)
        shared = table.shared if options["share_link"] else None
        table = dataclasses.replace(table, options=options, watch=watch, shared=shared,
                                    touched=now())
        await self.save(table)
        return table

    async def new_code(self, table_id: str, players: Collection[str], watch: bool,
                       revoke: bool = False) -> tuple[FriendTable, str | None]:
        """The host renews (or revokes) the invite or the watch link."""
        async with self.lock(table_id):
            found = await self.reach(table_id, players)
            if found is None:
                raise TableError(404)
            table, mine = found
            if table.status == WAITING and host_seat(table) != mine.seat:
                raise TableError(403, ONLY_HOST)
            code = None if revoke else new_code()
            hashed = None if code is None else digest(code)
            if watch:
                options = {**table.options, "watching": not revoke}
                table = dataclasses.replace(table, watch=hashed, options=options)
            else:
                shared = code if table.options.get("share_link") else None
                table = dataclasses.replace(table, invite=hashed, shared=shared)
            await self.save(dataclasses.replace(table, touched=now()))
            return table, code

    async def leave(self, table_id: str, players: Collection[str]) -> tuple[
            FriendTable, FriendSeat]:
        """A person leaves: their seat is empty again (waiting), or a computer player's
        for good (started); they no longer reach the table."""
        async with self.lock(table_id):
            found = await self.reach(table_id, players)
            if found is None:
                raise TableError(404)
            table, mine = found
            if table.status == WAITING:
                seats = tuple(s for s in table.seats if s.seat != mine.seat)
                status = table.status if seats else "closed"
                host = table.host
                if host_seat(table) == mine.seat:
                    host = next_clockwise(seats, mine.seat, players_of(table))
                table = dataclasses.replace(table, seats=seats, status=status, host=host,
                                            touched=now())
                await self.save(table)
                return table, mine
            gone = dataclasses.replace(mine, player_id=None, state="left")
            table = dataclasses.replace(table, seats=_sorted(
                (*[s for s in table.seats if s.seat != mine.seat], gone)))
            row = await asyncio.to_thread(self.store.get_game, table_id)
            level = table.options["level"]
            if row is not None:
                seat = SeatRow(seat=mine.seat, kind=COMPUTER, name=mine.name, level=level)
                await asyncio.to_thread(self.store.set_seat, table_id, seat)
                await self.lobby.reseat(table_id, mine.seat, seat)
            await self.save(table)
            return table, mine

    # ------------------------------------------------------------------ the start

    async def start(self, table_id: str, players: Collection[str]) -> tuple[
            FriendTable, GameRow]:
        """The host starts: empty seats get computer players; the game is dealt and saved
        under the table's id."""
        async with self.lock(table_id):
            found = await self.reach(table_id, players)
            if found is None:
                raise TableError(404)
            table, mine = found
            if table.status != WAITING:
                raise TableError(409, STARTED_ALREADY)
            if host_seat(table) != mine.seat:
                raise TableError(403, ONLY_HOST)
            row = await self._deal(table)
            seats = tuple(dataclasses.replace(s, state="here") for s in table.seats)
            table = dataclasses.replace(table, status=STARTED, seats=seats, touched=now())
            await self.save(table)
            return table, row

    async def _deal(self, table: FriendTable) -> GameRow:
        options = table.options
        rules, _ = rules_for(options["preset"], options["house_rules"])
        sitters = tuple(Sitter(player=p.player_id) if (p := table.at(s)) is not None
                        else Sitter(level=options["level"]) for s in range(rules.players))
        host = table.host if table.person([table.host or ""]) else next(
            s.player_id for s in table.seats if s.player_id is not None)
        assert host is not None
        row, state = new_game_row(host, rules, options["house_rules"], options["level"],
                                  sitters=sitters)
        names = {s.seat: s.name for s in table.seats}
        seats = tuple(dataclasses.replace(s, name=names[s.seat]) if s.seat in names else s
                      for s in row.seats)
        row = dataclasses.replace(row, id=table.id, seats=seats, options={
            **row.options, "friends": True, "hints": options["hints"]})
        await self.lobby.store_new(row, state)
        return row

    async def again(self, table_id: str, player: str,
                    players: Collection[str]) -> FriendTable:
        """"Play again": the next table, same rules and seats, one click for each person."""
        async with self.lock(table_id):
            found = await self.reach(table_id, players)
            if found is None:
                raise TableError(404)
            table, mine = found
            row = await asyncio.to_thread(self.store.get_game, table_id)
            if table.status == WAITING or row is None or row.status == STARTED:
                raise TableError(409, "the game is still in play")
            if table.next_id is None:
                moment = now()
                nxt = FriendTable(id=secrets.token_urlsafe(9), host=player, status=WAITING,
                                  created=moment, touched=moment, options=table.options)
                table = dataclasses.replace(table, next_id=nxt.id, status=FINISHED)
                await self.save(nxt)
                await self.save(table)
        async with self.lock(table.next_id or ""):
            nxt_found = await self.load(table.next_id or "")
            if nxt_found is None:
                raise TableError(404)
            if nxt_found.person(players) is None and nxt_found.at(mine.seat) is None:
                sitter = FriendSeat(mine.seat, player, mine.name)
                nxt_found = dataclasses.replace(
                    nxt_found, seats=_sorted((*nxt_found.seats, sitter)), touched=now())
                await self.save(nxt_found)
            return nxt_found



def next_clockwise(seats: Collection[FriendSeat], after: int, players: int,
                   among: Collection[int] | None = None) -> str | None:
    """The player id of the next person seated clockwise after seat ``after`` (only seats
    in ``among``, if given); None if nobody."""
    by_seat = {s.seat: s for s in seats if s.player_id is not None}
    for step in range(1, players + 1):
        seat = (after + step) % players
        if seat in by_seat and (among is None or seat in among):
            return by_seat[seat].player_id
    return None


def expired(table: FriendTable) -> bool:
    """A waiting table nobody opened for 24 hours is gone (as if it never was)."""
    return table.status == WAITING and table.touched + TABLE_LIFE <= now()


def _sorted(seats: Collection[FriendSeat]) -> tuple[FriendSeat, ...]:
    return tuple(sorted(seats, key=lambda s: s.seat))
