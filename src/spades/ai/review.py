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

    @property
    def cost(self) -> int:
        return self.before - self.after


@dataclass(frozen=True, slots=True)
class SideReview:
    side: int
    seats: tuple[int, ...]
    bids: tuple[int | str, ...]  #: each seat's bid as a record writes it
    par: int  #: the side's double-dummy tricks at the opening lead
    took: int  #: the tricks it took


@dataclass(frozen=True, slots=True)
class HandReview:
    hand: int  #: from 1
    preset: str
    sides: tuple[SideReview, ...]
    plays: tuple[PlayReview, ...]
    positions: int = 0  #: positions solved
    nodes: int = 0  #: search nodes
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for play, review in zip(data["plays"], self.plays, strict=True):
            play["cost"] = review.cost
        data["format"] = "spades-review/1"
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json())


Progress = Callable[[int, int], None]


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


class _Values:
    """Best-play counts of positions for each side, one reused solver per side."""

    def __init__(self, book: k.Rulebook, positions: Sequence[k.Position]) -> None:
        self.book = book
        self.positions_of = positions
        self.two = len(book.sides) == 2
        self.solvers: dict[int, TrickSolver] = {}
        self.cache: dict[tuple[int, int], int] = {}
        #: each solver's last answer (the position's index, the count for the hand): the
        #: next position's guess, and a bound when it is the very next position
        self.last: dict[int, tuple[int, int]] = {}
        self.positions = 0

    def solver(self, side: int) -> TrickSolver:
        if self.two:
            side = 0
        found = self.solvers.get(side)
        if found is None:
            found = self.solvers[side] = TrickSolver(self.book, side)
        return found

    def total(self, index: int, pos: k.Position, side: int) -> int:
        """The side's tricks for the whole hand under best play from ``pos``."""
        own = 0 if self.two else side
        key = (index, own)
        value = self.cache.get(key)
        if value is None:
            taken = sum(pos.tricks[s] for s in self.book.sides[own])
            value = 0 if pos.over else self._solve(index, pos, own, taken)
            self.cache[key] = value
            self.last[own] = (index, value + taken)
            self.positions += 1
        seats = self.book.sides[side]
        if self.two and side != 0:
            value = pos.left - value
        return value + sum(pos.tricks[s] for s in seats)

    def _solve(self, index: int, pos: k.Position, own: int, taken: int) -> int:
        """The count from ``pos`` on, searched from the previous position's count: one card
        of the side cannot raise the side's count for the hand, and one card of any other
        seat cannot lower it (each seat plays its best, so a card can only give ground)."""
        solver = self.solver(own)
        last = self.last.get(own)
        if last is None:
            return solver.tricks(pos)
        before_index, before = last
        guess = before - taken
        if before_index == index - 1:
            seat = self.positions_of[before_index].turn
            if self.book.side_of[seat] == own:
                return solver.tricks(pos, guess, at_most=guess)
            return solver.tricks(pos, guess, at_least=guess)
        return solver.tricks(pos, guess)

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
        move = solver.best_moves(after)[0]
        cards.append(move)
        k.play(book, after, move)
    if len(cards) == book.n and trick_winner(cards, pos.leader, book.n) not in mine:
        top = cards[trick_winner(cards, 0, book.n)]  # the card that won the trick
        if top != card and SUIT_MASK_OF[top] == SUIT_MASK_OF[card]:
            return (f"{head}: the {_name(top)} was still out{keeper}",
                    (CODE_OF[top], *named))
        if top >= FIRST_SPADE > card and (1 << card) & SUIT_MASK_OF[cards[0]]:
            return (f"{head}: the {_name(top)} ruffed it{keeper}", (CODE_OF[top], *named))
    return f"{head}{keeper}" if keeper else head, named


def review_hand(state: GameState, hand: int, progress: Progress | None = None) -> HandReview:
    """The double-dummy review of finished hand ``hand`` (from 1) of a replayed game."""
    result = finished_hand(state, hand)
    book = k.rulebook_of(state.rules)
    start, line = _start(book, result)
    return review_line(book, start, line, result.bids, hand=hand, progress=progress)


def review_line(book: k.Rulebook, start: k.Position, line: Sequence[int], bids: Sequence[Bid], *,
                hand: int = 1, progress: Progress | None = None) -> HandReview:
    """The review of the cards ``line`` played in order from ``start`` (a trick boundary)
    to the end of the hand; ``par`` is the sides' counts at ``start``. ``review_hand``
    starts at the opening lead; a test may start at any ending."""
    n = book.n
    positions = _line(book, start, line)
    values = _Values(book, positions)
    # every (position, side) the review needs, in the order of play
    needed: list[tuple[int, int]] = []
    for i in range(len(line)):
        side = book.side_of[positions[i].turn]
        needed += [(i + 1, side), (i, side)]
    needed += [(0, s) for s in range(len(book.sides))]
    order = sorted(set(needed))
    todo = [(i, s) for i, s in order if not positions[i].over]
    for done, (i, s) in enumerate(todo, start=1):
        values.total(i, positions[i], s)
        if progress is not None:
            progress(done, len(todo))
    plays: list[PlayReview] = []
    final = positions[-1].tricks
    done = sum(start.tricks)  # tricks played before ``start``
    for i, card in enumerate(line):
        pos = positions[i]
        seat = pos.turn
        side = book.side_of[seat]
        before = values.total(i, pos, side)
        after = values.total(i + 1, positions[i + 1], side)
        best = values.solver(side).best_moves(pos) if after < before else []
        marks: list[Mark] = []
        if after < before:
            text, cards = _cost_text(book, values, positions, i, card, seat, side, best)
            marks.append(Mark("cost", _sentence(text), cards))
        start_of_trick = i - len(pos.trick)
        trick = line[start_of_trick:start_of_trick + n]
        index = len(pos.trick)
        winner = trick_winner(trick, positions[start_of_trick].leader, n)
        marks += _bag_mark(book, pos, bids, final, trick, index, seat, side, winner, card)
        marks += _nil_mark(book, pos, bids, trick, index, seat, winner, card)
        plays.append(PlayReview(trick=i // n + 1 + done, seat=seat, side=side,
                                card=CODE_OF[card], before=before, after=after,
                                best=tuple(CODE_OF[c] for c in best), marks=tuple(marks)))
    sides = tuple(SideReview(side=s, seats=tuple(seats),
                             bids=tuple(bids[x].code for x in seats),
                             par=values.total(0, positions[0], s),
                             took=sum(final[x] for x in seats))
                  for s, seats in enumerate(book.sides))
    return HandReview(hand=hand, preset=book.rules.name, sides=sides, plays=tuple(plays),
                      positions=values.positions, nodes=values.nodes)


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
           "review_hand", "review_line"]
