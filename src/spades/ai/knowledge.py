"""What one seat can infer from its ``PlayerView``, and nothing more.

``Knowledge(view)`` gathers, as bit masks: the cards still out (in other hands or the
kitty), the voids each seat has shown, the cards known to sit in a given hand (cards we
passed to a partner, the two-player hand that the face-up discards give away, the two of
clubs after a kitty exchange), and, for every hidden card, how likely each seat is to hold
it. It also sums up each side's contract: bid, tricks taken, tricks still needed, live nil
bidders, bags and score.

Everything here is computed from public facts and the seat's own cards, so a player built on
it cannot cheat.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.engine import (
    FIRST_SPADE,
    NON_SPADES_MASK,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_OF,
    TWO_OF_CLUBS,
    Phase,
    PlayerView,
    Suit,
    breaks_spades,
    deck_mask,
)

__all__ = ["SPADES", "Knowledge", "SideInfo", "higher_in_suit", "live_nil", "lower_in_suit",
           "side_infos", "voids_shown"]

#: The spade suit's index (``Knowledge.voids`` holds one bit per suit index).
SPADES: int = Suit.SPADES


def live_nil(view: PlayerView, seat: int) -> bool:
    """Has ``seat`` bid nil (or blind nil) and taken no trick yet, this hand?"""
    bid = view.bids[seat]
    return bid is not None and bid.nil and view.tricks[seat] == 0


def voids_shown(view: PlayerView) -> list[int]:
    """The suits (as masks) each seat has shown it holds none of, this hand: it did not
    follow suit, or it led a spade while spades were not broken (``legal_plays``: only a
    hand of nothing but spades may). Spades break as the engine's ``breaks_spades`` says
    for the table's ``spades_break`` rule: under ``offsuit`` a spade led from a hand of only
    spades breaks nothing, so the next unbroken spade lead shows a void too."""
    rules = view.rules
    mode = rules.spades_break
    n = rules.players
    voids = [0] * n
    broken = False
    tricks = [(tr.leader, tr.cards) for tr in view.history]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    for leader, cards in tricks:
        led = cards[0]
        if not broken:
            if led >= FIRST_SPADE:
                voids[leader] |= NON_SPADES_MASK
            broken = breaks_spades(mode, None, led)
        for index in range(1, len(cards)):
            card = cards[index]
            if not (1 << card) & SUIT_MASK_OF[led]:
                voids[(leader + index) % n] |= SUIT_MASK_OF[led]
            if not broken:
                broken = breaks_spades(mode, led, card)
    return voids


def higher_in_suit(card: int) -> int:
    """The mask of the cards of ``card``'s suit above it (jokers count as spades)."""
    return SUIT_MASKS[SUIT_OF[card]] & ~((2 << card) - 1)


def lower_in_suit(card: int) -> int:
    return SUIT_MASKS[SUIT_OF[card]] & ((1 << card) - 1)


@dataclass(frozen=True, slots=True)
class SideInfo:
    """One side's contract in the hand being played."""

    index: int
    seats: tuple[int, ...]
    contract: int  # the sum of the plain (non-nil) bids
    taken: int  # tricks won by the plain bidders
    need: int  # tricks still to win to make the contract
    nils: tuple[int, ...]  # nil bidders who have not taken a trick yet
    broken_nils: tuple[int, ...]  # nil bidders who have
    score: int
    bags: int

    @property
    def bidders(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s not in self.nils and s not in self.broken_nils)


def side_infos(view: PlayerView) -> tuple[SideInfo, ...]:
    rules = view.rules
    out: list[SideInfo] = []
    for index, seats in enumerate(rules.sides):
        contract = taken = 0
        nils: list[int] = []
        broken: list[int] = []
        for seat in seats:
            bid = view.bids[seat]
            if bid is None:
                continue
            if bid.nil:
                (broken if view.tricks[seat] else nils).append(seat)
            else:
                contract += bid.tricks
                taken += view.tricks[seat]
        out.append(SideInfo(
            index=index, seats=seats, contract=contract, taken=taken,
            need=max(0, contract - taken), nils=tuple(nils), broken_nils=tuple(broken),
            score=view.scores[index], bags=view.bags[index]))
    return tuple(out)


