"""Hand evaluation and bids under every bidding rule.

``evaluate(hand, rules)`` counts the tricks a hand should take, item by item, each with a
reason a person can read ("ace of hearts: a sure winner", "five spades: two extra tricks from
length", "void in clubs: trump in"), and the chance it makes a nil. ``normal_bid`` turns that
into a bid for the seat to act, reading the partner's bid, the other bids, the score, the
bags and the rules (nil on or off, minimum bid, suicide). ``easy_bid`` is a beginner's rough
count. Computer players never bid blind nil unless told they may.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from spades.engine import (
    BLIND_NIL,
    FIRST_SPADE,
    NAME_OF,
    NIL,
    SUIT_MASKS,
    Bid,
    Phase,
    PlayerView,
    Rules,
    contract_points,
    deck_mask,
    legal_bids,
)

from .knowledge import SPADES, higher_in_suit, side_infos

_SUIT_NOUN = ("clubs", "diamonds", "hearts", "spades")
_SUIT_ONE = ("club", "diamond", "heart", "spade")
_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen")

# side-suit honours: chance of a trick by the (adjusted) length of the suit
_ACE = {1: 0.9, 2: 0.95, 3: 0.95, 4: 0.92, 5: 0.85, 6: 0.7}
_KING_WITH_ACE = {2: 0.85, 3: 0.8, 4: 0.72, 5: 0.55, 6: 0.35}
_KING = {1: 0.15, 2: 0.55, 3: 0.62, 4: 0.55, 5: 0.4, 6: 0.25}
_QUEEN_WITH_BOTH = {3: 0.6, 4: 0.5, 5: 0.3, 6: 0.15}
_QUEEN_WITH_ONE = {2: 0.25, 3: 0.38, 4: 0.33, 5: 0.2}
_QUEEN = {2: 0.05, 3: 0.22, 4: 0.2, 5: 0.1}
_JACK_WITH_THREE = {4: 0.35, 5: 0.25}


#: Added to the hand's count before rounding (the frozen Normal: -0.2).
#: Evidence: docs/ai-tuning.md#normal-bid-lean
BID_LEAN = -0.1
#: Points a nil must be expected to beat a plain bid by.
NIL_MARGIN = -15.0


@dataclass(frozen=True, slots=True)
class Item:
    """One reason the hand takes tricks."""

    value: float
    reason: str
    cards: tuple[int, ...]


@dataclass(slots=True)
class Estimate:
    """What a hand is worth: tricks, the items behind them, and its nil chance."""

    items: list[Item] = field(default_factory=list)
    nil_chance: float = 0.0
    nil_risks: list[int] = field(default_factory=list)  # the cards that endanger a nil

    @property
    def tricks(self) -> float:
        return sum(item.value for item in self.items)


def trick_words(value: float) -> str:
    if value >= 0.9:
        return "a sure winner"
    if value >= 0.78:
        return "almost a trick"
    if value >= 0.6:
        return "about two thirds of a trick"
    if value >= 0.42:
        return "about half a trick"
    if value >= 0.28:
        return "about a third of a trick"
    if value >= 0.18:
        return "about a quarter of a trick"
    return "a small chance of a trick"


def _table(table: dict[int, float], length: int, longest: float) -> float:
    if length in table:
        return table[length]
    return longest if length > max(table) else table[min(table)]


def _cards_of(mask: int) -> list[int]:
    """Highest first."""
    out: list[int] = []
    while mask:
        top = mask.bit_length() - 1
        out.append(top)
        mask ^= 1 << top
    return out


def _opponent_factor(rules: Rules) -> float:
    """Kings and queens are worth more with fewer players to hold the cards above them."""
    return {2: 1.25, 3: 1.15, 4: 1.0, 5: 0.85}.get(rules.players, 1.0)


def _dealt_per_hand(rules: Rules) -> float:
    """Share of the deck a hand holds (two-player hands hold a quarter of it)."""
    if rules.draw:
        return 0.25
    return rules.hand_size / len(rules.deck)


def evaluate(hand: int, rules: Rules, live: int | None = None) -> Estimate:
    """Count the tricks of ``hand`` (a mask) under ``rules``, with reasons.

    ``live`` holds the cards that may be in the other hands, when the seat knows better than
    "the rest of the deck" (two-player: the other hand is known once the draw is over)."""
    estimate = Estimate()
    deck = deck_mask(rules)
    if live is not None:
        deck &= live | hand
    scale = 13.0 * _dealt_per_hand(rules) * 4.0 / 13.0  # suit length relative to 13 cards
    factor = _opponent_factor(rules)
    lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    for suit in range(3):
        _side_suit(estimate, hand, suit, lengths[suit], scale, factor)
    spare = _spades(estimate, hand, deck, rules)
    _ruffs(estimate, lengths, spare)
    _table_size(estimate, rules)
    _nil(estimate, hand, deck, lengths, rules)
    return estimate


def _side_suit(est: Estimate, hand: int, suit: int, length: int, scale: float,
               factor: float) -> None:
    mine = hand & SUIT_MASKS[suit]
    if not mine:
        return
    adj = max(1, round(length / scale)) if scale > 0 else length
    ranks = [c - 13 * suit for c in _cards_of(mine)]
    has = set(ranks)
    ace, king, queen, jack = 12 in has, 11 in has, 10 in has, 9 in has
    noun = _SUIT_NOUN[suit]
    base = 13 * suit
    if ace:
        value = _table(_ACE, adj, 0.5)
        words = trick_words(value)
        where = "" if adj <= 5 else f" in a {length}-card suit"
        est.items.append(Item(value, f"ace of {noun}{where}: {words}", (base + 12,)))
    if king:
        if ace:
            value = _table(_KING_WITH_ACE, adj, 0.2)
            label = f"king of {noun} with the ace"
        else:
            value = min(0.95, _table(_KING, adj, 0.1) * factor)
            label = f"king of {noun} alone" if length == 1 else f"king of {noun} guarded"
        est.items.append(Item(value, f"{label}: {trick_words(value)}", (base + 11,)))
    if queen:
        if ace and king:
            value = _table(_QUEEN_WITH_BOTH, adj, 0.1)
            label = f"queen of {noun} with the ace and king"
        elif ace or king:
            value = min(0.9, _table(_QUEEN_WITH_ONE, adj, 0.1) * factor)
            label = f"queen of {noun} with the {'ace' if ace else 'king'}"
        else:
            value = min(0.9, _table(_QUEEN, adj, 0.05) * factor)
            label = f"queen of {noun}" + (" unguarded" if length <= 2 else " guarded")
        if length == 1:
            value = 0.05 * factor
        est.items.append(Item(value, f"{label}: {trick_words(value)}", (base + 10,)))
    if jack and ace and king and queen:
        value = _table(_JACK_WITH_THREE, adj, 0.1)
        est.items.append(Item(value, f"jack of {noun} under the ace, king and queen: "
                                     f"{trick_words(value)}", (base + 9,)))


def _spade_honour(higher: int, below: int) -> float:
    if higher == 0:
        return 1.0
    if higher == 1:
        return 0.85 if below >= 1 else 0.4
    if higher == 2:
        return 0.65 if below >= 2 else (0.35 if below == 1 else 0.15)
    if higher == 3:
        return 0.45 if below >= 3 else 0.15
    return 0.0


def _spades(est: Estimate, hand: int, deck: int, rules: Rules) -> int:
    """Count the spades; return how many low spades are left over for trumping."""
    spades = _cards_of(hand & SUIT_MASKS[SPADES])
    count = len(spades)
    total = (deck_mask(rules) & SUIT_MASKS[SPADES]).bit_count()
    usual = total * _dealt_per_hand(rules)
    length_from = max(1, round(usual - 0.25))
    spare = 0
    length_cards: list[int] = []
    length_value = 0.0
    for index, card in enumerate(spades):
        higher = (deck & higher_in_suit(card) & ~hand).bit_count()
        below = count - 1 - index
        honour = _spade_honour(higher, below)
        long_value = 0.8 if index >= length_from else 0.0
        if honour >= long_value and honour >= 0.1:
            est.items.append(Item(honour, f"{_spade_label(card, higher, below)}: "
                                          f"{trick_words(honour)}", (card,)))
        elif long_value > 0:
            length_cards.append(card)
            length_value += long_value
        else:
            spare += 1
    if length_cards:
        extra = len(length_cards)
        tricks = "an extra trick" if extra == 1 else f"{_COUNT_WORDS[extra]} extra tricks"
        est.items.append(Item(length_value, f"{_COUNT_WORDS[count]} spades: {tricks} from "
                                            "length", tuple(length_cards)))
    return spare


def _spade_label(card: int, higher: int, below: int) -> str:
    name = NAME_OF[card]
    if higher == 0:
        return name
    if below == 0:
        return f"{name} unguarded"
    if below >= higher:
        return f"{name} guarded"
    return f"{name} with {_COUNT_WORDS[below]} lower spade{'s' if below > 1 else ''}"


def _ruffs(est: Estimate, lengths: list[int], spare: int) -> None:
    if spare <= 0:
        return
    budget = spare * 0.8
    for suit in sorted(range(3), key=lambda s: lengths[s]):
        length = lengths[suit]
        if length > 2 or budget <= 0.05:
            break
        raw = (1.0, 0.55, 0.2)[length]
        value = min(raw, budget)
        budget -= value
        if length == 0:
            text = f"void in {_SUIT_NOUN[suit]}: trump in"
        elif length == 1:
            text = f"singleton {_SUIT_ONE[suit]}: a chance to trump"
        else:
            text = f"two {_SUIT_NOUN[suit]} only: maybe a late trump"
        est.items.append(Item(value, f"{text} ({trick_words(value)})", ()))


def _table_size(est: Estimate, rules: Rules) -> None:
    """The counts above fit four hands of 13; other tables take more (or fewer) tricks with
    the same cards (measured over Normal self-play)."""
    if rules.partnership:
        return
    if rules.players == 2:
        extra, why = 0.6, "two players: more of your middle cards win"
    elif rules.players == 3:
        extra = 2.0 if rules.hand_size >= 18 else 1.8
        why = f"{rules.hand_size}-card hands: low cards win tricks late"
    elif rules.players == 5:
        extra, why = -0.25, "five players: more hands to beat your honours"
    else:
        extra, why = 0.3, "every player for themselves: a little more for everyone"
    est.items.append(Item(extra, f"{why} ({extra:+.1f})", ()))


def _nil(est: Estimate, hand: int, deck: int, lengths: list[int], rules: Rules) -> None:
    chance = 1.0
    risks: list[tuple[float, int]] = []
    short = any(lengths[s] <= 1 for s in range(3))
    for suit in range(4):
        cards = _cards_of(hand & SUIT_MASKS[suit])
        for index, card in enumerate(cards):
            higher = (deck & higher_in_suit(card) & ~hand).bit_count()
            if suit == SPADES:
                danger = (0.95, 0.6, 0.4, 0.25, 0.15, 0.1)[higher] if higher < 6 else 0.04
                if index >= 3:
                    danger = max(danger, 0.3)
            else:
                danger = (0.8, 0.5, 0.3, 0.15, 0.07)[higher] if higher < 5 else 0.02
                if lengths[suit] >= 4:
                    danger *= 0.8
                if short:
                    danger *= 0.8
            if danger >= 0.15:
                risks.append((danger, card))
            chance *= 1.0 - danger
    if rules.partnership:
        chance = 1.0 - (1.0 - chance) * 0.75  # a partner covers
    est.nil_chance = chance
    est.nil_risks = [card for _, card in sorted(risks, reverse=True)]


# ---------------------------------------------------------------------------- bids

def allowed_bids(view: PlayerView) -> tuple[Bid, ...]:
    """The bids the seat may make now (from ``view.legal``, or from the rules when it is not
    the seat's turn to bid)."""
    legal = tuple(a for a in view.legal if isinstance(a, Bid))
    if legal:
        return legal
    partner = view.partner
    return legal_bids(view.rules, view.bids[partner] if partner is not None else None)


def _closest(bids: tuple[Bid, ...], tricks: int) -> Bid:
    plain = [b for b in bids if not b.nil]
    if not plain:
        return next(b for b in bids if not b.blind)
    return min(plain, key=lambda b: (abs(b.tricks - tricks), b.tricks))


@dataclass(frozen=True, slots=True)
class BidChoice:
    """A bid and the adjustments that led to it, in words."""

    bid: Bid
    estimate: Estimate
    notes: tuple[str, ...]


def normal_bid(view: PlayerView, *, blind_nil: bool = False) -> BidChoice:
    """A solid bid: the hand's count, the partner's bid, the table, the score and the bags."""
    rules = view.rules
    allowed = allowed_bids(view)
    if blind_nil and BLIND_NIL in allowed and wants_blind_nil(view):
        return BidChoice(BLIND_NIL, Estimate(), ("far behind: blind nil",))
    est = evaluate(view.hand_mask, rules, _live_cards(view))
    tricks = est.tricks
    notes: list[str] = []
    sides = side_infos(view)
    mine = sides[view.my_side]
    partner = view.partner
    partner_bid = view.bids[partner] if partner is not None else None
    others = [b for s, b in enumerate(view.bids) if s != view.seat and b is not None]
    lean = BID_LEAN
    bag_limit = rules.bag_limit
    if bag_limit is not None and rules.bag_penalty > 0 and mine.bags >= bag_limit - 3:
        lean += 0.35
        notes.append(f"{mine.bags} bag{'' if mine.bags == 1 else 's'} already: "
                     "bid up to avoid more")
    if (rules.losing_score is not None
            and mine.score - _made(rules, round(tricks)) <= rules.losing_score):
        lean -= 0.3
        notes.append("near the losing score: bid safe")
    behind = _opponents_threaten(view)
    if behind:
        lean += 0.25
        notes.append("the other side is close to winning: bid to the limit")
    if rules.partnership:
        count = math.floor(tricks + 0.5 + lean)
    else:
        count = best_solo_bid(tricks + lean - BID_LEAN, rules)
    if partner_bid is not None and not partner_bid.nil:
        room = rules.max_bid - sum(b.tricks for b in others if not b.nil) - count
        if room < -1 and count > 1:
            count -= 1
            notes.append("the bids already add up past the tricks: one less")
        reach = _lowest_winning_bid(view, partner_bid.tricks)
        if reach is not None and reach < count and not behind:
            count = max(reach, count - 1)
            notes.append("this bid reaches the target: bid safe")
    plain = _closest(allowed, count)
    nil_choice = _nil_choice(view, est, allowed, tricks, partner_bid, behind, notes)
    if nil_choice is not None:
        return BidChoice(nil_choice, est, tuple(notes))
    return BidChoice(plain, est, tuple(notes))


#: How far a hand's tricks stray from its count (measured over Normal self-play).
_SPREAD = {2: 1.5, 3: 1.5, 4: 1.0, 5: 0.8}


def best_solo_bid(mean: float, rules: Rules, lowest: int | None = None) -> int:
    """The bid with the best expected score for a player alone, its tricks spread around
    ``mean``: a set costs the bid (or nothing, with set_scoring zero), a bag its share of
    the penalty."""
    return _best_contract(mean, rules, rules.min_bid if lowest is None else lowest)[0]


def contract_value(mean: float, rules: Rules, bid: int) -> float:
    """The expected score of plain bid ``bid`` for a player alone whose tricks spread around
    ``mean``, in points (bags charged their share of the penalty), as ``best_solo_bid``
    weighs it."""
    return _best_contract(mean, rules, bid, bid)[1]


def _best_contract(mean: float, rules: Rules, lowest: int,
                   highest: int | None = None) -> tuple[int, float]:
    spread = _SPREAD.get(rules.players, 1.0)
    top = rules.max_bid
    weights = [math.exp(-((taken - mean) ** 2) / (2 * spread * spread))
               for taken in range(top + 1)]
    total = sum(weights)
    chances = [w / total for w in weights]
    bag = 1.0
    if rules.bag_limit is not None:
        bag -= rules.bag_penalty / rules.bag_limit
    # what each trick of the contract scores when it is made, and when it is set
    made, missed = contract_points(rules, 1, 1), contract_points(rules, 1, 0)
    best, best_value = lowest, float("-inf")
    for bid in range(lowest, (top if highest is None else highest) + 1):
        value = 0.0
        for taken, p in enumerate(chances):
            if taken >= bid:
                value += p * (made * bid + (taken - bid) * bag)
            else:
                value += p * missed * bid
        if value > best_value:
            best, best_value = bid, value
    return best, best_value


#: A random hand's nil chance (with a partner covering) and trick count, by evaluate().
_AVERAGE_NIL_CHANCE = 0.30
_AVERAGE_TRICKS = 2.75


def _suicide_nil(rules: Rules, chance: float, tricks: float) -> bool:
    """Suicide, first of the pair to bid: go nil when this hand is better at nil (and worse
    at the forced high bid) than the partner's unknown hand is likely to be."""
    value = float(rules.nil_value)
    fail = 0.0 if rules.failed_nil == "bags" else value

    def nil_ev(p: float) -> float:
        return p * value - (1.0 - p) * fail

    lowest = rules.suicide_min
    mine = nil_ev(chance) - _best_contract(tricks, rules, lowest)[1]
    typical = sum(_best_contract(_AVERAGE_TRICKS + d, rules, lowest)[1] * w
                  for d, w in ((-1.5, 0.2), (0.0, 0.6), (1.5, 0.2)))
    return mine >= nil_ev(_AVERAGE_NIL_CHANCE) - typical


def _live_cards(view: PlayerView) -> int | None:
    """Two-player, once the draw is over: the other hand is every card not kept or face up."""
    rules = view.rules
    if not rules.draw or view.phase is not Phase.BID:
        return None
    live = deck_mask(rules) & ~view.hand_mask
    for card in view.discards:
        live &= ~(1 << card)
    return live


#: How the bidder's note on a nil's chance starts; the bid suggestion (``suggest.py``) drops
#: that note, having given the figure in its own first reason.
NIL_NOTE = "nil: about "


def _nil_choice(view: PlayerView, est: Estimate, allowed: tuple[Bid, ...], tricks: float,
                partner_bid: Bid | None, behind: bool, notes: list[str]) -> Bid | None:
    rules = view.rules
    if NIL not in allowed:
        return None
    plain = [b for b in allowed if not b.nil]
    if not plain:
        return NIL  # suicide: the partner already bid, this seat must bid nil
    if partner_bid is not None and partner_bid.nil:
        return None
    chance = est.nil_chance
    if partner_bid is not None:
        if partner_bid.tricks >= 4:
            chance = min(1.0, chance * 1.05)
        elif partner_bid.tricks <= 2:
            chance *= 0.9
    value = float(rules.nil_value)
    fail = 0.0 if rules.failed_nil == "bags" else value
    nil_ev = chance * value - (1.0 - chance) * fail
    if rules.suicide:
        if _suicide_nil(rules, chance, tricks):
            notes.append("suicide: this hand is the one to bid nil")
            return NIL
        return None
    plain_ev = 8.0 * tricks + NIL_MARGIN
    if behind:
        plain_ev -= 10.0
    if tricks > 3.5 or nil_ev <= plain_ev:
        return None
    stuck = _stuck_honours(view, partner_bid)
    if stuck:
        notes.append(f"no nil: the {NAME_OF[stuck[0]]} is guarded and the partner "
                     "cannot be counted on to cover it")
        return None
    if nil_breaks_bag_limit(view):
        notes.append("no nil: well ahead, and a failed nil's tricks would pass the bag limit")
        return None
    notes.append(f"{NIL_NOTE}{round(chance * 100)}% to make it")
    return NIL


#: A partner's bid that can be counted on to cover a nil's risky honours (1 or 2 is no
#: cover). Evidence: docs/ai-tuning.md#normal-nil-veto
COVER_BID = 3


def _stuck_honours(view: PlayerView, partner_bid: Bid | None) -> list[int]:
    """The guarded kings that veto a nil at a partnership table whose partner cannot be
    counted on to cover them (``guarded_honours``); empty where nothing vetoes it."""
    if not view.rules.partnership or _partner_covers(partner_bid):
        return []
    return guarded_honours(view.hand_mask, view.rules)


def unguarded_nil(view: PlayerView) -> bool:
    """Does Normal's nil veto hold for this hand: a guarded king, and a partner who has not
    bid enough to cover it?"""
    partner = view.partner
    return bool(_stuck_honours(view, None if partner is None else view.bids[partner]))


def _partner_covers(partner_bid: Bid | None) -> bool:
    """A partner who bid ``COVER_BID`` or more holds the high cards to cover a nil; one who
    bid less, or has not bid yet, cannot be counted on."""
    return partner_bid is not None and not partner_bid.nil and partner_bid.tricks >= COVER_BID


#: The side-suit honours (by rank, 11 = king) that a nil cannot keep guarded without cover.
#: Queens are left to the nil chance (docs/ai-tuning.md#normal-nil-veto).
GUARDED_RANKS = (11,)
#: The longest suit whose guarded king still vetoes a nil.
GUARDED_LONGEST = 4


def guarded_honours(hand: int, rules: Rules) -> list[int]:
    """Side-suit kings a nil bidder cannot get rid of: a king with two or three lower cards
    (♦K86, ♦K874; a singleton or doubleton king can be shed on a void or falls under the
    ace) while the ace is out. Highest first. A king in a suit of five or more is left to
    the nil chance: the suit rarely goes round often enough to catch it, and vetoing those
    nils too cost points (docs/ai-tuning.md#normal-nil-veto)."""
    deck = deck_mask(rules)
    out: list[int] = []
    for suit in range(3):
        cards = _cards_of(hand & SUIT_MASKS[suit])
        if len(cards) > GUARDED_LONGEST:
            continue
        for index, card in enumerate(cards):
            rank = card - 13 * suit
            if rank not in GUARDED_RANKS:
                continue
            higher = (deck & higher_in_suit(card) & ~hand).bit_count()
            below = len(cards) - 1 - index
            if higher and below >= 2:
                out.append(card)
    return sorted(out, reverse=True)


#: A lead over the best other side at which a nil is not worth its risk to the bag count.
SAFE_LEAD = 100


def nil_breaks_bag_limit(view: PlayerView) -> bool:
    """Well ahead, with bags close to the limit: a failed nil's tricks (usually one or two)
    count as bags and would bring the penalty."""
    rules = view.rules
    if rules.bag_limit is None or rules.bag_penalty <= 0:
        return False
    if rules.failed_nil not in ("penalty-bags", "bags"):
        return False
    sides = side_infos(view)
    mine = sides[view.my_side]
    best_other = max((s.score for s in sides if s.index != mine.index), default=0)
    return mine.score - best_other >= SAFE_LEAD and mine.bags + 2 >= rules.bag_limit


def _lowest_winning_bid(view: PlayerView, partner_tricks: int) -> int | None:
    """The least bid that, made with the partner's, takes the side past the target while
    ahead of everyone's best case; None when no bid does."""
    rules = view.rules
    sides = side_infos(view)
    mine = sides[view.my_side]
    best_other = max((s.score + _made(rules, max(s.contract, 0)) for s in sides
                      if s.index != mine.index), default=0)
    for bid in range(rules.min_bid, rules.max_bid + 1):
        total = mine.score + _made(rules, partner_tricks + bid)
        if total >= rules.target_score and total > best_other + 13:
            return bid
    return None


def _made(rules: Rules, contract: int) -> int:
    """The points of ``contract`` made exactly (10 a trick bid)."""
    return contract_points(rules, contract, contract)


def _opponents_threaten(view: PlayerView) -> bool:
    """Another side would reach the target by making its bid while we are behind."""
    rules = view.rules
    sides = side_infos(view)
    mine = sides[view.my_side]
    target = rules.target_score
    for side in sides:
        if side.index == mine.index:
            continue
        projected = side.score + _made(rules, max(side.contract, 4))
        if projected >= target and side.score > mine.score:
            return True
    return False


def wants_blind_nil(view: PlayerView) -> bool:
    """Blind nil, judged on the score alone (the cards are not looked at): far behind."""
    sides = side_infos(view)
    mine = sides[view.my_side]
    best = max(s.score for s in sides if s.index != mine.index)
    deficit = best - mine.score
    return deficit >= 200 or (deficit >= 100 and best >= view.rules.target_score - 150)


# ---------------------------------------------------------------------------- easy

_ACES_KINGS_JOKERS = sum(1 << (13 * s + r) for s in range(4) for r in (11, 12)) | (3 << 52)

def easy_bid(view: PlayerView, rng: random.Random, *, blind_nil: bool = False) -> Bid:
    """A beginner's bid: aces and kings, and spades past the third, give or take one."""
    rules = view.rules
    allowed = allowed_bids(view)
    if blind_nil and BLIND_NIL in allowed and wants_blind_nil(view):
        return BLIND_NIL
    hand = view.hand_mask
    high = float((hand & _ACES_KINGS_JOKERS).bit_count())
    spades = (hand & SUIT_MASKS[SPADES]).bit_count()
    high += max(0, spades - 3)
    count = round(high)
    roll = rng.random()
    if roll < 0.15:
        count += 1
    elif roll < 0.3:
        count -= 1
    plain = [b for b in allowed if not b.nil]
    top_spade = (hand & SUIT_MASKS[SPADES]).bit_length() - 1
    nil_like = high < 1 and spades <= 3 and top_spade < FIRST_SPADE + 9
    if NIL in allowed and (not plain or (nil_like and rng.random() < 0.7)):
        return NIL
    if not plain:
        return allowed[0]
    if rules.suicide and NIL in allowed and count < rules.suicide_min:
        return NIL
    return _closest(allowed, count)
