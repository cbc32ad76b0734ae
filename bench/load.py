"""Load benchmark (issue 42 item 6): many four-seat tables over real websockets on loopback.

Starts the server side itself: ``--servers K`` real ``spades serve`` processes on K ports
(``python -m spades.cli.main serve``) sharing one store (a fresh SQLite file in a temporary
folder, or ``--db URL``) and, with ``--redis URL``, one Redis; with ``--pace 0`` and the
limits a bench meets raised by their flags (new games per player id and per address,
unfinished games, wrong invite codes, connections per address, refusals a second). Each
table is a table for friends (``POST /api/tables``, an invite taken, the start): two people
at seats 0 and 2, each with a player id and a loopback address of their own (127.1.x.y, so
the per-address caps meet each alone), and two computer players at seats 1 and 3. Table
i's people use port i % K (all seats of a table on the same process).

- ``--mode human``: each person decides 1-3 s (``--think``) after their turn comes, the
  computer players are Normal, the tables start staggered over the warm-up;
- ``--mode flat``: people act as soon as their turn comes, the computer players are
  ``random`` (legal moves at random, in microseconds: what is measured is the server's
  serving of a card, not the players' thinking; the thinking processes' round trip is
  still paid), to 250 with the mercy rule, so that games end and the state messages stay
  the size of a game's first hands; a finished game is followed by a new table. What a
  game action costs falls as the tables grow until the server's core, not the tables'
  round trips, is what limits the actions a second (larger group commits, fewer wake-ups
  a change): with several processes 30 tables do not get there and 200 do
  (bench/RESULTS.md, "The leader goes where the people are").

The bid suggestion (Hard's bid before a person's bid, the tables' default) is off unless
``--hints``: it is thinking on a person's behalf, which the issue measures apart.

What it reports, over a window of ``--seconds`` after ``--warmup`` seconds:

- **a person's intent to every seat**: from the moment a person's ``act`` leaves its client
  to the moment the state whose version follows from it (the first with a higher version)
  has reached every person's client at the table; every timestamp is taken in this one
  process with ``time.monotonic``; p50/p95/p99 and the count;
- **computer turns, apart**: at seat 0's client, from the state that gives the turn to a
  computer player to the next state (its thinking, the pacing and the messages);
- **errors**: anything a person's client met (a dropped socket, a refused request, an
  ``error`` frame from the server, a state not come within 60 s), by kind;
- **server-side CPU a game action**: utime+stime (``/proc``) of every server process and
  everything under it (the thinking processes), and of every ``postgres`` and
  ``redis-server`` process of the machine (others' use of those counts too: the figures
  say how much came from them), over the window, divided by the game actions made in it
  (people's and computers', from the ``step`` of seat 0's states); also this driver's
  own CPU (near 1 core, it and not the server is what is measured);
- **memory a table**: the growth of the servers' RSS (with their children) from before
  the first table to the end of the window, divided by the tables.

This driver pins itself to the last core and the servers to the others (on 2+ cores);
PostgreSQL and Redis run where the system runs them. ``--kill-after S`` (with 2+ servers,
or ``--processes``): SIGKILL one server process S seconds into the window; its people
reconnect (to the next port, as the page retries) and play on; it reports the errors and
the seconds until every table has moved again (a state of a higher version than at the
kill). ``--processes N`` is passed to ``spades serve`` as it is. ``--probe S`` (a diagnosis)
has a socket silent S s, while its table's other client has seen a later version, send one
``sync``, and counts whether the state that answers it caught up.

Give ``--db`` an **empty** database (``createdb``): a server resumes the unfinished games it
finds at start, and at a table for friends whose people are gone the computer players play
on for them, at ``--pace 0``, so the games a run leaves behind would load the next run.

    python bench/load.py [--mode human|flat] [--tables 50] [--seconds 60] [--warmup 20]
                         [--servers 1] [--processes N] [--workers N] [--db URL]
                         [--redis URL] [--kill-after S] [--level L] [--hints]
                         [--hands 10] [--think 1,3] [--probe S] [--logs DIR]

The figures depend on the machine and its load: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from engine import machine  # bench/engine.py
from server import choose  # bench/server.py
from soak import answering, stop  # bench/soak.py
from spades.cli.processes import tune_collector
from spades.server.connections import unbrief

#: The people's seats; the computer players sit at the others.
PEOPLE = (0, 2)
#: The seat whose client times computer turns and counts the game's actions.
OBSERVER = 0
#: Seconds after the window for the intents sent in it to reach every seat.
TAIL = 2.0
#: A person's client waits this long for a message before it counts an error.
QUIET = 60.0
STARTED = time.monotonic()
#: The cores this process may use when it starts, before it pins itself to one.
CORES = set(os.sched_getaffinity(0))
#: The limits of ``spades serve`` a bench meets, raised (docs/self-hosting.md).
RAISED = ["--per-address", "100000", "--refusals-per-second", "0",
          "--games-limit", "1000000/minute", "--games-limit-address", "1000000/minute",
          "--unfinished-games", "1000000", "--invite-limit", "1000000"]


def phase(text: str) -> None:
    """A line on stderr with the seconds since the bench began (where a slow run's time
    went)."""
    print(f"[{time.monotonic() - STARTED:6.1f} s] {text}", file=sys.stderr, flush=True)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


# ------------------------------------------------------------------ what is measured

@dataclass
class Figures:
    """Everything the clients measured; only what falls in the window counts."""

    start: float = 0.0
    end: float = 0.0
    intents: list[float] = field(default_factory=list)   # seconds, intent to every seat
    computer: list[float] = field(default_factory=list)  # seconds, a computer's turn
    actions: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    errors_when: Counter[str] = field(default_factory=Counter)
    killed_at: float | None = None

    def inside(self, when: float) -> bool:
        return self.start <= when < self.end

    def error(self, kind: str) -> None:
        """Errors are counted over the whole run (warm-up included): the goal is none."""
        self.errors[kind[:240]] += 1
        now = time.monotonic()
        self.errors_when["in the warm-up" if now < self.start else "after the window"
                         if now >= self.end else "after the kill"
                         if self.killed_at is not None and now >= self.killed_at
                         else "in the window"] += 1


@dataclass
class Intent:
    sent: float
    version: int
    seat: int
    reached: dict[int, float] = field(default_factory=dict)


@dataclass
class Table:
    """One table's clients' shared knowledge."""

    index: int
    ports: list[int]
    port: int
    run: str
    game: str = ""
    pending: list[Intent] = field(default_factory=list)
    joined: set[int] = field(default_factory=set)  # seats with a state of this socket
    last: dict[int, tuple[int, Any, bool, float]] = field(default_factory=dict)
    computer: tuple[int, float] | None = None  # (version, arrival) of a computer's turn
    last_step: int | None = None
    top: int = -1  # the highest version any of its clients has seen
    top_at_kill: int | None = None
    moved_after_kill: float | None = None

    def player(self, seat: int) -> str:
        return f"load-{self.run}-{self.index:04d}-{seat}"

    def address(self, seat: int) -> str:
        n = 2 * self.index + PEOPLE.index(seat)
        return f"127.1.{n // 250}.{1 + n % 250}"

    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def fail_over(self, port: int) -> None:
        """The next port, once, for every seat of the table (its other person may have
        moved it already)."""
        if self.port == port and len(self.ports) > 1:
            self.port = self.ports[(self.ports.index(port) + 1) % len(self.ports)]

    def new_game(self, game: str) -> None:
        self.game, self.computer, self.last_step = game, None, None
        self.pending, self.joined = [], set()

    def left(self, seat: int, fig: Figures) -> None:
        """``seat``'s socket is lost: the intents on their way would time the
        reconnection, so they are dropped (and counted)."""
        self.joined.discard(seat)
        if self.pending:
            fig.counts["intents cut by a reconnection"] += len(self.pending)
            self.pending = []

    def seen(self, seat: int, message: dict[str, Any], now: float, fig: Figures) -> None:
        """A state reached ``seat``'s client at ``now``."""
        version = int(message["version"])
        self.joined.add(seat)
        self.last[seat] = (version, message["view"]["turn"], bool(message["legal"]), now)
        for pending in [p for p in self.pending if version > p.version]:
            pending.reached.setdefault(seat, now)
            if len(pending.reached) == len(PEOPLE):
                if fig.inside(pending.sent):
                    fig.intents.append(max(pending.reached.values()) - pending.sent)
                self.pending.remove(pending)
        if version > self.top:
            self.top = version
            if self.top_at_kill is not None and self.moved_after_kill is None \
                    and version > self.top_at_kill:
                self.moved_after_kill = now
        if seat == OBSERVER:
            self.observe(message, version, now, fig)

    def observe(self, message: dict[str, Any], version: int, now: float,
                fig: Figures) -> None:
        """Seat 0's client: the computer players' turns and the game's actions."""
        if self.computer is not None and version > self.computer[0]:
            if fig.inside(self.computer[1]):
                fig.computer.append(now - self.computer[1])
            self.computer = None
        view = message["view"]
        if not view["over"] and view["turn"] is not None and view["turn"] not in PEOPLE:
            self.computer = (version, now)
        step = int(message["step"])
        if self.last_step is not None and step > self.last_step and fig.inside(now):
            fig.actions += step - self.last_step
        self.last_step = step

    def intend(self, seat: int, version: int, now: float, fig: Figures) -> None:
        """A person's act leaves: timed only while every person's socket is in (before
        the other person's first state, that state would time their connecting)."""
        if self.joined == set(PEOPLE):
            self.pending.append(Intent(now, version, seat))
        else:
            fig.counts["intents not timed: a person's socket not in yet"] += 1


