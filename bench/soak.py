"""Soak benchmark: normal tables beside hostile clients, on loopback, in paired rounds.

Runs `spades serve`'s app (the same uvicorn server, limits and thinking processes) in a
child process wrapped in a timing layer, in a fresh SQLite file, and ``--tables`` people-like
clients (a card ``--pause`` seconds or so after their turn comes, against instant computer
players) for the whole run, each leaving its game after ``--hands`` hands for a new one.
The run is made of windows of ``--seconds`` each, in paired
rounds: for each round and each attack of ``--attacks``, a **quiet** window and then the
same time beside that **attack**, a hostile client process pinned to one core
(``os.sched_setaffinity``) so its own CPU use does not decide the figure, and the server
with its thinking processes kept off that core (on a machine of two cores or more): the
hostile core is the client's own, in the quiet windows too. The people's clients (this
process) run on the hostile core as well (``--people hostile``, the default), so that the
server's cores hold the server alone in every window, as on a host whose players are
elsewhere; ``--people any`` lets the kernel put them anywhere (the layout of the figures
before stop 55, where a busy hostile core pushed them onto the server's). Quiet and hostile
windows alternate, so the machine's load (a shared machine is loaded) hits both alike. The
attacks:

- ``neverread``: websockets that send syncs as fast as the socket takes them and never read;
- ``flood``: pings and stale acts as fast as possible, answers read;
- ``badjson``: JSON nested 5000 deep and numbers of 5000 digits;
- ``slowloris``: up to 200 connections whose request head never ends;
- ``heads``: request heads of 1 MB;
- ``bodies``: 8 MB bodies (streamed without a length, and declared), and text/plain posts;
- ``unknown``: websockets for game ids that do not exist;
- ``busy``: no attack, the hostile core kept busy: what a busy neighbour core alone costs;
- ``all``: every one of them at once.

For each window it measures the normal tables' time from a card to their next turn **in the
server** (from the moment the app reads the card's frame to the moment it hands over the
state that asks that seat to act again: the engine, four saves, three computer decisions in
the thinking processes and the event loop's queue); it prints each attack's p95 beside the
p95 of its paired quiet windows, and their ratio (the goal, issue 37: within 1.2), the
CPU the server used in each window (its own process, and its thinking processes, in cores:
a figure the machine's load moves less than a latency), the server's peak RSS (and with
its thinking processes), its peak of open file descriptors and what the hostile clients
got. Loopback only; it stops by itself.

    python bench/soak.py [--seconds 60] [--rounds 3] [--attacks bodies,heads,neverread]
                         [--tables 20] [--workers N] [--pause 0.4] [--hands 10]
                         [--people hostile|any]

The figures depend on the machine and its load: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from engine import machine  # bench/engine.py
from server import choose  # bench/server.py

NORMAL = "soak-normal-"
HOSTILE = "soak-hostile-"
#: The people's addresses (127.0.1.x): the timing layer times their sockets only.
PEOPLE = "127.0.1."
#: Each attack comes from its own loopback address, so the per-address caps meet it alone.
ADDRESSES = {"neverread": "127.0.0.2", "flood": "127.0.0.3", "badjson": "127.0.0.4",
             "slowloris": "127.0.0.5", "heads": "127.0.0.6", "bodies": "127.0.0.7",
             "unknown": "127.0.0.8", "busy": "127.0.0.9"}
ATTACKS = (*ADDRESSES, "all")
#: Seconds at the start of each window left out of its figures (a hostile process starts).
SETTLE = 1.5
STARTED = time.monotonic()


def phase(text: str) -> None:
    """A line on stderr with the seconds since the bench began: where a slow run's time
    went (a tiny run beside other tests once took over 110 s)."""
    print(f"[{time.monotonic() - STARTED:6.1f} s] {text}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ the server, timed inside

class Timing:
    """ASGI layer: for the websockets of the people (from ``PEOPLE`` addresses), the time
    from reading an ``act`` frame to sending the next ``state`` that asks the seat to act;
    one line per card: when (``time.monotonic``) and how long."""

    def __init__(self, app: Any, out: Any):
        self.app = app
        self.state = app.state  # make_server tells app.state.thinker when a signal comes
        self.out = out

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        client = scope.get("client") or ("", 0)
        if scope["type"] != "websocket" or not str(client[0]).startswith(PEOPLE):
            await self.app(scope, receive, send)
            return
        pending: list[float | None] = [None]

        async def timed_receive() -> Any:
            message = await receive()
            if message["type"] == "websocket.receive" and is_act(message.get("text")):
                pending[0] = time.perf_counter()
            return message

        async def timed_send(message: Any) -> None:
            start = pending[0]
            if start is not None and message["type"] == "websocket.send":
                text = message.get("text") or ""
                if text.startswith('{"type":"state"') and '"legal":null' not in text:
                    self.out.write(f"{time.monotonic():.4f} {time.perf_counter() - start:.6f}\n")
                    self.out.flush()
                    pending[0] = None
            await send(message)

        await self.app(scope, timed_receive, timed_send)


def is_act(text: str | None) -> bool:
    try:
        return bool(text) and json.loads(text or "").get("type") == "act"
    except (ValueError, AttributeError):
        return False


def hostile_core() -> int:
    """The core the hostile clients are pinned to: the last this process may use."""
    return max(os.sched_getaffinity(0))


def server_cores() -> set[int]:
    """The cores the server and its thinking processes may use: every core but the hostile
    clients' own, where there are two or more."""
    cores = set(os.sched_getaffinity(0))
    return cores - {hostile_core()} if len(cores) > 1 else cores


