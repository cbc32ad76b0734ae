"""The cost of one card on the server (issue 42 item 5): four people at one table, each
card played through the table the server serves, until every seat's socket has its state.

The table is the server's own (``Lobby.create`` makes and serves it: the ``ServedTable``,
its session saving to a SQLite store in a temporary directory, its hub and audience), with
four in-process connections, one per seat, whose ``send_text`` only reads the frame. No
websocket and no HTTP: the figures are the server's work per card (the session's commit
and store write, the messages of every seat made and serialised), without the event loop
of a web server or the network, which are the same whatever a card costs. The people
answer from the frames they receive (the ``legal`` actions of their seat's last state), so
nothing but the protocol tells them what to do. The bid suggestion is left out (it thinks
in a worker process of its own, apart from the cost of a card), but each state still asks
whether to make one, as in the server.

Reported per card (the bids are played but not counted): the engine calls the server made
(``apply``, ``player_view``, ``public_view``, ``legal_actions``, ``events``,
``public_events``, ``step_events``, the session's ``narrate``, ``shuffle_news``, and
``seat_update`` where it exists), counted by wrapping each of these functions in every
loaded ``spades`` module, here only; the wall time from the intent handed to the table to
the last seat's frame written (median, p95), split into the commit (the session's ``act``:
``apply``, the store's write, the listeners told) and the messages (from then until every
seat's frame is written: the hub's work); the process's CPU time per action (cards and
bids: the clock is a system call, read once a game); and, in a second run of fresh games
(profiled only from each card's intent to its last frame, without the counting), cProfile's
top 15 entries by cumulative and by own time, and the project's own top 15 by cumulative
time. cProfile sees the main thread only: the store's write, in a thread, shows as the
event loop's wait (``poll``).

    PYTHONPATH=src python3 bench/card.py [--games 2] [--hands 3] [--top 15] [--whole]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import io
import json
import pstats
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from spades.server.common import dumps
from spades.server.connections import Connection
from spades.server.lobby import Lobby
from spades.session import Thinker
from spades.store import Store

#: The engine's and the session's functions whose calls are counted.
COUNTED = ("apply", "player_view", "public_view", "legal_actions", "events",
           "public_events", "step_events", "narrate", "seat_update", "shuffle_news")
PEOPLE = tuple(f"person-{seat}-xyz" for seat in range(4))

calls: Counter[str] = Counter()
#: each card's commit (the session's ``act``: apply, the store's write, the listeners told)
#: and messages (from then until every seat's frame is written: the hub's work)
parts: list[tuple[float, float]] = []
#: each game's actions (cards and bids) and the CPU time they took in this process (its
#: threads too: the store's writes), from the first intent to the last frame
cpus: list[tuple[int, float]] = []
#: (frames, their characters) sent to the seats' sockets, each game
sizes: list[tuple[int, int]] = []


def count_calls() -> Callable[[], None]:
    """Wrap each counted function wherever a ``spades`` module holds it (the engine's own
    modules too: ``events`` replaying actions through ``apply`` is counted); what puts
    them back."""
    wrapped: dict[int, Callable[..., Any]] = {}
    undo: list[tuple[Any, str, Any]] = []
    for module in [m for name, m in sys.modules.items() if name.startswith("spades")]:
        for name in COUNTED:
            func = getattr(module, name, None)
            if func is None or not callable(func) or getattr(func, "__wrapped__", None):
                continue
            if id(func) not in wrapped:
                wrapped[id(func)] = counting(name, func)
            undo.append((module, name, func))
            setattr(module, name, wrapped[id(func)])

    def restore() -> None:
        for module, name, func in undo:
            setattr(module, name, func)
    return restore


def counting(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return func(*args, **kwargs)
    return counted


#: How a state frame begins (``dumps`` writes the message's keys in this order).
STATE = re.compile(r'\{"type": ?"state", ?"version": ?(\d+)')


class Seats:
    """The four people's sockets: each state frame is kept, its version read at once; a
    frame is parsed only when its person is to act (outside the time and the profile, so
    that the figures are the server's work, not the bench's)."""

    def __init__(self) -> None:
        self.last: dict[int, tuple[int, str]] = {}
        self.frames = 0
        self.bytes = 0
        self.arrived = asyncio.Event()

    def sender(self, seat: int) -> Callable[[str], Any]:
        async def send_text(text: str) -> None:
            self.frames += 1
            self.bytes += len(text)
            found = STATE.match(text)
            if found:
                self.last[seat] = (int(found[1]), text)
                self.arrived.set()
        return send_text

    def state(self, seat: int) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.last[seat][1])
        return parsed

    def version(self) -> int:
        return min((v for v, _ in self.last.values()), default=-1)

    async def all_at(self, version: int) -> None:
        """Until every seat's last state is at ``version`` or later."""
        while len(self.last) < 4 or self.version() < version:
            self.arrived.clear()
            await self.arrived.wait()


async def no_suggestion(view: Any, table: str) -> None:
    """The bid suggestion, left out (it is worked out in a thinking process)."""
    return None