class Knowledge:
    """The seat's picture of the hand: cards out, voids, who may hold what, the contracts."""

    __slots__ = (
        "_expect", "_unknown_in_suit", "hand", "holders", "known", "n", "out", "played", "rules",
        "seat", "sides", "slots", "unknown", "view", "voids",
    )

    def __init__(self, view: PlayerView) -> None:
        rules = view.rules
        n = rules.players
        self.view = view
        self.rules = rules
        self.seat = view.seat
        self.n = n
        self.hand = view.hand_mask
        self.played = view.played
        self.sides = side_infos(view)
        # holders: the other seats, plus the kitty (index n) when it hides an unknown card
        self.voids = [0] * (n + 1)
        self.known = [0] * (n + 1)
        dead = 0
        for card in view.discards:
            dead |= 1 << card
        self._read_kitty(view)
        kitty_slots = 0
        if rules.kitty:
            if view.kitty_holder is None and view.phase is not Phase.KITTY:
                dead |= 1  # no exchange was offered: the kitty card is the two of clubs
            elif view.kitty_taken:
                dead |= 1  # the two of clubs went into the kitty
            else:
                kitty_slots = 1
        self.out = deck_mask(rules) & ~self.hand & ~self.played & ~dead
        self._read_passes(view)
        self._read_tricks(view)
        slots = [0] * (n + 1)
        for s in range(n):
            if s != self.seat:
                slots[s] = view.hand_sizes[s]
        slots[n] = kitty_slots
        if rules.draw and view.phase in (Phase.BID, Phase.PLAY, Phase.PASS):
            # every card not kept is face up: the other hand is all the rest
            other = 1 - self.seat
            self.known[other] = self.out
        for s in range(n + 1):
            self.known[s] &= self.out
            slots[s] -= self.known[s].bit_count()
        known_all = 0
        for mask in self.known:
            known_all |= mask
        self.unknown = self.out & ~known_all
        self.slots = slots
        self.holders = tuple(s for s in range(n + 1) if s != self.seat and slots[s] > 0)
        self._unknown_in_suit = [(self.unknown & SUIT_MASKS[x]).bit_count() for x in range(4)]
        self._expect = self._fit()

    # ------------------------------------------------------------------ reading the view

    def _read_kitty(self, view: PlayerView) -> None:
        holder = view.kitty_holder
        if holder is not None and view.kitty_taken is False and holder != self.seat:
            self.known[holder] |= 1 << TWO_OF_CLUBS  # the holder kept the two of clubs

    def _read_passes(self, view: PlayerView) -> None:
        for giver, receiver, cards in view.passes:
            if giver == self.seat:
                for card in cards:
                    self.known[receiver] |= 1 << card

    def _read_tricks(self, view: PlayerView) -> None:
        for seat, shown in enumerate(voids_shown(view)):
            for suit, mask in enumerate(SUIT_MASKS):
                if shown & mask:
                    self.voids[seat] |= 1 << suit

    def _fit(self) -> list[list[float]]:
        """Expected number of hidden cards of each suit in each holder's hand.

        Rows must sum to the holders' free slots, columns to the hidden cards of each suit,
        and a shown void holds nothing: a few rounds of proportional fitting.
        """
        n1 = self.n + 1
        counts = self._unknown_in_suit
        expect = [[0.0] * 4 for _ in range(n1)]
        for s in self.holders:
            for x in range(4):
                if counts[x] and not self.voids[s] >> x & 1:
                    expect[s][x] = 1.0
        rows = [expect[s] for s in self.holders]
        free = [self.slots[s] for s in self.holders]
        for _ in range(12):
            for row, slots in zip(rows, free, strict=True):
                total = row[0] + row[1] + row[2] + row[3]
                if total > 0:
                    scale = slots / total
                    row[0] *= scale
                    row[1] *= scale
                    row[2] *= scale
                    row[3] *= scale
            for x in range(4):
                total = 0.0
                for row in rows:
                    total += row[x]
                if total > 0:
                    scale = counts[x] / total
                    for row in rows:
                        row[x] *= scale
        return expect

    # ------------------------------------------------------------------ who holds what

    def prob_none(self, seat: int, mask: int) -> float:
        """How likely ``seat`` holds none of the cards of ``mask``."""
        if self.known[seat] & mask:
            return 0.0
        mask &= self.unknown
        if not mask:
            return 1.0
        result = 1.0
        for suit in range(4):
            cards = (mask & SUIT_MASKS[suit]).bit_count()
            if cards:
                count = self._unknown_in_suit[suit]
                p = min(1.0, self._expect[seat][suit] / count)
                if p >= 1.0:
                    return 0.0
                result *= (1.0 - p) ** cards
        return result

    def prob_any(self, seat: int, mask: int) -> float:
        return 1.0 - self.prob_none(seat, mask)

    def prob_void(self, seat: int, suit: int) -> float:
        if self.voids[seat] >> suit & 1:
            return 1.0
        return self.prob_none(seat, self.out & SUIT_MASKS[suit])

    # ------------------------------------------------------------------ my cards

    def higher_out(self, card: int) -> int:
        """The cards still out that beat ``card`` in its own suit."""
        return self.out & higher_in_suit(card)

    # ------------------------------------------------------------------ sides and seats

    def is_friend(self, seat: int) -> bool:
        return self.rules.side_of[seat] == self.rules.side_of[self.seat]

    def opponents(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.n) if not self.is_friend(s))

    def is_live_nil(self, seat: int) -> bool:
        return live_nil(self.view, seat)

    @property
    def tricks_left(self) -> int:
        """Tricks still to play, this one included."""
        return len(self.view.hand)

    # ------------------------------------------------------------------ rules and score

    def bag_value(self, side: SideInfo) -> float:
        """What one more bag is worth to ``side``, in points (negative when bags cost)."""
        rules = self.rules
        if rules.bag_limit is None or rules.bag_penalty <= 0:
            return 1.0
        cost = rules.bag_penalty / rules.bag_limit
        if rules.bag_takeback:
            cost += 1.0
        if side.bags + 1 >= rules.bag_limit - 1:
            cost *= 1.8  # the penalty is about to land
        return 1.0 - cost

    def reaches_target(self, side: SideInfo, points: int) -> bool:
        return side.score + points >= self.rules.target_score