def serve(port: int, url: str, workers: int | None, timings: Path) -> None:
    """The child process: ``spades serve``'s app and server with the timing layer, off the
    hostile clients' core (its thinking processes inherit that); on Linux it dies with the
    bench (a bench killed by a test's timeout leaves no server)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
        os.sched_setaffinity(0, server_cores())
    from spades.server import Settings, create_app
    from spades.server.listen import make_server

    app = create_app(Settings(db_url=url, pace=0.0, workers=workers))
    with open(timings, "a", encoding="utf-8") as out:
        server = make_server(Timing(app, out), "127.0.0.1", port)
        asyncio.run(server.serve())


# ------------------------------------------------------------------ opening a table

async def new_game(http: httpx.AsyncClient, player: str, preset: str = "house") -> str:
    response = await http.post("/api/games", headers={"X-Spades-Player": player},
                               json={"preset": preset, "level": "random"})
    response.raise_for_status()
    game_id: str = response.json()["id"]
    return game_id


async def open_table(http: httpx.AsyncClient, game_id: str, player: str,
                     address: str, **options: Any) -> Any:
    """The game's websocket as the page opens it (docs/protocol.md): a ticket asked for
    with the player's id, then the socket, whose first message is the hello."""
    response = await http.post(f"/api/games/{game_id}/ticket",
                               headers={"X-Spades-Player": player})
    response.raise_for_status()
    ticket = response.json()["ticket"]
    url = str(http.base_url).rstrip("/").replace("http", "ws", 1) + f"/ws/games/{game_id}"
    ws = await websockets.connect(url, open_timeout=30, local_addr=(address, 0), **options)
    # the turn to bid at once, its suggestion after it, as the page takes them
    await ws.send(json.dumps({"type": "hello", "ticket": ticket, "late_suggestion": True}))
    return ws


def client(base: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=30)


# ------------------------------------------------------------------ people at the tables

class Run:
    """Whether the people play on: ``over`` is set once the windows are over. Their loops
    look at it, besides being cancelled: Python 3.11's ``asyncio.wait_for`` can swallow a
    cancellation that comes as the awaited call finishes, and a person who missed it would
    play on."""

    def __init__(self) -> None:
        self.over = False


async def play_game(ws: Any, rng: random.Random, pause: float, run: Run,
                    counts: dict[str, int], hands: int) -> bool:
    """Play until the game ends (True) or its hand ``hands + 1`` is dealt (False: the
    person leaves it). A turn is answered once: the bid suggestion follows its turn in a
    state of the same step."""
    acted = None
    while not run.over:
        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if message["type"] == "error":
            raise RuntimeError(f"the server said {message}")
        if message["type"] != "state":
            continue
        if message["view"]["over"]:
            counts["games"] += 1
            return True
        if message["view"]["hand_number"] > hands:
            counts["games left"] += 1
            return False
        if message["legal"] and message["step"] != acted:
            acted = message["step"]
            await asyncio.sleep(rng.uniform(0.5 * pause, 1.5 * pause))
            await ws.send(json.dumps({"type": "act", "version": message["version"],
                                      "action": choose(message, rng)}))
            counts["actions"] += 1
    return False


