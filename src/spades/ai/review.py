"""A double-dummy review of a finished hand: where a side lost a trick, took a bag it did
not want, or broke a partner's nil.

For every play of the hand, the tricks the player's side ends the hand with under best play
by every seat (every hand visible), just before the card and just after it; with more than
two sides, the player's own tricks against all the others. The counts include the tricks the
side has already won, so ``before - after`` is what the card cost. One ``TrickSolver`` per
side answers every position of the line of play in order: the opening position is the slow
one, and what its search stores in the reusable transposition table makes the later ones
cheap (measured: faster than solving the later positions first), and each position's search
starts from the count of the one before (one card rarely changes it by more than a trick),
bounded on one side by it (a card of the solver's side cannot raise the count, another
seat's card cannot lower it). With two
sides the game is zero-sum, so one solver serves both (the other side's count is the tricks
left minus this one's).

Marks (docs/review.md):

- ``cost``: the card lowered its side's best-play count (``after < before``).
- ``bag``: the rules make bags cost (a bag limit with a penalty or a take-back), the player
  did not bid nil, the player's side had already taken its bid (its non-nil seats' tricks)
  before this trick, the player's card won the trick, it held a legal card that would have
  lost the trick to the cards the others actually played, and no other side ended the hand
  short of its bid (an extra trick that sets the other side is not a wasted bag).
- ``nil``: a seat that bid nil (or blind nil) had taken no trick before this one and won
  this one, and the card marked is the nil bidder's own or its partner's, when a legal card
  of that seat (for a lead: of the same suit) would have let the trick go elsewhere, every
  other card of the trick unchanged.

The review is only for a finished hand: ``review_hand`` refuses any other.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from spades.engine import (
    CODE_OF,
    FIRST_SPADE,
    NAME_OF,
    SUIT_MASK_OF,
    SUIT_OF,
    Bid,
    GameState,
    HandResult,
    beats,
    trick_winner,
)

from . import kernel as k
from .tricks import TrickSolver


class ReviewError(ValueError):
    """A hand that cannot be reviewed (not finished, or no such hand)."""


@dataclass(frozen=True, slots=True)
class Mark:
    """Something a player would want to know about one play."""

    kind: str  #: "cost", "bag" or "nil"
    text: str  #: one sentence for a player
    cards: tuple[str, ...] = ()  #: the cards that made the difference (record codes)


@dataclass(frozen=True, slots=True)
class PlayReview:
    trick: int  #: from 1
    seat: int
    side: int
    card: str  #: record code, e.g. "KH"
    before: int  #: the side's tricks for the hand under best play, before the card
    after: int  #: the same just after it
    best: tuple[str, ...]  #: the legal cards that keep ``before``
    marks: tuple[Mark, ...] = ()
    #: False when ``before`` or ``after`` is an estimate (docs/review.md, "Estimates")
    exact: bool = True

    @property
    def cost(self) -> int:
        return self.before - self.after


@dataclass(frozen=True, slots=True)
class SideReview:
    side: int
    seats: tuple[int, ...]
    bids: tuple[int | str, ...]  #: each seat's bid as a record writes it
    par: int | None  #: the side's double-dummy tricks at the opening lead (None: not yet)
    took: int  #: the tricks it took
    exact: bool = True  #: False when ``par`` is an estimate


@dataclass(frozen=True, slots=True)
class HandReview:
    hand: int  #: from 1
    preset: str
    sides: tuple[SideReview, ...]
    plays: tuple[PlayReview, ...]
    positions: int = 0  #: positions solved
    nodes: int = 0  #: search nodes
    notes: tuple[str, ...] = field(default=())
    #: True while the review is worked out: ``plays`` are the first ones only
    partial: bool = False

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for play, review in zip(data["plays"], self.plays, strict=True):
            play["cost"] = review.cost
        data["format"] = "spades-review/1"
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json())


Progress = Callable[[int, int], None]
#: Hears the review of the plays worked out so far (``HandReview.partial``).
Partial = Callable[["HandReview"], None]


def finished_hand(state: GameState, hand: int) -> HandResult:
    """The finished hand ``hand`` (from 1) of a replayed game, or ``ReviewError``."""
    results = state.results
    if hand < 1:
        raise ReviewError(f"hands count from 1, not {hand}")
    if hand > len(results):
        if hand == len(results) + 1 and not state.over:
            raise ReviewError(f"hand {hand} is still in play: a review is only for a "
                              "finished hand")
        raise ReviewError(f"there is no hand {hand}: the record has {len(results)} "
                          "finished hand(s)")
    return results[hand - 1]


def _start(book: k.Rulebook, result: HandResult) -> tuple[k.Position, list[int]]:
    """The position at the opening lead, and the cards in play order."""
    n = book.n
    hands = [0] * n
    line: list[int] = []
    for trick in result.history:
        for seat, card in trick.plays(n):
            hands[seat] |= 1 << int(card)
            line.append(int(card))
    bids = [b.tricks for b in result.bids]
    nils = [(k.BLIND if b.blind else k.NIL) if b.nil else k.PLAIN for b in result.bids]
    leader = result.history[0].leader if result.history else 0
    pos = k.Position(hands=hands, leader=leader, tricks=[0] * n, bids=bids, nils=nils,
                     players=n)
    return pos, line


def _line(book: k.Rulebook, start: k.Position, line: Sequence[int]) -> list[k.Position]:
    """Every position of the line of play: ``out[i]`` is before card ``i``; the last is
    the end of the hand."""
    out = [start.copy()]
    pos = start.copy()
    for card in line:
        k.play(book, pos, card)
        out.append(pos.copy())
    return out


#: Search nodes one attempt at a position's exact count may take: a position out of that
#: reach gets bounds, and its count is an estimate (docs/review.md, "Estimates").
ATTEMPT_NODES = 400_000
#: Search nodes of the whole review with two sides (with more, each position is searched for
#: more sides, at a higher cost a node: two thirds of it with three sides, half with four):
#: an attempt gets at most half of what is left of them (the tricks further on, far cheaper,
#: get the rest), and at least ``LATE_NODES`` (the last tricks of a hand take a few hundred).
#: The compiled search does some 300,000 to 800,000 nodes a second (bench/RESULTS.md), the
#: pure one about a third of that.
REVIEW_NODES = 1_000_000
#: With three sides (17 or 18 tricks) the opening positions are mostly out of any budget:
#: their cut-off searches spent most of it, so three sides get 0.4 of it rather than two
#: thirds, for few more estimated plays (docs/ai-tuning.md, "The review's budget").
THREE_SIDES = 0.4
LATE_NODES = 20_000
#: Wall-clock seconds after which each attempt gets a tenth of ``LATE_NODES`` (a machine far
#: too busy): the review ends soon, exact from where that reaches, estimated before.
REVIEW_SECONDS = 20.0
#: Search nodes for the cards that would have kept a count (a costly card's ``best``, and
#: the best line after it that its sentence names).
BEST_NODES = 50_000


def review_budget(sides: int) -> int:
    """The search nodes of a whole review's attempts, by the number of sides."""
    if sides == 3:
        return int(REVIEW_NODES * THREE_SIDES)
    return REVIEW_NODES * 2 // max(2, sides)