# ------------------------------------------------------------------ the people

@dataclass(frozen=True)
class Plan:
    mode: str
    level: str
    hints: bool
    think: tuple[float, float]
    hands: int
    probe: float | None
    until: float


def client(address: str) -> httpx.AsyncClient:
    """A person's HTTP client, from their own address. A connection per request: a kept
    connection the server closes (idle 5 s) just as a request goes out fails it (httpx's
    ReadError), where a browser would send it again; that is not the server's error."""
    transport = httpx.AsyncHTTPTransport(local_address=address,
                                         limits=httpx.Limits(max_keepalive_connections=0))
    return httpx.AsyncClient(transport=transport, timeout=30)


async def post(http: httpx.AsyncClient, url: str, player: str, body: Any) -> Any:
    response = await http.post(url, headers={"X-Spades-Player": player}, json=body)
    response.raise_for_status()
    return response.json()


async def open_table(table: Table, https: dict[int, httpx.AsyncClient], plan: Plan) -> str:
    """A table for friends: the host at seat 0 makes it, the other person takes seat 2 by
    its invite code, the host starts it (computer players at seats 1 and 3)."""
    host, guest = PEOPLE
    base = table.base()
    made = await post(https[host], f"{base}/api/tables", table.player(host),
                      {"preset": "house", "level": plan.level, "hints": plan.hints,
                       "name": "Ann", "seat": host})
    await post(https[guest], f"{base}/api/invites/{made['code']}", table.player(guest),
               {"seat": guest, "name": "Bob"})
    started = await post(https[host], f"{base}/api/tables/{made['id']}/start",
                         table.player(host), {})
    return str(started["game"])