async def play_game(lobby: Lobby, hands: int, rng: random.Random, timed: list[float],
                    per_card: list[Counter[str]], profile: cProfile.Profile | None,
                    brief: bool) -> int:
    """One game of four people, up to ``hands`` hands; the cards played. ``brief``: the
    sockets are brief, as the page's (docs/protocol.md, "Brief states")."""
    row = await lobby.create(PEOPLE[0], "partnership", None, "random",
                             seats=[{"player": p} for p in PEOPLE])
    table = lobby.tables[row.id]
    table.hub.suggest = no_suggestion  # hints stay on: each state asks whether to suggest
    seats = Seats()
    conns = [Connection(seat, seats.sender(seat), brief=brief) for seat in range(4)]
    pumps = [asyncio.create_task(c.pump(dumps)) for c in conns]
    for conn in conns:
        table.join(conn)
    await seats.all_at(0)
    cards = done = 0
    cpu = time.process_time()  # a slow clock here (a system call): read once a game
    while True:
        view = seats.state(0)["view"]
        if view["over"] or view["hand_number"] > hands:
            break
        turn = view["turn"]
        mine = seats.state(turn)
        choices = mine["legal"]["actions"]
        action = rng.choice(choices) if mine["legal"]["kind"] == "play" else choices[0]
        is_card = "play" in action
        calls.clear()
        if is_card and profile is not None:
            profile.enable()
        start = time.perf_counter()
        await table.act(turn, mine["version"], action)
        acted = time.perf_counter()
        await seats.all_at(mine["version"] + 1)
        took = time.perf_counter() - start
        done += 1
        if is_card:
            if profile is not None:
                profile.disable()
            timed.append(took)
            parts.append((acted - start, start + took - acted))
            per_card.append(Counter(calls))
            cards += 1
    cpus.append((done, time.process_time() - cpu))
    sizes.append((seats.frames, seats.bytes))
    for conn in conns:
        conn.close()
    await asyncio.gather(*pumps)
    await lobby.forget([row.id])
    return cards


async def run(games: int, hands: int, seed: int, timed: list[float],
              per_card: list[Counter[str]], profile: cProfile.Profile | None = None,
              brief: bool = True) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'games.db'}")
        thinker = Thinker(workers=0)
        lobby = Lobby(store, thinker, 0.0)
        try:
            rng = random.Random(seed)
            return sum([await play_game(lobby, hands, rng, timed, per_card, profile, brief)
                        for _ in range(games)])
        finally:
            await lobby.close()
            store.close()


def report_calls(per_card: list[Counter[str]]) -> None:
    total: Counter[str] = Counter()
    for counted in per_card:
        total.update(counted)
    n = len(per_card)
    print(f"engine calls per card ({n} cards; mean, min-max):")
    for name in COUNTED:
        seen = [c[name] for c in per_card]
        if total[name]:
            print(f"  {name:<14} {total[name] / n:6.2f}  {min(seen)}-{max(seen)}")


def report_profile(profile: cProfile.Profile, cards: int, top: int) -> None:
    """The top entries by cumulative and by own time, then the project's own functions by
    cumulative time (the event loop's waiting leads the first two)."""
    for key, label, only in (("cumulative", "cumulative", ()),
                             ("tottime", "own (total) time", ()),
                             ("cumulative", "cumulative, src/spades only", ("src/spades",))):
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats(key).print_stats(*only, top)
        lines = out.getvalue().splitlines()
        start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
        print(f"cProfile, top {top} by {label}, {cards} cards:")
        for line in lines[start:start + top + 1]:
            print("  " + line.replace(str(Path.cwd()) + "/", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--hands", type=int, default=3, help="hands played in each game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--whole", action="store_true",
                        help="the sockets get whole states (a hello without brief)")
    parser.add_argument("--top", type=int, default=15,
                        help="profile entries shown (0: no profiled run, as under valgrind: "
                        "bench/RESULTS.md counts a card's instructions so)")
    args = parser.parse_args()
    restore = count_calls()
    timed: list[float] = []
    per_card: list[Counter[str]] = []
    cards = asyncio.run(run(args.games, args.hands, args.seed, timed, per_card,
                            brief=not args.whole))
    report_calls(per_card)
    ms = sorted(t * 1000 for t in timed)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    commit = statistics.median(c for c, _ in parts) * 1000
    messages = statistics.median(m for _, m in parts) * 1000
    actions = sum(n for n, _ in cpus)
    cpu = sum(t for _, t in cpus) * 1000 / actions
    print(f"server time per card: {cards} cards, median {statistics.median(ms):.3f} ms, "
          f"p95 {p95:.3f} ms (intent to every seat's frame, SQLite store, counting on)")
    print(f"  of which: the commit median {commit:.3f} ms, the messages median "
          f"{messages:.3f} ms")
    print(f"server CPU per action: {cpu:.3f} ms ({actions} cards and bids; process time, "
          "the store's thread and the bench's people included)")
    frames, chars = (sum(f for f, _ in sizes), sum(c for _, c in sizes))
    print(f"frames to the seats: {frames}, {chars / frames:.0f} characters on average "
          f"({'whole' if args.whole else 'brief'} states, before compression)")
    restore()
    if args.top <= 0:
        return
    # a second run of fresh games, profiled from each card's intent to its last frame
    profile = cProfile.Profile()
    cards = asyncio.run(run(args.games, args.hands, args.seed + 1, [], [], profile))
    report_profile(profile, cards, args.top)


if __name__ == "__main__":
    main()
