"""Soak benchmark: 20 normal tables beside hostile clients, on loopback, for N minutes.

Runs `spades serve`'s app (the same uvicorn server, limits and process pool) in a child
process wrapped in a timing layer, then two runs of ``--minutes`` each, in a fresh SQLite file:

1. **quiet**: 20 tables played by people-like clients (a card 0.2 to 0.6 s after their turn
   comes) against instant computer players;
2. **hostile**: the same 20 tables, and beside them hostile clients pinned to one core
   (``os.sched_setaffinity``) so their own CPU use does not decide the figure: sockets that
   flood syncs and never read, ping and stale-act floods, JSON nested 5000 deep and numbers of
   5000 digits, a slowloris with half-open connections, 1 MB request heads, 8 MB streamed
   bodies and text/plain posts, and websockets for game ids that do not exist.

For each run it prints the normal tables' time from a card to their next turn **measured in
the server** (from the moment the app reads the card's frame to the moment it hands over the
state that asks that seat to act again: the engine, four saves, three computer decisions in
the process pool and the event loop's queue), the server's peak RSS (and with its thinking
processes), and its peak of open file descriptors. Loopback only; it stops by itself.

    python bench/soak.py [--minutes 5] [--tables 20] [--workers N]

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

NORMAL = "soak-normal-"
HOSTILE = "soak-hostile-"
#: Each attack comes from its own loopback address, so the per-address cap meets it alone.
ADDRESSES = {"neverread": "127.0.0.2", "flood": "127.0.0.3", "badjson": "127.0.0.4",
             "slowloris": "127.0.0.5", "heads": "127.0.0.6", "bodies": "127.0.0.7",
             "unknown": "127.0.0.8"}


# ------------------------------------------------------------------ the server, timed inside

class Timing:
    """ASGI layer: for the websockets of normal players, the time from reading an ``act``
    frame to sending the next ``state`` that asks the seat to act; one line per card."""

    def __init__(self, app: Any, out: Any):
        self.app = app
        self.state = app.state  # make_server tells app.state.thinker when a signal comes
        self.out = out

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        query = scope.get("query_string", b"").decode()
        if scope["type"] != "websocket" or f"player={NORMAL}" not in query:
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
                    self.out.write(f"{time.perf_counter() - start:.6f}\n")
                    self.out.flush()
                    pending[0] = None
            await send(message)

        await self.app(scope, timed_receive, timed_send)


def is_act(text: str | None) -> bool:
    try:
        return bool(text) and json.loads(text or "").get("type") == "act"
    except (ValueError, AttributeError):
        return False


def serve(port: int, url: str, workers: int | None, timings: Path) -> None:
    """The child process: ``spades serve``'s app and server with the timing layer."""
    from spades.server import Settings, create_app
    from spades.server.listen import make_server

    app = create_app(Settings(db_url=url, pace=0.0, workers=workers))
    with open(timings, "a", encoding="utf-8") as out:
        server = make_server(Timing(app, out), "127.0.0.1", port)
        asyncio.run(server.serve())


# ------------------------------------------------------------------ people at 20 tables

def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = state["legal"]
    if legal["kind"] == "pass":
        return {"pass": rng.sample(legal["cards"], legal["count"])}
    action = dict(rng.choice([a for a in legal["actions"] if "look" not in a]))
    action.pop("label", None)
    return action


async def person(base: str, index: int, until: float, counts: dict[str, int]) -> None:
    """One table: a person who plays a card 0.2 to 0.6 s after their turn comes."""
    rng = random.Random(index)
    player = f"{NORMAL}{index:04d}"
    address = f"127.0.1.{1 + index % 250}"  # a person's own address, as on the internet
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        while time.monotonic() < until:
            try:
                game = (await http.post("/api/games", headers={"X-Spades-Player": player},
                                        json={"preset": "house", "level": "random"})).json()
                ws_url = base.replace("http", "ws") + f"{game['websocket']}?player={player}"
                async with websockets.connect(ws_url, open_timeout=30,
                                              local_addr=(address, 0)) as ws:
                    while time.monotonic() < until:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                        if message["type"] != "state":
                            continue
                        if message["view"]["over"]:
                            counts["games"] += 1
                            break
                        if message["legal"]:
                            await asyncio.sleep(rng.uniform(0.2, 0.6))
                            await ws.send(json.dumps({
                                "type": "act", "version": message["version"],
                                "action": choose(message, rng)}))
                            counts["actions"] += 1
            except Exception as error:  # a normal table must never fail: count it
                counts["errors"] += 1
                counts[f"error: {type(error).__name__}: {str(error)[:80]}"] += 1
                await asyncio.sleep(1)


# ------------------------------------------------------------------ hostile clients

