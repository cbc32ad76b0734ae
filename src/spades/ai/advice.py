"""The adviser: the hint for the card, with its reason, in Hard's judgement.

``hint_card(view, rng)`` is the card the Hard player would play in the seat of ``view``
(from that ``PlayerView`` only, the same card as ``HardPlayer.choose`` with the same rng),
one plain sentence why (``reasons``: the facts of the position the card is about), and the
other cards Hard's search found exactly as good (cards of one suit with no card still out
between them win and lose the same tricks; cards whose values in the search came out equal).

The bid suggestion (``suggest``) counts the hand as the Normal player does; the card hint is
Hard's (in partnership Hard beats Normal, bench/RESULTS.md). docs/advice.md says which level
each piece of advice gives and why.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from spades.engine import ABOVE, NAME_OF, SUIT_OF, Card, Phase, Play, PlayerView, deck_mask

from .hard import HardPlayer, PlayWeights, distinct_cards
from .reasons import reason_for

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
