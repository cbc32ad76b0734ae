"""One table: the game in play, its single writer, its version, and who watches it.

Every change (a person's intent, a computer player's decision, turning up one's cards: each
an engine action) happens under the table's lock, is checked by the engine, is saved (one
row, in the transaction that bumps the version) and only then is sent to the watchers. A
stale or duplicate intent is refused without harm.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from spades.engine import (
    BLIND_NIL,
    RECORD_FORMAT,
    Action,
    GameState,
    IllegalActionError,
    Look,
    Play,
    PlayerView,
    RecordError,
    Shuffle,
    action_to_json,
    apply,
    can_bid_blind_nil,
    load_record,
    parse_action,
    player_view,
)
from spades.store import OVER, ActionRow, GameRow, StaleVersionError, Store, StoredGame, StoreError

from .presets import table_json
from .thinking import Brain, StoppingError
from .wire import Json, Speaker, codes, events_for, legal_json, view_json

log = logging.getLogger("spades.server")
#: The shuffle version of games saved without one (Python's random, before
#: spades-shuffle/1).
LEGACY_SHUFFLE = 1
#: After the last card of a trick the next computer move waits this many paces.
TRICK_PAUSE = 2.0


class Refusal(Exception):
    """An intent refused; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


#: Messages a connection may have waiting to be sent; beyond this the client has fallen
#: behind: what waits is dropped and it gets the table as it is now instead.
QUEUE_LIMIT = 64
#: A client that has not taken one message in this many seconds is disconnected.
SEND_TIMEOUT = 30.0
#: Put in a queue instead of the messages dropped from it: send a fresh state.
FRESH: Json = {"type": "fresh"}


class Connection:
    """One websocket watching a table for a seat; messages go out in order through a
    bounded queue, so that a slow browser never holds the table nor grows the server.

    ``refresh`` makes the state message that replaces the messages of a client that fell
    behind; ``hang_up`` closes the socket of a client that stopped reading."""

    def __init__(self, seat: int, send_text: Callable[[str], Awaitable[Any]],
                 refresh: Callable[[], Awaitable[Json]] | None = None,
                 hang_up: Callable[[], Awaitable[Any]] | None = None,
                 limit: int = QUEUE_LIMIT, timeout: float = SEND_TIMEOUT):
        self.seat = seat
        self._send_text = send_text
        self._refresh = refresh
        self._hang_up = hang_up
        self.limit = limit
        self.timeout = timeout
        self.queue: asyncio.Queue[Json | None] = asyncio.Queue()
        #: how many times the client fell behind and its messages were dropped
        self.dropped = 0
        self.closed = False
        self._fresh_waiting = False

    def send(self, message: Json) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.limit:
            while not self.queue.empty():
                self.queue.get_nowait()
            self._fresh_waiting = False
            self.dropped += 1
            if self._refresh is None:  # nothing to catch up with: hang up
                self.close()
                return
            message = FRESH
        if message is FRESH:
            if self._fresh_waiting or self._refresh is None:
                return  # one fresh state already waits: it will do for both
            self._fresh_waiting = True
        self.queue.put_nowait(message)

    def send_fresh(self) -> None:
        """Send the table as it is when the client reads it (made only then: asking again
        and again while not reading costs nothing)."""
        self.send(FRESH)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def pump(self, dumps: Callable[[Json], str]) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            try:
                if message is FRESH:
                    self._fresh_waiting = False
                    assert self._refresh is not None
                    message = await self._refresh()
                async with asyncio.timeout(self.timeout):  # no task per message
                    await self._send_text(dumps(message))
            except TimeoutError:
                log.warning("a client of seat %d took nothing for %.0f s: disconnected",
                            self.seat, self.timeout)
                break
            except Exception:  # the browser went away, or the state could not be made
                break
        self.closed = True
        if self._hang_up is not None:
            with contextlib.suppress(Exception):
                await self._hang_up()


def unsaved(error: StoreError) -> Refusal:
    """The refusal of a change that could not be saved, with its cause when known."""
    if error.reason:
        return Refusal("server", f"the table could not be saved: {error.reason}; nothing "
                       "changed")
    return Refusal("server", "the table could not be saved; nothing changed: try again")


def progress(state: GameState) -> Json:
    """The game's standing, kept with the game row for the list of games."""
    return {"hands": len(state.results), "scores": list(state.scores),
            "winner": state.winner, "over": state.over}