async def new_game(base: str, address: str, player: str) -> str:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        response = await http.post("/api/games", headers={"X-Spades-Player": player},
                                   json={"level": "random"})
        game_id: str = response.json()["id"]
        return game_id


async def ws_connect(base: str, path: str, address: str) -> Any:
    url = base.replace("http", "ws") + path
    return await websockets.connect(url, open_timeout=30, max_size=None, max_queue=None,
                                    local_addr=(address, 0), ping_interval=None)


async def never_read(base: str, until: float, counts: dict[str, int], n: int) -> None:
    """Send syncs as fast as the socket takes them and never read (item 1)."""
    address = ADDRESSES["neverread"]
    player = f"{HOSTILE}neverread{n}"
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            game_id = await new_game(base, address, player)
            ws = await ws_connect(base, f"/ws/games/{game_id}?player={player}", address)
            ws.transport.pause_reading()  # take nothing from the server
            with contextlib.suppress(Exception):
                while time.monotonic() < until:
                    await asyncio.wait_for(ws.send('{"type":"sync"}'), 5)
                    counts["neverread frames"] += 1
            ws.transport.abort()
        await asyncio.sleep(0.5)


async def flood(base: str, until: float, counts: dict[str, int], n: int) -> None:
    """Pings and stale acts as fast as possible, reading the answers (item 4)."""
    address = ADDRESSES["flood"]
    player = f"{HOSTILE}flood{n}"
    frames = ['{"type":"ping"}', '{"type":"act","version":0,"action":{"bid":3}}',
              '{"type":"sync"}']
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            game_id = await new_game(base, address, player)
            async with await ws_connect(base, f"/ws/games/{game_id}?player={player}",
                                        address) as ws:

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
    """JSON nested 5000 deep and numbers of 5000 digits (item 7)."""
    address = ADDRESSES["badjson"]
    player = f"{HOSTILE}badjson"
    frames = ["[" * 5000 + "]" * 5000,
              '{"type":"act","version":' + "9" * 5000 + ',"action":{"bid":1}}']
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            game_id = await new_game(base, address, player)
            async with await ws_connect(base, f"/ws/games/{game_id}?player={player}",
                                        address) as ws:
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
    """8 MB bodies streamed without a length, and text/plain posts (item 2)."""
    transport = httpx.AsyncHTTPTransport(local_address=ADDRESSES["bodies"])
    player = f"{HOSTILE}bodies"

    async def big() -> Any:
        for _ in range(2048):
            yield b" " * 4096

    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        while time.monotonic() < until:
            try:
                response = await http.post(
                    "/api/games", content=big(),
                    headers={"X-Spades-Player": player, "Content-Type": "application/json"})
                counts[f"bodies 8 MB answered {response.status_code}"] += 1
            except Exception as error:  # the server closed the connection mid-body
                counts[f"bodies 8 MB cut off ({type(error).__name__})"] += 1
            with contextlib.suppress(Exception):
                response = await http.post(f"/api/games?player={player}", content=b"{}",
                                           headers={"Content-Type": "text/plain"})
                counts[f"bodies text/plain answered {response.status_code}"] += 1
            await asyncio.sleep(0.05)


async def unknown_games(base: str, until: float, counts: dict[str, int]) -> None:
    """Websockets for game ids that do not exist (item 7: nothing may be kept for them)."""
    address = ADDRESSES["unknown"]
    player = f"{HOSTILE}unknown"
    i = 0
    while time.monotonic() < until:
        with contextlib.suppress(Exception):
            async with await ws_connect(base, f"/ws/games/nosuch{i:08d}?player={player}",
                                        address) as ws:
                await ws.recv()
                counts["unknown game ids asked"] += 1
        i += 1
        await asyncio.sleep(0.01)


async def hostile(port: int, seconds: float) -> dict[str, int]:
    base = f"http://127.0.0.1:{port}"
    until = time.monotonic() + seconds
    counts: dict[str, int] = _Counts()
    await asyncio.gather(
        *(never_read(base, until, counts, n) for n in range(4)),
        *(flood(base, until, counts, n) for n in range(2)),
        bad_json(base, until, counts), slowloris(port, until, counts),
        huge_heads(port, until, counts), bodies(base, until, counts),
        unknown_games(base, until, counts))
    return dict(counts)


class _Counts(dict[str, int]):
    def __missing__(self, key: str) -> int:
        return 0


