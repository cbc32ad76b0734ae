"""What one seat may see: the only thing clients and computer players ever get.

A view holds the seat's own cards and public facts (bids, cards played, face-up discards,
scores), never another seat's cards, the undrawn stock, or the kitty card; and not even its
own cards while they are face down for blind nil (until the seat looks).

What a seat learns between two states (``observe.events``) and the record it may download
(``observe.seat_record``) are the other two projections; nothing else leaves the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .actions import Action, Bid, Exchange
from .cards import Card, cards_in
from .game import can_bid_blind_nil, legal_actions
from .rules import Rules
from .state import GameState, HandResult, Phase, Trick


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One finished hand on the score sheet (all public)."""

    number: int
    dealer: int
    bids: tuple[Bid, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    bags: tuple[int, ...]
    scores: tuple[int, ...]
    #: The bags each side took in this hand, before any penalty (``HandScore.bags_taken``).
    bags_taken: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    rules: Rules
    phase: Phase
    turn: int | None
    hand_number: int
    dealer: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    bids: tuple[Bid | None, ...]
    tricks: tuple[int, ...]
    leader: int
    trick: tuple[tuple[int, Card], ...]
    history: tuple[Trick, ...]
    broken: bool
    played: int
    discards: tuple[Card, ...]
    drawn: Card | None
    stock_left: int
    kitty_holder: int | None
    kitty_taken: bool | None
    passes: tuple[tuple[int, int, tuple[Card, ...]], ...]
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    sheet: tuple[SheetLine, ...]
    over: bool
    winner: int | None
    legal: tuple[Action, ...]
    #: blind nil is still open to this seat this hand (also before its turn to bid): its
    #: cards are face down (``hand`` is empty, ``drawn`` None) until it looks
    blind_nil_open: bool

    @property
    def face_down(self) -> bool:
        """The seat's cards are face down: it may ``Look`` (or bid blind nil)."""
        return self.blind_nil_open

    @property
    def my_side(self) -> int:
        return self.rules.side_of[self.seat]

    @property
    def partner(self) -> int | None:
        return self.rules.partner_of[self.seat]

    @property
    def last_trick(self) -> Trick | None:
        return self.history[-1] if self.history else None

    @property
    def hand_mask(self) -> int:
        mask = 0
        for card in self.hand:
            mask |= 1 << card
        return mask


def sheet_line(result: HandResult) -> SheetLine:
    """A finished hand's line on the score sheet."""
    return SheetLine(number=result.number, dealer=result.dealer, bids=result.bids,
                     tricks=result.tricks, points=result.score.points,
                     bags=result.score.bags, scores=result.score.scores,
                     bags_taken=result.score.bags_taken)


def score_sheet(state: GameState) -> tuple[SheetLine, ...]:
    """The score sheet: a line per finished hand, the same for every seat."""
    return tuple(sheet_line(r) for r in state.results)


def player_view(state: GameState, seat: int,
                sheet: tuple[SheetLine, ...] | None = None) -> PlayerView:
    """Everything ``seat`` may know about ``state``, and nothing more. ``sheet``: the
    state's ``score_sheet`` if the caller has it (public, the same for every seat: made
    once for a change's views rather than once a seat)."""
    rules = state.rules
    if sheet is None:
        sheet = score_sheet(state)
    elif len(sheet) != len(state.results):
        raise ValueError(f"the sheet has {len(sheet)} lines, the game "
                         f"{len(state.results)} finished hands")
    if not 0 <= seat < rules.players:
        raise ValueError(f"seat must be 0 to {rules.players - 1}, not {seat}")
    hand = state.hand
    n = rules.players
    my_turn = not state.over and hand.turn == seat
    face_down = can_bid_blind_nil(state, seat)
    drawn = None
    if hand.phase is Phase.DRAW and my_turn and not face_down:
        drawn = hand.deck[hand.stock]
    kitty_holder = None
    kitty_taken = None
    for actor, action in hand.setup:
        if isinstance(action, Exchange):
            kitty_holder = actor
            kitty_taken = action.take
    if hand.phase is Phase.KITTY:
        kitty_holder = hand.turn
    trick = tuple(((hand.leader + i) % n, c) for i, c in enumerate(hand.trick))
    stock_left = len(hand.deck) - hand.stock if rules.draw else 0
    return PlayerView(
        seat=seat, rules=rules, phase=hand.phase, turn=state.turn, hand_number=hand.number,
        dealer=hand.dealer, hand=() if face_down else tuple(cards_in(hand.hands[seat])),
        hand_sizes=tuple(h.bit_count() for h in hand.hands), bids=hand.bids,
        tricks=hand.tricks, leader=hand.leader, trick=trick, history=hand.history,
        broken=hand.broken, played=hand.played, discards=hand.discards, drawn=drawn,
        stock_left=stock_left, kitty_holder=kitty_holder, kitty_taken=kitty_taken,
        passes=tuple(p for p in hand.passes if seat in (p[0], p[1])),
        scores=state.scores, bags=state.bags, sheet=sheet, over=state.over,
        winner=state.winner, legal=tuple(legal_actions(state)) if my_turn else (),
        blind_nil_open=face_down)


#: The seat of no one: a spectator's view and events (``public_view``, ``public_events``).
NO_SEAT = -1


def public_view(state: GameState, sheet: tuple[SheetLine, ...] | None = None) -> PlayerView:
    """What the table shows everyone (a spectator): bids, tricks, the trick in play, the
    last trick, the discards, the kitty's holder, scores and the sheet; no seat's cards, no
    drawn card, no passed cards, nothing to do. ``seat`` is ``NO_SEAT``. ``sheet`` as for
    ``player_view``."""
    seen = player_view(state, 0, sheet)
    return replace(seen, seat=NO_SEAT, hand=(), drawn=None, passes=(), legal=(),
                   blind_nil_open=False)
