"""Computer players decide fairly: Hard (and Normal looking ahead) in other processes, the
cheap levels on the event loop.

A ``Thinker`` has two lanes of worker processes (``spades.session.lanes``): Hard thinks in
the deep lane (the card hint too), Normal's look ahead and the bid suggestion (Hard's bid,
which the state of a turn to bid waits for, within Hard's time limit) in the quick lane, so
a cheap decision never waits behind an expensive one; Normal looks ahead only while the
quick lane has a process free and nothing waiting (``LOOKS_AHEAD``); inside a lane every
table's decisions queue apart and are served in turn; both lanes run at a lower CPU
priority than the server, whose loop serves every table. Every decision in a lane has a
budget: Hard plays to its ``time_limit`` (``HARD_TIME_LIMIT``), and a decision still
running ``GRACE`` seconds after its budget is cut off (its process ended) and replaced by a
legal move, logged.

The levels in ``INLINE`` (random, Easy, and Normal without the look ahead) decide on the
event loop: their heuristics cost less than handing a view to a process and its answer
back (bench/RESULTS.md, "The cheap levels on the event loop").

Hand reviews (``spades.session.reviewing``) think in a third lane of their own, one process
at the lowest CPU priority (``REVIEW_NICE``) with a budget of ``REVIEW_BUDGET`` seconds:
a review waits for the cores the tables leave free, and never holds up a computer player.
"""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Callable
from typing import Any

from spades.ai.advice import advise_bid, view_seed
from spades.ai.base import Player
from spades.ai.hard import HardPlayer
from spades.ai.lookahead import SEARCH
from spades.engine import Action, Bid, GameState, PlayerView

from .hinting import STOPPING, TOO_LONG, hint_job
from .lanes import Lane
from .refusal import Refusal
from .reviewing import review_job
from .workers import OverrunError, StoppingError, reporting

log = logging.getLogger("spades.session")

_PLAYERS: dict[str, Player] = {}
#: Every level a server offers (and ``random``, instant, for tests and benchmarks).
LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard")
#: Levels that decide on the event loop (Normal only when it does not look ahead): a
#: decision of theirs costs less than the hand-off to a worker process.
INLINE: frozenset[str] = frozenset({"random", "easy", "normal"})
#: Levels that think in the deep lane.
DEEP_LEVELS: frozenset[str] = frozenset({"hard"})
#: The deep lane's processes run at this lower CPU priority (``os.nice``): a Hard decision
#: is bounded by its time limit, so it thinks a little less when the cores are busy, while
#: the server and the quick lane never wait for it.
DEEP_NICE = 10
#: The quick lane's processes run at a lower CPU priority too: what thinks there (Normal's
#: look ahead, taken only while the lane is free, and the bid suggestion, a help within
#: Hard's time limit) must never slow the server's own loop, which serves every table.
QUICK_NICE = 10
#: Hard's time to think over one decision, in seconds (its ``time_limit``).
HARD_TIME_LIMIT = 1.0
#: A level's budget per decision, in seconds; a decision is cut off ``GRACE`` after it.
BUDGETS: dict[str, float] = {"hard": HARD_TIME_LIMIT}
DEFAULT_BUDGET = 2.0
GRACE = 1.5
#: The level that looks ahead (``spades.ai.lookahead``, ``search`` playouts a decision at
#: tables with partners) when its lane has a process free and no decision waiting: a server
#: with cores to spare plays the stronger Normal, a busy one the heuristics alone (0.1 ms a
#: decision against some 14), so that no table's turn queues behind the look ahead
#: (bench/RESULTS.md, "Normal looks ahead").
LOOKS_AHEAD = "normal"
#: The bid suggestion's budget: Hard's bid, so Hard's budget (it is a help: without it the
#: bid pad works the same).
SUGGEST_BUDGET = HARD_TIME_LIMIT + GRACE
#: A hand review's process runs at the lowest CPU priority: the computer players' processes
#: and the server take the cores first, the review the time they leave.
REVIEW_NICE = 19
#: A hand review is cut off after this many seconds: it estimates what it cannot solve
#: within its own budget (``spades.ai.review.REVIEW_SECONDS``), so only a machine far too
#: busy meets this one (docs/review.md).
REVIEW_BUDGET = 60.0