async def connect(table: Table, seat: int, http: httpx.AsyncClient) -> Any:
    """The game's socket as the page opens it: a ticket, the socket, the hello."""
    base = table.base()
    ticket = await post(http, f"{base}/api/games/{table.game}/ticket", table.player(seat), {})
    url = base.replace("http", "ws", 1) + f"/ws/games/{table.game}"
    ws = await websockets.connect(url, open_timeout=30, max_size=None,
                                  local_addr=(table.address(seat), 0))
    # brief, as the page: states leave out what is as in the last state (``unbrief``)
    await ws.send(json.dumps({"type": "hello", "ticket": ticket["ticket"], "brief": True,
                              "late_suggestion": True}))  # as the page says
    return ws


async def act_later(ws: Any, table: Table, seat: int, version: int,
                    action: dict[str, Any], delay: float, fig: Figures) -> None:
    if delay > 0:
        await asyncio.sleep(delay)
    table.intend(seat, version, time.monotonic(), fig)
    try:
        await ws.send(json.dumps({"type": "act", "version": version, "action": action}))
    except websockets.WebSocketException as error:  # the reading loop meets it too
        fig.error(f"sending an act: {type(error).__name__}")


async def play(ws: Any, table: Table, seat: int, rng: random.Random, plan: Plan,
               fig: Figures) -> bool:
    """Read the socket, answer each turn; True when the game is over (False: time is up).
    An act waits in a task of its own, so that every message is read, and timed, when it
    comes. A turn is answered once: its bid suggestion follows in a state of the same step
    (``--hints``)."""
    acting: asyncio.Task[None] | None = None
    acted = None  # the step answered last (None after a refusal: the turn is still ours)
    last: dict[str, Any] = {}
    try:
        while time.monotonic() < plan.until:
            raw = await receive(ws, table, seat, last, plan, fig)
            now = time.monotonic()
            message = json.loads(raw)
            if message["type"] == "error":
                fig.error(f"the server said {message.get('code')}: {message.get('message')}")
                acted = None
            if message["type"] != "state":
                continue
            table.seen(seat, message, now, fig)
            last = unbrief(message, last or None)  # as the page does
            if message["view"]["over"] or message["view"]["hand_number"] > plan.hands:
                return True
            if message["legal"] and (acting is None or acting.done()) and (
                    message["step"] != acted):
                acted = message["step"]
                delay = rng.uniform(*plan.think) if plan.mode == "human" else 0.0
                acting = asyncio.create_task(act_later(
                    ws, table, seat, int(message["version"]), choose(message, rng), delay,
                    fig))
        return False
    finally:
        if acting is not None:
            acting.cancel()


