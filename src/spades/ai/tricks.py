"""A double-dummy trick solver: how many tricks one side takes from here under best play.

Every hand is visible. The seats of ``side`` choose their cards to take as many tricks as
they can and every other seat plays against them (with more than two sides: the side against
all the others). Spades breaking (every ``spades_break`` mode), the lowest-club opening lead,
jokers and every preset's deck are played exactly as the kernel plays them. ``solve_tricks``
gives the count, ``best_moves`` the cards that keep it; a ``TrickSolver`` kept for a whole
hand (a hand review) reuses what it learned at each earlier position.

The search is the one of bridge double-dummy solvers (Bo Haglund's DDS, Ginsberg's GIB
partition search), written for Python:

- zero-window tests: "can the side take at least ``target`` more tricks?" answered by a
  boolean alpha-beta search, and a binary search on ``target`` around those tests (or,
  given a guess and bounds the caller knows, as in a hand review, steps out from the guess);
- a transposition table at trick boundaries holding a lower and an upper bound on the tricks
  still to come. Every search reports the cards whose ranks its answer relied on (a trick
  won by the highest card of its suit, quick and sure tricks); the entry is keyed on each
  seat's suit lengths and matched on the owners of each suit's cards down to the lowest
  relied-on card, in relative ranks (ranked among the cards still out), so one entry serves
  every position that differs only in small cards. Entries depend on the cards out, never
  on the deal, so the table stays valid from one search (or position) to the next;
- quick tricks: the tricks the leader can cash at once (top spades, then side-suit winners
  that no opponent can ruff, once the top spades have drawn the spades of every opponent
  holding no more), and the sure tricks of the seat holding the top spades, bound
  the search before any card is tried;
- equivalent cards: of a run of cards in one hand with no other card out between them, one
  is tried;
- move ordering: the card that decided a like position before, boss cards and leads to the
  partner's boss; following, the cheapest card that wins when an opponent is winning and
  the cheapest that loses when a partner is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import kernel as k
from .native import adopt

_SPADE = 39
_SPADES = ((1 << 15) - 1) << 39
_NON_SPADES = (1 << 39) - 1
_SUITS: tuple[int, ...] = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, _SPADES)
_SUIT_OF: tuple[int, ...] = tuple(min(c // 13, 3) for c in range(54))
_SUIT_MASK_OF: tuple[int, ...] = tuple(_SUITS[_SUIT_OF[c]] for c in range(54))
#: Every card above ``c``, of any suit.
_ABOVE: tuple[int, ...] = tuple(((1 << 54) - 1) & ~((1 << (c + 1)) - 1) for c in range(54))
_OFFSUIT, _ANY_SPADE, _VOID = k.BREAK_OFFSUIT, k.BREAK_ANY_SPADE, k.BREAK_VOID
#: What a bound says of a test: it fails, it holds, or it leaves the test to the search
#: (``Final``: compiled, they are constants, not module lookups)
_NO: Final = 0
_YES: Final = 1
_OPEN: Final = -1
#: No limit on a search's nodes.
_NO_LIMIT: Final = 1 << 62


class SearchCutOff(Exception):
    """A search with a node limit (``TrickSolver.span``) reached it."""


def _runs(cards: int, others: int) -> tuple[int, ...]:
    """The lowest card of each run of ``cards``: cards of one suit with none of ``others``
    between them win and lose the same tricks, so one of each run is enough."""
    if not cards & (cards - 1):
        return (cards.bit_length() - 1,) if cards else ()
    # only the others between the lowest and the highest of ``cards`` can split a run
    key = (cards, others & ((1 << cards.bit_length()) - (cards & -cards)))
    found = _RUNS.get(key)
    if found is None:
        if len(_RUNS) > 100_000:
            _RUNS.clear()
        found = _RUNS[key] = _split(cards, others)
    return found


def _split(cards: int, others: int) -> tuple[int, ...]:
    out: list[int] = []
    previous = -1
    while cards:
        low = cards & -cards
        card = low.bit_length() - 1
        cards ^= low
        if (previous < 0 or _SUIT_OF[previous] != _SUIT_OF[card]
                or others & (low - (2 << previous))):
            out.append(card)
        previous = card
    return tuple(out)


#: ``_runs`` answers by (cards, the others that matter)
_RUNS: dict[tuple[int, int], tuple[int, ...]] = {}


#: A card's rank within its suit (two = 0; the jokers 13 and 14 above the ace of spades).
_RANK: tuple[int, ...] = tuple(c - 13 * _SUIT_OF[c] for c in range(54))


def _compress(packed: int, n: int) -> tuple[int, int, tuple[int, ...]]:
    """One suit's holdings (16 bits a seat, a bit per rank) with each card replaced by its
    rank among the cards still out (lowest 0), each seat's length in the suit (4 bits a
    seat), and the ranks of the suit's top ``d`` cards out for each ``d`` (a mask)."""
    holdings = [(packed >> (16 * seat)) & 0xFFFF for seat in range(n)]
    out = 0
    rest = 0
    lengths = 0
    for seat, h in enumerate(holdings):
        rest |= h
        lengths |= h.bit_count() << (4 * seat)
    tops = [0]
    high = rest
    while high:
        top = 1 << (high.bit_length() - 1)
        tops.append(tops[-1] | top)
        high ^= top
    rank = 0
    while rest:
        low = rest & -rest
        rest ^= low
        for seat, h in enumerate(holdings):
            if h & low:
                out |= 1 << (16 * seat + rank)
                break
        rank += 1
    return out, lengths, tuple(tops)