def player_for(level: str, ahead: bool = False) -> Player:
    """The computer player of ``level`` (one per process; with ``ahead``, Normal looking
    ahead); Hard keeps to its time limit."""
    key = f"{level}+ahead" if ahead else level
    player = _PLAYERS.get(key)
    if player is None:
        from spades.ai.levels import make_player

        options: dict[str, Any] = {"time_limit": HARD_TIME_LIMIT} if level == "hard" else {}
        if ahead:
            options["search"] = SEARCH
        player = make_player(level, **options)
        _PLAYERS[key] = player
    return player


def choose(level: str, view: PlayerView, seed: int,
           ahead: bool = False) -> tuple[Action, float]:
    """One decision and the seconds it took (runs in a worker process); ``ahead``: Normal
    looks ahead."""
    start = time.perf_counter()
    action = player_for(level, ahead).choose(view, random.Random(seed))
    return action, time.perf_counter() - start


def suggest(view: PlayerView) -> dict[str, Any] | None:
    """The bid suggestion for a person's view (runs in a worker process): the bid of this
    process's Hard player, with its time limit, seeded from the view (the same view, the
    same suggestion), explained by the hand's count (``spades.ai.advice``)."""
    player = player_for("hard")
    assert isinstance(player, HardPlayer)
    result = advise_bid(view, random.Random(view_seed(view)), player)
    bid = result.bid
    code = bid.code if isinstance(bid, Bid) else bid
    label = bid.label if isinstance(bid, Bid) else str(bid)
    return {"bid": code, "label": label[:1].upper() + label[1:],
            "reasons": [str(r) for r in result.reasons]}


def hint(view: PlayerView, seed: int) -> dict[str, Any]:
    """The card hint for a person's view (runs in a worker process): the card of this
    process's Hard player, with its time limit, and why."""
    player = player_for("hard")
    assert isinstance(player, HardPlayer)
    return hint_job(player, view, seed)


def warm() -> None:
    """Load every computer player in a new worker, before its first decision."""
    for level in LEVELS:
        player_for(level)
    player_for(LOOKS_AHEAD, ahead=True)


def budget_of(level: str) -> float:
    return BUDGETS.get(level, DEFAULT_BUDGET)