async def person(base: str, index: int, pause: float, run: Run,
                 counts: dict[str, int], hands: int) -> None:
    """One table: a person who plays a card about ``pause`` s after their turn comes, and
    leaves a game (deletes it from their list) after ``hands`` hands. Random bids rarely
    end a game, and a state message grows with the hands of its game (the score sheet and
    the revealed shuffles), so without a bound every table would slow down as the run
    goes on, whatever the attack beside it."""
    rng = random.Random(index)
    player = f"{NORMAL}{index:04d}"
    address = f"{PEOPLE}{1 + index % 250}"  # a person's own address, as on the internet
    async with client(base, address) as http:
        while not run.over:
            try:
                game_id = await new_game(http, player)
                async with await open_table(http, game_id, player, address) as ws:
                    ended = await play_game(ws, rng, pause, run, counts, hands)
                if not ended:
                    response = await http.delete(f"/api/games/{game_id}",
                                                 headers={"X-Spades-Player": player})
                    response.raise_for_status()
            except Exception as error:  # a normal table must never fail: count it
                counts["errors"] += 1
                counts[f"error: {type(error).__name__}: {str(error)[:80]}"] += 1
                await asyncio.sleep(1)


# ------------------------------------------------------------------ hostile clients

async def never_read(base: str, until: float, counts: dict[str, int], n: int) -> None:
    """Send syncs as fast as the socket takes them and never read."""
    address = ADDRESSES["neverread"]
    player = f"{HOSTILE}neverread{n}"
    async with client(base, address) as http:
        game_id = await new_game(http, player)
        while time.monotonic() < until:
            with contextlib.suppress(Exception):
                ws = await open_table(http, game_id, player, address, max_size=None,
                                      max_queue=None, ping_interval=None)
                ws.transport.pause_reading()  # take nothing from the server
                with contextlib.suppress(Exception):
                    while time.monotonic() < until:
                        await asyncio.wait_for(ws.send('{"type":"sync"}'), 5)
                        counts["neverread frames"] += 1
                ws.transport.abort()
            await asyncio.sleep(0.5)


async def busy(until: float, counts: dict[str, int]) -> None:
    """No attack: the hostile core kept busy, sending nothing. What the server loses to a
    busy neighbour core alone (shared caches, or cores that are a host's two hyper-threads),
    to tell from what an attack costs it."""
    while time.monotonic() < until:
        for _ in range(100_000):
            pass
        counts["busy loops"] += 1
        await asyncio.sleep(0)


async def flood(base: str, until: float, counts: dict[str, int], n: int) -> None:
    """Pings and stale acts as fast as possible, reading the answers."""
    address = ADDRESSES["flood"]
    player = f"{HOSTILE}flood{n}"
    frames = ['{"type":"ping"}', '{"type":"act","version":0,"action":{"bid":3}}',
              '{"type":"sync"}']
    async with client(base, address) as http:
        game_id = await new_game(http, player)
        while time.monotonic() < until:
            with contextlib.suppress(Exception):
                async with await open_table(http, game_id, player, address,
                                            ping_interval=None) as ws:

                    async def drain() -> None:
                        while True:
                            await ws.recv()
                            counts["flood answers"] += 1

                    reader = asyncio.create_task(drain())
                    try:
                        i = 0
                        while time.monotonic() < until:
                            await ws.send(frames[i % 3])
                            i += 1
                            counts["flood frames"] += 1
                    finally:
                        reader.cancel()
            await asyncio.sleep(0.5)