class TrickSolver:
    """Double-dummy trick counts for the seats of one side under one set of rules.

    The transposition table outlives a search, so one solver can answer every position of a
    hand (a hand review) and each later position reuses what the earlier ones learned. Its
    entries depend only on the cards out, never on the deal they came from, so the solver may
    be reused for other deals of the same rules and side too.
    """

    def __init__(self, book: k.Rulebook, side: int, *, max_entries: int = 2_000_000) -> None:
        if not 0 <= side < len(book.sides):
            raise ValueError(f"no side {side} in {book.rules.name}: there are {len(book.sides)}")
        self.book = book
        self.side = side
        self.n = book.n
        self.mine: tuple[bool, ...] = tuple(s == side for s in book.side_of)
        self.partners: tuple[tuple[int, ...], ...] = tuple(
            tuple(o for o in range(book.n) if o != seat and book.side_of[o] == book.side_of[seat])
            for seat in range(book.n))
        self.opponents: tuple[tuple[int, ...], ...] = tuple(
            tuple(o for o in range(book.n) if book.side_of[o] != book.side_of[seat])
            for seat in range(book.n))
        self.max_entries = max_entries
        #: (leader, broken, each suit's lengths) -> the depth in each suit of the ranks that
        #: matter -> the owners of those ranks -> [lower bound, upper bound] of the tricks
        self.table: dict[tuple[int, ...],
                         dict[tuple[int, ...], dict[tuple[int, ...], list[int]]]] = {}
        self.entries = 0
        self.suit_ids: dict[int, tuple[int, int, tuple[int, ...]]] = {}
        spread = sum(1 << (16 * seat) for seat in range(book.n))
        #: ``masks[count][depth]``: the top ``depth`` ranks of ``count`` in every seat's field
        self.masks: tuple[tuple[int, ...], ...] = tuple(
            tuple(((1 << count) - (1 << (count - depth))) * spread
                  for depth in range(count + 1)) for count in range(16))
        self.rel = 0
        #: ``bits[seat][card]``: the card's bit in its suit's entry of ``packed``
        self.bits: tuple[tuple[int, ...], ...] = tuple(
            tuple(1 << (16 * seat + _RANK[c]) for c in range(54)) for seat in range(book.n))
        self.packed = [0, 0, 0, 0]
        self.nodes = 0
        #: ``nodes`` at which a search with a limit (``span``) is cut off
        self.stop_at = _NO_LIMIT
        # the position being searched, changed in place and restored on the way back
        self.hands: list[int] = []
        self.rest = 0
        self.leader = 0
        self.broken = False
        self.first = False
        self.left = 0

    # ------------------------------------------------------------------------ public

    def tricks(self, pos: k.Position, guess: int | None = None, *,
               at_least: int = 0, at_most: int | None = None) -> int:
        """The tricks the side takes from ``pos`` on (the trick on the table included)
        under best play by every seat. A ``guess`` (e.g. the count one card earlier in a
        hand review) changes only the speed: the search starts there and steps out from it,
        two zero-window tests when the guess is right, instead of a binary search over every
        count. ``at_least`` and ``at_most`` are bounds the caller knows to hold (in a hand
        review: a card of the side cannot raise its count, another seat's card cannot lower
        it); a test they settle is not searched."""
        return self.span(pos, guess, at_least=at_least, at_most=at_most)[0]

    def span(self, pos: k.Position, guess: int | None = None, *, at_least: int = 0,
             at_most: int | None = None, nodes: int = -1) -> tuple[int, int]:
        """The least and the most tricks the side can take from ``pos`` on, as far as the
        search proves them within ``nodes`` more search nodes (``-1``: no limit; then the
        two are equal, the count ``tricks`` gives). A search cut off by the limit leaves the
        bounds of the tests it finished (a hand review's estimate); what it stored in the
        transposition table stays true."""
        if self.entries > self.max_entries:
            self.table.clear()
            self.entries = 0
        self._load(pos)
        low = max(at_least, 0)
        high = self.left if at_most is None else min(at_most, self.left)
        if low >= high:
            return high, high
        self.stop_at = self.nodes + nodes if nodes >= 0 else _NO_LIMIT
        try:
            if guess is not None:
                # from the guess, steps of 1, 2, 4... until the count is bracketed, then
                # halves (``low`` is known to hold: it needs no test)
                guess = min(max(guess, low), high)
                if guess == low or self._test(pos, guess):
                    low, step = guess, 1
                    while low < high:
                        target = min(low + step, high)
                        if not self._test(pos, target):
                            high = target - 1
                            break
                        low, step = target, step * 2
                else:
                    high, step = guess - 1, 1
                    while low < high:
                        target = max(high - step + 1, low)
                        if self._test(pos, target):
                            low = target
                            break
                        high, step = target - 1, step * 2
            while low < high:
                target = (low + high + 1) // 2
                if self._test(pos, target):
                    low = target
                else:
                    high = target - 1
        except SearchCutOff:
            self._load(pos)  # the search stopped half way down: the position again
        finally:
            self.stop_at = _NO_LIMIT
        return low, high

    def best_moves(self, pos: k.Position, nodes: int = -1) -> list[int]:
        """The legal cards of the seat to act that keep the value of ``pos`` (for the side
        to act: the most tricks it can take; for the others: the fewest they can allow).
        With a limit of ``nodes`` search nodes (``-1``: none), none when it is reached."""
        if pos.over:
            return []
        start = self.nodes
        low, high = self.span(pos, nodes=nodes)
        if low != high:
            return []
        try:
            self.stop_at = start + nodes if nodes >= 0 else _NO_LIMIT
            return self._keepers(pos, self._taken(pos) + low)
        except SearchCutOff:
            return []
        finally:
            self.stop_at = _NO_LIMIT

    def _keepers(self, pos: k.Position, best: int) -> list[int]:
        """The legal cards of the seat to act that keep the side's count ``best`` (the
        tricks it ends the hand with, those already taken included)."""
        book = self.book
        seat = pos.turn
        self._load(pos)
        legal = k.legal_mask(book, pos)
        others = self.rest ^ self.hands[seat]
        for card in pos.trick:
            others |= 1 << card
        kept = 0
        for card in _runs(legal, others):
            child = pos.copy()
            k.play(book, child, card)
            need = best - self._taken(child)
            if self.mine[seat]:
                keeps = self._test(child, need)
            else:
                keeps = not self._test(child, need + 1)
            if keeps:
                kept |= _run_of(card, legal, others)
        return k.cards_of(kept)

    # ------------------------------------------------------------------------ search

    def _taken(self, pos: k.Position) -> int:
        return sum(pos.tricks[s] for s in self.book.sides[self.side])

    def _load(self, pos: k.Position) -> None:
        self.hands = list(pos.hands)
        rest = 0
        for h in self.hands:
            rest |= h
        self.rest = rest
        packed = [0, 0, 0, 0]
        for seat, h in enumerate(self.hands):
            for card in k.cards_of(h):
                packed[_SUIT_OF[card]] |= self.bits[seat][card]
        self.packed = packed
        self.leader = pos.leader
        self.broken = pos.broken
        self.first = pos.first
        self.left = pos.left

    def _test(self, pos: k.Position, target: int) -> bool:
        """Can the side take at least ``target`` tricks from ``pos`` on?"""
        self._load(pos)
        if not pos.trick:
            return self._lead(target)
        table = 0
        for card in pos.trick:
            table |= 1 << card
        led = _SUIT_MASK_OF[pos.trick[0]]
        return self._follow(pos.turn, len(pos.trick), led, pos.win_card, pos.win_seat,
                            table, target)

    def _suits(self) -> list[tuple[int, int, tuple[int, ...]]]:
        """Each suit's ``_compress`` of the position (cached by holdings)."""
        ids = self.suit_ids
        out = []
        for packed in self.packed:
            found = ids.get(packed)
            if found is None:
                found = ids[packed] = _compress(packed, self.n)
            out.append(found)
        return out

    @staticmethod
    def _top(suits: list[tuple[int, int, tuple[int, ...]]], depths: tuple[int, ...]) -> int:
        """The ``depths[s]`` highest cards out of each suit ``s``, as a mask."""
        a, b, c, d = depths
        return (suits[0][2][a] | suits[1][2][b] << 13 | suits[2][2][c] << 26
                | suits[3][2][d] << 39)

    def _store(self, key: tuple[int, ...], suits: list[tuple[int, int, tuple[int, ...]]],
               rel: int, result: bool, target: int, hint: int) -> None:
        """Record the result of a search with the cards its proof relied on (``rel``): every
        position with the same suit lengths and the same owners of each suit's cards down to
        the lowest relied-on card has the same value (partition search)."""
        rest = self.rest
        depths = []
        wants = []
        masks = self.masks
        for suit, (code, _, tops) in zip(_SUITS, suits, strict=True):
            mine = rel & suit
            depth = (rest & suit & ~((mine & -mine) - 1)).bit_count() if mine else 0
            depths.append(depth)
            wants.append(code & masks[len(tops) - 1][depth])
        groups = self.table.get(key)
        if groups is None:
            groups = self.table[key] = {}
        bucket = groups.get(tuple(depths))
        if bucket is None:
            bucket = groups[tuple(depths)] = {}
        owners = tuple(wants)
        entry = bucket.get(owners)
        if entry is None:
            bucket[owners] = [target, self.left, hint] if result else [0, target - 1, hint]
            self.entries += 1
            return
        entry[2] = hint
        if result:
            if target > entry[0]:
                entry[0] = target
        elif target - 1 < entry[1]:
            entry[1] = target - 1

    def _quick(self, leader: int) -> tuple[int, int]:
        """Tricks the leader's side takes at once on its own lead, and the cards that take
        them: the leader's spades above every other spade out (when it may lead them), then
        in each other suit its cards above every other card out, as many rounds as every
        opponent holding a spade can follow (an opponent without spades cannot ruff)."""
        hands = self.hands
        h = hands[leader]
        rest = self.rest
        others = rest ^ h
        ruffers = [hands[o] for o in self.opponents[leader] if hands[o] & _SPADES]
        for p in self.partners[leader]:
            ph = hands[p]
            if ph and not ph & _NON_SPADES:
                ruffers = []  # a partner with only spades would ruff and take the lead
                h &= _SPADES
                break
        count = 0
        used = 0
        spades = h & _SPADES
        if spades and (self.broken or not h & _NON_SPADES):
            out = others & _SPADES
            top = spades & _ABOVE[out.bit_length() - 1] if out else spades
            count = top.bit_count()
            used = top
            if ruffers and count:
                # cashing them draws the spades of every opponent with no more
                ruffers = [o for o in ruffers if (o & _SPADES).bit_count() > count]
        for suit in _SUITS[:3]:
            mine = h & suit
            if not mine:
                continue
            out = others & suit
            top = mine & _ABOVE[out.bit_length() - 1] if out else mine
            if not top:
                continue
            run = top.bit_count()
            for o in ruffers:
                length = (o & suit).bit_count()
                if length < run:
                    run = length
            if run:
                count += run
                used |= top
        return count, used

    def _entry(self, leader: int, partner: int, side_cards: int) -> int:
        """A card that lets ``leader`` put ``partner`` on lead at once (or 0): the partner's
        top card of a side suit, above every opponent's card of the suit and above a card
        the leader holds in it, when every opponent holding a spade can follow."""
        hands = self.hands
        for suit in _SUITS[:3]:
            mine = side_cards & suit
            if not mine:
                continue
            theirs = 0
            for o in self.opponents[leader]:
                held = hands[o]
                if held & _SPADES and not held & suit:
                    theirs = -1
                    break
                theirs |= held & suit
            if theirs < 0:
                continue
            top = (hands[partner] & suit).bit_length()
            if top > theirs.bit_length() and top > (mine & -mine).bit_length():
                return 1 << (top - 1)
        return 0

    def _lead(self, target: int) -> bool:
        """Can the side take ``target`` tricks from this trick boundary on? ``self.rel``
        is left holding the cards whose ranks the answer relied on. The bounds that settle
        it without a search are tried first (the top spades, the transposition table, the
        quick tricks), then every distinct lead."""
        if target <= 0:
            self.rel = 0
            return True
        left = self.left
        if target > left:
            self.rel = 0
            return False
        if left == 1:  # the last trick plays itself
            return self._last_trick()
        if self.nodes > self.stop_at:
            raise SearchCutOff
        # the seat with the top spade out wins a trick with each of its spades above every
        # other seat's spades, whoever leads
        spades = self.rest & _SPADES
        if spades:
            hands = self.hands
            top = 1 << (spades.bit_length() - 1)
            owner = 0
            while not hands[owner] & top:
                owner += 1
            held = hands[owner] & _SPADES
            out = spades ^ held
            sure = held & _ABOVE[out.bit_length() - 1] if out else held
            count = sure.bit_count()
            if self.mine[owner]:
                if count >= target:
                    self.rel = sure
                    return True
            elif left - count < target:
                self.rel = sure
                return False
        first = self.first
        hint = -1
        key: tuple[int, ...] = ()
        suits: list[tuple[int, int, tuple[int, ...]]] = []
        if not first:
            suits = self._suits()
            s0, s1, s2, s3 = suits
            key = (self.leader, self.broken, s0[1], s1[1], s2[1], s3[1])
            settled, hint = self._recall(key, suits, target)
            if settled != _OPEN:
                return settled == _YES
        lowest_club = first and self.book.lowest_club
        if not lowest_club:
            settled = self._quick_bound(target)
            if settled != _OPEN:
                return settled == _YES
        self.nodes += 1
        return self._search_leads(target, lowest_club, key, suits, hint)

    def _last_trick(self) -> bool:
        """The last trick, each seat's one card played: does the side win it?"""
        self.nodes += 1
        hands = self.hands
        leader = self.leader
        n = self.n
        best = hands[leader].bit_length() - 1
        win = leader
        led = _SUIT_MASK_OF[best]
        seat = leader
        ranked = False
        for _ in range(n - 1):
            seat = seat + 1 if seat + 1 < n else 0
            card = hands[seat].bit_length() - 1
            if (1 << card) & _SUIT_MASK_OF[best]:
                ranked = True
            if card >= _SPADE:
                if best < _SPADE:
                    best, win, ranked = card, seat, False
                elif card > best:
                    best, win = card, seat
            elif best < card and (1 << card) & led:
                best, win = card, seat
        self.rel = 1 << best if ranked else 0
        return self.mine[win]

    def _recall(self, key: tuple[int, ...], suits: list[tuple[int, int, tuple[int, ...]]],
                target: int) -> tuple[int, int]:
        """What the transposition table holds for this position: (``_YES`` or ``_NO`` when
        an entry's bounds settle the test, else ``_OPEN``; the card that decided a position
        like this one before, or -1)."""
        hint = -1
        groups = self.table.get(key)
        if groups is None:
            return _OPEN, hint
        s0, s1, s2, s3 = suits
        c0, c1, c2, c3 = s0[0], s1[0], s2[0], s3[0]
        masks = self.masks
        m0, m1 = masks[len(s0[2]) - 1], masks[len(s1[2]) - 1]
        m2, m3 = masks[len(s2[2]) - 1], masks[len(s3[2]) - 1]
        for depths, bucket in groups.items():
            a, b, c, d = depths
            e = bucket.get((c0 & m0[a], c1 & m1[b], c2 & m2[c], c3 & m3[d]))
            if e is not None:
                if e[0] >= target:
                    self.rel = self._top(suits, depths)
                    return _YES, hint
                if e[1] < target:
                    self.rel = self._top(suits, depths)
                    return _NO, hint
                if hint < 0:
                    hint = e[2]
        return _OPEN, hint

    def _quick_bound(self, target: int) -> int:
        """``_YES`` or ``_NO`` when the quick tricks of the leader's side settle the test,
        else ``_OPEN``."""
        leader = self.leader
        left = self.left
        mine = self.mine
        quick, used = self._quick(leader)
        need = target if mine[leader] else left - target + 1
        if quick < need:
            # or lead low to a partner's winner and let the partner cash its own
            h = self.hands[leader]
            side_cards = h & _NON_SPADES
            # (a leader left with only spades after the lead would ruff the partner)
            if side_cards and (not h & _SPADES or side_cards & (side_cards - 1)):
                for p in self.partners[leader]:
                    more, cards = self._quick(p)
                    if more > quick:
                        entry = self._entry(leader, p, side_cards)
                        if entry:
                            quick, used = more, cards | entry
        if mine[leader]:
            if quick >= target:
                self.rel = used
                return _YES
        elif left - quick < target:
            self.rel = used
            return _NO
        return _OPEN

    def _search_leads(self, target: int, lowest_club: bool, key: tuple[int, ...],
                      suits: list[tuple[int, int, tuple[int, ...]]], hint: int) -> bool:
        """Try the leader's distinct legal leads (``hint`` first, then by ``_order_leads``;
        ``lowest_club``: the hand's first lead under that rule) until one answers the test
        for the side to lead; store the answer in the transposition table under ``key``
        (none on the first trick)."""
        hands = self.hands
        leader = self.leader
        left = self.left
        first = self.first
        rest = self.rest
        h = hands[leader]
        if lowest_club:
            legal = self._opening_leads(h)
        else:
            legal = h if self.broken else h & _NON_SPADES or h
        others = rest ^ h
        moves: Sequence[int] = _runs(legal, others)
        if len(moves) > 1:
            ordered = self._order_leads(leader, moves, others)
            if hint in ordered:  # the card that decided a position like this one before
                ordered.remove(hint)
                ordered.insert(0, hint)
            moves = ordered
        maximise = self.mine[leader]
        packed = self.packed
        bits = self.bits[leader]
        broken = self.broken
        mode = self.book.break_mode
        result = not maximise
        rel = 0
        self.first = False
        for card in moves:
            bit = 1 << card
            hands[leader] = h ^ bit
            self.rest = rest ^ bit
            suit = _SUIT_OF[card]
            before = packed[suit]
            packed[suit] = before ^ bits[card]
            if card >= _SPADE and mode != _OFFSUIT:
                self.broken = True
            seat = leader + 1 if leader + 1 < self.n else 0
            r = self._follow(seat, 1, _SUIT_MASK_OF[card], card, leader, bit, target)
            self.broken = broken
            packed[suit] = before
            if r == maximise:
                result = r
                rel = self.rel
                hint = card
                break
            rel |= self.rel
        hands[leader] = h
        self.rest = rest
        self.first = first
        self.left = left
        self.leader = leader
        if key:
            self._store(key, suits, rel, result, target, hint)
        self.rel = rel
        return result

    def _opening_leads(self, h: int) -> int:
        """The leads of ``h`` on the hand's first trick under a lowest-club rule: the
        lowest club out when it holds it, else any card but a spade (unless spades are
        broken or it holds nothing else)."""
        club = self.rest & _SUITS[0]
        club &= -club
        if club & h:
            return club
        if not self.broken:
            return h & _NON_SPADES or h
        return h

    def _order_leads(self, leader: int, moves: Sequence[int], others: int) -> list[int]:
        """Boss cards first, then low cards to a partner's boss, then the rest, low first."""
        hands = self.hands
        mate = 0
        for p in self.partners[leader]:
            mate |= hands[p]
        first: list[int] = []
        second: list[int] = []
        third: list[int] = []
        for card in moves:
            suit = _SUIT_MASK_OF[card]
            above = others & suit & _ABOVE[card]
            if not above:
                first.append(card)
            elif above.bit_length() - 1 == (mate & suit).bit_length() - 1:
                second.append(card)
            else:
                third.append(card)
        first.reverse()
        return first + second + third

    def _follow(self, seat: int, played: int, led: int, win_card: int, win_seat: int,
                on_table: int, target: int) -> bool:
        """Can the side take ``target`` tricks with ``seat`` to play to the trick on the
        table (``on_table``, led in the suit ``led``, a mask, ``win_card`` of ``win_seat``
        winning it so far, ``played`` cards in)? ``self.rel`` as for ``_lead``."""
        self.nodes += 1
        hands = self.hands
        h = hands[seat]
        rest = self.rest
        if win_card >= _SPADE:
            beat = _ABOVE[win_card] & _SPADES
        else:
            beat = (_ABOVE[win_card] & led) | _SPADES
        moves = self._follows(seat, played, led, beat, win_seat, (rest ^ h) | on_table)
        mine = self.mine
        n = self.n
        maximise = mine[seat]
        last = played == n - 1
        broken = self.broken
        mode = self.book.break_mode
        packed = self.packed
        bits = self.bits[seat]
        result = not maximise
        rel = 0
        for card in moves:
            bit = 1 << card
            hands[seat] = h ^ bit
            self.rest = rest ^ bit
            suit = _SUIT_OF[card]
            before = packed[suit]
            packed[suit] = before ^ bits[card]
            if not broken:
                if mode == _VOID:
                    if not bit & led:
                        self.broken = True
                elif card >= _SPADE and (mode == _ANY_SPADE or led != _SPADES):
                    self.broken = True
            if bit & beat:
                wc, ws = card, seat
            else:
                wc, ws = win_card, win_seat
            if last:
                r = self._next_trick(ws, wc, on_table | bit, target)
            else:
                r = self._follow(seat + 1 if seat + 1 < n else 0, played + 1, led, wc, ws,
                                 on_table | bit, target)
            found = self.rel
            self.broken = broken
            packed[suit] = before
            if r == maximise:
                result = r
                rel = found
                break
            rel |= found
        hands[seat] = h
        self.rest = rest
        self.rel = rel
        return result

    def _next_trick(self, winner: int, won_with: int, trick: int, target: int) -> bool:
        """The trick ``trick`` (a mask) is complete, won by ``winner`` with ``won_with``: can
        the side take ``target`` tricks counting it? ``self.rel`` as for ``_lead``, with
        the winning card when the trick went to the highest card of its suit."""
        leader, left = self.leader, self.left
        self.leader = winner
        self.left = left - 1
        result = self._lead(target - 1 if self.mine[winner] else target)
        self.leader, self.left = leader, left
        same = trick & _SUIT_MASK_OF[won_with]
        if same & (same - 1):  # the trick went to the highest of its suit
            self.rel |= 1 << won_with
        return result

    def _follows(self, seat: int, played: int, led: int, beat: int, win_seat: int,
                 others: int) -> tuple[int, ...]:
        """The distinct cards ``seat`` may play to the trick, in the order to try them:
        the cheapest that wins first when an opponent is winning the trick, the cheapest
        that loses first when a partner is and no later opponent can beat it (``beat``:
        the cards that would win it, ``others``: the cards held elsewhere or on the
        table)."""
        hands = self.hands
        h = hands[seat]
        legal = h & led or h
        winners = legal & beat
        losers = legal ^ winners
        mine = self.mine
        n = self.n
        safe = mine[win_seat] == mine[seat]
        if safe and winners and played < n - 1:
            # the partner's card wins unless a later opponent beats it
            later = seat
            for _ in range(n - 1 - played):
                later = later + 1 if later + 1 < n else 0
                if mine[later] != mine[seat]:
                    o = hands[later]
                    if o & led & beat or (not o & led and o & beat):
                        safe = False
                        break
        if not winners:
            return _runs(losers, others)
        if not losers:
            return _runs(winners, others)
        if safe:
            return _runs(losers, others) + _runs(winners, others)
        return _runs(winners, others) + _runs(losers, others)