class _Values:
    """Best-play counts of positions for each side, one reused solver per side, each a
    count for the whole hand (the tricks already taken included). A position whose search
    needs more nodes than its budget gets the bounds the search proved; its count is
    carried back from the next exact count of its side within those bounds (an estimate:
    a card there is taken to cost nothing unless the bounds prove it)."""

    def __init__(self, book: k.Rulebook, positions: Sequence[k.Position],
                 seconds: float | None = None) -> None:
        self.book = book
        self.positions_of = positions
        self.two = len(book.sides) == 2
        self.solvers: dict[int, TrickSolver] = {}
        #: exact counts and estimates by (position, side), and the positions of a side
        #: waiting for its next exact count to be estimated
        self.exact: dict[tuple[int, int], int] = {}
        self.estimates: dict[tuple[int, int], int] = {}
        self.bounds: dict[tuple[int, int], tuple[int, int]] = {}
        self.pending: dict[int, list[int]] = {}
        #: each side's last count (exact, or its guess within bounds): the next guess
        self.guess: dict[int, int] = {}
        #: each side's last position settled: a bound on the very next one
        self.last: dict[int, int] = {}
        #: below this position a side is not searched again (after an attempt cut off)
        self.skip: dict[int, int] = {}
        self.spent = 0
        self.budget = review_budget(len(book.sides))
        self.deadline = time.monotonic() + (REVIEW_SECONDS if seconds is None else seconds)
        self.positions = 0

    def own(self, side: int) -> int:
        return 0 if self.two else side

    def solver(self, side: int) -> TrickSolver:
        side = self.own(side)
        found = self.solvers.get(side)
        if found is None:
            found = self.solvers[side] = TrickSolver(self.book, side)
        return found

    def taken(self, pos: k.Position, own: int) -> int:
        return sum(pos.tricks[s] for s in self.book.sides[own])

    def settle(self, index: int, side: int) -> None:
        """Work out the side's count at position ``index``: exactly within the budget, else
        bounds (and the estimate once the side's next exact count is known)."""
        own = self.own(side)
        key = (index, own)
        if key in self.exact or key in self.bounds:
            return
        pos = self.positions_of[index]
        taken = self.taken(pos, own)
        low, high = self._chain(index, own, taken, taken + pos.left)
        budget = self._budget(index, own)
        if low < high and budget != 0:
            solver = self.solver(own)
            before = solver.nodes
            guess = min(max(self.guess.get(own, low), low), high)
            a, b = solver.span(pos, guess - taken, at_least=low - taken,
                               at_most=high - taken, nodes=budget)
            self.spent += solver.nodes - before
            low, high = a + taken, b + taken
            if low < high:  # cut off: not searched again before the next trick
                self.skip[own] = index + self.book.n - len(pos.trick)
        self.last[own] = index
        self.positions += 1
        if low == high:
            self.exact[key] = low
            self.guess[own] = low
            self._carry(own, low)
        else:
            self.bounds[key] = (low, high)
            self.pending.setdefault(own, []).append(index)
            self.guess[own] = min(max(self.guess.get(own, low), low), high)

    def _chain(self, index: int, own: int, low: int, high: int) -> tuple[int, int]:
        """Bounds on the side's count at ``index`` from the position just before, when the
        side's count there is settled: a card of the side cannot raise its count, a card of
        another seat cannot lower it (each seat plays its best)."""
        if self.positions_of[index].over:
            return low, low
        if self.last.get(own) != index - 1:
            return low, high
        key = (index - 1, own)
        before = self.exact.get(key)
        below, above = (before, before) if before is not None else self.bounds[key]
        if self.book.side_of[self.positions_of[index - 1].turn] == own:
            return low, min(high, above)
        return max(low, below), high

    def _budget(self, index: int, own: int) -> int:
        """The nodes an attempt at ``index`` may take (0: none, the count is estimated)."""
        if index < self.skip.get(own, 0):
            return 0
        if time.monotonic() > self.deadline:
            return LATE_NODES // 10
        return min(ATTEMPT_NODES, max(LATE_NODES, (self.budget - self.spent) // 2))

    def _carry(self, own: int, value: int) -> None:
        """The side's exact count ``value`` is known: the positions before it waiting for
        one get their estimates, each carried back within its bounds."""
        for index in reversed(self.pending.pop(own, [])):
            low, high = self.bounds[(index, own)]
            value = min(max(value, low), high)
            self.estimates[(index, own)] = value

    def known(self, index: int, side: int) -> bool:
        key = (index, self.own(side))
        return key in self.exact or key in self.estimates or self.positions_of[index].over

    def is_exact(self, index: int, side: int) -> bool:
        return (index, self.own(side)) in self.exact or self.positions_of[index].over

    def total(self, index: int, pos: k.Position, side: int) -> int:
        """The side's tricks for the whole hand under best play from ``pos`` (exact, or the
        estimate): ``settle`` first."""
        own = self.own(side)
        if pos.over:
            return self.taken(pos, side)
        key = (index, own)
        value = self.exact.get(key)
        if value is None:
            value = self.estimates[key]
        if self.two and side != 0:
            # zero-sum: the other side takes the rest of the hand
            return sum(pos.tricks) + pos.left - value
        return value

    def finish(self) -> None:
        """The end of the hand is exact: every count still waiting gets its estimate."""
        end = len(self.positions_of) - 1
        final = self.positions_of[end]
        for own in list(self.pending):
            self._carry(own, self.taken(final, own))

    @property
    def nodes(self) -> int:
        return sum(s.nodes for s in self.solvers.values())


def _name(card: int) -> str:
    return NAME_OF[card]


def _escapes(book: k.Rulebook, pos: k.Position, trick: Sequence[int], index: int,
             avoid: Callable[[int], bool]) -> list[int]:
    """The legal cards of the seat playing ``trick[index]`` (``pos``: before it) that, put
    in its place with the rest of the trick unchanged, make ``avoid(winner)`` false. For a
    lead only cards of the led suit are tried (another suit would change what the others
    had to play)."""
    legal = k.legal_mask(book, pos)
    if index == 0:
        legal &= SUIT_MASK_OF[trick[0]]
    out = []
    for card in k.cards_of(legal):
        if card == trick[index]:
            continue
        other = list(trick)
        other[index] = card
        if not avoid(trick_winner(other, pos.leader, book.n)):
            out.append(card)
    return out


def _cost_text(book: k.Rulebook, values: _Values, positions: list[k.Position], i: int, card: int,
               seat: int, side: int, best: list[int]) -> tuple[str, tuple[str, ...]]:
    """One sentence saying why ``card`` cost, naming the cards that made the difference."""
    pos = positions[i]
    lost = values.total(i, pos, side) - values.total(i + 1, positions[i + 1], side)
    what = "a trick" if lost == 1 else f"{lost} tricks"
    head = f"the {_name(card)} cost {what}"
    keep = best[0] if best else -1
    keeper = f"; the {_name(keep)} kept it" if keep >= 0 else ""
    named = (CODE_OF[keep],) if keep >= 0 else ()
    mine = book.sides[side]
    if (pos.trick and pos.win_seat in mine and pos.win_seat != seat
            and beats(card, pos.win_card, SUIT_OF[pos.trick[0]])):
        return (f"{head}: it overtook the partner's {_name(pos.win_card)}, already "
                f"winning{keeper}", (CODE_OF[pos.win_card], *named))
    # the best line after the card, to the end of this trick: who beat it?
    cards = [*pos.trick, card]
    after = positions[i + 1].copy()
    solver = values.solver(side)
    while after.trick:
        moves = solver.best_moves(after, BEST_NODES)
        if not moves:  # out of its budget: the sentence says less
            break
        cards.append(moves[0])
        k.play(book, after, moves[0])
    if len(cards) == book.n and trick_winner(cards, pos.leader, book.n) not in mine:
        top = cards[trick_winner(cards, 0, book.n)]  # the card that won the trick
        if top != card and SUIT_MASK_OF[top] == SUIT_MASK_OF[card]:
            return (f"{head}: the {_name(top)} was still out{keeper}",
                    (CODE_OF[top], *named))
        if top >= FIRST_SPADE > card and (1 << card) & SUIT_MASK_OF[cards[0]]:
            return (f"{head}: the {_name(top)} ruffed it{keeper}", (CODE_OF[top], *named))
    return f"{head}{keeper}" if keeper else head, named


def review_hand(state: GameState, hand: int, progress: Progress | None = None,
                partial: Partial | None = None, seconds: float | None = None) -> HandReview:
    """The double-dummy review of finished hand ``hand`` (from 1) of a replayed game
    (``review_line`` says what ``progress`` and ``partial`` hear, and ``seconds``: the
    wall-clock limit, ``math.inf`` for a review that depends on the cards alone)."""
    result = finished_hand(state, hand)
    book = k.rulebook_of(state.rules)
    start, line = _start(book, result)
    return review_line(book, start, line, result.bids, hand=hand, progress=progress,
                       partial=partial, seconds=seconds)


def hand_line(state: GameState, hand: int) -> tuple[k.Rulebook, list[k.Position], list[int]]:
    """The rulebook, every position of finished hand ``hand``'s line of play (``out[i]``:
    before card ``i``; the last, the end of the hand) and the cards in play order."""
    result = finished_hand(state, hand)
    book = k.rulebook_of(state.rules)
    start, line = _start(book, result)
    return book, _line(book, start, line), line


def review_line(book: k.Rulebook, start: k.Position, line: Sequence[int], bids: Sequence[Bid], *,
                hand: int = 1, progress: Progress | None = None, partial: Partial | None = None,
                seconds: float | None = None) -> HandReview:
    """The review of the cards ``line`` played in order from ``start`` (a trick boundary)
    to the end of the hand; ``par`` is the sides' counts at ``start``. ``review_hand``
    starts at the opening lead; a test may start at any ending. ``progress(done, total)``
    hears each position settled; ``partial`` the review of the plays worked out so far,
    each time more are (the first tricks can be read while the rest are worked out).
    ``seconds``: the wall-clock limit (default ``REVIEW_SECONDS``)."""
    positions = _line(book, start, line)
    values = _Values(book, positions, seconds)
    todo = _needed(book, positions)
    plays: list[PlayReview] = []
    for done, (i, s) in enumerate(todo, start=1):
        values.settle(i, s)
        ready = len(plays)
        while len(plays) < len(line) and _ready(book, values, positions, len(plays)):
            plays.append(_play_review(book, values, positions, line, bids, len(plays)))
        if partial is not None and len(plays) > ready:
            partial(_hand_review(book, values, positions, bids, plays, hand, partial=True))
        if progress is not None:
            progress(done, len(todo))
    values.finish()
    while len(plays) < len(line):
        plays.append(_play_review(book, values, positions, line, bids, len(plays)))
    return _hand_review(book, values, positions, bids, plays, hand)


def _needed(book: k.Rulebook, positions: Sequence[k.Position]) -> list[tuple[int, int]]:
    """Every (position, side) the review needs, in the order of play."""
    needed: list[tuple[int, int]] = []
    for i in range(len(positions) - 1):
        side = book.side_of[positions[i].turn]
        needed += [(i + 1, side), (i, side)]
    needed += [(0, s) for s in range(len(book.sides))]
    return [(i, s) for i, s in sorted(set(needed)) if not positions[i].over]


def _ready(book: k.Rulebook, values: _Values, positions: Sequence[k.Position], i: int) -> bool:
    side = book.side_of[positions[i].turn]
    return values.known(i, side) and values.known(i + 1, side)


def _play_review(book: k.Rulebook, values: _Values, positions: list[k.Position],
                 line: Sequence[int], bids: Sequence[Bid], i: int) -> PlayReview:
    """The review of play ``i`` of the line (its counts known)."""
    n = book.n
    pos = positions[i]
    card = line[i]
    seat = pos.turn
    side = book.side_of[seat]
    before = values.total(i, pos, side)
    after = values.total(i + 1, positions[i + 1], side)
    exact = values.is_exact(i, side) and values.is_exact(i + 1, side)
    best: list[int] = []
    marks: list[Mark] = []
    if after < before and exact:
        best = values.solver(side).best_moves(pos, BEST_NODES)
        text, cards = _cost_text(book, values, positions, i, card, seat, side, best)
        marks.append(Mark("cost", _sentence(text), cards))
    start_of_trick = i - len(pos.trick)
    trick = line[start_of_trick:start_of_trick + n]
    index = len(pos.trick)
    winner = trick_winner(trick, positions[start_of_trick].leader, n)
    final = positions[-1].tricks
    marks += _bag_mark(book, pos, bids, final, trick, index, seat, side, winner, card)
    marks += _nil_mark(book, pos, bids, trick, index, seat, winner, card)
    done = sum(positions[0].tricks)  # tricks played before the line starts
    return PlayReview(trick=i // n + 1 + done, seat=seat, side=side, card=CODE_OF[card],
                      before=before, after=after, best=tuple(CODE_OF[c] for c in best),
                      marks=tuple(marks), exact=exact)


def _hand_review(book: k.Rulebook, values: _Values, positions: list[k.Position],
                 bids: Sequence[Bid], plays: list[PlayReview], hand: int, *,
                 partial: bool = False) -> HandReview:
    """The review of ``plays`` (all of them, or the first ones while the rest are worked
    out: ``partial``, a side's par then None until it is known)."""
    final = positions[-1].tricks
    sides = tuple(SideReview(side=s, seats=tuple(seats),
                             bids=tuple(bids[x].code for x in seats),
                             par=values.total(0, positions[0], s)
                             if values.known(0, s) else None,
                             took=sum(final[x] for x in seats),
                             exact=values.is_exact(0, s))
                  for s, seats in enumerate(book.sides))
    notes = _estimate_notes(plays, sides)
    return HandReview(hand=hand, preset=book.rules.name, sides=sides, plays=tuple(plays),
                      positions=values.positions, nodes=values.nodes, notes=notes,
                      partial=partial)


def _estimate_notes(plays: Sequence[PlayReview], sides: Sequence[SideReview]) -> tuple[str, ...]:
    """The sentence saying which counts are estimates, if any are."""
    tricks = sorted({p.trick for p in plays if not p.exact})
    if not tricks:
        return ()
    words = _trick_words(tricks)
    par = "" if all(s.exact for s in sides) else " (and the par)"
    return (f"An estimate: the counts of {words}{par} are not exact; solving them exactly "
            "takes too long, so a bounded search proved what it could and each count is "
            "carried back from the next exact one. No card there is marked as costing a "
            "trick.",)


def _trick_words(tricks: Sequence[int]) -> str:
    """"trick 1", "tricks 1 to 3", "tricks 1 to 3 and 7"."""
    runs: list[list[int]] = []
    for trick in tricks:
        if runs and runs[-1][-1] == trick - 1:
            runs[-1].append(trick)
        else:
            runs.append([trick])
    parts = [str(r[0]) if len(r) == 1 else f"{r[0]} to {r[-1]}" for r in runs]
    head = "trick" if len(tricks) == 1 else "tricks"
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{head} {text}"


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."


def _bag_mark(book: k.Rulebook, pos: k.Position, bids: Sequence[Any], final: Sequence[int],
              trick: Sequence[int], index: int, seat: int, side: int, winner: int,
              card: int) -> list[Mark]:
    if not book.bags_cost or bids[seat].nil or winner != seat:
        return []
    seats = book.sides[side]
    contract = sum(bids[s].tricks for s in seats if not bids[s].nil)
    taken = sum(pos.tricks[s] for s in seats if not bids[s].nil)
    if taken < contract:
        return []
    for other, others in enumerate(book.sides):
        if other == side:
            continue
        need = sum(bids[s].tricks for s in others if not bids[s].nil)
        if sum(final[s] for s in others if not bids[s].nil) < need:
            return []  # the extra trick may have set them
    escapes = _escapes(book, pos, trick, index, lambda w: w == seat)
    if not escapes:
        return []
    low = escapes[0]
    return [Mark("bag", _sentence(
        f"the {_name(card)} took a bag: the side had made its bid of {contract} and the "
        f"{_name(low)} would have lost the trick"), (CODE_OF[low],))]


def _nil_mark(book: k.Rulebook, pos: k.Position, bids: Sequence[Any], trick: Sequence[int],
              index: int, seat: int, winner: int, card: int) -> list[Mark]:
    if not bids[winner].nil or pos.tricks[winner]:
        return []
    if seat != winner and book.side_of[seat] != book.side_of[winner]:
        return []
    escapes = _escapes(book, pos, trick, index, lambda w: w == winner)
    if not escapes:
        return []
    other = escapes[-1] if seat != winner else escapes[0]
    if seat == winner:
        text = (f"the {_name(card)} broke the nil: the {_name(other)} would have lost "
                "the trick")
    else:
        text = (f"the {_name(card)} broke the partner's nil: with the {_name(other)} the "
                "nil bidder would not have won the trick")
    return [Mark("nil", _sentence(text), (CODE_OF[other],))]


__all__ = ["HandReview", "Mark", "PlayReview", "ReviewError", "SideReview", "finished_hand",
           "hand_line", "review_hand", "review_line"]
