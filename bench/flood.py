"""What an attacker's floods get from a real ``spades serve`` (issue 37, items 1, 3 and 4),
on loopback behind ``--trusted-proxy 127.0.0.1`` so that each request may name its own
client address in ``X-Forwarded-For``:

1. sign-ups: 4 loops from one address, each a new email, for ``--seconds``; meanwhile a
   person signs in from another address every half second (their latency);
2. guessing: 12 addresses guess one account's password for ``--seconds`` while its owner
   signs in from their usual browser (device cookie) every second, and once at the end
   from a new browser;
3. new games: one player id on one address, as fast as it can, for ``--seconds``.

    PYTHONPATH=src python bench/flood.py [--seconds 20] [--port 8710] [--signin-delay 2]

(``--seconds 1 --signin-delay 0.1``: a run of a few seconds, to see that it still works.)

It prints what got through and what was refused, the hashes the server computed (the
accounts made), the server's RSS before and after, the machine and its load; it never fails.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from engine import machine  # bench/engine.py

PASSWORD = "seven tricks and a nil"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def start(port: int, folder: str, delay: float | None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "spades.cli.main", "serve", "--port", str(port),
               "--db", f"sqlite:///{folder}/flood.db", "--workers", "0",
               "--trusted-proxy", "127.0.0.1", "--per-address", "500"]
    if delay is not None:
        command += ["--signin-delay", str(delay)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(150):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("spades serve did not start")


async def post(http: httpx.AsyncClient, path: str, body: Any, address: str,
               **headers: str) -> httpx.Response:
    return await http.post(path, json=body, headers={"X-Forwarded-For": address, **headers})


async def signups(base: str, seconds: float) -> dict[str, Any]:
    codes: Counter[int] = Counter()
    latencies: list[float] = []
    stop = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        async def flood() -> None:
            async with httpx.AsyncClient(base_url=base, timeout=60) as own:
                while time.monotonic() < stop:
                    own.cookies.clear()  # each sign-up a new visitor (no CSRF to carry)
                    email = f"flood-{secrets.token_hex(6)}@example.org"
                    answer = await post(own, "/api/account/signup",
                                        {"email": email, "password": PASSWORD}, "203.0.113.1")
                    codes[answer.status_code] += 1

        async def person() -> None:
            await post(http, "/api/account/signup", {"email": "ann@example.org",
                                                     "password": PASSWORD}, "192.0.2.50")
            while time.monotonic() < stop:
                began = time.monotonic()
                async with httpx.AsyncClient(base_url=base, timeout=60) as own:
                    await post(own, "/api/account/signin", {"email": "ann@example.org",
                                                            "password": PASSWORD},
                               "192.0.2.51")
                latencies.append((time.monotonic() - began) * 1000)
                await asyncio.sleep(0.5)

        await asyncio.gather(*(flood() for _ in range(4)), person())
    return {"codes": dict(codes), "signin_ms": latencies}


async def guessing(base: str, seconds: float) -> dict[str, Any]:
    codes: Counter[int] = Counter()
    owner: list[tuple[int, float]] = []
    stop = time.monotonic() + seconds
    credentials = {"email": "bob@example.org", "password": PASSWORD}
    async with httpx.AsyncClient(base_url=base, timeout=60) as laptop:
        await post(laptop, "/api/account/signup", credentials, "192.0.2.60")
        device = laptop.cookies.get("spades_device") or ""

    async def attacker(n: int) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            while time.monotonic() < stop:
                http.cookies.clear()
                answer = await post(http, "/api/account/signin",
                                    {"email": "bob@example.org", "password": "a guess"},
                                    f"198.51.100.{n}")
                codes[answer.status_code] += 1
                if answer.status_code == 429:
                    await asyncio.sleep(0.2)

    async def signs_in(cookies: dict[str, str], address: str) -> tuple[int, float]:
        began = time.monotonic()
        async with httpx.AsyncClient(base_url=base, timeout=60, cookies=cookies) as http:
            answer = await post(http, "/api/account/signin", credentials, address)
        return answer.status_code, (time.monotonic() - began) * 1000

    async def the_owner() -> None:
        await asyncio.sleep(1)
        while time.monotonic() < stop:
            owner.append(await signs_in({"spades_device": device}, "192.0.2.60"))
            await asyncio.sleep(1)

    await asyncio.gather(*(attacker(n) for n in range(1, 13)), the_owner())
    fresh = await signs_in({}, "192.0.2.61")
    return {"codes": dict(codes), "owner": owner, "new_browser": fresh}


async def games(base: str, seconds: float) -> dict[str, Any]:
    codes: Counter[int] = Counter()
    stop = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < stop:
            answer = await post(http, "/api/games", {"level": "random"}, "203.0.113.9",
                                **{"X-Spades-Player": "flooding-player-01"})
            codes[answer.status_code] += 1
    return {"codes": dict(codes)}


def report(name: str, found: dict[str, Any]) -> None:
    print(f"{name}: answers {found['codes']}")
    if "signin_ms" in found:
        ms = found["signin_ms"]
        print(f"  a person's sign-in meanwhile (another address): n={len(ms)} "
              f"p50 {percentile(ms, 0.5):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms")
    if "owner" in found:
        ok = [ms for code, ms in found["owner"] if code == 200]
        print(f"  the owner from their browser: {len(ok)} of {len(found['owner'])} signed in,"
              f" p50 {percentile(ok, 0.5):.0f} ms, p95 {percentile(ok, 0.95):.0f} ms")
        code, ms = found["new_browser"]
        print(f"  the owner from a new browser at the end: {code} in {ms:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--port", type=int, default=8710)
    parser.add_argument("--signin-delay", type=float, default=None,
                        help="the server's --signin-delay (default: its own, 2 s)")
    args = parser.parse_args()
    print(machine())
    base = f"http://127.0.0.1:{args.port}"
    with tempfile.TemporaryDirectory() as folder:
        server = start(args.port, folder, args.signin_delay)
        try:
            before = rss_mb(server.pid)
            report("sign-ups, 4 loops from one address",
                   asyncio.run(signups(base, args.seconds)))
            report("guessing, 12 addresses at one account", asyncio.run(guessing(
                base, args.seconds)))
            report("new games, one player id on one address",
                   asyncio.run(games(base, args.seconds)))
            print(f"server RSS: {before:.0f} MB before, {rss_mb(server.pid):.0f} MB after; "
                  f"load average {os.getloadavg()[0]:.2f}")
        finally:
            server.terminate()
            server.wait(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