async def receive(ws: Any, table: Table, seat: int, last: dict[str, Any], plan: Plan,
                  fig: Figures) -> Any:
    """The next message; a TimeoutError after ``QUIET`` s without one. With ``--probe S``,
    a socket silent for S s while the table's other client has seen a later version sends
    one ``sync`` (the page's ask for the table as it is): whether a state answers it says
    whether the socket still works and only the table's news stopped reaching it."""
    began, probed = time.monotonic(), False
    while True:
        left = QUIET - (time.monotonic() - began)
        step = min(left, plan.probe) if plan.probe and not probed else left
        try:
            raw = await asyncio.wait_for(ws.recv(), max(0.0, step))
        except TimeoutError:
            if time.monotonic() - began < QUIET and behind(table, seat):
                probed = True
                fig.counts["silent sockets behind their table: a sync sent"] += 1
                await ws.send('{"type":"sync"}')
                continue
            if time.monotonic() - began < QUIET:
                continue  # not behind: nothing to ask yet
            raise TimeoutError(f"no message for {QUIET:g} s; {waiting(last, seat)}; "
                               f"{other(table, seat)}") from None
        if probed and '"type":"state"' in raw[:40]:
            late = behind(table, seat, int(json.loads(raw)["version"]))
            fig.counts["silent sockets behind their table: a sync answered by a state "
                       + ("still behind the other client's" if late else "caught up")] += 1
        return raw


def behind(table: Table, seat: int, version: int | None = None) -> bool:
    """Whether another client of the table has seen a later version than ``seat``'s (than
    ``version``, if given)."""
    if version is None:
        if seat not in table.last:
            return False
        version = table.last[seat][0]
    return table.top > version


def waiting(state: dict[str, Any], seat: int) -> str:
    """Who the table waited for, by the last state a seat had."""
    if not state:
        return "no state yet"
    turn = state["view"]["turn"]
    who = ("this seat" if turn == seat else "the other person" if turn in PEOPLE
           else "a computer player")
    return f"the turn was {who}'s" + (", its act sent" if turn == seat else "")


def other(table: Table, seat: int) -> str:
    """What the other person's client last had (for a silent socket's error)."""
    them = next(s for s in PEOPLE if s != seat)
    if them not in table.last:
        return "the other person had no state"
    version, _turn, legal, _when = table.last[them]
    mine = table.last.get(seat, (None,))[0]
    return (f"the other person's {'socket is in' if them in table.joined else 'is out'}, "
            f"its last state {'the same' if version == mine else 'another'} version, "
            f"{'asking it to act' if legal else 'not asking it to act'}")


async def sit(table: Table, seat: int, http: httpx.AsyncClient, plan: Plan,
              fig: Figures) -> None:
    """One person at one game until it is over or time is up; a lost socket is opened
    again (on the next port when the table's port no longer answers), as the page does."""
    rng = random.Random(f"{table.index}-{seat}-{table.game}")
    while time.monotonic() < plan.until:
        port = table.port
        try:
            async with await connect(table, seat, http) as ws:
                if await play(ws, table, seat, rng, plan, fig):
                    return
        except Exception as error:  # counted, whatever it is: a table must never be lost
            if time.monotonic() >= plan.until:
                return
            fig.error(f"{type(error).__name__}: {str(error)[:200]}")
            if isinstance(error, httpx.ConnectError | ConnectionRefusedError):
                table.fail_over(port)
            table.left(seat, fig)
            await asyncio.sleep(rng.uniform(0.5, 1.5))