def state_from_store(stored: StoredGame) -> GameState:
    """Replay the stored record through the engine; the secret seed deals later hands.

    Looks are actions now; a game saved before kept them in the ``looks`` table: each such
    look of the hand in play whose seat has not acted on its cards since is replayed at the
    end (a look in an earlier hand, or followed by the seat's bid or draw, is inferred by
    the engine where the seat acted on its cards), so the game resumes the same."""
    game = stored.game
    actions: list[list[dict[str, Any]]] = [[] for _ in stored.decks]
    for row in stored.actions:
        if not 0 <= row.hand < len(actions):
            raise StoreError(f"game {game.id!r}: action {row.seq} is for a hand with no deck")
        actions[row.hand].append(row.action)
    hands = [{"deck": list(deck), "actions": acts}
             for deck, acts in zip(stored.decks, actions, strict=True)]
    record = {"format": RECORD_FORMAT, "rules": game.rules, "first_dealer": game.first_dealer,
              "hands": hands}
    try:
        # games saved before spades-shuffle/1 say no shuffle: they keep the old one
        shuffle = Shuffle(version=game.options.get("shuffle", LEGACY_SHUFFLE))
        state = load_record(record, seed=game.seed, shuffle=shuffle)
    except RecordError as error:
        raise StoreError(f"game {game.id!r} does not replay: {error}") from error
    for hand, seat in sorted(stored.looks):
        if hand == state.hand.number and can_bid_blind_nil(state, seat):
            state = apply(state, Look(seat))
    return state


def computer_view(view: PlayerView) -> PlayerView:
    """Computer players never bid blind nil (seed 004)."""
    if BLIND_NIL not in view.legal:
        return view
    return dataclasses.replace(view, legal=tuple(a for a in view.legal if a != BLIND_NIL),
                               blind_nil_open=False)


