"""Sign-in latency: 100 sign-ins through ``POST /api/account/signin`` (a real app on a
temporary SQLite file; argon2id at the server's cost, ``spades.accounts.COST``), and the
bare verification of one password hash next to it.

    PYTHONPATH=src python bench/signin.py [--count 100] [--time 3] [--memory 32768]

It prints p50 and p95 in milliseconds, the argon2 parameters, the machine and its load
average (on a busy machine every wall-clock figure is slower; the CPU time of a hash is
what it costs an idle core); it never fails.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

from engine import machine  # bench/engine.py
from spades.accounts import COST, Cost, Passwords
from spades.server import Settings, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PASSWORD = "seven tricks and a nil"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--time", type=int, default=COST.time, help="argon2 passes")
    parser.add_argument("--memory", type=int, default=COST.memory, help="argon2 KiB")
    parser.add_argument("--lanes", type=int, default=COST.lanes, help="argon2 lanes")
    args = parser.parse_args()
    cost = Cost(time=args.time, memory=args.memory, lanes=args.lanes)
    print(f"machine: {machine()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"argon2id: time_cost={cost.time}, memory_cost={cost.memory} KiB, "
          f"parallelism={cost.lanes}")

    passwords = Passwords(cost)
    stored = passwords.hash(PASSWORD)
    bare, cpu = [], []
    for _ in range(args.count):
        start, used = time.perf_counter(), time.thread_time()
        assert passwords.verify(stored, PASSWORD)
        bare.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - used) * 1000)

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(db_url=f"sqlite:///{Path(folder) / 'bench.db'}", workers=0,
                            password_cost=cost)
        with TestClient(create_app(settings), base_url="http://127.0.0.1") as http:
            made = http.post("/api/account/signup",
                             json={"email": "bench@example.org", "password": PASSWORD})
            assert made.status_code == 201, made.text
            signins = []
            for _ in range(args.count):
                http.cookies.clear()  # each a new device: a fresh login every time
                start = time.perf_counter()
                response = http.post("/api/account/signin",
                                     json={"email": "bench@example.org", "password": PASSWORD})
                signins.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200, response.text

    for name, values in (("verify one hash", bare), ("its CPU time", cpu),
                         ("sign-in over HTTP", signins)):
        print(f"{name:>18}: p50 {percentile(values, 0.5):7.1f} ms, "
              f"p95 {percentile(values, 0.95):7.1f} ms, "
              f"mean {statistics.fmean(values):7.1f} ms ({len(values)} runs)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