async def leave(table: Table, https: dict[int, httpx.AsyncClient], fig: Figures) -> None:
    """After ``--hands`` hands the people leave the game for a new one (a game's state
    message grows with its hands): the other person leaves the table, the host deletes
    the game; a game over is only counted."""
    host, guest = PEOPLE
    base, game = table.base(), table.game
    try:
        summary = (await https[host].get(f"{base}/api/games/{game}",
                                         headers={"X-Spades-Player": table.player(host)}))
        summary.raise_for_status()
        if summary.json()["status"] == "over":
            fig.counts["games finished"] += 1
            return
        await post(https[guest], f"{base}/api/tables/{game}/leave", table.player(guest), {})
        gone = await https[host].delete(f"{base}/api/games/{game}",
                                        headers={"X-Spades-Player": table.player(host)})
        gone.raise_for_status()
        fig.counts["games left after their hands"] += 1
    except (OSError, httpx.HTTPError, KeyError, ValueError) as error:
        fig.error(f"leaving a game: {type(error).__name__}: {str(error)[:200]}")


async def run_table(table: Table, plan: Plan, fig: Figures, start_in: float) -> None:
    """A table's two people: a new table for friends after each finished game."""
    await asyncio.sleep(start_in)
    https = {seat: client(table.address(seat)) for seat in PEOPLE}
    try:
        while time.monotonic() < plan.until:
            port = table.port
            try:
                table.new_game(await open_table(table, https, plan))
            except (OSError, httpx.HTTPError, KeyError, ValueError) as error:
                fig.error(f"opening a table: {type(error).__name__}: {str(error)[:200]}")
                if isinstance(error, httpx.ConnectError):
                    table.fail_over(port)
                await asyncio.sleep(1)
                continue
            fig.counts["tables opened"] += 1
            await asyncio.gather(*(sit(table, seat, https[seat], plan, fig)
                                   for seat in PEOPLE))
            if time.monotonic() < plan.until:
                await leave(table, https, fig)
    finally:
        for http in https.values():
            await http.aclose()


# ------------------------------------------------------------------ the server side

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def driver_core() -> int:
    return max(CORES)


def server_cores() -> set[int]:
    return CORES - {driver_core()} if len(CORES) > 1 else CORES


def confine() -> None:
    """In each server process before it runs: off the driver's core, and killed with the
    bench (a bench killed by a test's timeout leaves no server)."""
    import ctypes

    ctypes.CDLL(None).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    os.sched_setaffinity(0, server_cores())


def serve_command(port: int, args: argparse.Namespace, url: str) -> list[str]:
    command = [sys.executable, "-m", "spades.cli.main", "serve", "--port", str(port),
               "--db", url, "--pace", "0", *RAISED]
    for flag, value in (("--redis", args.redis), ("--workers", args.workers),
                        ("--processes", args.processes)):
        if value is not None:
            command += [flag, str(value)]
    return command


