"""Benchmark of the web table: the time from a person's card to their next decision, and the
page weight of the table's files.

Starts a real ``spades serve`` (uvicorn, the process pool, a fresh SQLite file unless --db),
plays seat 0 through a websocket with instant computer players (the ``random`` level, whose
decisions take microseconds), and times each card from the moment it is sent to the moment
the next state asking seat 0 to act arrives: that is the engine, four saves, the process
pool round trips and the messages, without any thinking worth the name.

    python bench/server.py [--hands 10] [--workers N] [--db URL]

With --db the benchmark's games stay in that database (its tables are created if missing).

Goals (issue 4): p95 at most 100 ms; at most 150 KB of HTML, JS and CSS uncompressed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from engine import machine  # bench/engine.py

WEB = Path(__file__).resolve().parent.parent / "src" / "spades" / "web"
PLAYER = "bench-player-0001"
PAGE_GOAL = 150 * 1024
LATENCY_GOAL = 0.100


def page_weight(folder: Path = WEB) -> tuple[int, list[tuple[str, int]]]:
    """Every HTML, JS and CSS file of the web client."""
    files = sorted(p for p in folder.rglob("*") if p.suffix in (".html", ".js", ".css"))
    sizes = [(str(p.relative_to(folder)), p.stat().st_size) for p in files]
    return sum(size for _, size in sizes), sizes


STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s+["'](\./[^"']+)["']""",
                           re.MULTILINE)
PAGE_LINK = re.compile(r'<(?:link[^>]+rel="stylesheet"[^>]+href|script[^>]+src)="([^"]+)"')


def opening_weight(folder: Path = WEB) -> tuple[int, list[tuple[str, int]]]:
    """What the table needs to open: index.html, the files it links, and the modules they
    import statically (a dynamic ``import()`` loads later, when its view is opened)."""
    seen: dict[str, int] = {}
    todo = ["index.html"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = folder / name
        text = path.read_text(encoding="utf-8")
        seen[name] = path.stat().st_size
        base = Path(name).parent
        if name.endswith(".html"):
            # the page links its files from the site's root ("/js/main.js"): the web folder's
            todo += [link.lstrip("/") for link in PAGE_LINK.findall(text)]
        elif name.endswith(".js"):
            todo += [str((base / found).as_posix()).removeprefix("./")
                     for found in STATIC_IMPORT.findall(text)]
    sizes = sorted(seen.items())
    return sum(size for _, size in sizes), sizes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(url: str, port: int, workers: int | None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "spades.cli.main", "serve", "--port", str(port),
               "--db", url, "--pace", "0"]
    if workers is not None:
        command += ["--workers", str(workers)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"spades serve failed: {process.stderr.read().decode()}"
                             if process.stderr else "spades serve failed")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("spades serve did not start")


class Wire:
    """The bytes of the text messages a socket received, as sent (the server does not
    compress them) and as permessage-deflate would have sent them with uvicorn's settings
    (a 4 KB window kept from message to message, memLevel 5; what the server did until
    it stopped compressing: docs/protocol.md, "Frames are not compressed")."""

    def __init__(self) -> None:
        self.messages = 0
        self.plain = 0
        self.deflated = 0
        self._deflate = zlib.compressobj(wbits=-12, memLevel=5)

    def add(self, text: str) -> None:
        data = text.encode()
        self.messages += 1
        self.plain += len(data)
        packed = self._deflate.compress(data) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
        self.deflated += len(packed) - 4  # the flush's empty block is not sent


WIRE = Wire()


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = state["legal"]
    if legal["kind"] == "pass":
        return {"pass": rng.sample(legal["cards"], legal["count"])}
    action = dict(rng.choice([a for a in legal["actions"] if "look" not in a]))
    action.pop("label", None)
    return action


@contextlib.contextmanager
def open_table(port: int, game_id: str, brief: bool) -> Iterator[Any]:
    """The game's websocket as the page opens it (docs/protocol.md): a ticket asked for
    with the player's id, then the socket, whose first message is the hello."""
    base = f"http://127.0.0.1:{port}"
    response = httpx.post(f"{base}/api/games/{game_id}/ticket",
                          headers={"X-Spades-Player": PLAYER})
    response.raise_for_status()
    with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}") as ws:
        ws.send(json.dumps({"type": "hello", "ticket": response.json()["ticket"],
                            "late_suggestion": True,  # the turn at once, as the page
                            "brief": brief}))
        yield ws


