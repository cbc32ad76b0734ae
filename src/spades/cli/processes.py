"""Running ``spades serve``: one process (``serve_one``), or several on one port
(``--processes N``, ``supervise``).

The first process (the supervisor) opens the listening socket and starts N server processes
(multiprocessing's "spawn": each a fresh interpreter) that all accept on it, so the system
hands each new connection to one of them. The processes share what a table needs through
PostgreSQL and Redis (docs/architecture.md, "Several processes"). A server process that dies
is started again after ``RESTART_PAUSE`` seconds; its tables are taken over by the others
meanwhile (their leases run out) and its clients reconnect to the port. Ctrl+C or SIGTERM
stops them all.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import multiprocessing
import os
import signal
import socket
import sys
import time
from collections.abc import Callable, Coroutine
from multiprocessing.process import BaseProcess
from typing import Any

#: Seconds before a server process that died is started again (a crash loop stays slow).
RESTART_PAUSE = 1.0
#: Seconds the server processes have to stop after being asked.
STOP_WAIT = 20.0
#: Python's cyclic collector in a server process (``gc.set_threshold``). A server holds
#: its tables' states, sockets and tasks for seconds to minutes: at Python's default
#: (700, 10, 10) nearly all of them outlive the young collections, and the full
#: collections they bring walk every table's objects while the process stands still.
#: Fewer, larger young collections let most die by their count of references first
#: (bench/RESULTS.md, "Presence in one Redis command, hiredis, Python's collector").
COLLECTOR = (50_000, 20, 10)


def listening_socket(host: str, port: int) -> socket.socket:
    """The port, bound and listening, to be shared by the server processes."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def serve_on(settings: Any, args: Any, sock: socket.socket, lines: list[str]) -> None:
    """One server process (the target of each spawned process): the app of ``settings``
    on the shared socket; it prints ``lines`` once it listens (the first process only)."""
    # uvicorn stops gracefully on SIGINT (Ctrl+C reaches the terminal's whole group) and
    # SIGTERM (the supervisor's), then raises the signal again: here Ctrl+C's is let go
    # (not asyncio's KeyboardInterrupt in a stopped server) and SIGTERM's is a clean exit.
    # The process started with SIGINT blocked (``Supervisor``): one sent meanwhile comes now.
    signal.signal(signal.SIGINT, _let_go)
    signal.signal(signal.SIGTERM, _stopped)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    from spades.server import create_app

    server = listening(create_app(settings), args)

    async def serve() -> None:
        told = asyncio.create_task(announce_ready(server, lines))
        try:
            await server.serve(sockets=[sock])
        finally:
            told.cancel()

    run_loop(serve(), server)


def _let_go(_sig: int, _frame: Any) -> None:
    """Outside uvicorn's own handling (before it serves, after it stopped): nothing."""


def _stopped(_sig: int, _frame: Any) -> None:
    raise SystemExit(0)


class Supervisor:
    """Starts the server processes, starts again one that dies, stops them all."""

    def __init__(self, count: int, start: Callable[[int], BaseProcess]):
        self.count = count
        self.start = start
        self.processes: list[BaseProcess] = []
        self.stopping = False

    def run(self) -> int:
        # the signals first: a stop asked for while the processes start stops them all
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self._stop)
        for i in range(self.count):
            if not self.stopping:
                self.processes.append(self.start(i))
        while not self.stopping:
            for i, process in enumerate(self.processes):
                if not process.is_alive() and not self.stopping:
                    print(f"spades serve: server process {process.pid} ended (exit code "
                          f"{process.exitcode}); starting another", file=sys.stderr,
                          flush=True)
                    time.sleep(RESTART_PAUSE)
                    self.processes[i] = self.start(i)
            time.sleep(0.2)
        return self._join()

    def _stop(self, _sig: int, _frame: Any) -> None:
        self.stopping = True
        self._end_all()

    def _end_all(self) -> None:
        for process in self.processes:
            if process.is_alive() and process.pid is not None:
                signal_process(process.pid, signal.SIGTERM)

    def _join(self) -> int:
        self._end_all()  # again: one started as the stop was asked for is told too
        deadline = time.monotonic() + STOP_WAIT
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
        return 0


def signal_process(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def supervise(settings: Any, args: Any, count: int, lines: list[str]) -> int:
    """Serve ``settings`` with ``count`` processes on ``args.host``:``args.port``; the first
    prints ``lines`` once it listens."""
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as error:
        print(f"spades serve: could not listen on {args.host}:{args.port}: {error.strerror}",
              file=sys.stderr)
        return 1
    context = multiprocessing.get_context("spawn")

    def start(index: int) -> BaseProcess:
        process = context.Process(target=serve_on, name=f"spades serve {index + 1}",
                                  args=(settings, args, sock, lines if index == 0 else []))
        # the new process inherits SIGINT blocked until it has its handlers (``serve_on``):
        # Ctrl+C while it starts is no KeyboardInterrupt in the middle of its imports
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        return process

    try:
        return Supervisor(count, start).run()
    finally:
        sock.close()


def serve_one(settings: Any, args: argparse.Namespace, lines: list[str]) -> int:
    """``settings`` served by this process alone."""
    from spades.server import create_app

    server = listening(create_app(settings), args)

    async def serve() -> None:
        told = asyncio.create_task(announce_ready(server, lines))
        try:
            await server.serve()
        finally:
            told.cancel()

    try:
        run_loop(serve(), server)
    except SystemExit as exit_:  # uvicorn could not listen (the port is taken, say)
        print(f"spades serve: could not listen on {args.host}:{args.port}", file=sys.stderr)
        return int(exit_.code or 1)
    return 0


def run_loop(main: Coroutine[Any, Any, None], server: Any) -> None:
    """Run ``main`` on the event loop uvicorn would choose (uvloop where it is installed,
    as with uvicorn[standard]: its loop costs the server less CPU a message than asyncio's
    own; asyncio's otherwise), with the collector tuned for a server (``COLLECTOR``)."""
    tune_collector()
    with asyncio.Runner(loop_factory=server.config.get_loop_factory()) as runner:
        runner.run(main)


def tune_collector() -> None:
    """``COLLECTOR``'s thresholds; what the process made so far (modules, the app) is
    frozen out of the collector's walks (it lives as long as the process)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR)


async def announce_ready(server: Any, lines: list[str]) -> None:
    """Print ``lines`` once ``server`` really listens."""
    while not server.started:
        await asyncio.sleep(0.05)
    for line in lines:
        print(line, flush=True)


def listening(app: Any, args: argparse.Namespace) -> Any:
    """The uvicorn server for ``app`` with the limits of the command line."""
    from spades.server.listen import HEAD_TIMEOUT, PER_ADDRESS, REFUSALS, Guard, make_server

    # each of N processes on one port counts its own connections: it allows 1/N of the
    # caps, so that one address meets the caps it would meet at one process
    shares = max(1, int(getattr(args, "processes", 1) or 1))
    refusals = REFUSALS if args.refusals is None else args.refusals
    guard = Guard(per_address=share(args.per_address or PER_ADDRESS, shares),
                  head_timeout=args.head_timeout or HEAD_TIMEOUT,
                  refusals=share(refusals, shares) if refusals else 0)
    return make_server(app, args.host, args.port, guard, trusted_proxy=args.trusted_proxy)


def share(cap: int, shares: int) -> int:
    """One process's part of ``cap`` among ``shares`` processes on one port (at least 1)."""
    return max(1, -(-cap // shares))