def start_server(port: int, args: argparse.Namespace, url: str,
                 log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:  # a file, not a pipe nobody reads
        server = subprocess.Popen(serve_command(port, args, url), stdout=out, stderr=out,
                                  start_new_session=True, preexec_fn=confine)
    answering(server, port, log)
    phase(f"a server answers on port {port}")
    return server


def stat_of(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def processes() -> dict[int, tuple[int, str]]:
    """Every process of the machine: its parent and its name (``comm``)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                text = (entry / "stat").read_text()
                name = text[text.index("(") + 1:text.rindex(")")]
                found[int(entry.name)] = (int(text.rsplit(")", 1)[1].split()[1]), name)
    return found


def under(roots: list[int], table: dict[int, tuple[int, str]]) -> set[int]:
    """``roots`` and every process below them."""
    kids: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        kids.setdefault(parent, []).append(pid)
    out, todo = set(), [r for r in roots if r in table]
    while todo:
        pid = todo.pop()
        out.add(pid)
        todo += kids.get(pid, [])
    return out


class Meter:
    """The server side's CPU, sampled every ``every`` s: per process, its last utime+stime,
    so that a process that dies (a killed server) keeps what it used, and one born in the
    window counts from nothing."""

    GROUPS = ("servers", "thinking and other children", "postgres", "redis")

    def __init__(self, roots: list[int]):
        self.roots = roots
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.group: dict[int, str] = {}
        self.running = False

    def sample(self) -> None:
        table = processes()
        tick = os.sysconf("SC_CLK_TCK")
        mine = under(self.roots, table)
        for pid in mine | {p for p, (_, n) in table.items() if n in ("postgres", "redis-server")}:
            fields = stat_of(pid)
            if fields is None:
                continue
            used = (int(fields[11]) + int(fields[12])) / tick
            if pid not in self.group:
                name = table[pid][1]
                self.group[pid] = ("servers" if pid in self.roots else "postgres"
                                   if name == "postgres" and pid not in mine else "redis"
                                   if name == "redis-server" and pid not in mine
                                   else "thinking and other children")
                self.first[pid] = used if not self.running else 0.0
            self.last[pid] = used

    def used(self) -> dict[str, float]:
        out = dict.fromkeys(self.GROUPS, 0.0)
        for pid, last in self.last.items():
            out[self.group[pid]] += last - self.first[pid]
        return out


def rss(pids: set[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def victim(servers: list[subprocess.Popen[bytes]]) -> int:
    """The process to kill: the first server, or with one server (``--processes``) one of
    the server processes its supervisor started (multiprocessing's spawn: their command
    runs ``spawn_main``; their thinking processes are their own children)."""
    if len(servers) > 1:
        return servers[0].pid
    table = processes()
    for pid in sorted(p for p, (parent, _) in table.items() if parent == servers[0].pid):
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
    return servers[0].pid


# ------------------------------------------------------------------ the run

@dataclass
class Run:
    """What the run saw besides the clients' figures."""

    tables: list[Table]
    cpu: dict[str, float] = field(default_factory=dict)
    driver_cpu: float = 0.0
    rss_before: int = 0
    rss_after: int = 0
    killed: str = ""
    loads: tuple[str, str] = ("", "")
    waiting: str = ""

    def still_waiting(self, now: float) -> None:
        """What had not come at the window's end (a figure of the times that did come
        leaves those out)."""
        intents = [now - p.sent for t in self.tables for p in t.pending]
        unseen = Counter("by the person who acted" if p.seat not in p.reached else "by the "
                         "other person" for t in self.tables for p in t.pending)
        turns = [now - t.computer[1] for t in self.tables if t.computer is not None]
        seen = ", ".join(f"{n} {k}" for k, n in unseen.items())
        self.waiting = (f"at the window's end, waiting: {len(intents)} intents"
                        + (f" (the oldest {max(intents):.1f} s; not seen {seen})"
                           if intents else "")
                        + f", {len(turns)} computer turns"
                        + (f" (the oldest {max(turns):.1f} s)" if turns else ""))


async def sampling(meter: Meter, every: float = 1.0) -> None:
    while True:
        await asyncio.to_thread(meter.sample)
        await asyncio.sleep(every)


async def kill_one(servers: list[subprocess.Popen[bytes]], ports: list[int], run: Run,
                   fig: Figures) -> None:
    pid = victim(servers)
    for table in run.tables:
        table.top_at_kill = table.top if table.game else None
    fig.killed_at = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    run.killed = f"pid {pid}" + (f" (the server on port {ports[0]})"
                                 if pid == servers[0].pid else " (a process of the server)")
    phase(f"killed {run.killed}")


async def drive(servers: list[subprocess.Popen[bytes]], ports: list[int],
                args: argparse.Namespace) -> tuple[Figures, Run]:
    """The tables for the warm-up, the window and its tail; the server side measured."""
    roots = [s.pid for s in servers]
    fig = Figures()
    now = time.monotonic()
    fig.start, fig.end = now + args.warmup, now + args.warmup + args.seconds
    plan = Plan(args.mode, args.level, args.hints, args.think, args.hands, args.probe,
                fig.end + TAIL)
    run = Run([Table(i, ports, ports[i % len(ports)], uuid.uuid4().hex[:8])
               for i in range(args.tables)])
    run.rss_before = rss(under(roots, processes()))
    stagger = args.warmup * (0.8 if args.mode == "human" else 0.3)
    tasks = [asyncio.create_task(run_table(t, plan, fig, stagger * t.index / args.tables))
             for t in run.tables]
    meter = Meter(roots)
    try:
        await asyncio.sleep(max(0.0, fig.start - time.monotonic()))
        await asyncio.to_thread(meter.sample)
        meter.first, meter.running = dict(meter.last), True
        sampler = asyncio.create_task(sampling(meter))
        times, run.loads = os.times(), (load(), "")
        phase(f"the window begins ({fig.counts['tables opened']} tables opened)")
        if args.kill_after is not None:
            await asyncio.sleep(args.kill_after)
            await kill_one(servers, ports, run, fig)
        await asyncio.sleep(max(0.0, fig.end - time.monotonic()))
        sampler.cancel()
        await asyncio.to_thread(meter.sample)
        after = os.times()
        run.driver_cpu = (after.user + after.system - times.user - times.system) / args.seconds
        run.cpu, run.loads = meter.used(), (run.loads[0], load())
        run.rss_after = rss(under(roots, processes()))
        run.still_waiting(time.monotonic())
        phase("the window is over")
        await asyncio.sleep(TAIL)
    finally:
        for task in tasks:
            task.cancel()
        # at most 30 s: a cancellation swallowed by wait_for (Python 3.11) ends at plan.until
        await asyncio.wait(tasks, timeout=30)
        phase("the people have left")
    return fig, run


# ------------------------------------------------------------------ the figures

def spread(values: list[float]) -> str:
    if not values:
        return "none timed"
    ms = [v * 1000 for v in values]
    return (f"{len(ms)}, p50 {percentile(ms, 0.5):.1f} ms, p95 {percentile(ms, 0.95):.1f} "
            f"ms, p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")


def report_kill(fig: Figures, run: Run) -> None:
    if fig.killed_at is None:
        return
    watched = [t for t in run.tables if t.top_at_kill is not None]
    moved = [t.moved_after_kill - fig.killed_at for t in watched
             if t.moved_after_kill is not None]
    print(f"kill: {run.killed} {fig.killed_at - fig.start:.1f} s into the window; "
          f"{len(moved)} of {len(watched)} tables moved again after it"
          + (f", the last {max(moved):.1f} s after the kill (median "
             f"{statistics.median(moved):.1f} s)" if moved else ""))


def report(fig: Figures, run: Run, args: argparse.Namespace) -> None:
    seconds = args.seconds
    print(f"window {seconds:g} s after {args.warmup:g} s of warm-up; load "
          f"{run.loads[0]} -> {run.loads[1]}")
    print(f"a person's intent to every person's seat: {spread(fig.intents)}")
    print(f"computer turns (thinking, pacing and messages), apart: {spread(fig.computer)}")
    print(run.waiting)
    errors = sum(fig.errors.values())
    when = ", ".join(f"{n} {k}" for k, n in fig.errors_when.items())
    print(f"errors: {errors}{f' ({when})' if when else ''}"
          + "".join(f"\n    {n} x {k}"
                                         for k, n in fig.errors.most_common(12)))
    for key, value in sorted(fig.counts.items()):
        print(f"    {key}: {value}")
    cpu = sum(run.cpu.values())
    per = f"{1000 * cpu / fig.actions:.2f} ms" if fig.actions else "no action"
    print(f"game actions in the window: {fig.actions} ({fig.actions / seconds:.1f} a second)")
    print(f"server-side CPU a game action: {per} ({cpu:.1f} CPU s in the window: "
          + ", ".join(f"{k} {v:.1f}" for k, v in run.cpu.items()) + ")")
    print(f"this driver's CPU: {run.driver_cpu:.2f} cores (pinned to core {driver_core()})")
    growth = run.rss_after - run.rss_before
    if fig.killed_at is not None:
        print("memory: not measured (a server was killed)")
    else:
        print(f"memory: servers' RSS with their children {run.rss_before / 2**20:.0f} -> "
              f"{run.rss_after / 2**20:.0f} MB, {growth / 2**20 / max(1, args.tables):.2f} MB "
              "a table")
    report_kill(fig, run)


# ------------------------------------------------------------------ the command

def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("human", "flat"), default="human")
    parser.add_argument("--tables", type=int, default=50, help="tables (default 50)")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="the measured window (default 60)")
    parser.add_argument("--warmup", type=float, default=20.0,
                        help="seconds before the window, the tables starting (default 20)")
    parser.add_argument("--servers", type=int, default=1,
                        help="spades serve processes on as many ports (default 1)")
    parser.add_argument("--processes", type=int, default=None,
                        help="passed to each spades serve as --processes")
    parser.add_argument("--workers", type=int, default=None,
                        help="thinking processes of each server (spades serve --workers)")
    parser.add_argument("--db", default=None, help="the store's URL (default: a fresh "
                        "SQLite file in a temporary folder); give it an empty database: a "
                        "server resumes every unfinished game it finds")
    parser.add_argument("--redis", default=None, help="Redis URL for spades serve --redis")
    parser.add_argument("--kill-after", type=float, default=None, metavar="S",
                        help="SIGKILL one server process S seconds into the window")
    parser.add_argument("--level", default=None, help="the computer players' level "
                        "(default: normal for human, random for flat)")
    parser.add_argument("--hints", action="store_true",
                        help="the bid suggestion on (Hard's bid before a person's bid)")
    parser.add_argument("--probe", type=float, default=None, metavar="S",
                        help="a socket silent S s while its table moved on sends a sync "
                        "(a diagnosis: does it still work?)")
    parser.add_argument("--logs", type=Path, default=None,
                        help="a folder to keep the servers' logs in")
    parser.add_argument("--hands", type=int, default=10,
                        help="hands the people play of a game before leaving it for a new "
                        "one (default 10: a state message grows with its game)")
    parser.add_argument("--think", default="1,3", help="a person's seconds to decide, "
                        "human mode: LOW,HIGH (default 1,3)")
    args = parser.parse_args()
    args.level = args.level or ("normal" if args.mode == "human" else "random")
    try:
        low, high = (float(x) for x in args.think.split(","))
    except ValueError:
        parser.error("--think is LOW,HIGH in seconds")
    args.think = (low, high)
    if min(args.tables, args.servers) < 1 or args.seconds <= 0 or args.warmup < 0:
        parser.error("--tables and --servers at least 1, --seconds over 0")
    if args.kill_after is not None and args.servers < 2 and not args.processes:
        parser.error("--kill-after needs --servers 2 or more (or --processes)")
    return args