async def bad_json(base: str, until: float, counts: dict[str, int]) -> None:
    """JSON nested 5000 deep and numbers of 5000 digits."""
    address = ADDRESSES["badjson"]
    player = f"{HOSTILE}badjson"
    frames = ["[" * 5000 + "]" * 5000,
              '{"type":"act","version":' + "9" * 5000 + ',"action":{"bid":1}}']
    async with client(base, address) as http:
        game_id = await new_game(http, player)
        while time.monotonic() < until:
            with contextlib.suppress(Exception):
                async with await open_table(http, game_id, player, address) as ws:
                    i = 0
                    while time.monotonic() < until:
                        await ws.send(frames[i % 2])
                        i += 1
                        answer = json.loads(await ws.recv())
                        while answer["type"] != "error":
                            answer = json.loads(await ws.recv())
                        counts[f"badjson answered {answer['code']}"] += 1
            await asyncio.sleep(0.5)


async def slowloris(port: int, until: float, counts: dict[str, int], most: int = 200) -> None:
    """Keep up to ``most`` connections with a request head that never ends (item 3)."""
    address = ADDRESSES["slowloris"]
    held: list[asyncio.StreamWriter] = []
    while time.monotonic() < until:
        held = [w for w in held if not w.is_closing()]
        while len(held) < most and time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(address, 0))
                writer.write(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                held.append(writer)
                counts["slowloris connections"] += 1
                asyncio.get_running_loop().create_task(_watch(reader, writer))
            except OSError:
                counts["slowloris refused"] += 1
                break
        for writer in held:
            with contextlib.suppress(Exception):
                writer.write(b"X-a: b\r\n")  # a header line now and then, never the end
        await asyncio.sleep(1.0)
    for writer in held:
        writer.close()


async def _watch(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(Exception):
        await reader.read()
    writer.close()


async def huge_heads(port: int, until: float, counts: dict[str, int]) -> None:
    """Request heads of 1 MB (item 2)."""
    address = ADDRESSES["heads"]
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                           local_addr=(address, 0))
            writer.write(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 2**20
                         + b"\r\n\r\n")
            with contextlib.suppress(Exception):
                await writer.drain()
            answer = await asyncio.wait_for(reader.read(200), 10)
            counts[f"heads answered {answer[9:12].decode() or 'nothing'}"] += 1
            writer.close()
        await asyncio.sleep(0.05)


async def bodies(base: str, until: float, counts: dict[str, int]) -> None:
    """8 MB bodies, streamed without a length and with their length declared, and
    text/plain posts."""
    player = f"{HOSTILE}bodies"
    headers = {"X-Spades-Player": player, "Content-Type": "application/json"}

    async def big() -> Any:
        for _ in range(2048):
            yield b" " * 4096

    async with client(base, ADDRESSES["bodies"]) as http:
        while time.monotonic() < until:
            for kind, content in (("streamed", big()), ("declared", b" " * 2**23)):
                try:
                    response = await http.post("/api/games", content=content, headers=headers)
                    counts[f"bodies 8 MB {kind} answered {response.status_code}"] += 1
                except Exception as error:  # the server closed the connection mid-body
                    counts[f"bodies 8 MB {kind} cut off ({type(error).__name__})"] += 1
            with contextlib.suppress(Exception):
                response = await http.post("/api/games", content=b"{}", headers={
                    "X-Spades-Player": player, "Content-Type": "text/plain"})
                counts[f"bodies text/plain answered {response.status_code}"] += 1
            await asyncio.sleep(0.05)


async def unknown_games(base: str, until: float, counts: dict[str, int]) -> None:
    """Websockets for game ids that do not exist (nothing may be kept for them)."""
    address = ADDRESSES["unknown"]
    url = base.replace("http", "ws", 1)
    i = 0
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            async with websockets.connect(f"{url}/ws/games/nosuch{i:08d}", open_timeout=30,
                                          local_addr=(address, 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "ticket": f"made-up-{i}"}))
                await ws.recv()
                counts["unknown game ids asked"] += 1
        i += 1
        await asyncio.sleep(0.01)


