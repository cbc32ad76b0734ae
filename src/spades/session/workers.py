"""Thinking processes that can be cut off: each ``Worker`` is one process with a pipe, given
one job at a time; a job that overruns its budget is ended by ending the process (a new one
takes its place), so a runaway decision never holds a core.

A long job (a hand review) may ``report`` how it is getting on while it runs: each report
goes to the ``progress`` callback of ``Worker.run`` in the server, before the result.

Each process ignores Ctrl+C (the server shuts the workers down in order) and ends as soon as
its server is gone, however the server ended (a SIGKILL included): on Linux the kernel kills
it at once (``PR_SET_PDEATHSIG``: when the server's thread that started it ends, so workers
are started from the event loop's thread, which lasts as long as the server), elsewhere it
sees within ``WATCH_EVERY`` that its parent is gone.

A process is started with ``subprocess`` and talks over a socket pair through
``multiprocessing.connection.Connection`` (pickled messages), not with ``multiprocessing``'s
``spawn``: that would also start multiprocessing's resource tracker, a process that outlives
a killed server by seconds and that nothing here needs (no named semaphore, no shared
memory).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import socket
import subprocess  # nosec B404 - starts our own thinking process, a list of arguments, no shell
import sys
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any

from .packing import Packer

log = logging.getLogger("spades.session")

#: How often a thinking process checks that its server is still there (where the kernel
#: cannot be asked to end it with its server).
WATCH_EVERY = 0.1
#: prctl's option: the signal this process gets when the thread that started it ends.
PR_SET_PDEATHSIG = 1
#: What a new thinking process runs (``python -c BOOT PIPE_FD SERVER_PID``): first, on Linux,
#: it asks to die with the server (``_die_with_parent``'s call, before the second or so of
#: importing the players), then reads the server's ``sys.path`` from the pipe (so it
#: imports what the server imports) and ``_serve``'s arguments.
BOOT = ("import os, signal, sys\n"
        # Ctrl+C is the server's to act on (it ends its workers): ignored from the start,
        # then let in (the process was started with it blocked, ``Worker``)
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})\n"
        "try:\n"
        "    import ctypes\n"
        "    if sys.platform.startswith('linux'):\n"
        f"        ctypes.CDLL(None).prctl({PR_SET_PDEATHSIG}, {int(signal.SIGKILL)}, 0, 0, 0)\n"
        "except (OSError, AttributeError):\n"
        "    pass\n"
        "if os.getppid() != int(sys.argv[2]):\n"
        "    os._exit(0)\n"
        "from multiprocessing.connection import Connection\n"
        "conn = Connection(int(sys.argv[1]))\n"
        "sys.path[:] = conn.recv()\n"
        "from spades.session.workers import _serve\n"
        "_serve(conn, *conn.recv())\n")
#: What a new thinking process says once its players are loaded.
READY = "ready"
#: Where ``report`` sends a job's progress: the server's pipe in a thinking process, a
#: callback while a job runs inline (``reporting``), else nowhere.
_reporter: Callable[[Any], None] | None = None


class StoppingError(RuntimeError):
    """The server is shutting down: no more decisions are started."""


class OverrunError(TimeoutError):
    """A job took longer than its budget and was cut off."""


def report(value: Any) -> None:
    """Tell the server how the job running here is getting on (nothing if nobody listens)."""
    if _reporter is not None:
        _reporter(value)


@contextlib.contextmanager
def reporting(sink: Callable[[Any], None] | None) -> Iterator[None]:
    """``report`` calls ``sink`` meanwhile (a job run inline, without a process)."""
    global _reporter
    before, _reporter = _reporter, sink
    try:
        yield
    finally:
        _reporter = before


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(0)


def _die_with_parent() -> bool:
    """Ask Linux to SIGKILL this process as soon as the server's thread that started it
    ends (a kill -9 of the server included); False where that cannot be asked."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    done: int = prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    return done == 0


