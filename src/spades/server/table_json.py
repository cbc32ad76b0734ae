"""The table object of a table for friends (docs/protocol.md, "The table object"): what
the table routes answer and the ``table`` message carries, for one asker."""

from __future__ import annotations

import datetime as dt
from typing import Any

from spades.engine import rules_from_json
from spades.store import WAITING, FriendTable, GameRow

from .presets import PRESET_LABELS, rules_for, table_json
from .wire import Json

#: How long a waiting table nobody opens is kept.
TABLE_LIFE = dt.timedelta(hours=24)


def host_seat(table: FriendTable) -> int | None:
    """The host's seat while the table waits: the host's, else (the host left or was
    removed) the next person clockwise from seat 0."""
    if table.status != WAITING:
        return None
    people = [s for s in table.seats if s.player_id is not None]
    for s in people:
        if s.player_id == table.host:
            return s.seat
    return people[0].seat if people else None


def _seat_json(table: FriendTable, seat: int, row: GameRow | None, host: int | None,
               now: dt.datetime) -> Json:
    person = table.at(seat)
    out: Json = {"seat": seat, "kind": "empty", "name": None, "host": seat == host,
                 "presence": None, "grace": None, "stand_in": False}
    game_seat = row.seats[seat] if row is not None else None
    if person is not None and person.player_id is not None and (
            game_seat is None or game_seat.kind != "computer"):
        out.update(kind="person", name=person.name, presence=_presence(person.state))
        if person.state == "away" and person.away_until is not None:
            out["grace"] = max(0, round((person.away_until - now).total_seconds()))
        out["stand_in"] = person.state == "gone"
    elif game_seat is not None:
        out.update(kind="computer", name=game_seat.name, level=game_seat.level)
    return out


def _presence(state: str) -> str | None:
    """A person's presence as the protocol says it (a seat still waiting counts as away
    until the waiting room's sockets say otherwise)."""
    return {"here": "here", "away": "away", "gone": "gone", "seated": "away"}.get(state)


def table_object(table: FriendTable, you: int | None, row: GameRow | None = None,
                 now: dt.datetime | None = None, here: frozenset[int] = frozenset()) -> Json:
    """The table for the person at seat ``you`` (None: a preview or a spectator); ``row``
    is the game's once started; ``here`` are the seats with a socket open while waiting."""
    now = now or dt.datetime.now(dt.UTC)
    options: dict[str, Any] = table.options
    rules = rules_from_json(row.rules) if row is not None else rules_for(
        options["preset"], options.get("house_rules"))[0]
    host = host_seat(table)
    seats = [_seat_json(table, s, row, host, now) for s in range(rules.players)]
    if table.status == WAITING:
        for seat in seats:
            if seat["kind"] == "person":
                seat["presence"] = "here" if seat["seat"] in here else "away"
                seat["grace"], seat["stand_in"] = None, False
    return {
        "id": table.id, "status": table.status, "preset": options["preset"],
        "label": PRESET_LABELS.get(options["preset"], options["preset"]),
        "level": options["level"], "house_rules": options.get("house_rules", {}),
        "table": table_json(rules), "hints": options["hints"],
        "watching": options["watching"], "timer": options["timer"],
        "take_seats": options["take_seats"], "seats": seats, "you": you, "host": host,
        "invite": table.invite is not None and invites_open(table),
        "share_link": bool(options.get("share_link")), "shared": shared_invite(table, you),
        "watch": table.watch is not None and options["watching"],
        "expires": (table.touched + TABLE_LIFE).isoformat() if table.status == WAITING
        else None,
        "game": table.id if table.status != WAITING else None, "next": table.next_id,
    }


def shared_invite(table: FriendTable, you: int | None) -> Json | None:
    """The invite link for a person seated (never a spectator, nor someone looking at the
    link's page) when the host lets anyone seated share it and it opens a seat now."""
    if you is None or table.shared is None or table.invite is None or not invites_open(table):
        return None
    return {"code": table.shared, "invite": f"/t/{table.shared}"}


def invites_open(table: FriendTable) -> bool:
    """Whether an invite code can seat someone now: while waiting, and once started only if
    the host lets invited people take computer players' seats."""
    return table.status == WAITING or (table.status == "playing"
                                       and bool(table.options.get("take_seats")))
