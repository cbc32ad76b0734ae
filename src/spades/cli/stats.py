"""``spades stats``: a player's statistics, from the store the server uses or from records.

``spades stats`` reads the store (``--db``, by default the server's SQLite file) for the
player ``--player`` (needed when more than one player id is stored); ``spades stats
RECORD.json ... --seat N`` reads game records saved with ``spades play --save`` instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from rich.console import Console
from rich.table import Table

from spades.engine import RecordError
from spades.server.ids import is_player_id
from spades.stats import (
    GameFigures,
    Group,
    Stats,
    StatsError,
    Tally,
    game_figures,
    game_json,
    player_ids,
    player_stats,
    store_figures,
)
from spades.store import Store, StoreError, default_url

from .grid import grid
from .replay import MAX_MESSAGE, MAX_NAME, Unreadable, open_record, shown


class Refused(Exception):
    """A plain message for the user; exit code 2."""


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "stats", help="a player's statistics: games, bids made, sets, nil, bags, points",
        description="Statistics of a player's games, worked out by replaying the stored game "
                    "records: overall, by variant and by the computer players' level. "
                    "Without RECORD files it reads the store the server uses.")
    parser.add_argument("records", nargs="*", metavar="RECORD",
                        help="game records (JSON, e.g. from `spades play --save`; - reads "
                             "standard input); none: read the store")
    parser.add_argument("--seat", type=int, action="append", default=None, metavar="N",
                        help="with RECORD files: your seat (repeatable; default 0)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="SQLAlchemy URL of the store (default: the server's SQLite file "
                             f"{default_url()})")
    parser.add_argument("--player", default=None, metavar="ID",
                        help="the player id (the browser's anonymous id); needed when the "
                             "store holds more than one")
    parser.add_argument("--recent", type=int, default=10, metavar="N",
                        help="list the N most recent games (default 10)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.records:
            if args.player or args.db:
                raise Refused("--player and --db read the store; with RECORD files give "
                              "--seat")
            who = "seat " + ", ".join(str(s) for s in (args.seat or [0]))
            games = figures_of_files(args.records, args.seat or [0])
        else:
            if args.seat:
                raise Refused("--seat goes with RECORD files; the store knows your seats "
                              "from --player")
            who, games = figures_of_store(args.db, args.player)
    except Refused as error:
        print(f"spades stats: {error}", file=sys.stderr)
        return 2
    stats = player_stats(games)
    if args.json:
        print(json.dumps(stats.to_json(recent=max(args.recent, 0))))
        return 0
    show(Console(), who, stats, max(args.recent, 0))
    return 0


def figures_of_files(paths: list[str], seats: list[int]) -> list[GameFigures]:
    """Each record read as `spades replay` reads one (size limit, strict UTF-8 and JSON)."""
    out = []
    for path in paths:
        name = "standard input" if path == "-" else shown(path, MAX_NAME)
        try:
            data = open_record(path)
        except Unreadable as error:
            raise Refused(f"{name}: {error}") from None
        try:
            out.append(game_figures(data, seats, game="standard input" if path == "-"
                                    else Path(path).name))
        except (RecordError, StatsError) as error:
            raise Refused(f"{name}: {shown(str(error), MAX_MESSAGE)}") from None
    return out


def figures_of_store(url: str | None, player: str | None) -> tuple[str, list[GameFigures]]:
    url = url or default_url()
    if player is not None and not is_player_id(player):
        raise Refused("--player takes a player id: 8 to 64 characters of A-Z, a-z, 0-9, - "
                      "and _")
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError as error:
        raise Refused(f"--db: {error}") from None
    database = parsed.database or ""
    if (parsed.get_backend_name() == "sqlite" and database not in ("", ":memory:")
            and not Path(database).expanduser().is_file()):
        raise Refused(f"no games are stored at {url} (play some with `spades serve`, or "
                      "give --db)")
    try:
        store = Store(url, create=False)
    except StoreError as error:
        raise Refused(str(error)) from None
    try:
        if player is None:
            players = player_ids(store)
            if not players:
                raise Refused(f"no player has a game in {store.safe_url}")
            if len(players) > 1:
                listed = "\n".join(f"  {p}  ({n} game{'s' * (n != 1)})" for p, n in players)
                raise Refused(f"{len(players)} players have games in {store.safe_url}; "
                              f"choose one with --player:\n{listed}")
            player = players[0][0]
        unreadable: list[str] = []
        games = store_figures(store, player, unreadable=unreadable)
        for message in unreadable:
            print(f"spades stats: left out: {message}", file=sys.stderr)
        return f"player {player}", games
    except StoreError as error:
        raise Refused(str(error)) from None
    finally:
        store.close()


# ---------------------------------------------------------------------------- showing

def percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def number(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def of(part: int, whole: int) -> str:
    return f"{part}/{whole}" if whole else "–"


def tally_cells(t: Tally) -> list[str]:
    return [str(t.games), percent(t.win_rate), str(t.hands), percent(t.made_rate),
            str(t.sets), of(t.nil_made, t.nil), of(t.blind_nil_made, t.blind_nil),
            number(t.bags_per_hand), number(t.points_per_hand)]


HEADINGS = ["Games", "Won", "Hands", "Made", "Sets", "Nil", "Blind nil", "Bags", "Points"]
CAPTION = ("Won: finished games won. Made: hands your side made its bid. Nil: nil bids "
           "made/bid. Bags and points: per hand.")


def tally_tables(title: str, first: str, rows: list[tuple[str, Tally]],
                 width: int) -> list[Table]:
    return grid(title, [first, *HEADINGS],
                [[shown(name, MAX_NAME), *tally_cells(t)] for name, t in rows], width)


def group_rows(groups: tuple[Group, ...]) -> list[tuple[str, Tally]]:
    return [(g.label, g.tally) for g in groups]


#: Practice games (an undo, a hint or a chosen deal) count apart from every other figure.
PRACTICE_TITLE = "Practice games (undo, hint or a chosen deal), counted apart"

RECENT = ["Game", "Variant", "Level", "Result", "Hands", "Points", "Made", "Nil"]


def recent_rows(stats: Stats, recent: int) -> list[list[str]]:
    rows = []
    for game in stats.games[:recent]:
        g = game_json(game)
        result = ("won" if game.won else "lost") if game.over else "in play"
        if game.practice:
            result += " (practice)"
        rows.append([*(shown(s, MAX_NAME) for s in (game.game, game.label, game.level)),
                     result, str(g["hands"]), number(g["points_per_hand"]),
                     of(g["made"], g["made"] + g["sets"]), of(g["nil_made"], g["nil"])])
    return rows


def show(console: Console, who: str, stats: Stats, recent: int) -> None:
    overall = stats.overall
    if not stats.games:
        console.print(f"No games for {who} yet.", markup=False)
        return
    in_play = f"; {overall.in_play} in play" if overall.in_play else ""
    console.print(f"Statistics of {who}: {overall.games} finished game"
                  f"{'s' * (overall.games != 1)}{in_play}.", markup=False)
    width = console.width
    tables = [*tally_tables("Overall", "", [("All games", overall)], width),
              *tally_tables("By variant", "Variant", group_rows(stats.by_preset), width),
              *tally_tables("By computer players' level", "Level",
                            group_rows(stats.by_level), width)]
    if stats.practice.games or stats.practice.in_play:  # counted apart from the rest
        tables += tally_tables(PRACTICE_TITLE, "", [("Practice games", stats.practice)], width)
    for table in tables:
        console.print(table)
    console.print(CAPTION)
    if recent:
        for table in grid("Recent games", RECENT, recent_rows(stats, recent), width, left=4):
            console.print(table)
