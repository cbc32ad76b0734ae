"""One game's session: the only turn loop in the code base.

A ``Session`` is the single writer of one game, with any mix of people and computer players
at any seats. Every change (a person's intent, a computer player's decision, turning up
one's cards) happens under the session's lock, is checked by the engine, is kept by the
``Saver`` (the record is the save) and only then is told to the listeners (the transports),
as a ``Change`` from which each renders what its seat learns (``Change.update(seat)``,
made once per change and seat by the engine's observation layer).
Computer players think through a ``Thinker`` without the lock held; the session paces them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from spades.engine import (
    BLIND_NIL,
    NO_SEAT,
    Action,
    Card,
    GameState,
    IllegalActionError,
    Look,
    Play,
    PlayerView,
    Rules,
    SeatUpdate,
    add_entropy,
    apply,
    can_bid_blind_nil,
    mark_practice,
    parse_action,
    player_view,
    public_view,
    seat_record,
    seat_update,
    shuffle_news,
    undo,
    undo_blocker,
)
from spades.store import ActionRow, SeatRow, StaleVersionError, StoreError

from .entropy import checked_value, target_hand
from .following import Followed, FollowError, replay_row
from .memo import Memo
from .narration import Narrated, narrate, told
from .refusal import Refusal
from .saving import Missed, Saver, action_row
from .seating import COMPUTER
from .workers import StoppingError

log = logging.getLogger("spades.session")
#: After the last card of a trick the next computer move waits this many paces.
TRICK_PAUSE = 2.0
#: A person's decision for a seat (a transport that asks, such as the terminal).
Decide = Callable[[PlayerView], Awaitable[Action]]


class Thinking(Protocol):
    async def decide(self, level: str, view: PlayerView, table: str = "") -> Action: ...


def _kept(owner: object, slot: str) -> Any:
    """The per-seat cache in ``owner``'s ``slot`` (a frozen value's: set once, the value
    stays the same), made empty on first use: a value kept long, in a hub's log, holds no
    empty dict."""
    cache = getattr(owner, slot)
    if cache is None:
        cache = {}
        object.__setattr__(owner, slot, cache)
    return cache


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The game at one version: what every message about it is made from.

    Outside the session it is read only through the engine's projections, each made once
    however many messages need it (``view``: a seat's view, ``NO_SEAT`` the spectators';
    ``shuffle_news``; ``record``: a seat's download) and the public facts (``rules``,
    ``turn``, ``over``, ``hands_done``, ``finished_deck``): never through ``state``."""

    state: GameState
    version: int
    step: int
    thinking: int | None = None
    #: the views made so far, by seat (``NO_SEAT``: the spectators'); None until the first
    #: (a snapshot kept long, in a hub's log, holds no empty dict)
    _views: dict[int, PlayerView] | None = field(default=None, init=False, compare=False,
                                                 repr=False)
    #: the shuffles' news, once made (the same for every seat)
    _news: dict[str, Any] | None = field(default=None, init=False, compare=False, repr=False)
    #: what the game's snapshots share (the hands' secrets, the score sheet): the
    #: session's own, never sent; None: each snapshot makes its own
    memo: Memo | None = field(default=None, compare=False, repr=False)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` sees (``NO_SEAT``: a spectator), made once."""
        views: dict[int, PlayerView] = _kept(self, "_views")
        made = views.get(seat)
        if made is None:
            sheet = None if self.memo is None else self.memo.sheet_of(self.state)
            made = views[seat] = (public_view(self.state, sheet) if seat == NO_SEAT
                                  else player_view(self.state, seat, sheet))
        return made

    def shuffle_news(self) -> dict[str, Any]:
        """What every seat may know of the shuffles (``engine.shuffle_news``), made once."""
        news = self._news
        if news is None:
            news = (shuffle_news(self.state) if self.memo is None
                    else self.memo.news_of(self.state))
            object.__setattr__(self, "_news", news)
        return news

    def record(self, seat: int, players: tuple[str, ...],
               levels: tuple[str | None, ...] | None = None) -> dict[str, Any]:
        """The record ``seat`` may download now (``engine.seat_record``)."""
        return seat_record(self.state, seat, list(players), levels)

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def turn(self) -> int | None:
        return self.state.turn

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def hands_done(self) -> int:
        """The hands finished so far."""
        return len(self.state.results)

    @property
    def finished_deck(self) -> tuple[int, tuple[Card, ...]] | None:
        """The last finished hand (from 0) and its deck (open now: the hand is over); None
        before the first hand ends."""
        if not self.state.results:
            return None
        last = self.state.results[-1]
        return last.number, last.deck


@dataclass(frozen=True, slots=True)
class Change:
    """One accepted change: the state before, the snapshot after, who did what (``action``
    None: the seat added entropy to a shuffle, and nothing happened at the table).

    Each seat's update (its view after, the events it learned) is made once, by the
    engine's ``seat_update``, for the seats asked for: the transports only render it."""

    before: GameState
    after: Snapshot
    seat: int
    action: Action | None
    #: the computer player made this action for a person who is away (or out of time)
    stand_in: bool = False
    #: the seat took back its last card or bid and what followed (``action`` is None)
    undone: bool = False
    #: another server process made it; this one read it from the store (``Session.follow``)
    followed: bool = False
    #: the table was read whole from the store (its rows did not replay): ``before`` is
    #: the table now, and the transports send it as it is
    whole: bool = False
    #: the number of the store's row of a card or bid made here (``row``)
    seq: int | None = None
    #: the updates made so far, by seat (``NO_SEAT``: the spectators'); None until the first
    _updates: dict[int, SeatUpdate] | None = field(default=None, init=False, compare=False,
                                                   repr=False)

    def update(self, seat: int) -> SeatUpdate:
        """``seat``'s update (``NO_SEAT``: the spectators'), made once; its view is the
        snapshot's (``Snapshot.view``)."""
        updates: dict[int, SeatUpdate] = _kept(self, "_updates")
        made = updates.get(seat)
        if made is None:
            made = updates[seat] = seat_update(self.before, self.after.state, seat,
                                               self.after.view(seat))
        return made

    def events(self, seat: int) -> list[Narrated]:
        """What ``seat`` learns from this change (nothing it may not see): its update's
        events if made, else the events alone (no view made for a seat nobody shows)."""
        made = None if self._updates is None else self._updates.get(seat)
        if made is None:
            return narrate(self.before, self.after.state, seat)
        return told(made.events, self.after.state)

    def bare(self) -> Change:
        """The same change without the projections made so far, to be kept long (a hub's
        log: each view is some 4 KB; the events are made again if asked for)."""
        a = self.after  # field by field: dataclasses.replace is slow (every change is kept)
        return Change(self.before, Snapshot(a.state, a.version, a.step, a.thinking, a.memo),
                      self.seat, self.action, self.stand_in, self.undone, self.followed,
                      self.whole, self.seq)

    def row(self) -> ActionRow | None:
        """The store's row of a card or bid made here (what other processes are told),
        made only when asked: one process alone never needs it."""
        if self.seq is None or self.action is None:
            return None
        return action_row(self.seq, self.before, self.seat, self.action)

    @property
    def ends_game(self) -> bool:
        """The game was in play before this change and is over after it."""
        return self.after.over and not self.before.over


def can_undo(session: Session, snapshot: Snapshot, seat: int) -> bool:
    """Whether the person at ``seat`` may take back their last card or bid at
    ``snapshot`` (``Session.undo_refusal``)."""
    return session.undo_refusal(seat, snapshot.state) is None


class Listener(Protocol):
    def changed(self, change: Change) -> None: ...

    def thinking(self, seat: int, snapshot: Snapshot) -> None: ...


def computer_view(view: PlayerView) -> PlayerView:
    """Computer players never bid blind nil (seed 004)."""
    if BLIND_NIL not in view.legal:
        return view
    return dataclasses.replace(view, legal=tuple(a for a in view.legal if a != BLIND_NIL),
                               blind_nil_open=False)


class Session:
    def __init__(self, game_id: str, seats: tuple[SeatRow, ...], state: GameState, *,
                 saver: Saver, thinker: Thinking, version: int = 0, step: int = 0,
                 pace: float = 0.0, rows: int | None = None,
                 given: frozenset[tuple[int, int]] = frozenset()):
        self.id = game_id
        self.seats = seats
        self.names = tuple(s.name for s in seats)
        self.state = state
        self.version = version
        #: the version after the last game action: an intent made from it or later is
        #: current (a contribution of entropy since changes nothing at the table)
        self.acted = version
        #: the game's actions so far (the protocol's ``step``)
        self.step = step
        #: the rows kept: the actions and the people's contributions of entropy
        self.rows = step if rows is None else rows
        #: (hand, seat): who added entropy to which hand's shuffle
        self.given = given
        self.saver = saver
        self.thinker = thinker
        self.pace = pace
        self.lock = asyncio.Lock()
        self.listeners: list[Listener] = []
        self.thinking: int | None = None
        self.last_change = 0.0
        self.next_pause = 0.0
        self.failures = 0
        #: whether the computer players' last change was refused as stale (another
        #: process kept one first): the turn is played again at once, a second time waits
        self.raced = False
        self._task: asyncio.Task[GameState] | None = None
        #: people's seats the computer player plays while they are away, and seats it
        #: plays for one decision (a turn timer ran out), at ``stand_in_level``
        self.absent: set[int] = set()
        self.once: set[int] = set()
        self.stand_in_level = "normal"
        #: a table with friends (the server says so): never an undo there
        self.friends = False
        #: whether this process runs the computer players' turns (with several server
        #: processes, only the one holding the table's lease does; the others follow)
        self.leading = True
        #: what the game's snapshots share from one change to the next
        self.memo = Memo()

    # ------------------------------------------------------------------ who is who

    def seat_of(self, player_id: str) -> int | None:
        """The seat of a person, or None if they do not sit here."""
        for s in self.seats:
            if s.kind != COMPUTER and s.player_id == player_id:
                return s.seat
        return None

    def is_computer(self, seat: int) -> bool:
        """Whether the computer player decides for ``seat`` now: its own seat, or a person's
        who is away or out of time."""
        return self.seats[seat].kind == COMPUTER or seat in self.absent or seat in self.once

    def stands_in(self, seat: int) -> bool:
        """Whether the computer player decides for a person at ``seat`` now."""
        return self.seats[seat].kind != COMPUTER and (seat in self.absent or seat in self.once)

    def stand_in(self, seat: int, away: bool) -> None:
        """The person at ``seat`` is away (the computer player plays their turns from now)
        or back (they decide again from their next decision)."""
        if away:
            self.absent.add(seat)
            self.kick()
        else:
            self.absent.discard(seat)
            self.once.discard(seat)

    def play_once(self, seat: int, version: int) -> None:
        """The person at ``seat`` ran out of time for the decision asked at ``version``:
        the computer player makes that one."""
        if self.version == version and self.state.turn == seat and not self.state.over:
            self.once.add(seat)
            self.kick()

    def reseat(self, seats: tuple[SeatRow, ...]) -> None:
        """Someone else sits in a seat now (the store has it already)."""
        self.seats = seats
        self.names = tuple(s.name for s in seats)

    @property
    def snapshot(self) -> Snapshot:
        return Snapshot(self.state, self.version, self.step, self.thinking, self.memo)

    def listen(self, listener: Listener) -> None:
        self.listeners.append(listener)

    # ------------------------------------------------------------------ people

    async def act(self, seat: int, version: int, data: Mapping[str, Any]) -> None:
        """A person's intent in the record format without ``seat``, made from ``version``
        (or ``{"undo": true}``); ``Refusal`` says why it is refused (then nothing changed)."""
        data = {k: v for k, v in data.items() if k != "label"}
        if "undo" in data:
            if data != {"undo": True} or version > self.version:
                raise Refusal("bad-message", 'to take back your last card or bid send '
                              '{"undo": true}')
            await self.undo(seat)
            return
        async with self.lock:
            if not self.acted <= version <= self.version:
                raise Refusal("stale", "the table had moved on; here it is now")
            await self._commit(seat, self._intent(seat, data))
        self.kick()

    async def contribute(self, seat: int, hand: Any, value: Any) -> None:
        """A person's entropy ``value`` for the shuffle of ``hand`` (from 0; docs/shuffle.md):
        mixed into the next hand's shuffle (the hand asked for, or the one after it if that
        was dealt meanwhile), saved, then told. ``Refusal`` says why not (nothing changed)."""
        if self.seats[seat].kind == COMPUTER:
            raise Refusal("illegal", "only people add to the shuffle")
        value = checked_value(value)
        async with self.lock:
            before = self.state
            target = target_hand(before, hand, seat, self.given)
            after = add_entropy(before, target, (*before.shuffle.entropy_of(target), value))
            try:
                version = await self.saver.save_entropy(self.version, self.rows + 1, before,
                                                        seat, target, value)
            except StaleVersionError:
                await self._catch_up()
                raise Refusal("stale", "the table changed meanwhile") from None
            self.state, self.version, self.rows = after, version, self.rows + 1
            self.given = self.given | {(target, seat)}
            change = Change(before, self.snapshot, seat, None)
            for listener in list(self.listeners):
                listener.changed(change)

    # ------------------------------------------------------------------ practice

    def undo_refusal(self, seat: int, state: GameState | None = None) -> str | None:
        """Why the person at ``seat`` may not undo in ``state`` (default: now), in their
        words; None when they may: the house rule is on, every other seat is a computer
        player's (from the start: never at a table with friends, never for a person away),
        and the hand in play holds a card or bid of theirs."""
        state = self.state if state is None else state
        if not state.rules.undo:
            return undo_blocker(state, seat)
        if self.friends or self.seats[seat].kind == COMPUTER or any(
                s.kind != COMPUTER for s in self.seats if s.seat != seat):
            return "undo is only for a person playing against computer players"
        return undo_blocker(state, seat)

    async def undo(self, seat: int) -> None:
        """Take back the last card or bid of the person at ``seat`` and everything after it
        (a new row of the record: nothing kept is removed); ``Refusal`` says why not."""
        async with self.lock:
            reason = self.undo_refusal(seat)
            if reason is not None:
                raise Refusal("illegal", reason)
            before = self.state
            after = undo(before, seat)
            try:
                version = await self.saver.save_undo(self.version, self.rows + 1, before,
                                                     after, seat)
            except StaleVersionError:
                await self._catch_up()
                raise Refusal("stale", "the table changed meanwhile") from None
            # a computer player thinking now decides for a table that is no more
            self.state, self.version, self.acted, self.thinking = after, version, version, None
            self.step, self.rows = self.step + 1, self.rows + 1
            self.last_change = asyncio.get_running_loop().time()
            change = Change(before, self.snapshot, seat, None, undone=True)
            for listener in list(self.listeners):
                listener.changed(change)
        self.kick()

    async def mark_practice(self, reason: str, seat: int = 0) -> None:
        """Mark the game practice for ``reason`` (``spades.engine.PRACTICE_REASONS``, such
        as "hint" when a person asked for a hint), kept as a row and in the record; its
        statistics then count apart. Marking it again for the same reason changes nothing."""
        async with self.lock:
            if reason in self.state.marks:
                return
            try:
                after = mark_practice(self.state, reason)
            except ValueError as error:
                raise Refusal("bad-message", str(error)) from None
            try:
                version = await self.saver.save_mark(self.version, self.rows + 1, after,
                                                     seat, reason)
            except StaleVersionError:
                await self._catch_up()
                raise Refusal("stale", "the table changed meanwhile") from None
            self.state, self.version, self.rows = after, version, self.rows + 1

    def _intent(self, seat: int, data: dict[str, Any]) -> Action:
        """The action a person's intent asks for, checked for its shape and its turn."""
        if "look" in data:  # any seat may look, in turn or not
            if data != {"look": True}:
                raise Refusal("bad-message", 'to turn up your cards send {"look": true}')
            if self.state.over or not can_bid_blind_nil(self.state, seat):
                raise Refusal("illegal", "your cards are already face up")
            return Look(seat)
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
        return action

    async def _commit(self, seat: int, action: Action, stand_in: bool = False) -> None:
        """Apply, save, then tell the listeners. Call with the lock held."""
        before = self.state
        try:
            after = apply(before, action)
        except IllegalActionError as error:
            raise Refusal("illegal", str(error)) from None
        try:
            version = await self.saver.save(self.version, self.rows + 1, before, after, seat,
                                            action, self.step + 1 if stand_in else None)
        except StaleVersionError:
            await self._catch_up()
            raise Refusal("stale", "the table changed meanwhile") from None
        self.state, self.version, self.acted = after, version, version
        self.step, self.rows = self.step + 1, self.rows + 1
        self.last_change = asyncio.get_running_loop().time()
        # a finished trick stays in view a little longer before the next lead
        ends_trick = isinstance(action, Play) and not after.hand.trick
        self.next_pause = self.pace * (TRICK_PAUSE if ends_trick else 1.0)
        change = Change(before, self.snapshot, seat, action, stand_in, seq=self.rows)
        for listener in list(self.listeners):
            listener.changed(change)

    async def _reload(self) -> None:
        """Take the stored truth after another writer changed the game."""
        self.state, self.version, self.step, self.rows = await self.saver.reload()
        self.acted = self.version

    # ------------------------------------------------------------------ another writer

    async def follow(self, told: Missed | None = None) -> bool:
        """Catch up with what another server process kept since this session's last row,
        telling the listeners each change as it was made; then play on if this process
        leads. False when nothing had changed. ``told``: the rows that process said it
        kept (its wake-up), taken as they are when they follow this session's last row and
        account for every version since, else the store is read."""
        async with self.lock:
            moved = await self._catch_up(told)
        if moved:
            self.kick()
        return moved

    def _follows(self, told: Missed | None) -> bool:
        """Do ``told``'s rows come right after this session's, one version each?"""
        return (told is not None and bool(told.rows) and told.rows[0].seq == self.rows + 1
                and told.version == self.version + len(told.rows)
                and all(row.seq == told.rows[0].seq + i for i, row in enumerate(told.rows)))

    async def _catch_up(self, told: Missed | None = None) -> bool:
        """``follow`` with the lock held: each stored row after ours (or ``told``'s),
        replayed; when the rows do not replay (or the versions disagree) the stored game is
        taken whole and the listeners are told the table as it is now."""
        # a table for friends: also which of those actions a computer player made for an
        # absent person (each mark kept with its action)
        found = told if self._follows(told) else await self.saver.rows_after(
            self.rows, self.step if self.friends else None)
        if found is None:
            return False
        version, rows, marks = found
        if version <= self.version:
            return False
        try:
            for row in rows:
                self._followed(replay_row(self.state, row), marks)
        except FollowError as error:
            log.warning("game %s: %s; reading it whole", self.id, error)
        # the version is read before the rows, each statement on its own: a row kept in
        # between is among the rows, so only fewer rows than versions say one is missing
        if self.version < version:
            log.warning("game %s: the store is at version %d, its rows made it %d here; "
                        "reading it whole", self.id, version, self.version)
            await self._reload()
            self.thinking = None
            change = Change(self.state, self.snapshot, 0, None, followed=True, whole=True)
            for listener in list(self.listeners):
                listener.changed(change)
        return True

    def heard_thinking(self, seat: int, version: int) -> None:
        """The leading process says the computer player at ``seat`` is thinking about the
        table at ``version``: tell it here too (if this session is there)."""
        if self.version == version and not self.leading and self.state.turn == seat:
            self.thinking = seat
            for listener in list(self.listeners):
                listener.thinking(seat, self.snapshot)

    def _followed(self, done: Followed, marks: frozenset[int] = frozenset()) -> None:
        """Take one change another process made, and tell it (``marks``: the steps a
        computer player made for an absent person)."""
        before = self.state
        self.state, self.version, self.rows = done.after, self.version + 1, self.rows + 1
        if done.entropy is not None:
            self.given = self.given | {done.entropy}
        if done.acts:
            self.step, self.acted, self.thinking = self.step + 1, self.version, None
            self.last_change = asyncio.get_running_loop().time()
        if done.mark:
            return
        stand_in = done.action is not None and self.step in marks
        change = Change(before, self.snapshot, done.seat, done.action, stand_in,
                        undone=done.undone, followed=True)
        for listener in list(self.listeners):
            listener.changed(change)

    # ------------------------------------------------------------------ the turn loop

    async def run(self, people: Mapping[int, Decide] | None = None) -> GameState:
        """Play until the game is over or a person who decides through ``act`` must act;
        ``people`` decides for the seats of a transport that asks (the terminal)."""
        people = people or {}
        while not self.state.over and self.leading:
            seat = self.state.turn
            assert seat is not None
            if self.is_computer(seat):
                if not await self._computer_turn(seat):
                    break
            elif seat in people:
                await self._person_turn(seat, people[seat])
            else:
                break
        return self.state

    async def _person_turn(self, seat: int, decide: Decide) -> None:
        action = await decide(player_view(self.state, seat))
        async with self.lock:
            await self._commit(seat, action)

    def kick(self) -> None:
        """Let the computer players play until a person must act."""
        if self.leading and (self._task is None or self._task.done()):
            turn = self.state.turn
            if turn is not None and self.is_computer(turn):
                self._task = asyncio.create_task(self.run(), name=f"session {self.id}")

    async def settle(self) -> None:
        """Wait for the computer player's turn under way, if any, to end (its change kept
        and told); with ``leading`` false, no other starts after it."""
        if self._task is not None and not self._task.done():
            await asyncio.wait([self._task])

    async def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @property
    def idle(self) -> bool:
        return (not self.lock.locked() and (self._task is None or self._task.done()))

    async def _computer_turn(self, seat: int) -> bool:
        """One computer decision, paced; False when the thinking has stopped."""
        async with self.lock:
            if self.state.turn != seat or not self.is_computer(seat):
                return True  # moved on while the lock was awaited (caught up, a timer)
            # the game's score sheet as the session keeps it: not made again for each turn
            view = computer_view(player_view(self.state, seat, self.memo.sheet_of(self.state)))
            # computer players never bid blind nil: they look at their cards first
            face_down = can_bid_blind_nil(self.state, seat)
            version = self.version
            stand_in = self.stands_in(seat)
            self.thinking = seat
            for listener in list(self.listeners):
                listener.thinking(seat, self.snapshot)
        action: Action = Look(seat)
        if not face_down:
            try:
                level = (self.stand_in_level if stand_in
                         else self.seats[seat].level or "random")
                action = await self.thinker.decide(level, view, self.id)
            except StoppingError:  # the server is going down: the turn waits for it
                return False
            await self._pause()
        async with self.lock:
            if self.acted <= version:  # no game action since (entropy changes no view)
                self.thinking = None
                await self._commit_computer(seat, action, view, stand_in)
        if self.failures:
            await asyncio.sleep(min(30.0, 0.5 * 2 ** self.failures))
        return True

    async def _pause(self) -> None:
        delay = self.last_change + self.next_pause - asyncio.get_running_loop().time()
        if delay > 0:
            await asyncio.sleep(delay)

    async def _commit_computer(self, seat: int, action: Action, view: PlayerView,
                               stand_in: bool = False) -> None:
        try:
            try:
                await self._commit(seat, action, stand_in)
            except Refusal as refusal:
                if refusal.code != "illegal":
                    raise
                log.error("computer player at seat %d chose %s at game %s: %s",
                          seat, action, self.id, refusal.message)
                await self._commit(seat, view.legal[0], stand_in)
            self.failures, self.raced = 0, False
            self.once.discard(seat)
        except (Refusal, StoreError) as error:  # could not save: wait and try again
            if isinstance(error, Refusal) and error.code == "stale" and not self.raced:
                # another process kept a change first (a person's there while this one
                # thought) and ``_commit`` followed it: the turn is played again at once
                self.raced = True
                log.info("game %s: %s; the computer player's turn again", self.id, error)
                return
            self.failures += 1
            log.error("game %s: %s", self.id, error)