def attacks_of(kind: str, base: str, port: int, until: float,
               counts: dict[str, int]) -> list[Any]:
    """The coroutines of one attack (``all``: every attack at once)."""
    made = {
        "neverread": lambda: [never_read(base, until, counts, n) for n in range(4)],
        "flood": lambda: [flood(base, until, counts, n) for n in range(2)],
        "badjson": lambda: [bad_json(base, until, counts)],
        "slowloris": lambda: [slowloris(port, until, counts)],
        "heads": lambda: [huge_heads(port, until, counts)],
        "bodies": lambda: [bodies(base, until, counts)],
        "unknown": lambda: [unknown_games(base, until, counts)],
        "busy": lambda: [busy(until, counts)],
    }
    kinds = list(made) if kind == "all" else [kind]
    return [coroutine for name in kinds for coroutine in made[name]()]


async def hostile(port: int, seconds: float, kind: str) -> dict[str, int]:
    base = f"http://127.0.0.1:{port}"
    until = time.monotonic() + seconds
    counts: dict[str, int] = _Counts()
    with contextlib.suppress(TimeoutError):  # a connect or read still waiting is dropped
        await asyncio.wait_for(asyncio.gather(*attacks_of(kind, base, port, until, counts),
                                              return_exceptions=True), seconds + 2)
    return dict(counts)


class _Counts(dict[str, int]):
    def __missing__(self, key: str) -> int:
        return 0


def hostile_main(port: int, seconds: float, out: Path, kind: str) -> None:
    """The hostile process, pinned to the last core."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {hostile_core()})
    counts = asyncio.run(hostile(port, seconds, kind))
    out.write_text(json.dumps(counts))


# ------------------------------------------------------------------ measuring the server

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    out.append(int(entry.name))
    return out


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) ``pid`` has used so far, in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds used so far by the server's process, and by its thinking processes."""
    return cpu_seconds(pid), sum(cpu_seconds(c) for c in children(pid))


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def start_server(folder: Path, workers: int | None) -> tuple[subprocess.Popen[bytes], int,
                                                              Path]:
    """The timed server in a child process of its own session; its port and timings file."""
    port = free_port()
    url = f"sqlite:///{folder / 'soak.db'}"
    timings = folder / "soak.timings"
    timings.write_text("")
    command = [sys.executable, __file__, "--serve", str(port), url, str(timings),
               str(workers if workers is not None else -1)]
    log = folder / "server.log"  # a file, not a pipe nobody reads: a full pipe would
    with open(log, "wb") as out:  # stop the server at its next log line
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=out,
                                  start_new_session=True)
    answering(server, port, log)
    phase("the server answers")
    return server, port, timings


def answering(server: subprocess.Popen[bytes], port: int, log: Path) -> None:
    """Wait until ``server`` answers on ``port`` (60 s at most, else it is stopped and the
    bench ends with the end of its ``log``)."""
    deadline = time.monotonic() + 60
    while True:
        if server.poll() is not None or time.monotonic() > deadline:
            stop(server)
            raise SystemExit(f"spades serve did not start:\n{log.read_text()[-2000:]}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.2)


def stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)  # its thinking processes, whatever happened


# ------------------------------------------------------------------ the windows

async def window(kind: str, port: int, server_pid: int, seconds: float, folder: Path,
                 n: int) -> dict[str, Any]:
    """One window: ``seconds`` quiet, or beside the hostile process of attack ``kind``
    (started ``SETTLE`` seconds before the window's figures begin)."""
    began = time.monotonic()
    counts_file = folder / f"window{n}.hostile.json"
    proc = None
    if kind != "quiet":
        proc = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--hostile", str(port), str(SETTLE + seconds),
            str(counts_file), kind, stdout=subprocess.DEVNULL, start_new_session=True)
    start_load = load()
    await asyncio.sleep(SETTLE)
    cpu_before = server_cpu(server_pid)
    await asyncio.sleep(seconds)
    cpu_after = server_cpu(server_pid)
    if proc is not None:
        try:
            await asyncio.wait_for(proc.wait(), 15)
        except TimeoutError:
            proc.kill()
            await proc.wait()
    hostile_counts = json.loads(counts_file.read_text()) if counts_file.exists() else {}
    return {"kind": kind, "start": began + SETTLE, "end": began + SETTLE + seconds,
            "load": (start_load, load()), "hostile": hostile_counts,
            "cpu": [(b - a) / seconds for a, b in zip(cpu_before, cpu_after, strict=True)]}