class Table:
    def __init__(self, stored: StoredGame, state: GameState, store: Store, brain: Brain,
                 pace: float):
        self.row: GameRow = stored.game
        self.id = self.row.id
        self.state = state
        self.version = self.row.version
        self.step = len(stored.actions)
        self.store = store
        self.brain = brain
        self.pace = pace
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.thinking: int | None = None
        self.last_change = 0.0
        self.next_pause = 0.0
        self._task: asyncio.Task[None] | None = None
        self._suggestions: dict[tuple[int, int], Json | None] = {}
        self.names = tuple(s.name for s in self.row.seats)
        self.meta = self._meta()

    # ------------------------------------------------------------------ who is who

    def seat_of(self, player_id: str) -> int | None:
        for s in self.row.seats:
            if s.kind == "human" and s.player_id == player_id:
                return s.seat
        return None

    def is_computer(self, seat: int) -> bool:
        return self.row.seats[seat].kind == "computer"

    def _meta(self) -> Json:
        rules = self.state.rules
        opts = self.row.options
        return {
            "id": self.id, "preset": opts.get("preset", rules.name),
            "label": opts.get("label", rules.name), "level": opts.get("level"),
            "players": list(self.names),
            "sides": [list(side) for side in rules.sides], "table": table_json(rules),
            "side_names": [" and ".join(self.names[s] for s in side) for side in rules.sides],
            "rules": {"preset": rules.name, **rules.options()},
            "house_rules": opts.get("house_rules", {}),
        }

    def speaker(self, seat: int) -> Speaker:
        return Speaker(self.names, seat, self.state.rules.sides)

    # ------------------------------------------------------------------ messages

    async def state_message(self, seat: int, events: list[Json]) -> Json:
        view = player_view(self.state, seat)
        legal = legal_json(view)
        suggestion = None
        if legal is not None and legal["kind"] == "bid":
            key = (self.version, seat)
            if key not in self._suggestions:
                self._suggestions = {key: await self.brain.suggest(view)}
            suggestion = self._suggestions[key]
        thinking = None
        if self.thinking is not None:
            thinking = {"seat": self.thinking, "name": self.names[self.thinking]}
        # the seat of the socket's player, never assumed to be seat 0
        game = {**self.meta, "you": seat, "partner": self.state.rules.partner_of[seat]}
        return {"type": "state", "version": self.version, "step": self.step,
                "game": game, "view": view_json(view), "legal": legal,
                "suggestion": suggestion, "thinking": thinking, "events": events}

    async def _broadcast(self, events: Callable[[int], list[Json]]) -> None:
        messages: dict[int, Json] = {}
        for conn in list(self.connections):
            if conn.seat not in messages:
                messages[conn.seat] = await self.state_message(conn.seat, events(conn.seat))
            conn.send(messages[conn.seat])

    async def join(self, conn: Connection) -> None:
        async with self.lock:
            self.connections.add(conn)
            conn.send(await self.state_message(conn.seat, []))
        self.kick()

    def leave(self, conn: Connection) -> None:
        self.connections.discard(conn)

    @property
    def idle(self) -> bool:
        return (not self.connections and not self.lock.locked()
                and (self._task is None or self._task.done()))

    # ------------------------------------------------------------------ changes

    async def act(self, seat: int, version: int, data: dict[str, Any]) -> None:
        """A person's intent, made from ``version``."""
        data = {k: v for k, v in data.items() if k != "label"}
        async with self.lock:
            if version != self.version:
                raise Refusal("stale", "that was made from an older view of the table "
                              f"(version {version}; the table is at {self.version})")
            if "look" in data:  # any seat may look, in turn or not
                if data != {"look": True}:
                    raise Refusal("bad-message", 'to turn up your cards send {"look": true}')
                if self.state.over or not can_bid_blind_nil(self.state, seat):
                    raise Refusal("illegal", "your cards are already face up")
                await self._commit(seat, Look(seat))
                return
            if self.state.over:
                raise Refusal("illegal", "the game is over")
            turn = self.state.turn
            if turn != seat:
                who = self.names[turn] if turn is not None else "nobody"
                busy = " (thinking)" if self.thinking == turn else ""
                raise Refusal("not-your-turn", f"it is {who}'s turn{busy}, not yours")
            if "seat" in data:
                raise Refusal("bad-message", 'an action has no "seat": you act for your own')
            try:
                _, action = parse_action({**data, "seat": seat}, self.state.rules)
            except ValueError as error:
                raise Refusal("bad-message", str(error)) from None
            await self._commit(seat, action)
        self.kick()

    async def _commit(self, seat: int, action: Action) -> None:
        """Apply, save, then tell the watchers. Call with the lock held."""
        before = self.state
        try:
            after = apply(before, action)
        except IllegalActionError as error:
            raise Refusal("illegal", str(error)) from None
        step = self.step + 1
        row = ActionRow(seq=step, hand=before.hand.number, seat=seat,
                        action=action_to_json(seat, action))
        deck = None
        if not after.over and after.hand.number != before.hand.number:
            deck = (after.hand.number, codes(after.hand.deck))
        finished = len(after.results) > len(before.results)
        try:
            version = await asyncio.to_thread(
                self.store.append_action, self.id, self.version, row, deck=deck,
                status=OVER if after.over else None,
                result=progress(after) if finished else None)
        except StaleVersionError:
            await self._reload()
            raise Refusal("stale", "the table changed meanwhile") from None
        except StoreError as error:
            log.exception("could not save an action of game %s", self.id)
            raise unsaved(error) from None
        self.state, self.version, self.step = after, version, step
        self.last_change = asyncio.get_running_loop().time()
        # a finished trick stays in view a little longer before the next lead
        ends_trick = isinstance(action, Play) and not after.hand.trick
        self.next_pause = self.pace * (TRICK_PAUSE if ends_trick else 1.0)
        await self._broadcast(
            lambda viewer: events_for(before, after, step, self.speaker(viewer)))

    async def _reload(self) -> None:
        """Someone else wrote this game: take the stored truth."""
        stored = await asyncio.to_thread(self.store.load_game, self.id)
        if stored is None:
            raise StoreError(f"game {self.id!r} is gone")
        self.state = state_from_store(stored)
        self.version = stored.game.version
        self.step = len(stored.actions)

    # ------------------------------------------------------------------ computer players

    def _computer_turn(self) -> int | None:
        turn = self.state.turn
        if turn is None or not self.is_computer(turn):
            return None
        return turn

    def kick(self) -> None:
        """Let the computer players play until a person must act."""
        if (self._task is None or self._task.done()) and self._computer_turn() is not None:
            self._task = asyncio.create_task(self._advance(), name=f"table {self.id}")

    async def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _advance(self) -> None:
        loop = asyncio.get_running_loop()
        failures = 0
        while True:
            async with self.lock:
                seat = self._computer_turn()
                if seat is None:
                    return
                level = self.row.seats[seat].level or "random"
                view = computer_view(player_view(self.state, seat))
                # computer players never bid blind nil: they look at their cards first
                face_down = can_bid_blind_nil(self.state, seat)
                version = self.version
                self.thinking = seat
                thinking = {"type": "thinking", "version": version, "seat": seat,
                            "name": self.names[seat]}
                for conn in list(self.connections):
                    conn.send(thinking)
            action: Action = Look(seat)
            if not face_down:
                try:
                    action, _seconds = await self.brain.choose(level, view)
                except StoppingError:  # the server is going down: the turn waits for it
                    return
                except Exception:
                    log.exception("computer player %r failed at game %s; playing at random",
                                  level, self.id)
                    action = random.choice(view.legal)
            delay = self.last_change + self.next_pause - loop.time()
            if delay > 0 and not face_down:
                await asyncio.sleep(delay)
            async with self.lock:
                if self.version != version:
                    continue
                self.thinking = None
                try:
                    try:
                        await self._commit(seat, action)
                    except Refusal as refusal:
                        if refusal.code != "illegal":
                            raise
                        log.error("computer player %r chose %s at game %s: %s",
                                  level, action, self.id, refusal.message)
                        await self._commit(seat, view.legal[0])
                    failures = 0
                except Refusal as refusal:  # could not save: wait and try again
                    failures += 1
                    log.error("game %s: %s", self.id, refusal.message)
            if failures:
                await asyncio.sleep(min(30.0, 0.5 * 2 ** failures))