def describe(args: argparse.Namespace, url: str) -> str:
    pace = (f"people {args.think[0]:g}-{args.think[1]:g} s a decision" if args.mode == "human"
            else "people at once")
    return (f"{args.mode}: {args.tables} tables (2 people, 2 {args.level} computer players; "
            f"{pace}; hints {'on' if args.hints else 'off'}); {args.servers} server(s)"
            f"{f' of {args.processes} processes' if args.processes else ''} on "
            f"{url.split(':', 1)[0]}{' + redis' if args.redis else ''}, workers "
            f"{args.workers if args.workers is not None else 'default'}; driver on core "
            f"{driver_core()}, servers on {sorted(server_cores())}; load at start {load()}")


def tell_logs(folder: Path, count: int) -> None:
    """The servers' log lines that say something went wrong, on stderr (their folder is
    deleted after the run)."""
    for k in range(count):
        log = folder / f"server{k}.log"
        lines = log.read_text(errors="replace").splitlines() if log.exists() else []
        bad = [line for line in lines if any(word in line for word in
                                             ("Error", "Traceback", "WARNING", "refused"))]
        for line in bad[-20:]:
            print(f"server {k}: {line[:300]}", file=sys.stderr)
        if bad:
            print(f"server {k}: {len(bad)} such lines in its log", file=sys.stderr)


def main() -> int:
    args = arguments()
    os.sched_setaffinity(0, {driver_core()})
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # two sockets a person
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        url = args.db or f"sqlite:///{folder / 'load.db'}"
        print(f"machine: {machine()}")
        print(describe(args, url))
        servers: list[subprocess.Popen[bytes]] = []
        try:
            ports = []
            for k in range(args.servers):  # one after another: the first makes the tables
                ports.append(free_port())
                servers.append(start_server(ports[-1], args, url, folder / f"server{k}.log"))
            # the driver's clock must not stop for its own collector's full walks of a
            # thousand clients' objects, which it would time as the server's: tuned as a
            # server process is
            tune_collector()
            fig, run = asyncio.run(drive(servers, ports, args))
        finally:
            for server in servers:
                stop(server)
            phase("the servers have stopped")
            tell_logs(folder, len(servers))
            if args.logs is not None:
                args.logs.mkdir(parents=True, exist_ok=True)
                for log in folder.glob("server*.log"):
                    shutil.copy(log, args.logs / log.name)
    report(fig, run, args)
    return 0 if fig.intents else 1


if __name__ == "__main__":
    sys.exit(main())