def plan(attacks: list[str], rounds: int) -> list[str]:
    """Quiet and attack windows alternating: for each round, each attack after a quiet
    window of its own (its pair)."""
    return [kind for _ in range(rounds) for attack in attacks for kind in ("quiet", attack)]


async def run_all(port: int, server_pid: int, args: argparse.Namespace,
                  folder: Path) -> tuple[list[dict[str, Any]], dict[str, int], dict[str, int]]:
    """The people at their tables for the whole run, the windows one after another, and
    the server's peaks watched meanwhile."""
    windows = plan(args.attacks, args.rounds)
    run = Run()
    counts: dict[str, int] = _Counts()
    peak = {"rss": 0, "rss_all": 0, "fds": 0}
    base = f"http://127.0.0.1:{port}"
    people = [asyncio.create_task(person(base, i, args.pause, run, counts, args.hands))
              for i in range(args.tables)]

    async def watch() -> None:
        while True:
            main_rss = rss(server_pid)
            peak["rss"] = max(peak["rss"], main_rss)
            peak["rss_all"] = max(peak["rss_all"],
                                  main_rss + sum(rss(c) for c in children(server_pid)))
            peak["fds"] = max(peak["fds"], open_files(server_pid))
            await asyncio.sleep(0.5)

    watching = asyncio.create_task(watch())
    done = []
    try:
        for n, kind in enumerate(windows):
            done.append(await window(kind, port, server_pid, args.seconds, folder, n))
            phase(f"window {n + 1} ({kind}) over")
    finally:
        run.over = True
        for task in (*people, watching):
            task.cancel()
        await asyncio.wait([*people, watching], timeout=30)  # a close handshake at most
        phase("the people have left their tables")
    return done, dict(counts), peak


# ------------------------------------------------------------------ the figures

def samples_in(timings: Path, windows: list[dict[str, Any]]) -> None:
    """Each window's card times (ms), from the server's timings file."""
    lines = [line.split() for line in timings.read_text().splitlines() if line.strip()]
    for w in windows:
        w["ms"] = [float(took) * 1000 for when, took in lines
                   if w["start"] <= float(when) < w["end"]]


def figures(ms: list[float]) -> str:
    if not ms:
        return "no card timed"
    return (f"{len(ms)} cards, median {statistics.median(ms):.1f} ms, p95 "
            f"{percentile(ms, 0.95):.1f} ms, max {max(ms):.1f} ms")


def cpu(shares: list[float]) -> str:
    """The server's CPU use: its own process, and its thinking processes, in cores."""
    return f"{shares[0]:.2f} + {shares[1]:.2f} cores"


def mean_cpu(windows: list[dict[str, Any]]) -> list[float]:
    return [statistics.fmean(w["cpu"][i] for w in windows) for i in (0, 1)]


def per_card(windows: list[dict[str, Any]]) -> str:
    """The server's CPU time (its process and its thinking processes) per card timed: on a
    loaded machine the server does no more than the CPU it is given, so what an attack
    costs shows here rather than in its CPU use."""
    cards = sum(len(w["ms"]) for w in windows)
    used = sum(sum(w["cpu"]) * (w["end"] - w["start"]) for w in windows)
    return f"{1000 * used / cards:.1f} ms of CPU a card" if cards else "no card"


