"""The store's cost of one game action: ``Store.append_actions`` alone, with no server
around it (issue 42 item 6: the store's threads were 40 % of two processes' CPU).

Appends ``--count`` actions to one game, each made from the version the last one left (as
a table does), one at a time and then in batches of ``--batch`` games at once (a group
commit), and prints the CPU and wall time an action in this process (SQLAlchemy and the
driver) and the CPU an action of every ``postgres`` process of the machine (the database
server's own work; others' use of it counts too: run it on an idle machine). A SQLite
file in a temporary folder unless ``--db`` names another database (its tables get a
prefix of their own and are dropped).

    PYTHONPATH=src python3 bench/append.py [--count 2000] [--batch 4] [--db URL] [--rounds 3]
"""

from __future__ import annotations

import argparse
import datetime as dt
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engine import machine  # bench/engine.py
from load import processes  # bench/load.py
from soak import cpu_seconds  # bench/soak.py
from spades.store import ActionRow, Append, GameRow, SeatRow, Store, StoreError

DECK = [f"{rank}{suit}" for suit in "CDHS" for rank in "23456789TJQKA"]


def new_game(store: Store, game_id: str) -> None:
    when = dt.datetime.now(dt.UTC)
    seats = tuple(SeatRow(seat=s, kind="computer", name=f"Seat {s}", level="random")
                  for s in range(4))
    store.create_game(GameRow(id=game_id, owner="bench", rules={"preset": "partnership"},
                              seed="1", first_dealer=0, options={}, seats=seats,
                              created=when, updated=when), DECK)


def card(seq: int) -> ActionRow:
    return ActionRow(seq=seq, hand=0, seat=seq % 4, action={"seat": seq % 4, "card": "AS"})


def database_cpu() -> float:
    """CPU seconds used so far by the machine's ``postgres`` processes that are running."""
    return sum(cpu_seconds(pid) for pid, (_, name) in processes().items()
               if name == "postgres")


def timed(work: Callable[[], int]) -> tuple[float, float, float]:
    """CPU and wall milliseconds an action of ``work`` (which returns how many it made) in
    this process, and the database server's CPU milliseconds an action."""
    cpu, wall, database = time.process_time(), time.perf_counter(), database_cpu()
    made = work()
    return ((time.process_time() - cpu) * 1e3 / made,
            (time.perf_counter() - wall) * 1e3 / made,
            (database_cpu() - database) * 1e3 / made)


def lone(store: Store, count: int) -> int:
    game = f"lone-{secrets.token_hex(4)}"
    new_game(store, game)
    for version in range(count):
        done = store.append_actions([Append(game, version, card(version + 1))])
        if isinstance(done[0], StoreError):
            raise done[0]
    return count


def batched(store: Store, count: int, batch: int) -> int:
    games = [f"batch-{secrets.token_hex(4)}" for _ in range(batch)]
    for game in games:
        new_game(store, game)
    rounds = max(1, count // batch)
    for version in range(rounds):
        done = store.append_actions([Append(g, version, card(version + 1)) for g in games])
        if any(isinstance(d, StoreError) for d in done):
            raise RuntimeError(f"a batch failed: {done}")
    return rounds * batch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="actions a round (2000)")
    parser.add_argument("--batch", type=int, default=4, help="games in a batch (4)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each (3)")
    parser.add_argument("--db", default=None, help="database URL (a SQLite file if not given)")
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite:///{Path(folder) / 'append.db'}"
        store = Store(url, prefix=f"bench{secrets.token_hex(3)}_")
        print(f"store: {Store.describe(url)}; {args.count} actions a round, {args.rounds} "
              f"rounds, batches of {args.batch}")
        try:
            for name, work in (("lone", lambda: lone(store, args.count)),
                               (f"batches of {args.batch}",
                                lambda: batched(store, args.count, args.batch))):
                runs = [timed(work) for _ in range(args.rounds)]
                cpu, wall, database = (statistics.median(r[i] for r in runs)
                                       for i in range(3))
                print(f"{name}: CPU {cpu:.3f} ms an action, wall {wall:.3f} ms an action, "
                      f"database CPU {database:.3f} ms an action "
                      f"(median of {args.rounds} rounds)")
        finally:
            store.drop_tables()
            store.close()


if __name__ == "__main__":
    main()