class Thinker:
    """Hard's and the look ahead's decisions in worker processes (``workers`` in all,
    default one per core, at least one per lane), the ``INLINE`` levels' here; everything
    inline when ``workers`` is 0 (tests); hand reviews in one more process, started by the
    first review (inline too when ``workers`` is 0)."""

    def __init__(self, workers: int | None = None, seed: int | None = None):
        self.workers = (os.cpu_count() or 1) if workers is None else workers
        deep = max(1, self.workers // 2)
        self.quick = Lane("quick", max(1, self.workers - deep), warm, QUICK_NICE)
        self.deep = Lane("deep", deep, warm, DEEP_NICE)
        #: hand reviews: one process, started by the first review
        self.reviews = Lane("review", 1, None, REVIEW_NICE, end_abandoned=True)
        self._closed = False
        #: decisions draw their random generators from here: secret unless seeded (tests)
        self._seeds: random.Random = (random.SystemRandom() if seed is None
                                      else random.Random(seed))

    def lane(self, level: str) -> Lane:
        return self.deep if level in DEEP_LEVELS else self.quick

    async def start(self) -> None:
        """Start the workers and load the computer players now (the ``INLINE`` ones here)."""
        for level in INLINE:
            player_for(level)
        if self.workers:
            self.quick.start()
            self.deep.start()

    async def _run(self, lane: Lane, table: str, budget: float | None, func: Any,
                   *args: Any) -> Any:
        if self._closed:
            raise StoppingError("the server is stopping: no new decisions")
        if not self.workers:
            return func(*args)
        return await lane.run(table, budget, func, *args)

    async def choose(self, level: str, view: PlayerView,
                     table: str = "") -> tuple[Action, float]:
        """One decision and its seconds; ``OverrunError`` when it is cut off. Normal looks
        ahead in a worker when its lane is idle (``LOOKS_AHEAD``); the ``INLINE`` levels
        decide here otherwise."""
        lane = self.lane(level)
        ahead = level == LOOKS_AHEAD and self.workers > 0 and lane.spare()
        if level in INLINE and not ahead:
            if self._closed:
                raise StoppingError("the server is stopping: no new decisions")
            return choose(level, view, self._seeds.getrandbits(64))
        result: tuple[Action, float] = await self._run(
            lane, table, budget_of(level) + GRACE, choose, level, view,
            self._seeds.getrandbits(64), ahead)
        return result

    async def decide(self, level: str, view: PlayerView, table: str = "") -> Action:
        """One decision, always legal: a decision cut off, failed or illegal is replaced
        by a legal move at random (logged). ``StoppingError`` when the server stops."""
        try:
            action, _seconds = await self.choose(level, view, table)
        except StoppingError:
            raise
        except OverrunError:
            log.warning("computer player %r overran its %.1f s at table %s: cut off",
                        level, budget_of(level), table)
            return self.fallback(view)
        except Exception:
            if self._closed:  # its process was stopped with the server
                raise StoppingError("the server is stopping: no new decisions") from None
            log.exception("computer player %r failed at table %s; playing at random",
                          level, table)
            return self.fallback(view)
        if action not in view.legal:
            log.error("computer player %r chose %s at table %s, which is not legal",
                      level, action, table)
            return self.fallback(view)
        return action

    async def review(self, state: GameState, hand: int, table: str,
                     progress: Callable[[int, int], None],
                     partial: Callable[[dict[str, Any]], None] | None = None,
                     seats: tuple[int, ...] | None = None) -> dict[str, Any]:
        """The review of finished hand ``hand`` as JSON, worked out in the review lane
        (``table``'s reviews queue apart from other tables'); ``progress(done, total)``
        as it goes, ``partial`` the review of the plays worked out so far. ``OverrunError``
        after ``REVIEW_BUDGET`` seconds; cancelled, its process is ended."""
        def told(value: Any) -> None:
            done, total, *rest = value
            if partial is not None and rest and rest[0] is not None:
                partial(rest[0])
            progress(int(done), int(total))

        if self._closed:
            raise StoppingError("the server is stopping: no new reviews")
        if not self.workers:
            with reporting(told):
                return review_job(state, hand, seats)
        result: dict[str, Any] = await self.reviews.run(
            table, REVIEW_BUDGET, review_job, state, hand, seats, progress=told)
        return result

    def fallback(self, view: PlayerView) -> Action:
        return random.Random(self._seeds.getrandbits(64)).choice(view.legal)

    async def suggest(self, view: PlayerView, table: str = "") -> dict[str, Any] | None:
        try:
            # the quick lane: the state of the person's turn to bid waits for it, and the
            # quick lane never waits behind other tables' Hard decisions
            result: dict[str, Any] | None = await self._run(
                self.quick, table, SUGGEST_BUDGET, suggest, view)
        except StoppingError:
            return None
        except Exception:  # a suggestion is a help, never a reason to fail
            log.exception("the bid suggestion failed")
            return None
        return result

    async def hint(self, view: PlayerView, table: str = "") -> dict[str, Any]:
        """The card hint for a person's turn to play, worked out in the deep lane within
        Hard's own budget (it is Hard's decision); ``Refusal("hint")`` when it is cut off
        or the server stops."""
        try:
            result: dict[str, Any] = await self._run(
                self.deep, table, budget_of("hard") + GRACE, hint, view,
                self._seeds.getrandbits(64))
        except StoppingError:
            raise Refusal("hint", STOPPING) from None
        except OverrunError:
            log.warning("a hint overran its %.1f s at table %s: cut off",
                        budget_of("hard"), table)
            raise Refusal("hint", TOO_LONG) from None
        return result

    def stopping(self) -> None:
        """The server is going down: no decision is started any more."""
        self._closed = True

    def close(self) -> None:
        """End the workers for good: a decision asked for afterwards raises
        ``StoppingError``."""
        self._closed = True
        self.quick.close()
        self.deep.close()
        self.reviews.close()


class InlineThinker:
    """Computer players that decide in this process, one ``Player`` per seat (the terminal,
    tests): the same ``decide`` as a ``Thinker``, an illegal choice replaced and logged."""

    def __init__(self, players: dict[int, Player], rng: random.Random):
        self.players = players
        self.rng = rng

    async def decide(self, level: str, view: PlayerView, table: str = "") -> Action:
        action = self.players[view.seat].choose(view, self.rng)
        if action not in view.legal:
            log.error("computer player at seat %d chose %s, which is not legal",
                      view.seat, action)
            return view.legal[0]
        return action
