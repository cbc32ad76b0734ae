"""Deals sampled consistently with everything one seat knows, for determinized search.

``facts_of(view)`` reads a ``PlayerView`` (never the state) into hard facts: the cards of
the seat, the cards played, the suits a seat has shown it is void in (it did not follow, or
it led a spade before spades were broken), cards whose place is known (passed in a blind-nil
pass, the 2 of clubs in a kitty exchange, the two-player face-up discards) and how many
unknown cards each other seat (and a face-down kitty) holds.

``DealSampler`` draws holdings uniformly among the deals that fit those facts. It is exact,
not a greedy deal-and-repair: seats with no void take the leftover cards as a block, and the
number of ways to give the void-constrained seats their cards is counted suit by suit
(multinomial coefficients, memoised), so each deal is drawn with its true probability.
Bids are soft evidence on top: a deal is kept with a probability that falls when a seat's
original hand does not look like its bid (a nil bidder rarely holds a high spade, a bid of
five rarely comes from a hand worth one), by rejection, so frequencies stay calibrated; a
plain bid is read as players make them, under the hand's count (``reading``: a line fitted
on a mix of playing styles). With ``trust`` the plays are read too (``clues``: a deal in
which a seat's play broke a habit players keep, say a losing card played over a lower one
it held, keeps ``1 - trust`` of its weight per clue).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from itertools import product

from spades.engine import ABOVE, SUIT_MASKS, TWO_OF_CLUBS, Phase, PlayerView, Rules

from .clues import clues_of
from .kernel import (
    CLUBS,
    PLAIN,
    RANK,
    SPADES,
    Guide,
    Position,
    Rulebook,
    cards_of,
    deal,
    guided_playout,
    rulebook_of,
)
from .knowledge import voids_shown
from .native import adopt
from .reading import BidReading, reading_of


@dataclass
class Facts:
    """Hard facts about where the unseen cards are. Holder ``n`` is the kitty."""

    seat: int
    players: int
    mine: int
    played: int
    pool: int
    capacity: list[int]
    fixed: list[int]
    voids: list[int]
    played_by: list[int] = field(default_factory=list)

    @property
    def holders(self) -> list[int]:
        return [h for h in range(len(self.capacity)) if self.capacity[h] > 0]


def facts_of(view: PlayerView) -> Facts:
    """What the seat of ``view`` knows about the cards it cannot see."""
    rules = view.rules
    book = rulebook_of(rules)
    n = rules.players
    seat = view.seat
    mine = view.hand_mask
    played = view.played
    known_out = 0  # cards in no seat's hand that the seat knows of
    fixed = [0] * (n + 1)
    capacity = [view.hand_sizes[s] if s != seat else 0 for s in range(n)] + [0]
    for card in view.discards:
        known_out |= 1 << card
    if rules.kitty and view.phase not in (Phase.KITTY, Phase.DRAW):
        if view.kitty_holder is None or view.kitty_taken:
            known_out |= 1 << TWO_OF_CLUBS  # the kitty is (now) the 2 of clubs
        else:
            capacity[n] = 1  # the kitty is face down, unknown to everyone
            if view.kitty_holder != seat and not played & 1:
                fixed[view.kitty_holder] |= 1 << TWO_OF_CLUBS
    for giver, receiver, cards in view.passes:
        if giver == seat and receiver != seat:
            for card in cards:
                if not (played >> card) & 1:
                    fixed[receiver] |= 1 << card
    voids = [*voids_shown(view), 0]
    played_by = [0] * n
    for tr in view.history:
        for index, card in enumerate(tr.cards):
            played_by[(tr.leader + index) % n] |= 1 << card
    for who, card in view.trick:
        played_by[who] |= 1 << card
    pool = book.deck_mask & ~mine & ~played & ~known_out
    for h in range(n + 1):
        fixed[h] &= pool
        pool &= ~fixed[h]
    if rules.first_lead == "lowest-club" and capacity[n]:
        first = view.history[0] if view.history else None
        lead = first.cards[0] if first else (view.trick[0][1] if view.trick else None)
        if lead is not None:
            # nobody held a club below the first lead: it is in the kitty
            below = CLUBS & ~ABOVE[lead] & ~(1 << lead) if lead < 13 else CLUBS
            hidden = pool & below
            if hidden and hidden.bit_count() <= capacity[n]:
                fixed[n] |= hidden
                pool &= ~hidden
    for h in range(n + 1):
        capacity[h] -= fixed[h].bit_count()
    return Facts(seat=seat, players=n, mine=mine, played=played, pool=pool,
                     capacity=capacity, fixed=fixed, voids=voids, played_by=played_by)


class ImpossibleDeal(ValueError):
    """No deal fits the facts (a view that contradicts itself)."""


#: The deals tried for one sample when plays are read (a deal at odds with a clue keeps
#: little weight). Evidence: docs/ai-tuning.md#sampler-clue-tries
CLUE_TRIES = 30


class DealSampler:
    """Draws the other seats' holdings (and the kitty) for one view.

    ``sample(rng)`` returns a list of masks, one per seat (the seat's own hand included) and
    the kitty last. With ``evidence`` the bids weigh the deals (see the module doc).
    """

    def __init__(self, view: PlayerView, *, evidence: bool = True,
                 max_tries: int = 12, reading: BidReading | None = None,
                 edge: float = 0.0, trust: float = 0.0) -> None:
        self.view = view
        #: how a plain bid follows the bidder's hand (``reading.reading_of`` the table's)
        self.reading = reading_of(view.rules) if reading is None else reading
        self.facts = facts = facts_of(view)
        self.book: Rulebook = rulebook_of(view.rules)
        #: per seat, what is added to its bid before reading it: ``edge`` for an opponent
        side_of = self.book.side_of
        self.edges = [edge if side_of[s] != side_of[view.seat] else 0.0
                      for s in range(facts.players)]
        self.max_tries = max_tries
        n = facts.players
        holders = facts.holders
        if sum(facts.capacity) != facts.pool.bit_count():
            raise ImpossibleDeal(
                f"{facts.pool.bit_count()} unseen cards for {sum(facts.capacity)} places")
        self.suits = [cards_of(facts.pool & s) for s in SUIT_MASKS]
        self.constrained = [h for h in holders if h < n and facts.voids[h] & facts.pool]
        self.free = [h for h in holders if h not in self.constrained]
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int]]] = {}
        self._after = [sum(len(s) for s in self.suits[i:]) for i in range(5)]
        if self.constrained and not self._ways(0, self._caps()):
            raise ImpossibleDeal("no deal fits the voids shown")
        self.bids = view.bids
        #: what the other seats' plays say (``clues``), and the share of a deal's weight a
        #: clue it is at odds with takes away (0: plays are not read)
        self.trust = trust
        self.clues = clues_of(view) if trust > 0 else []
        if self.clues:  # more deals are tried: a clue at odds takes most of a weight
            self.max_tries = max(max_tries, CLUE_TRIES)
        self.evidence = evidence and (bool(self.clues) or any(
            b is not None and s != view.seat for s, b in enumerate(view.bids)))

    @property
    def certain(self) -> bool:
        """Only one deal fits (every unseen card's place is known, e.g. two-player after
        the draw)."""
        return len(self.facts.holders) <= 1

    def _caps(self) -> tuple[int, ...]:
        return tuple(self.facts.capacity[h] for h in self.constrained)

    def _options(self, suit: int, caps: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Each way to give the constrained holders their cards of ``suit``, with its count
        of card choices times the ways to finish the deal from there."""
        key = (suit, caps)
        cached = self._choices.get(key)
        if cached is not None:
            return cached
        size = len(self.suits[suit])
        free_room = self._after[suit] - sum(caps)
        voids = self.facts.voids
        mask = SUIT_MASKS[suit]
        ranges = [range(1) if voids[h] & mask else range(min(c, size) + 1)
                  for h, c in zip(self.constrained, caps, strict=True)]
        out: list[tuple[tuple[int, ...], int]] = []
        for counts in product(*ranges):
            taken = sum(counts)
            rest = size - taken
            if rest < 0 or rest > free_room or (rest and not self.free):
                continue
            coef = math.factorial(size) // math.factorial(rest)
            for c in counts:
                coef //= math.factorial(c)
            after = tuple(cap - count for cap, count in zip(caps, counts, strict=True))
            ways = coef * self._ways(suit + 1, after)
            if ways:
                out.append((counts, ways))
        self._choices[key] = out
        return out

    def _ways(self, suit: int, caps: tuple[int, ...]) -> int:
        if suit == 4:
            return 0 if any(caps) else 1
        key = (suit, caps)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = sum(w for _, w in self._options(suit, caps))
        return got

    def uniform(self, rng: random.Random) -> list[int]:
        """Holdings drawn uniformly among the deals that fit the hard facts."""
        facts = self.facts
        rnd = rng.random
        out = facts.fixed[:]
        out[facts.seat] = facts.mine
        leftover: list[int] = []
        if self.constrained:
            caps = self._caps()
            for suit in range(4):
                cards = self.suits[suit]
                options = self._options(suit, caps)
                total = sum(w for _, w in options)
                pick = rnd() * total
                counts = options[-1][0]
                for option, weight in options:
                    pick -= weight
                    if pick < 0:
                        counts = option
                        break
                cards = sorted(cards, key=lambda _c: rnd())
                start = 0
                for h, count in zip(self.constrained, counts, strict=True):
                    for card in cards[start:start + count]:
                        out[h] |= 1 << card
                    start += count
                leftover += cards[start:]
                caps = tuple(cap - count for cap, count in zip(caps, counts, strict=True))
        else:
            for cards in self.suits:
                leftover += cards
        leftover.sort(key=lambda _c: rnd())
        start = 0
        for h in self.free:
            room = facts.capacity[h]
            for card in leftover[start:start + room]:
                out[h] |= 1 << card
            start += room
        return out

    def sample(self, rng: random.Random) -> list[int]:
        """Holdings per seat (and the kitty last), with the bids as soft evidence."""
        if not self.evidence:
            return self.uniform(rng)
        best: list[int] = []
        best_weight = -1.0
        for _ in range(self.max_tries):
            deal = self.uniform(rng)
            weight = self.weight(deal)
            if rng.random() < weight:
                return deal
            if weight > best_weight:
                best, best_weight = deal, weight
        return best

    def weight(self, deal: list[int]) -> float:
        """How well the other seats' original hands fit their bids, 0..1."""
        facts = self.facts
        book = self.book
        reading = self.reading
        weight = 1.0
        for s, bid in enumerate(self.bids):
            if bid is None or s == facts.seat or bid.blind:
                continue
            hand = deal[s] | facts.played_by[s]
            if bid.nil:
                weight *= nil_likelihood(hand, book)
            else:
                gap = reading.gap(bid.tricks + self.edges[s], estimate_tricks(hand, book))
                weight *= math.exp(-0.5 * gap * gap)
        if self.clues:
            kept = 1.0 - self.trust
            for clue in self.clues:
                if clue.broken(deal[clue.seat]):
                    weight *= kept
        return weight


# ---------------------------------------------------------------------------- hand reading

_ACE = (0.0, 0.95, 0.99, 0.98, 0.97, 0.93, 0.8, 0.6)
_KING = (0.0, 0.25, 0.85, 0.8, 0.72, 0.6, 0.45, 0.3)
_QUEEN = (0.0, 0.0, 0.2, 0.35, 0.3, 0.2, 0.1, 0.05)


_ACES = tuple(1 << (13 * s + 12) for s in range(3))
_KINGS = tuple(1 << (13 * s + 11) for s in range(3))
_QUEENS = tuple(1 << (13 * s + 10) for s in range(3))


def estimate_tricks(hand: int, book: Rulebook) -> float:
    """A quick count of the tricks a hand takes (the strategy guides' counts): side aces
    and protected kings, spade honours with enough guards, length in spades, and short side
    suits to trump with spare spades; fitted to the variant (see ``_fit``)."""
    spades = hand & SPADES
    count = spades.bit_count()
    top = book.top_spade
    honours = 0.0
    winners = 0
    index = 0
    m = spades
    while m:
        card = m.bit_length() - 1
        m ^= 1 << card
        above = (top - card) - index  # higher spades in other hands
        guards = count - 1 - index
        if above <= 0:
            honours += 1.0
            winners += 1
        elif above <= guards:
            honours += 0.85 if above == 1 else 0.6
            winners += 1
        elif above == guards + 1:
            honours += 0.3
        else:
            break
        index += 1
    total = honours + max(0, count - max(3, winners))
    short = 0.0
    for suit in range(3):
        m = hand & SUIT_MASKS[suit]
        length = m.bit_count()
        if length < 3:
            short += (1.0, 0.5, 0.2)[length]
            if not length:
                continue
        size = length if length < 7 else 7
        if m & _ACES[suit]:
            total += _ACE[size]
            if m & _KINGS[suit]:
                total += _KING[size] * 0.9
                if m & _QUEENS[suit]:
                    total += _QUEEN[size] * 1.5
            elif m & _QUEENS[suit]:
                total += _QUEEN[size]
        elif m & _KINGS[suit]:
            total += _KING[size]
            if m & _QUEENS[suit]:
                total += _QUEEN[size]
        elif m & _QUEENS[suit]:
            total += _QUEEN[size]
    spare = count - winners
    if spare > 0:
        total += min(spare * 0.8, short)
    intercept, slope = _fit(book.rules)
    return intercept + slope * total


#: the fitted lines by the rules they were fitted with. Keyed by the whole rules, not by
#: a kind of table: the playouts play by every rule (sides, breaking spades...), so a line
#: fitted with one preset's rules and reused for another made a decision depend on which
#: preset the process met first (issue 40 item 3)
_FITS: dict[Rules, tuple[float, float]] = {}
#: at most this many lines are kept (the oldest goes first)
_FITS_KEPT = 64


def _fit(rules: Rules) -> tuple[float, float]:
    """(intercept, slope) that turn the guides' counts (made for four players and 52
    cards) into this variant's tricks: a least-squares line through the tricks the
    rule-guided playouts take on fixed random deals, fitted once per rules."""
    fit = _FITS.get(rules)
    if fit is not None:
        return fit
    while len(_FITS) >= _FITS_KEPT:
        del _FITS[next(iter(_FITS))]
    book = rulebook_of(rules)
    n = book.n
    fit = _FITS[rules] = (0.0, 1.0)  # while fitting, estimate_tricks gives the raw count
    rng = random.Random(0)
    for _ in range(2):  # the second pass bids with the first pass's line
        xs: list[float] = []
        ys: list[float] = []
        for _ in range(150):
            hands = deal(book, rng)
            raws = [estimate_tricks(h, book) for h in hands]
            bids = [max(1, min(book.hand_size, round(fit[0] + fit[1] * x))) for x in raws]
            pos = Position(hands=hands, leader=rng.randrange(n), tricks=[0] * n, bids=bids,
                           nils=[PLAIN] * n, players=n)
            xs += raws
            ys += guided_playout(book, pos, Guide(book, bids, [PLAIN] * n), rng.random)
        mx = sum(xs) / len(xs)
        my = sum(ys) / len(ys)
        var = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var
        _FITS[rules] = (0.0, 1.0)
        fit = (my - slope * mx, slope)
    _FITS[rules] = fit
    return fit


def nil_likelihood(hand: int, book: Rulebook) -> float:
    """How likely a hand is to have been bid nil, relative to the best nil hand (0..1)."""
    weight = 1.0
    spades = hand & SPADES
    top = RANK[book.top_spade]
    for card in cards_of(spades):
        gap = top - RANK[card]
        if gap == 0:
            weight *= 0.08
        elif gap == 1:
            weight *= 0.25
        elif gap == 2:
            weight *= 0.55
    count = spades.bit_count()
    if count > 3:
        weight *= 0.5 ** (count - 3)
    for suit in SUIT_MASKS[:3]:
        m = hand & suit
        if m and RANK[m.bit_length() - 1] == 12:
            weight *= 0.6
    return weight


# the compiled twin's names, where it is built from this source (native.py)
adopt(globals())