def _run_of(card: int, cards: int, others: int) -> int:
    """The run of ``cards`` that ``card`` belongs to (see ``_runs``), as a mask."""
    suit = _SUIT_MASK_OF[card]
    run = 1 << card
    c = card
    while c + 1 < 54 and (1 << (c + 1)) & suit and not (1 << (c + 1)) & others:
        c += 1
        if (1 << c) & cards:
            run |= 1 << c
    c = card
    while c - 1 >= 0 and (1 << (c - 1)) & suit and not (1 << (c - 1)) & others:
        c -= 1
        if (1 << c) & cards:
            run |= 1 << c
    return run


def solve_tricks(book: k.Rulebook, pos: k.Position, side: int) -> int:
    """The tricks ``side`` takes from ``pos`` on (the trick on the table included), every
    hand visible, its seats playing for the most tricks and every other seat against it."""
    return TrickSolver(book, side).tricks(pos)


def best_moves(book: k.Rulebook, pos: k.Position, side: int | None = None) -> list[int]:
    """The legal cards of the seat to act in ``pos`` that keep the double-dummy value of the
    position for ``side`` (by default the side of the seat to act)."""
    if side is None:
        side = book.side_of[pos.turn]
    return TrickSolver(book, side).best_moves(pos)


# the compiled twin's names, where it is built from this source (native.py)
adopt(globals())
