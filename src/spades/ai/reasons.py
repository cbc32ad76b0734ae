"""Why a card: one plain sentence about the situation a card decision is about.

``situation(view, card)`` reads, from the seat's ``PlayerView`` alone, the facts a Spades
player weighs (who is winning the trick and whether that is the partner, whether the card
takes it and whether by ruffing, what each side still needs to make its bid, a nil to keep,
cover or set, and, on lead, whether every higher card of the suit is gone);
``reason_for(view, card)`` turns the facts that bear on the card into a sentence. Every
clause states a fact of the view: no reason is given that the position does not show.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.engine import (
    NAME_OF,
    SUIT_OF,
    Play,
    PlayerView,
    Suit,
    deck_mask,
    trick_winner,
)

from .knowledge import higher_in_suit, live_nil, side_infos


@dataclass(frozen=True, slots=True)
class Situation:
    """The facts of one card decision, from the seat's view."""

    card: int
    leading: bool
    #: the seat and card winning the trick so far (None on lead)
    winner: int | None
    top: int | None
    partner_winning: bool
    #: the card takes the trick from the card winning it so far
    wins: bool
    #: the card is a spade played on another suit's lead, taking the trick
    ruff: bool
    #: some legal card takes the trick; some legal card stays under it
    can_win: bool
    can_duck: bool
    #: tricks the seat's side still needs for its bid, and whether it has a bid to make
    need: int
    bidding_side: bool
    #: tricks the other sides still need for their bids (the most any one needs)
    others_need: int
    my_nil: bool
    partner_nil: bool
    #: the live nil bidders of the other sides
    opponent_nils: tuple[int, ...]
    #: the partner has played to this trick already
    partner_played: bool
    #: on lead: the card's suit holds no higher card still out (others' hands, unplayed)
    master: bool
    #: the higher cards of its suit that are gone (played) and those in the seat's hand
    gone_above: tuple[int, ...]
    mine_above: tuple[int, ...]
    #: the card is the lowest the seat holds in its suit
    lowest: bool
    #: the seat is a side of its own (no partner), and the table has more than two sides
    alone: bool = False
    many: bool = False


def situation(view: PlayerView, card: int) -> Situation:
    """The facts about playing ``card`` (a legal play) in ``view``."""
    rules = view.rules
    seat = view.seat
    partner = view.partner
    cards = [c for _, c in view.trick]
    winner = trick_winner(cards, view.leader, rules.players) if cards else None
    top = None if winner is None else dict(view.trick)[winner]
    legal = [int(a.card) for a in view.legal if isinstance(a, Play)]
    takes = {c: bool(cards) and trick_winner([*cards, c], view.leader, rules.players) == seat
             for c in legal}
    led_spades = bool(cards) and SUIT_OF[cards[0]] is Suit.SPADES
    sides = side_infos(view)
    mine = sides[view.my_side]
    others = [s for s in sides if s.index != view.my_side]
    out = deck_mask(rules) & ~view.played & ~view.hand_mask
    above = higher_in_suit(card) & deck_mask(rules)
    return Situation(
        card=card, leading=not cards, winner=winner, top=top,
        partner_winning=winner is not None and winner == partner,
        wins=takes.get(card, False),
        ruff=takes.get(card, False) and not led_spades and SUIT_OF[card] is Suit.SPADES,
        can_win=any(takes.values()), can_duck=not all(takes.values()),
        need=mine.need, bidding_side=bool(mine.bidders),
        others_need=max((s.need for s in others if s.bidders), default=0),
        my_nil=live_nil(view, seat),
        partner_nil=partner is not None and live_nil(view, partner),
        opponent_nils=tuple(s for o in others for s in o.nils),
        partner_played=partner is not None and partner in dict(view.trick),
        master=not cards and not above & out,
        gone_above=_cards(above & view.played), mine_above=_cards(above & view.hand_mask),
        lowest=not _lower_in_hand(view, card),
        alone=len(mine.seats) == 1, many=len(sides) > 2)


def reason_for(view: PlayerView, card: int) -> str:
    """One sentence why ``card``, from the facts of the view that bear on it."""
    s = situation(view, card)
    for rule in (_own_nil, _partner_nil, _opponent_nil, _on_lead, _following):
        sentence = rule(s)
        if sentence:
            return sentence
    verb = "Lead" if s.leading else "Play"
    return f"{verb} the {NAME_OF[card]}{_count(s)}."


# ---------------------------------------------------------------------------- the rules