def play(port: int, hands: int, rng: random.Random, limit: float,
         brief: bool) -> tuple[list[float], int]:
    """Card-to-decision latencies over ``hands`` hands (new games as needed)."""
    base = f"http://127.0.0.1:{port}"
    latencies: list[float] = []
    frames = 0
    played_hands = 0
    deadline = time.monotonic() + limit
    while played_hands < hands and time.monotonic() < deadline:
        game = httpx.post(f"{base}/api/games", headers={"X-Spades-Player": PLAYER},
                          json={"preset": "house", "level": "random"}).json()
        with open_table(port, game["id"], brief) as ws:

            def decision(acted: int | None = None) -> dict[str, Any]:
                """The next state asking for a decision, or the game's end: not one of the
                step ``acted`` from (its bid suggestion follows in a state of that step)."""
                nonlocal frames
                while True:
                    text = ws.recv(timeout=30)
                    WIRE.add(text)
                    message = json.loads(text)
                    frames += 1
                    if message["type"] == "state" and (message["view"]["over"] or (
                            message["legal"] and message["step"] != acted)):
                        return message

            state = decision()
            hand = state["view"]["hand_number"]
            while not state["view"]["over"] and played_hands < hands:
                card = state["legal"]["kind"] == "play"
                ws.send(json.dumps({"type": "act", "version": state["version"],
                                    "action": choose(state, rng)}))
                sent = time.perf_counter()
                state = decision(state["step"])
                if card:
                    latencies.append(time.perf_counter() - sent)
                if state["view"]["hand_number"] != hand or state["view"]["over"]:
                    played_hands += 1
                    hand = state["view"]["hand_number"]
                if time.monotonic() > deadline:
                    break
    return latencies, frames


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10, help="hands to play (default 10)")
    parser.add_argument("--workers", type=int, default=None,
                        help="thinking processes (default: one per core)")
    parser.add_argument("--db", default=None, help="store URL (default: a fresh SQLite file)")
    parser.add_argument("--limit", type=float, default=120, help="seconds at most (120)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--brief", action="store_true",
                        help="ask for brief states, as the page does")
    args = parser.parse_args()

    print(f"machine: {machine()}")
    total, sizes = opening_weight()
    print(f"page weight to open the table: {total / 1024:.1f} KB of HTML, JS and CSS in "
          f"{len(sizes)} files (goal <= {PAGE_GOAL // 1024} KB: "
          f"{'met' if total <= PAGE_GOAL else 'NOT met'})")
    for name, size in sorted(sizes, key=lambda s: -s[1])[:8]:
        print(f"  {size / 1024:7.1f} KB  {name}")
    everything, files = page_weight()
    print(f"all of the web client: {everything / 1024:.1f} KB in {len(files)} files "
          "(help and the service worker load when needed)")

    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite:///{Path(folder) / 'bench.db'}"
        port = free_port()
        server = start(url, port, args.workers)
        try:
            latencies, frames = play(port, args.hands, random.Random(args.seed), args.limit,
                                     args.brief)
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    if not latencies:
        print("no card was timed")
        return 1
    ms = [x * 1000 for x in latencies]
    p95 = percentile(latencies, 0.95)
    print(f"store: {Path(url).name if url.startswith('sqlite') else url.split('@')[-1]}; "
          f"workers: {args.workers or os.cpu_count()}; computer players: random (instant)")
    print(f"card -> next decision over {len(ms)} cards ({frames} frames): "
          f"median {statistics.median(ms):.1f} ms, p95 {p95 * 1000:.1f} ms, "
          f"max {max(ms):.1f} ms (goal p95 <= {LATENCY_GOAL * 1000:.0f} ms: "
          f"{'met' if p95 <= LATENCY_GOAL else 'NOT met'})")
    print(f"messages received: {WIRE.messages} ({'brief' if args.brief else 'full'} states), "
          f"{WIRE.plain / WIRE.messages:.0f} bytes each as sent, "
          f"{WIRE.deflated / WIRE.messages:.0f} as permessage-deflate would send them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