def hostile_main(port: int, seconds: float, out: Path) -> None:
    """The hostile process, pinned to the last core."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    counts = asyncio.run(hostile(port, seconds))
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


def one_run(name: str, minutes: float, tables: int, workers: int | None,
            with_hostile: bool, folder: Path) -> dict[str, Any]:
    port = free_port()
    url = f"sqlite:///{folder / f'{name}.db'}"
    timings = folder / f"{name}.timings"
    timings.write_text("")
    command = [sys.executable, __file__, "--serve", str(port), url, str(timings),
               str(workers if workers is not None else -1)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              start_new_session=True)
    seconds = minutes * 60
    hostile_proc: subprocess.Popen[bytes] | None = None
    counts_file = folder / f"{name}.hostile.json"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start: "
                                 + (server.stderr.read().decode() if server.stderr else ""))
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        start_load = load()
        if with_hostile:
            hostile_proc = subprocess.Popen(
                [sys.executable, __file__, "--hostile", str(port), str(seconds),
                 str(counts_file)], stdout=subprocess.DEVNULL, start_new_session=True)
        peak = {"rss": 0, "rss_all": 0, "fds": 0}

        async def watch(until: float) -> None:
            while time.monotonic() < until:
                workers_rss = sum(rss(c) for c in children(server.pid))
                main_rss = rss(server.pid)
                peak["rss"] = max(peak["rss"], main_rss)
                peak["rss_all"] = max(peak["rss_all"], main_rss + workers_rss)
                peak["fds"] = max(peak["fds"], open_files(server.pid))
                await asyncio.sleep(0.5)

        async def run() -> dict[str, int]:
            until = time.monotonic() + seconds
            counts: dict[str, int] = _Counts()
            base = f"http://127.0.0.1:{port}"
            await asyncio.gather(watch(until),
                                 *(person(base, i, until, counts) for i in range(tables)))
            return dict(counts)

        normal = asyncio.run(run())
        end_load = load()
    finally:
        if hostile_proc is not None:
            try:
                hostile_proc.wait(30)
            except subprocess.TimeoutExpired:
                hostile_proc.kill()
                hostile_proc.wait()
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
    samples = [float(x) for x in timings.read_text().split()]
    hostile_counts = json.loads(counts_file.read_text()) if counts_file.exists() else {}
    return {"name": name, "samples": samples, "normal": normal, "hostile": hostile_counts,
            "peak": peak, "load": (start_load, end_load)}


def report(run: dict[str, Any]) -> None:
    samples = run["samples"]
    peak = run["peak"]
    print(f"\n[{run['name']}] load average at start {run['load'][0]}, at end {run['load'][1]}")
    if samples:
        ms = [x * 1000 for x in samples]
        print(f"  card -> next turn, in the server, over {len(ms)} cards of the normal "
              f"tables: median {statistics.median(ms):.1f} ms, p95 "
              f"{percentile(ms, 0.95):.1f} ms, max {max(ms):.1f} ms")
    else:
        print("  no card of the normal tables was timed")
    normal = run["normal"]
    print(f"  normal tables: {normal.get('actions', 0)} actions, {normal.get('games', 0)} "
          f"games finished, {normal.get('errors', 0)} errors")
    for key, value in sorted(normal.items()):
        if key.startswith("error: "):
            print(f"    {value} x {key[7:]}")
    print(f"  server: peak RSS {peak['rss'] / 2**20:.0f} MB ({peak['rss_all'] / 2**20:.0f} MB "
          f"with its thinking processes), peak open file descriptors {peak['fds']}")
    for key, value in sorted(run["hostile"].items()):
        print(f"  hostile: {key}: {value}")


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        port, url, timings, workers = sys.argv[2:6]
        serve(int(port), url, None if int(workers) < 0 else int(workers), Path(timings))
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--hostile":
        hostile_main(int(sys.argv[2]), float(sys.argv[3]), Path(sys.argv[4]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0,
                        help="length of each of the two runs (default 5)")
    parser.add_argument("--tables", type=int, default=20, help="normal tables (default 20)")
    parser.add_argument("--workers", type=int, default=None,
                        help="thinking processes (default: one per core)")
    parser.add_argument("--only", choices=["quiet", "hostile"], default=None,
                        help="make only one of the two runs")
    args = parser.parse_args()
    if not 0 < args.minutes <= 60 or args.tables < 1:
        parser.error("--minutes is more than 0 and at most 60; --tables at least 1")
    print(f"machine: {machine()}")
    print(f"{args.tables} normal tables (house rules, random computer players, a card 0.2-0.6 s "
          f"after the turn comes), {args.minutes:g} min per run, workers "
          f"{args.workers if args.workers is not None else os.cpu_count()}; hostile clients "
          f"pinned to core {max(os.sched_getaffinity(0))}")
    with tempfile.TemporaryDirectory() as folder:
        runs = [("quiet", False), ("hostile", True)]
        for name, with_hostile in runs:
            if args.only in (None, name):
                report(one_run(name, args.minutes, args.tables, args.workers, with_hostile,
                               Path(folder)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