def report(windows: list[dict[str, Any]], normal: dict[str, int],
           peak: dict[str, int]) -> None:
    for n, w in enumerate(windows):
        print(f"  window {n + 1:2d} {w['kind']:>9}: {figures(w['ms'])}; server CPU "
              f"{cpu(w['cpu'])}; load {w['load'][0]} -> {w['load'][1]}")
    print()
    for kind in dict.fromkeys(w["kind"] for w in windows if w["kind"] != "quiet"):
        pairs = [(windows[i - 1], w) for i, w in enumerate(windows) if w["kind"] == kind]
        quiet = [x for q, _ in pairs for x in q["ms"]]
        loud = [x for _, w in pairs for x in w["ms"]]
        print(f"[{kind}] beside it: {figures(loud)}")
        print(f"[{kind}] its quiet pairs: {figures(quiet)}")
        if quiet and loud:
            ratio = percentile(loud, 0.95) / percentile(quiet, 0.95)
            print(f"[{kind}] p95 beside it / quiet: {ratio:.2f} (goal: at most 1.20)")
        print(f"[{kind}] server CPU beside it {cpu(mean_cpu([w for _, w in pairs]))} "
              f"({per_card([w for _, w in pairs])}), in its quiet pairs "
              f"{cpu(mean_cpu([q for q, _ in pairs]))} ({per_card([q for q, _ in pairs])})")
        hostile: dict[str, int] = _Counts()
        for _, w in pairs:
            for key, value in w["hostile"].items():
                hostile[key] += value
        for key, value in sorted(hostile.items()):
            print(f"    hostile: {key}: {value}")
    print(f"\nnormal tables: {normal.get('actions', 0)} actions, {normal.get('games', 0)} "
          f"games finished, {normal.get('games left', 0)} left after their hands, "
          f"{normal.get('errors', 0)} errors")
    for key, value in sorted(normal.items()):
        if key.startswith("error: "):
            print(f"    {value} x {key[7:]}")
    print(f"server: peak RSS {peak['rss'] / 2**20:.0f} MB ({peak['rss_all'] / 2**20:.0f} MB "
          f"with its thinking processes), peak open file descriptors {peak['fds']}")


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="length of each window (default 60)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="pairs of windows (quiet, attack) per attack (default 3)")
    parser.add_argument("--attacks", default="bodies,heads,neverread",
                        help=f"comma-separated, of {', '.join(ATTACKS)} "
                             "(default bodies,heads,neverread)")
    parser.add_argument("--tables", type=int, default=20, help="normal tables (default 20)")
    parser.add_argument("--workers", type=int, default=None,
                        help="thinking processes (default: one per core)")
    parser.add_argument("--hands", type=int, default=10,
                        help="hands a person plays of a game before leaving it for a new one "
                             "(default 10: Normal players take 6-14 hands to 500)")
    parser.add_argument("--pause", type=float, default=0.4,
                        help="a person's time to play, on average (default 0.4: 0.2-0.6 s)")
    parser.add_argument("--people", choices=("hostile", "any"), default="hostile",
                        help="where the people's clients run: on the hostile clients' core "
                             "(default), or wherever the kernel puts them")
    args = parser.parse_args()
    args.attacks = [a.strip() for a in args.attacks.split(",") if a.strip()]
    if not set(args.attacks) <= set(ATTACKS) or not args.attacks:
        parser.error(f"--attacks are among {', '.join(ATTACKS)}")
    if (not 0 < args.seconds <= 3600 or min(args.tables, args.rounds, args.hands) < 1
            or args.pause < 0):
        parser.error("--seconds is more than 0 and at most 3600; --tables, --rounds and "
                     "--hands at least 1; --pause not negative")
    return args


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        port, url, timings, workers = sys.argv[2:6]
        serve(int(port), url, None if int(workers) < 0 else int(workers), Path(timings))
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--hostile":
        hostile_main(int(sys.argv[2]), float(sys.argv[3]), Path(sys.argv[4]), sys.argv[5])
        return 0
    args = arguments()
    print(f"machine: {machine()}")
    print(f"{args.tables} normal tables (house rules, random computer players, a card "
          f"{0.5 * args.pause:g}-{1.5 * args.pause:g} s after the turn comes); "
          f"{args.rounds} round(s) of a quiet and an attack window of {args.seconds:g} s "
          f"for each of {', '.join(args.attacks)}; workers "
          f"{args.workers if args.workers is not None else os.cpu_count()}; hostile "
          f"clients pinned to core {hostile_core()}, the people's clients "
          f"{'there too' if args.people == 'hostile' else 'anywhere'}, the server and its "
          f"thinking processes to {sorted(server_cores())}; load at start {load()}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        server, port, timings = start_server(folder, args.workers)
        if args.people == "hostile" and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {hostile_core()})  # after the server took its cores
        try:
            windows, normal, peak = asyncio.run(run_all(port, server.pid, args, folder))
        finally:
            stop(server)
            phase("the server has stopped")
        samples_in(timings, windows)
    report(windows, normal, peak)
    return 0 if any(w["ms"] for w in windows) else 1


if __name__ == "__main__":
    sys.exit(main())