def _own_nil(s: Situation) -> str | None:
    if not s.my_nil:
        return None
    name = NAME_OF[s.card]
    if s.leading:  # a card nobody can beat keeps no nil: the lead's own rule speaks
        if s.master:
            return None
        return f"Keep your nil: lead the {name}, a card another hand can beat."
    if not s.wins:
        return f"Keep your nil: the {name} stays under the {NAME_OF[_top(s)]}."
    if not s.can_duck:
        return (f"Your nil is lost whatever you play: nothing you hold stays under the "
                f"{NAME_OF[_top(s)]}.")
    return None


def _partner_nil(s: Situation) -> str | None:
    if not s.partner_nil:
        return None
    name = NAME_OF[s.card]
    if s.leading and s.master:
        return f"Cover your partner's nil: lead the {name}, {_master_clause(s)}."
    if s.leading or not s.wins:
        return None
    if s.partner_winning:
        return (f"Cover your partner's nil: play the {name} over their "
                f"{NAME_OF[_top(s)]}.")
    if not s.partner_played:
        return f"Cover your partner's nil: take the trick with the {name} before they play."
    return None


def _opponent_nil(s: Situation) -> str | None:
    if not s.opponent_nils:
        return None
    if not s.leading and s.winner in s.opponent_nils and not s.wins:
        return (f"Set the opponent's nil: stay under their {NAME_OF[_top(s)]} with the "
                f"{NAME_OF[s.card]}.")
    if s.leading and not s.master and s.lowest:
        return f"Lead low at the opponent's nil: the {NAME_OF[s.card]}."
    return None


def _on_lead(s: Situation) -> str | None:
    if not s.leading:
        return None
    name = NAME_OF[s.card]
    if s.master:
        return f"Lead the {name}: {_master_clause(s)}{_count(s, ';')}."
    if s.bidding_side and not s.need and s.lowest:
        return f"Lead low, the {name}: {_has_bid(s)}; more tricks would be bags."
    return None


def _following(s: Situation) -> str | None:
    name = NAME_OF[s.card]
    if s.leading:
        return None
    winning = NAME_OF[_top(s)]
    if s.partner_winning and not s.wins:
        low = "play low" if s.lowest else "leave it the trick"
        return f"Your partner's {winning} is winning; {low}: the {name}."
    if s.ruff:
        return f"Ruff with the {name}{_count(s, ':')}."
    if s.wins:
        return f"Take the trick with the {name}, over the {winning}{_count(s, ':')}."
    if not s.can_win:
        low = "play low" if s.lowest else "play"
        return f"Nothing you hold beats the {winning}; {low}: the {name}."
    if s.bidding_side and not s.need:
        return f"Duck with the {name}: {_has_bid(s)}; this one would be a bag."
    return f"Stay under the {winning}: play the {name}{_count(s, ';')}."


# ---------------------------------------------------------------------------- clauses

def _count(s: Situation, joint: str = ":") -> str:
    """What the sides still need for their bids, as a clause after ``joint``."""
    if s.bidding_side and s.need:
        needs = "you still need" if s.alone else "your side still needs"
        return f"{joint} {needs} {_tricks(s.need)}"
    if s.bidding_side and s.others_need and not s.need:
        other = "another side" if s.many else "the other side"
        return f"{joint} {_has_bid(s)}, {other} still needs {_tricks(s.others_need)}"
    return ""


def _has_bid(s: Situation) -> str:
    return "you have your bid" if s.alone else "your side has its bid"


def _master_clause(s: Situation) -> str:
    if s.gone_above and not s.mine_above:
        gone = _names(s.gone_above)
        return f"the {gone} {'is' if len(s.gone_above) == 1 else 'are'} gone"
    if s.mine_above:
        return f"every higher {_noun(s.card)} is gone or in your hand"
    return f"it is the highest {_noun(s.card)}"


def _tricks(count: int) -> str:
    return f"{count} trick" if count == 1 else f"{count} tricks"


def _names(cards: tuple[int, ...]) -> str:
    """"ace" or "ace and king" (of one suit, highest first): the ranks only."""
    ranks = [NAME_OF[c].split(" of ")[0] for c in sorted(cards, reverse=True)]
    if len(ranks) > 3:
        return f"{len(ranks)} higher {_noun(cards[0])}"
    return ranks[0] if len(ranks) == 1 else ", ".join(ranks[:-1]) + " and " + ranks[-1]


def _noun(card: int) -> str:
    """"heart": one card of ``card``'s suit."""
    return _SINGULAR[SUIT_OF[card]]


_SINGULAR = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart",
             Suit.SPADES: "spade"}


def _top(s: Situation) -> int:
    assert s.top is not None
    return s.top


def _cards(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


def _lower_in_hand(view: PlayerView, card: int) -> bool:
    return any(SUIT_OF[c] == SUIT_OF[card] and c < card for c in view.hand)
