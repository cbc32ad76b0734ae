"""The trick on the table, seen from one seat: who is winning it, what beats what, and how
likely each seat still to play is to take it over.

The estimate is a short chain over the seats still to play: each may take the trick from
the seat on top with a probability read from ``Knowledge`` (its chance of holding a higher
card of the suit led, or of being void and holding a trump). Opponents try to win from us,
partners do not overtake each other (except to cover a nil), and a live nil bidder wins only
when it must.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.engine import FIRST_SPADE, SUIT_MASKS, SUIT_OF, beats

from .knowledge import SPADES, Knowledge, higher_in_suit, lower_in_suit


@dataclass(frozen=True, slots=True)
class TrickNow:
    """The trick as it stands before this seat plays."""

    led_suit: int  # -1 when this seat leads
    top_seat: int  # -1 when this seat leads
    top_card: int
    later: tuple[int, ...]  # the seats that play after this one, in order

    @property
    def leading(self) -> bool:
        return self.led_suit < 0


def trick_now(knowledge: Knowledge) -> TrickNow:
    trick = knowledge.view.trick
    n = knowledge.n
    if not trick:
        later = tuple((knowledge.seat + i) % n for i in range(1, n))
        return TrickNow(-1, -1, -1, later)
    led = SUIT_OF[trick[0][1]]
    top_seat, top_card = trick[0]
    for seat, card in trick[1:]:
        if beats(card, top_card, led):
            top_seat, top_card = seat, card
    remaining = n - len(trick) - 1
    later = tuple((knowledge.seat + i) % n for i in range(1, remaining + 1))
    return TrickNow(led, top_seat, top_card, later)


def prob_beat(knowledge: Knowledge, seat: int, top: int, led_suit: int) -> float:
    """How likely ``seat`` can beat ``top`` in a trick led in ``led_suit``."""
    spades_out = knowledge.out & SUIT_MASKS[SPADES]
    if led_suit == SPADES:
        return knowledge.prob_any(seat, knowledge.out & higher_in_suit(top))
    if top >= FIRST_SPADE:
        # beaten only by a higher trump from a seat void in the suit led
        higher = spades_out & higher_in_suit(top)
        if not higher:
            return 0.0
        return knowledge.prob_void(seat, led_suit) * knowledge.prob_any(seat, higher)
    higher_led = knowledge.out & higher_in_suit(top)
    p_follow_high = knowledge.prob_any(seat, higher_led) if higher_led else 0.0
    p_ruff = (knowledge.prob_void(seat, led_suit) * knowledge.prob_any(seat, spades_out)
              if spades_out else 0.0)
    return min(1.0, p_follow_high + p_ruff)


def prob_forced(knowledge: Knowledge, seat: int, top: int, led_suit: int) -> float:
    """How likely a seat that wants to lose must still beat ``top`` (all its cards of the
    suit led are higher)."""
    if led_suit < 0:
        return 0.0
    if top >= FIRST_SPADE and led_suit != SPADES:
        return 0.0  # it follows suit under a trump, or discards
    if knowledge.voids[seat] >> led_suit & 1:
        return 0.0
    higher = knowledge.out & higher_in_suit(top)
    if not higher:
        return 0.0
    lower = knowledge.out & lower_in_suit(top)
    return knowledge.prob_none(seat, lower) * knowledge.prob_any(seat, higher)


def wants_to_beat(knowledge: Knowledge, seat: int, top_seat: int) -> bool:
    """Would ``seat`` try to take the trick from ``top_seat``? Opponents do, except from a
    live nil bidder (they want the nil broken); partners do not, except to cover a nil."""
    same_side = knowledge.rules.side_of[seat] == knowledge.rules.side_of[top_seat]
    if knowledge.is_live_nil(top_seat):
        return same_side
    return not same_side


def outcome(knowledge: Knowledge, now: TrickNow, card: int) -> dict[int, float]:
    """Probability of each seat winning the trick if this seat plays ``card`` now."""
    led: int
    if now.leading:
        led = SUIT_OF[card]
        top_seat, top = knowledge.seat, card
    else:
        led = now.led_suit
        if beats(card, now.top_card, led):
            top_seat, top = knowledge.seat, card
        else:
            top_seat, top = now.top_seat, now.top_card
    dist = {top_seat: 1.0}
    for seat in now.later:
        nil = knowledge.is_live_nil(seat)
        p_beat = -1.0
        p_forced = -1.0
        moves: dict[int, float] = {}
        for holder in dist:
            if not nil and wants_to_beat(knowledge, seat, holder):
                if p_beat < 0:
                    p_beat = prob_beat(knowledge, seat, top, led)
                moves[holder] = p_beat
            else:
                if p_forced < 0:
                    p_forced = prob_forced(knowledge, seat, top, led)
                moves[holder] = p_forced
        taken = 0.0
        for holder, p in moves.items():
            if p > 0.0:
                share = dist[holder] * p
                dist[holder] -= share
                taken += share
        if taken > 0.0:
            dist[seat] = dist.get(seat, 0.0) + taken
    return dist


def future_wins(knowledge: Knowledge, card: int) -> float:
    """How likely ``card``, kept in hand, wins a trick later (a rough count of its worth)."""
    suit = SUIT_OF[card]
    higher = knowledge.higher_out(card).bit_count()
    mine = knowledge.hand & SUIT_MASKS[suit]
    below = (mine & lower_in_suit(card)).bit_count()
    if suit == SPADES:
        if higher == 0:
            return 1.0
        guarded = below >= higher
        table = (0.7, 0.45, 0.22) if guarded else (0.45, 0.25, 0.1)
        return table[higher - 1] if higher <= 3 else (0.1 if guarded else 0.04)
    left = (knowledge.out & SUIT_MASKS[suit]).bit_count()
    if left >= 6:
        ruff = 0.1
    elif left >= 3:
        ruff = 0.3
    else:
        ruff = 0.6
    if not (knowledge.out & SUIT_MASKS[SPADES]):
        ruff = 0.0
    if higher == 0:
        return 1.0 - ruff
    if higher == 1:
        return (0.55 if below >= 1 else 0.2) * (1.0 - ruff)
    if higher == 2:
        return (0.25 if below >= 2 else 0.08) * (1.0 - ruff)
    return 0.02


_SIDE_DANGER = (0.9, 0.55, 0.35, 0.2, 0.12, 0.07)
_SPADE_DANGER = (1.0, 0.75, 0.55, 0.4, 0.28, 0.18)


def future_danger(knowledge: Knowledge, card: int) -> float:
    """How likely ``card``, kept in hand, is forced to win a trick later: what a nil bidder
    (or a side shedding bags) fears. Middle cards count for more than in ``future_wins``:
    once the low cards are gone, a ten can be the card that must win."""
    suit = SUIT_OF[card]
    higher = knowledge.higher_out(card).bit_count()
    if suit == SPADES:
        return _SPADE_DANGER[higher] if higher < 6 else 0.1
    below = (knowledge.hand & SUIT_MASKS[suit] & lower_in_suit(card)).bit_count()
    danger = _SIDE_DANGER[higher] if higher < 6 else 0.03
    return danger * max(0.5, 1.0 - 0.12 * below)
