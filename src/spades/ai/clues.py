"""What a seat's plays say about the cards it still holds: inference from play.

Players follow a few plain habits, and a card that breaks one says something about the hand
it came from. A seat that still needs tricks and follows with a card that loses plays its
lowest of the suit (a higher one would be wasted), so it is unlikely to hold a lower one; a
seat last to play that takes the trick from an opponent takes it as cheaply as it can, so it
is unlikely to hold a cheaper card that would have won; a nil bidder ducks with its highest
card that still loses, so it is unlikely to hold one between that card and the winner. These
are the rules the playouts play by (``kernel.Guide``) and the ones the table's players keep.

Each clue names the cards whose holding would have broken the habit. A deal is at odds with
a clue when the seat holds such a card and it is not equivalent to the card played (some
card that was still out lies between them, so the two did not win and lose the same
tricks). The sampler keeps a deal at odds with a clue with a lower probability (``trust``),
never zero: players break habits, and a seat that did not play by them this hand has its
clues dropped (a card it played later already broke one).

Only what the seat's ``PlayerView`` shows is read: the bids, the tricks and who played what.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.engine import SUIT_MASK_OF, SUIT_OF, PlayerView

from .kernel import BEATERS, rulebook_of
from .knowledge import higher_in_suit, lower_in_suit
from .native import adopt

LOWEST, HIGHEST, WINNER = range(3)


@dataclass(frozen=True, slots=True)
class Clue:
    """One play and the cards it makes unlikely in its seat's hand."""

    seat: int
    card: int
    #: cards not yet played whose holding would have broken the habit
    unlikely: int
    #: the cards of the seat then that it has played since (known to have been held)
    known: int
    #: cards still out when the card was played, not in ``known``: one of them between the
    #: card and an unlikely card makes the two not equivalent
    out: int
    #: which habit: ``LOWEST`` or ``HIGHEST`` of the cards it could have played (an
    #: unlikely card is at odds unless equivalent to the card), or ``WINNER`` (it took the
    #: trick when it could: any unlikely card held is at odds)
    habit: int

    def broken(self, hand: int) -> bool:
        """Is ``hand`` (the seat's cards now) at odds with this clue?"""
        if not hand & self.unlikely:
            return False  # (the cards it played since were checked when the clue was read)
        return self._broken(hand)

    def _broken(self, hand: int) -> bool:
        held = (hand | self.known) & self.unlikely
        if not held:
            return False
        habit = self.habit
        if habit == WINNER:
            return True
        card = self.card
        if habit == LOWEST:
            other = (held & -held).bit_length() - 1  # the lowest: the habit's card
            between = lower_in_suit(card) & higher_in_suit(other)
        else:
            other = held.bit_length() - 1
            between = higher_in_suit(card) & lower_in_suit(other)
        return bool(between & self.out & ~hand)


def clues_of(view: PlayerView) -> list[Clue]:
    """The clues in the plays of the other seats this hand, as ``view``'s seat reads them.

    Only plays made in a plain moment are read: no nil still alive at the table but the
    player's own (covering and setting a nil change what a seat plays), and the player's
    side still short of its contract (a side that has made it may duck with high cards to
    save bags). A seat whose later plays show it broke a habit has no clues read."""
    rules = view.rules
    book = rulebook_of(rules)
    n = rules.players
    bids = view.bids
    nil = [b is not None and b.nil for b in bids]
    contract = [sum(b.tricks for s in side if (b := bids[s]) is not None and not b.nil)
                for side in book.sides]
    tricks = [0] * n
    played: list[tuple[int, tuple[int, ...], int]] = [
        (tr.leader, tuple(int(c) for c in tr.cards), tr.winner) for tr in view.history]
    if view.trick:
        played.append((view.trick[0][0], tuple(int(c) for _, c in view.trick), -1))
    later = [0] * n  # the cards each seat plays after the play being read
    for leader, cards, _ in played:
        for index, card in enumerate(cards):
            later[(leader + index) % n] |= 1 << card
    out = book.deck_mask  # the cards not yet played at the play being read
    found: list[Clue] = []
    dropped = [False] * n
    for leader, cards, winner in played:
        led = SUIT_OF[cards[0]]
        suit = SUIT_MASK_OF[cards[0]]
        top = cards[0]
        top_seat = leader
        out &= ~(1 << top)
        later[leader] &= ~(1 << top)
        for index in range(1, len(cards)):
            seat = (leader + index) % n
            card = cards[index]
            later[seat] &= ~(1 << card)
            beat = BEATERS[top][led]
            wins = bool(beat >> card & 1)
            if seat != view.seat and not dropped[seat]:
                for unlikely, kind in _habits(book.side_of, book.sides, seat, card, top_seat, wins,
                                              beat, suit, index == n - 1, nil, tricks,
                                              contract):
                    clue = Clue(seat, card, unlikely & out, later[seat],
                                out & ~later[seat] & ~(1 << card), kind)
                    if clue._broken(0):
                        dropped[seat] = True  # it held such a card: not its habit
                    elif clue.unlikely & ~clue.known:
                        found.append(clue)
            out &= ~(1 << card)
            if wins:
                top, top_seat = card, seat
        if winner >= 0:
            tricks[winner] += 1
    return [c for c in found if not dropped[c.seat]]


def _habits(side_of: tuple[int, ...], sides: tuple[tuple[int, ...], ...], seat: int,
            card: int, top_seat: int, wins: bool, beat: int, suit: int, last: bool,
            nil: list[bool], tricks: list[int], contract: list[int]) -> list[tuple[int, int]]:
    """The cards one play (not a lead) makes unlikely, with the habit each breaks (none
    when the moment says nothing plain)."""
    follows = bool(suit >> card & 1)
    if nil[seat] and not tricks[seat]:
        if follows and not wins:  # a nil bidder's duck: the highest card that loses
            return [(higher_in_suit(card) & ~beat, HIGHEST)]
        return []
    if any(nil[s] and not tricks[s] for s in range(len(nil))):
        return []
    side = side_of[seat]
    if sum(tricks[s] for s in sides[side] if not nil[s]) >= contract[side]:
        return []
    against = side_of[top_seat] != side  # an opponent's card is winning the trick
    if not wins:
        found = [(lower_in_suit(card), LOWEST)] if follows else []  # a loser: the lowest
        if against and (last or not follows):  # it could not take the trick (or trump it)
            found.append((beat & suit if follows else beat, WINNER))
        return found
    if last and against:  # taken from an opponent: as cheaply as it can
        cheaper = lower_in_suit(card) & beat
        return [(cheaper, LOWEST)] if cheaper else []
    return []


# the compiled twin's names, where it is built from this source (native.py)
adopt(globals())
