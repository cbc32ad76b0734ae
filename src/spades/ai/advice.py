"""The adviser: the hint for the card, with its reason, in Hard's judgement.

``hint_card(view, rng)`` is the card the Hard player would play in the seat of ``view``
(from that ``PlayerView`` only, the same card as ``HardPlayer.choose`` with the same rng),
one plain sentence why (``reasons``: the facts of the position the card is about), and the
other cards Hard's search found exactly as good (cards of one suit with no card still out
between them win and lose the same tricks; cards whose values in the search came out equal).

``advise_bid(view, rng)`` is the bid suggestion in the same player's judgement: the bid the
Hard player would make, explained by the hand's count (``suggest``): where Hard and the count
agree, the count's own suggestion and reasons; where they differ, the count's reasons for the
hand's strength and what Hard's playouts found, never a reason that argues for another bid.
docs/advice.md says why both pieces of advice are Hard's (in partnership Hard beats Normal,
``spades arena hard normal``).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from spades.engine import (
    ABOVE,
    CODE_OF,
    NAME_OF,
    SUIT_OF,
    Bid,
    Card,
    Phase,
    Play,
    PlayerView,
    deck_mask,
)

from .bidding import normal_bid
from .hard import HardPlayer, PlayWeights, distinct_cards
from .reasons import reason_for
from .suggest import Suggestion, suggest_bid

#: The level whose judgement the card hint gives (shown to people beside the hint).
HINT_LEVEL = "hard"
#: Two values the search gave within this much are the same value (sums of the same
#: numbers added in another order may differ in the last bits).
SAME = 1e-9


@dataclass(frozen=True, slots=True)
class CardHint:
    """The card Hard would play, why, and the other legal cards as good as it."""

    card: Card
    reason: str
    #: other legal cards exactly as good (sorted)
    equals: tuple[Card, ...] = ()
    level: str = HINT_LEVEL

    @property
    def sentence(self) -> str:
        """The reason, with the cards as good named when there are any."""
        if not self.equals:
            return self.reason
        names = _either(self.equals)
        verb = "is" if len(self.equals) == 1 else "are"
        return f"{self.reason[:-1]} ({names} {verb} as good)."


def hint_card(view: PlayerView, rng: random.Random,
              player: HardPlayer | None = None) -> CardHint:
    """The card hint for the seat of ``view`` (its turn to play): Hard's card and why.
    ``player``: the Hard player to ask (by default one with its standard budget)."""
    if view.phase is not Phase.PLAY or not view.legal:
        raise ValueError("a hint is for your turn to play a card")
    weights = (player or HardPlayer()).weigh_play(view, rng)
    action = weights.action
    assert isinstance(action, Play)
    card = action.card
    return CardHint(card=card, reason=reason_for(view, card),
                    equals=as_good(view, card, weights))


def as_good(view: PlayerView, card: int, weights: PlayWeights) -> tuple[Card, ...]:
    """The other legal cards as good as ``card`` in Hard's decision ``weights``: the cards
    that play alike with it (no card still out between them), and those that play alike with
    a card whose value came out the same."""
    legal = sorted(int(a.card) for a in view.legal if isinstance(a, Play))
    if len(legal) < 2:
        return ()
    moves = distinct_cards(view)
    if len(moves) == 1:  # every legal card plays alike
        return tuple(Card(c) for c in legal if c != card)
    values = weights.values
    if card not in values:  # no search was made (a view the sampler could not deal)
        return ()
    same = {m for m, v in values.items() if abs(v - values[card]) <= SAME}
    return tuple(Card(c) for c in legal
                 if c != card and any(_alike(view, c, m) for m in same))


def _alike(view: PlayerView, a: int, b: int) -> bool:
    """Do cards ``a`` and ``b`` (both the seat's) win and lose the same tricks: one suit,
    and no card still out (nor on the table) between them?"""
    if a == b:
        return True
    if SUIT_OF[a] != SUIT_OF[b]:
        return False
    low, high = min(a, b), max(a, b)
    live = deck_mask(view.rules) & ~view.played & ~view.hand_mask
    for _, played in view.trick:
        live |= 1 << played
    between = ABOVE[low] & ~ABOVE[high - 1] & ~(1 << high)
    return not live & between


def _either(cards: tuple[Card, ...]) -> str:
    names = [f"the {NAME_OF[c]}" for c in cards]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


# ---------------------------------------------------------------------------- the bid

def advise_bid(view: PlayerView, rng: random.Random,
               player: HardPlayer | None = None) -> Suggestion:
    """The bid suggestion for the seat of ``view`` (its turn to bid): Hard's bid (never
    blind nil) with the reasons of the hand's count that hold for it."""
    if view.phase is not Phase.BID or not view.legal:
        raise ValueError("a bid suggestion is for your turn to bid")
    hard = player or HardPlayer()
    hard.last_probe = hard.last_nil = None  # this decision's figures only
    action = hard.choose(view, rng)
    count = suggest_bid(view)
    if not isinstance(action, Bid) or action.blind or action == count.bid:
        return count  # the count agrees (or Hard did not bid): its own words
    if action.nil:
        return Suggestion(bid=action, reasons=_nil_reasons(view, hard), tricks=count.tricks)
    return Suggestion(bid=action, reasons=_number_reasons(view, action, hard),
                      tricks=count.tricks)


def view_seed(view: PlayerView) -> int:
    """A seed for a suggestion from the facts of the view (the same view, the same
    suggestion): the seat's cards, the hand, the bids so far, the scores and bags."""
    facts = (view.seat, view.hand_number, view.dealer, [CODE_OF[c] for c in view.hand],
             [b.code if b is not None else None for b in view.bids], view.scores, view.bags)
    digest = hashlib.sha256(f"spades-advice/1:{facts!r}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _nil_reasons(view: PlayerView, hard: HardPlayer) -> list[str]:
    """Hard bids nil: its own playouts' figure, the cards that put the nil at risk."""
    est = normal_bid(view).estimate
    made = hard.last_nil
    if made is not None and made[1]:
        figure = f"nil: made in about {round(100 * made[0] / made[1])}% of Hard's playouts"
    else:
        figure = "nil: Hard's playouts score it above every number"
    risks = est.nil_risks[:3]
    reasons = [figure + ("; the risky cards: " + ", ".join(NAME_OF[c] for c in risks)
                         if risks else "")]
    if view.rules.failed_nil == "bags":
        reasons.append("a failed nil costs no points here, only its tricks as bags")
    return reasons


def _number_reasons(view: PlayerView, bid: Bid, hard: HardPlayer) -> list[str]:
    """Hard bids a number the count does not: the count's reasons for the hand's strength,
    the count, and what Hard's playouts took."""
    est = normal_bid(view).estimate
    reasons = [item.reason for item in sorted(est.items, key=lambda i: -i.value)
               if item.value >= 0.15]
    probe = hard.last_probe
    took = "" if probe is None else f", about {probe:.1f} in Hard's playouts"
    reasons.append(f"about {est.tricks:.1f} tricks by the count{took}; bid {bid.label}: "
                   "the best score in Hard's playouts of the deals you could be facing")
    partner = view.partner
    other = None if partner is None else view.bids[partner]
    if other is not None and other.nil and hard.cover_shade:
        reasons.append("your partner bid nil: covering it costs tricks, so a little under")
    return reasons