def _start_worker(parent: int) -> None:
    """Each worker: leave Ctrl+C to the server, which shuts the workers down in order, and
    end with the server (the kernel ends it, or a thread watching the parent does)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    killed_with_parent = _die_with_parent()
    if os.getppid() != parent:  # the server died while this process was starting
        os._exit(0)
    if not killed_with_parent:
        threading.Thread(target=_watch_parent, args=(parent,), name="watch-server",
                         daemon=True).start()


def _serve(conn: Connection, parent: int, warm: Any, nice: int) -> None:
    """The body of a thinking process: run each job sent, send back its result (after any
    progress it reports, each sent as ``(None, value)``)."""
    global _reporter
    _start_worker(parent)
    if nice:
        os.nice(nice)
    if warm is not None:
        warm()
    conn.send((True, READY))
    _reporter = lambda value: conn.send((None, value))  # noqa: E731
    while True:
        try:
            func, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result: tuple[bool, Any] = (True, func(*args))
        except Exception as error:  # sent back and raised in the server
            result = (False, error)
        conn.send(result)


class Worker:
    """One thinking process; ``nice`` lowers its CPU priority (``os.nice``)."""

    def __init__(self, warm: Any = None, nice: int = 0):
        ours, theirs = socket.socketpair()
        self.conn = Connection(ours.detach())
        child = theirs.detach()
        # started with SIGINT blocked: a Ctrl+C before BOOT ignores it is no traceback
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self.process = subprocess.Popen(  # nosec B603 - this Python, our BOOT, no shell
                [sys.executable, "-c", BOOT, str(child), str(os.getpid())],
                pass_fds=(child,), stdin=subprocess.DEVNULL)
        except BaseException:
            self.conn.close()
            raise
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            os.close(child)
        self.conn.send(sys.path)  # read by BOOT, then _serve's arguments
        self.conn.send((os.getpid(), warm, nice))
        self.ready = False
        #: the jobs pickled for this process (each game's rules sent to it once)
        self.packer = Packer()
        #: the event loop watching the pipe, if one does, and the waiter it wakes
        self._watching: asyncio.AbstractEventLoop | None = None
        self._waiter: asyncio.Future[None] | None = None

    def _listen(self) -> asyncio.Future[None]:
        """A future set when the process's pipe has something to read. The event loop
        watches the pipe from then on, while jobs follow one another (not a watch a
        message); it stops when something arrives that nobody waits for (the process
        died between jobs: its pipe would be readable at every turn of the loop)."""
        loop = asyncio.get_running_loop()
        if self._waiter is None or self._waiter.done():
            self._waiter = loop.create_future()
        if self._watching is None:
            loop.add_reader(self.conn.fileno(), self._readable)
            self._watching = loop
        return self._waiter

    def _readable(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)
        else:
            self._unwatch()

    def _unwatch(self) -> None:
        loop, self._watching = self._watching, None
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self.conn.fileno())

    def _take(self) -> tuple[bool | None, Any]:
        """The next message of the process: (True, result), (False, error) or (None,
        progress)."""
        try:
            message: tuple[bool | None, Any] = self.conn.recv()
        except (EOFError, OSError) as error:
            self.end()
            raise RuntimeError("a thinking process died") from error
        return message

    def _receive(self) -> Any:
        ok, value = self._take()
        if not ok:
            raise value
        return value

    async def _started(self) -> None:
        """Wait for the process to load its players (not counted in any budget)."""
        if not self.ready:
            await self._next(None)
            self._receive()
            self.ready = True

    async def _next(self, deadline: float | None) -> None:
        """Until the pipe has something to read; ``TimeoutError`` at ``deadline`` (the
        event loop's time). A wake-up is checked (``poll``): the loop may have found the
        pipe readable before the last message was read, and tell it once more."""
        loop = asyncio.get_running_loop()
        while not self.conn.poll():
            waiter = self._listen()
            timer = None if deadline is None else loop.call_at(deadline, waiter.cancel)
            try:
                await waiter
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if waiter.cancelled() and task is not None and not task.cancelling():
                    raise TimeoutError from None  # the timer's cancel: the deadline passed
                raise
            finally:
                if timer is not None:
                    timer.cancel()

    async def run(self, budget: float | None, func: Any, *args: Any,
                  progress: Callable[[Any], None] | None = None) -> Any:
        """``func(*args)`` in the process; ``OverrunError`` (and the process ended) after
        ``budget`` seconds. What the job ``report``s meanwhile goes to ``progress``."""
        loop = asyncio.get_running_loop()
        try:
            await self._started()
            self.conn.send_bytes(self.packer.pack((func, args)))
            deadline = None if budget is None else loop.time() + budget
            while True:
                await self._next(deadline)
                ok, value = self._take()
                if ok is not None:
                    break
                if progress is not None:
                    progress(value)
        except TimeoutError:
            self.end()
            raise OverrunError(f"cut off after {budget} s") from None
        except asyncio.CancelledError:  # its answer would be read as the next job's
            self.end()
            raise
        if not ok:
            raise value
        return value

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def end(self) -> None:
        """End the process now (its job, if any, is lost)."""
        self._unwatch()
        if self.process.poll() is None:
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        self.conn.close()
