"""A fast playout kernel for the search: one hand in play, cards as bit masks.

The engine's ``GameState`` is immutable and careful; a search plays hundreds of thousands of
cards per decision, so it uses this lean, mutable ``Position`` instead. A ``Rulebook`` is a
``Rules`` value compiled once for it (every ``spades_break``, ``failed_nil``, bag and moon
option, as plain ints and tuples). The rules themselves are the engine's laws
(``spades.engine.laws``: legal plays, spades broken, the trick winner, the first lead, the
end of the game) and its scoring; only the inner loops (``play``, and ``random_trick`` for
``random_playout``) write the trick winner and spades breaking out inline for speed (and
``random_trick`` the legal plays), and ``tests/ai/test_kernel.py`` checks them against the
laws for every preset and every ``spades_break`` rule.

Cards are the engine's indices (clubs 0-12, diamonds 13-25, hearts 26-38, spades 39-51, the
jokers 52-53 as the two top spades), so within one suit, and across spades and jokers, a
higher index is a higher card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from math import comb

from spades.engine import (
    ABOVE,
    BIDS,
    BLIND_NIL,
    FIRST_SPADE,
    NON_SPADES_MASK,
    RANK_OF,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_OF,
    Bid,
    Rules,
    apply_bags,
    beaters,
    boston_side,
    breaks_spades,
    contract_points,
    deck_mask,
    first_lead,
    first_leader,
    game_over,
    legal_bids,
    legal_plays,
    penalty_at_limit,
)
from spades.engine import NIL as NIL_BID
from spades.engine import side_points as engine_side_points

from .native import adopt

CLUBS, DIAMONDS, HEARTS, SPADES = SUIT_MASKS
#: 0 for two ... 12 for ace, 13 and 14 for the Little and Big Joker.
RANK: tuple[int, ...] = tuple(rank - 2 for rank in RANK_OF)
#: ``BEATERS[top][suit]`` is the engine's ``beaters(top, suit)``, looked up in the search.
BEATERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(beaters(top, suit) for suit in range(4)) for top in range(len(RANK_OF)))

BREAK_OFFSUIT: int = 0
BREAK_ANY_SPADE: int = 1
BREAK_VOID: int = 2
_BREAK_CODES = {"offsuit": BREAK_OFFSUIT, "any-spade": BREAK_ANY_SPADE, "void": BREAK_VOID}
#: Bid kinds in ``Position.nils``.
PLAIN, NIL, BLIND = 0, 1, 2


class Rulebook:
    """The rules of one game compiled for the kernel: what a ``Rules`` value says, as plain
    ints and tuples read in hot loops."""

    __slots__ = (
        "bag_share", "bags_cost", "bids", "break_mode", "deck", "deck_mask", "hand_size",
        "lowest_club", "n", "partner_of", "rules", "side_of", "sides", "spades_break",
        "top_spade",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.n = rules.players
        self.sides: tuple[tuple[int, ...], ...] = rules.sides
        self.side_of: tuple[int, ...] = rules.side_of
        self.partner_of: tuple[int, ...] = tuple(
            -1 if p is None else p for p in rules.partner_of)
        self.hand_size = rules.hand_size
        self.deck_mask = deck_mask(rules)
        self.deck: tuple[int, ...] = tuple(int(c) for c in rules.deck)
        #: the deck's highest spade (the Big Joker when the jokers are in)
        self.top_spade = (self.deck_mask & SPADES).bit_length() - 1
        self.spades_break = rules.spades_break
        #: the legal bids before a partner has bid (every bid's choices outside suicide)
        self.bids = legal_bids(rules)
        self.break_mode = _BREAK_CODES[rules.spades_break]
        self.lowest_club = rules.first_lead == "lowest-club"
        #: what each bag costs: its share of the penalty its side pays at the bag limit
        #: (0.0 with no limit)
        self.bag_share = (penalty_at_limit(rules) / rules.bag_limit
                          if rules.bag_limit is not None else 0.0)
        self.bags_cost = rules.bag_limit is not None and (rules.bag_penalty > 0
                                                          or rules.bag_takeback)


@lru_cache(maxsize=64)
def rulebook_of(rules: Rules) -> Rulebook:
    """The ``Rulebook`` of ``rules`` (made once per rules value)."""
    return Rulebook(rules)


class Position:
    """One hand in play, mutable: the holdings of every seat, the trick on the table, the
    tricks taken and the bids. ``copy`` is cheap; ``play`` collects a finished trick."""

    __slots__ = ("bids", "broken", "first", "hands", "leader", "left", "nils", "played",
                 "trick", "tricks", "turn", "win_card", "win_seat")

    def __init__(self, *, hands: Sequence[int], leader: int, trick: Sequence[int] = (),
                 broken: bool = False, tricks: Sequence[int], played: int = 0,
                 first: bool = True, bids: Sequence[int], nils: Sequence[int],
                 players: int, left: int = -1) -> None:
        self.hands = list(hands)
        self.leader = leader
        self.trick: list[int] = []
        self.broken = broken
        self.tricks = list(tricks)
        self.played = played
        self.first = first
        self.bids = tuple(bids)
        self.nils = tuple(nils)
        self.turn = leader
        self.win_card = -1
        self.win_seat = -1
        #: tricks still to be won (``left`` when given: the most cards a seat holds)
        self.left = left if left >= 0 else max((h.bit_count() for h in hands), default=0)
        for card in trick:  # replay the cards on the table for the winner so far
            self._add(card, players)
        if trick:
            self.left = max(self.left, self.hands[self.turn].bit_count())

    def _add(self, card: int, players: int) -> None:
        seat = (self.leader + len(self.trick)) % players
        if not self.trick or beaters(self.win_card, SUIT_OF[self.trick[0]]) >> card & 1:
            self.win_card = card
            self.win_seat = seat
        self.trick.append(card)
        self.turn = (seat + 1) % players

    def copy(self) -> Position:
        # through __init__ (with ``left`` given, it counts nothing): a class compiled by
        # mypyc has no bare ``__new__``
        other = Position(hands=self.hands, leader=self.leader, broken=self.broken,
                         tricks=self.tricks, played=self.played, first=self.first,
                         bids=self.bids, nils=self.nils, players=0, left=self.left)
        other.trick = self.trick[:]
        other.turn = self.turn
        other.win_card = self.win_card
        other.win_seat = self.win_seat
        return other

    @property
    def over(self) -> bool:
        return self.left == 0


# ---------------------------------------------------------------------------- play

def legal_mask(book: Rulebook, pos: Position) -> int:
    """The cards the seat to act may play (the engine's ``legal_plays``)."""
    trick = pos.trick
    if trick:  # follow suit if you can: ``legal_plays`` written out, for the search
        held = pos.hands[pos.turn]
        return held & SUIT_MASK_OF[trick[0]] or held
    opening = first_lead(book.rules, pos.hands) if pos.first and book.lowest_club else 0
    return legal_plays(pos.hands[pos.turn], None, pos.broken, opening)


def play(book: Rulebook, pos: Position, card: int) -> None:
    """The seat to act plays ``card`` (assumed legal); a full trick is collected."""
    seat = pos.turn
    bit = 1 << card
    pos.hands[seat] ^= bit
    pos.played |= bit
    trick = pos.trick
    if not trick:
        if not pos.broken and breaks_spades(book.spades_break, None, card):
            pos.broken = True
        trick.append(card)
        pos.win_card = card
        pos.win_seat = seat
    else:
        led = trick[0]
        if not pos.broken and breaks_spades(book.spades_break, led, card):
            pos.broken = True
        # the trick winner, written out (``laws.beaters``): this runs for every card
        w = pos.win_card
        if card >= FIRST_SPADE:
            if w < FIRST_SPADE or card > w:
                pos.win_card = card
                pos.win_seat = seat
        elif FIRST_SPADE > w < card and bit & SUIT_MASK_OF[led]:
            pos.win_card = card
            pos.win_seat = seat
        trick.append(card)
    if len(trick) == book.n:
        winner = pos.win_seat
        pos.tricks[winner] += 1
        pos.leader = pos.turn = winner
        trick.clear()
        pos.first = False
        pos.left -= 1
    else:
        pos.turn = (seat + 1) % book.n


def cards_of(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def random_card(mask: int, rnd: Callable[[], float]) -> int:
    """A card of a non-empty mask, uniformly at random."""
    skip = int(rnd() * mask.bit_count())
    while skip:
        mask &= mask - 1
        skip -= 1
    return (mask & -mask).bit_length() - 1


# ---------------------------------------------------------------------------- scoring

#: The engine's bid for each (kind, tricks) of the kernel's int-coded bids.
_BID_OF: tuple[tuple[Bid, ...], ...] = (BIDS, (NIL_BID,) * len(BIDS), (BLIND_NIL,) * len(BIDS))


def side_points(book: Rulebook, side: Sequence[int], bids: Sequence[int], nils: Sequence[int],
                tricks: Sequence[int]) -> tuple[int, int]:
    """Points and new bags of one side in one hand, before the bag penalty: the engine's
    own arithmetic, so that playouts score exactly as the game does."""
    chosen = [_BID_OF[kind][bid] for kind, bid in zip(nils, bids, strict=True)]
    return engine_side_points(book.rules, side, chosen, tricks)


def bag_penalty(book: Rulebook, bags: int, new_bags: int) -> tuple[int, int]:
    """(penalty points, bag count after penalties), as the engine counts them."""
    return apply_bags(book.rules, bags, new_bags)


def hand_points(book: Rulebook, bids: Sequence[int], nils: Sequence[int], tricks: Sequence[int],
                bags: Sequence[int]) -> tuple[list[int], list[int]]:
    """Each side's points for the hand (bag penalty included) and its bags after it."""
    points: list[int] = []
    after: list[int] = []
    for index, side in enumerate(book.sides):
        earned, fresh = side_points(book, side, bids, nils, tricks)
        penalty, count = bag_penalty(book, bags[index], fresh)
        points.append(earned + penalty)
        after.append(count)
    return points, after


def game_result(book: Rulebook, scores: Sequence[int], tricks: Sequence[int]) -> tuple[bool, int]:
    """(over, winning side or -1) once a hand's points are added to ``scores``: the
    engine's ``game_over``, with Boston read from the hand's ``tricks``."""
    over, winner = game_over(book.rules, scores, boston_side(book.rules, tricks))
    return over, -1 if winner is None else winner


class Evaluator:
    """What a hand's final trick counts are worth to one side: its points minus the other
    sides' average (with ``weights``, one per side, the side's own 0: minus each other
    side's points times its weight, ``standing.threat_weights`` where each plays for
    themselves), each side's new bags charged their share of the bag penalty (when bags
    cost), plus ``win_bonus`` when the hand ends the game in its favour (minus when
    against), so that the score of the game shapes bids and play. Memoised per trick tuple."""

    __slots__ = ("bags", "bids", "book", "memo", "nils", "scores", "side", "weights",
                 "win_bonus")

    def __init__(self, book: Rulebook, side: int, *, bids: Sequence[int], nils: Sequence[int],
                 scores: Sequence[int], bags: Sequence[int], win_bonus: float = 200.0,
                 weights: Sequence[float] | None = None) -> None:
        self.book = book
        self.side = side
        self.bids = tuple(bids)
        self.nils = tuple(nils)
        self.scores = tuple(scores)
        self.bags = tuple(bags)
        self.win_bonus = win_bonus
        #: each side's weight in the margin (empty: the other sides' average)
        self.weights: tuple[float, ...] = () if weights is None else tuple(weights)
        self.memo: dict[tuple[int, ...], float] = {}

    def __call__(self, tricks: Sequence[int]) -> float:
        key = tuple(tricks)
        value = self.memo.get(key)
        if value is None:
            value = self.memo[key] = self._value(key)
        return value

    def _value(self, tricks: tuple[int, ...]) -> float:
        book = self.book
        points, after = hand_points(book, self.bids, self.nils, tricks, self.bags)
        values: list[float] = [float(p) for p in points]
        if book.bags_cost:
            # bags are a debt: each one brings the next penalty nearer, so it is charged
            # its share of the penalty now (and the penalty paid this hand is refunded
            # from the debt), the "points - 10 x bags" of the Spades literature
            share = book.bag_share
            values = [p - share * (a - b) for p, a, b in zip(points, after, self.bags,
                                                               strict=True)]
        mine = values[self.side]
        weights = self.weights
        if weights:  # each for themselves: the margin to each side, weighed by its threat
            value = float(mine)
            for index, weight in enumerate(weights):
                if index != self.side:
                    value -= weight * values[index]
        else:
            others = len(values) - 1
            value = float(mine) - (sum(values) - mine) / others
        if self.win_bonus:
            totals = [s + p for s, p in zip(self.scores, points, strict=True)]
            over, winner = game_result(book, totals, tricks)
            if over:
                value += self.win_bonus if winner == self.side else -self.win_bonus
        return value


# ---------------------------------------------------------------------------- playouts

def random_playout(book: Rulebook, pos: Position, rnd: Callable[[], float]) -> list[int]:
    """Play the hand out with uniformly random legal cards; the final trick counts."""
    while pos.left:
        if pos.trick or (pos.first and book.lowest_club):
            # the trick on the table, or the hand's opening lead: through the general path
            play(book, pos, random_card(legal_mask(book, pos), rnd))
        else:
            random_trick(book, pos, rnd)
    return pos.tricks


def random_trick(book: Rulebook, pos: Position, rnd: Callable[[], float]) -> None:
    """One whole trick from the lead with uniformly random legal cards, ``play`` and
    ``random_card`` written out (the lead not the hand's first under a lowest-club rule)."""
    n = book.n
    hands = pos.hands
    leader = pos.leader
    h = hands[leader]
    m = h if pos.broken else (h & NON_SPADES_MASK or h)
    skip = int(rnd() * m.bit_count())
    while skip:
        m &= m - 1
        skip -= 1
    card = (m & -m).bit_length() - 1
    hands[leader] = h ^ (1 << card)
    played = pos.played | (1 << card)
    mode = book.break_mode
    broken = pos.broken or (card >= FIRST_SPADE and mode != BREAK_OFFSUIT)
    led = SUIT_MASK_OF[card]
    best = card
    win = leader
    seat = leader
    for _ in range(n - 1):
        seat = seat + 1 if seat + 1 < n else 0
        h = hands[seat]
        m = h & led or h
        skip = int(rnd() * m.bit_count())
        while skip:
            m &= m - 1
            skip -= 1
        bit = m & -m
        card = bit.bit_length() - 1
        hands[seat] = h ^ bit
        played |= bit
        if card >= FIRST_SPADE:
            if not broken and (mode == BREAK_ANY_SPADE or not led & bit):
                broken = True
            if best < FIRST_SPADE or card > best:
                best = card
                win = seat
        else:
            if not bit & led:
                if mode == BREAK_VOID:
                    broken = True
            elif best < card:
                best = card
                win = seat
    pos.tricks[win] += 1
    pos.leader = pos.turn = win
    pos.played = played
    pos.broken = broken
    pos.first = False
    pos.left -= 1


def deal(book: Rulebook, rng: random.Random) -> list[int]:
    """Random holdings for a fresh hand (the kitty card, if any, left out)."""
    rnd = rng.random
    deck = sorted(book.deck, key=lambda _card: rnd())
    n = book.n
    size = book.hand_size
    hands = [0] * n
    for index in range(n * size):
        hands[index % n] |= 1 << deck[index]
    return hands


def random_hand(book: Rulebook, rng: random.Random) -> tuple[list[int], list[int]]:
    """One complete random hand: deal (the last seat deals), random legal bids, random legal
    play, score. Returns (tricks per seat, points per side)."""
    n = book.n
    rnd = rng.random
    hands = deal(book, rng)
    rules = book.rules
    bids = [0] * n
    nils = [PLAIN] * n
    chosen: list[Bid | None] = [None] * n
    for seat in range(n):
        options = book.bids
        if rules.suicide:
            partner = book.partner_of[seat]
            options = legal_bids(rules, chosen[partner] if partner >= 0 else None)
        bid = chosen[seat] = options[int(rnd() * len(options))]
        if bid.nil:
            nils[seat] = NIL
        else:
            bids[seat] = bid.tricks
    pos = Position(hands=hands, leader=first_leader(rules, n - 1, hands), tricks=[0] * n,
                   bids=bids, nils=nils, players=n)
    tricks = random_playout(book, pos, rnd)
    points, _ = hand_points(book, bids, nils, tricks, [0] * len(book.sides))
    return tricks, points


# ---------------------------------------------------------------------------- guided play

def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def lowest_rank(mask: int) -> int:
    """The lowest-ranked card of a non-empty mask, keeping spades when it can."""
    plain = mask & NON_SPADES_MASK
    if not plain:
        return lowest(mask)
    best = -1
    best_rank = 99
    for suit in (CLUBS, DIAMONDS, HEARTS):
        m = plain & suit
        if m:
            card = (m & -m).bit_length() - 1
            if RANK[card] < best_rank:
                best, best_rank = card, RANK[card]
    return best


def highest_rank(mask: int) -> int:
    """The highest-ranked card of a non-empty mask, any suit."""
    best = -1
    best_rank = -1
    for suit in SUIT_MASKS:
        m = mask & suit
        if m:
            card = m.bit_length() - 1
            if RANK[card] > best_rank:
                best, best_rank = card, RANK[card]
    return best


@lru_cache(maxsize=512)
def set_worth_a_bag(book: Rulebook, contract: int, seats: int) -> tuple[tuple[bool, ...], ...]:
    """``[left][need]``: with ``left`` tricks to play and a side of ``seats`` players
    ``need`` tricks short of ``contract``, is one more trick taken from it worth a bag to a
    side whose own bid is made? The trick decides the contract when the side would take
    exactly ``need - 1`` of the other ``left - 1`` (each with its seats' share of the
    table); a set swings the contract twice (or once when a set costs nothing)."""
    size = book.hand_size
    if not contract:
        return tuple((False,) * (size + 1) for _ in range(size + 1))
    swing = float(contract_points(book.rules, contract, contract)
                  - contract_points(book.rules, contract, 0))
    bag = book.bag_share
    share = seats / book.n
    rows: list[tuple[bool, ...]] = []
    for left in range(size + 1):
        row = [False] * (size + 1)
        for need in range(1, left + 1):
            decides = (comb(left - 1, need - 1) * share ** (need - 1)
                       * (1.0 - share) ** (left - need))
            row[need] = left - need <= 1 or swing * decides >= bag
        rows.append(tuple(row))
    return tuple(rows)


class Guide:
    """A rule-guided playout policy, cheap enough for thousands of hands a second.

    It plays from what a person in the seat sees (its own cards and the cards played, never
    another seat's cards): make the side's bid, then duck to save bags when bags cost;
    a nil bidder ducks under the trick; its partner covers; a side sets an opponent's nil
    and takes tricks when the opponents are close to being set. ``eps`` is the chance of a
    random legal card, so that playouts explore. ``attack`` (one number a seat; None: 1 for
    every seat) is the chance that a seat on lead against an opponent's live nil leads low
    at it; otherwise it leads as it would with no nil at the table.

    Three habits of the table, each for a seat wanting tricks
    (``bench/experiments/guide_fit.py`` counts them; the defaults keep the playouts' old
    habits; docs/ai-tuning.md#hard-table-habits): ``ruff``, the chance that second seat,
    void in the suit led, ruffs rather than discards; ``second`` (below 0: a
    sure winner always, else low), the chance that second seat, able to win in the suit led,
    plays to win (its lowest sure winner, else its lowest winner) rather than low;
    ``trump``, the chance that a seat on lead with spades and other suits leads a spade (its
    boss spade, else its lowest).
    """

    __slots__ = ("attack", "bidders", "book", "contract", "eps", "nil", "opp_nils", "ruff",
                 "second", "settable", "trump")

    def __init__(self, book: Rulebook, bids: Sequence[int], nils: Sequence[int],
                 eps: float = 0.05, attack: Sequence[float] | None = None,
                 ruff: float = 1.0, second: float = -1.0, trump: float = 0.0) -> None:
        self.book = book
        self.eps = eps
        self.ruff = ruff
        self.second = second
        self.trump = trump
        self.attack = None if attack is None else tuple(attack)
        self.nil = tuple(bool(kind) for kind in nils)
        self.contract = tuple(sum(bids[s] for s in side if not nils[s]) for side in book.sides)
        self.bidders = tuple(tuple(s for s in side if not nils[s]) for side in book.sides)
        self.opp_nils = tuple(
            tuple(s for s in range(book.n) if nils[s] and book.side_of[s] != book.side_of[seat])
            for seat in range(book.n))
        self.settable = tuple(
            set_worth_a_bag(book, contract, len(side))
            for contract, side in zip(self.contract, book.sides, strict=True))

    def wants_tricks(self, pos: Position, side: int) -> bool:
        """Does the side still need tricks, or would taking them set the opponents (the
        chance that this trick decides their contract, times what the set is worth, beats
        the cost of a bag)?"""
        tricks = pos.tricks
        contract = self.contract
        taken = 0
        for s in self.bidders[side]:
            taken += tricks[s]
        if contract[side] > taken or not self.book.bags_cost:
            return True
        left = pos.left
        for other, members in enumerate(self.bidders):
            if other != side and members:
                need = contract[other]
                for s in members:
                    need -= tricks[s]
                if 0 < need <= left and self.settable[other][left][need]:
                    return True
        return False

    def choose(self, pos: Position, rnd: Callable[[], float]) -> int:
        """The card the seat to act plays in a playout (see the class)."""
        book = self.book
        legal = legal_mask(book, pos)
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        if rnd() < self.eps:
            return random_card(legal, rnd)
        seat = pos.turn
        tricks = pos.tricks
        live = book.deck_mask & ~pos.played & ~pos.hands[seat]
        if self.nil[seat] and not tricks[seat]:
            return self._nil_card(pos, legal)
        partner = book.partner_of[seat]
        covering = partner >= 0 and self.nil[partner] and not tricks[partner]
        if not pos.trick:
            return self._lead(pos, legal, live, covering, rnd)
        return self._follow(pos, legal, live, covering, rnd)

    def _follow(self, pos: Position, legal: int, live: int, covering: bool,
                rnd: Callable[[], float]) -> int:
        """A card to the trick on the table (``live``: the cards the seat has not seen;
        ``covering``: its partner is a live nil bidder)."""
        book = self.book
        seat = pos.turn
        tricks = pos.tricks
        partner = book.partner_of[seat]
        trick = pos.trick
        n = book.n
        w = pos.win_card
        ws = pos.win_seat
        led = SUIT_MASK_OF[trick[0]]
        beat = BEATERS[w][SUIT_OF[trick[0]]]
        winners = legal & beat
        losers = legal ^ winners
        last = len(trick) == n - 1
        if covering and (ws == partner or (partner - pos.leader) % n > len(trick)):
            if winners:
                return lowest(winners) if last and ws == partner else highest_rank(winners)
            return lowest_rank(losers)
        for nil_seat in self.opp_nils[seat]:
            if not tricks[nil_seat] and (ws == nil_seat or (
                    (nil_seat - pos.leader) % n > len(trick))):
                # let the nil bidder win it, or leave it room to be forced
                return lowest_rank(losers) if losers else lowest(winners)
        if book.side_of[ws] == book.side_of[seat] and (
                last or not live & SUIT_MASK_OF[w] & ABOVE[w] or not winners):
            return lowest_rank(losers) if losers else lowest(winners)
        if self.wants_tricks(pos, book.side_of[seat]):
            if not winners:
                return lowest_rank(losers)
            if last:
                return lowest(winners)
            follow = winners & led
            if follow:
                top = live & led
                sure = follow & ABOVE[top.bit_length() - 1] if top else follow
                second = self.second
                if len(trick) == 1 and losers and second >= 0.0:
                    if rnd() < second:
                        return lowest(sure) if sure else lowest(follow)
                    return lowest_rank(losers)
                if sure:
                    return lowest(sure)
                if len(trick) == 1 and losers:
                    return lowest_rank(losers)
                return highest(follow)
            if len(trick) == 1 and losers and self.ruff < 1.0 and rnd() >= self.ruff:
                return lowest_rank(losers)  # second hand discards, leaving it to partner
            return lowest(winners)
        if losers:
            return highest_rank(losers)
        return highest(winners) if last else lowest(winners)

    def _nil_card(self, pos: Position, legal: int) -> int:
        """A nil bidder: the highest card that loses the trick, or the lowest lead."""
        if not pos.trick:
            return lowest_rank(legal)
        w = pos.win_card
        beat = BEATERS[w][SUIT_OF[pos.trick[0]]]
        losers = legal & ~beat
        if losers:
            return highest_rank(losers)
        return highest(legal) if len(pos.trick) == self.book.n - 1 else lowest(legal)

    def _lead(self, pos: Position, legal: int, live: int, covering: bool,
              rnd: Callable[[], float]) -> int:
        seat = pos.turn
        tricks = pos.tricks
        for nil_seat in self.opp_nils[seat]:
            if not tricks[nil_seat]:
                attack = self.attack
                if attack is None or attack[seat] >= 1.0 or rnd() < attack[seat]:
                    return lowest_rank(legal)
                break  # this time the seat leads for its own side
        if not covering and not self.wants_tricks(pos, self.book.side_of[seat]):
            return lowest_rank(legal)
        if self.trump > 0.0 and not covering:
            spades = legal & SPADES
            if spades and legal & NON_SPADES_MASK and rnd() < self.trump:
                top = spades.bit_length() - 1  # a spade lead: the boss, else the lowest
                return top if not live & SPADES & ABOVE[top] else lowest(spades)
        bosses = 0
        for suit in SUIT_MASKS:
            mine = legal & suit
            if mine:
                top = mine.bit_length() - 1
                if not live & suit & ABOVE[top]:
                    bosses |= 1 << top
        plain = bosses & NON_SPADES_MASK
        if plain:
            return random_card(plain, rnd)
        if bosses:
            return lowest(bosses)
        if covering:
            return highest_rank(legal & NON_SPADES_MASK or legal)
        # a low card, from the shortest side suit half the time (to make a void)
        side = legal & NON_SPADES_MASK
        if not side:
            return lowest(legal)
        if rnd() < 0.5:
            best = 0
            size = 99
            for suit in (CLUBS, DIAMONDS, HEARTS):
                m = side & suit
                if m and m.bit_count() < size:
                    best, size = m, m.bit_count()
            return lowest(best)
        return lowest(side & SUIT_MASK_OF[random_card(side, rnd)])


def guided_playout(book: Rulebook, pos: Position, guide: Guide,
                   rnd: Callable[[], float]) -> list[int]:
    """Play the hand out with the rule-guided policy; the final trick counts."""
    choose = guide.choose
    while pos.left:
        play(book, pos, choose(pos, rnd))
    return pos.tricks


__all__ = [
    "BEATERS",
    "BLIND",
    "BREAK_ANY_SPADE",
    "BREAK_OFFSUIT",
    "BREAK_VOID",
    "CLUBS",
    "DIAMONDS",
    "HEARTS",
    "NIL",
    "PLAIN",
    "RANK",
    "SPADES",
    "Evaluator",
    "Guide",
    "Position",
    "Rulebook",
    "bag_penalty",
    "cards_of",
    "deal",
    "game_result",
    "guided_playout",
    "hand_points",
    "highest",
    "highest_rank",
    "legal_mask",
    "lowest",
    "lowest_rank",
    "play",
    "random_card",
    "random_hand",
    "random_playout",
    "random_trick",
    "rulebook_of",
    "side_points",
]


# the compiled twin's names, where it is built from this source (native.py)
adopt(globals())
