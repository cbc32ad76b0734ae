"""The bid suggestion the web table shows: a legal bid and the reasons behind it.

``suggest_bid(view)`` counts the seat's hand the way the Normal player does (sure winners in
side suits, long spades, short suits to trump, the nil chance), then adjusts for the
partner's bid, the table, the score and the bags, and says so in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spades.engine import NAME_OF, NIL, Bid, PlayerView, Rules

from .bidding import NIL_NOTE, allowed_bids, best_contract, normal_bid


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A legal bid for the seat and the reasons a person can read."""

    bid: Bid
    reasons: list[str] = field(default_factory=list)
    tricks: float = 0.0  # the hand's estimated trick count

    @property
    def label(self) -> str:
        return self.bid.label


def suggest_bid(view: PlayerView) -> Suggestion:
    """The bid the Normal player would make with this hand, and why."""
    choice = normal_bid(view, blind_nil=False)
    est = choice.estimate
    bid = choice.bid
    if bid not in allowed_bids(view):  # never, but a suggestion must be legal
        bid = next(b for b in allowed_bids(view) if not b.blind)
    tricks = est.tricks
    reasons: list[str] = []
    notes = list(choice.notes)
    if bid.nil:
        # One nil figure (the hand's) and the reasons a nil can fail; the decision's own
        # "nil: about N%" note would repeat it, and the trick-taking reasons argue for a
        # number bid, not for this one.
        reasons.append(_nil_reason(est.nil_chance, est.nil_risks))
        if view.rules.failed_nil == "bags" and len(allowed_bids(view)) > 1:
            reasons.append(_free_nil_reason(view, est.nil_chance, tricks))
        notes = [note for note in notes if not note.startswith(NIL_NOTE)]
        if NIL in allowed_bids(view) and len(allowed_bids(view)) == 1:
            reasons.append("your partner bid, so this hand bids nil")
    else:
        items = sorted(est.items, key=lambda item: -item.value)
        reasons.extend(item.reason for item in items if item.value >= 0.15)
        reasons.append(f"about {tricks:.1f} tricks in all: bid {bid.label}")
    reasons.extend(notes)
    return Suggestion(bid=bid, reasons=reasons, tricks=round(tricks, 2))


def _nil_reason(chance: float, risks: list[int]) -> str:
    percent = round(chance * 100)
    if not risks:
        return f"nil: no card likely to win a trick, about {percent}% to make it"
    names = ", ".join(NAME_OF[c] for c in risks[:3])
    return f"nil: about {percent}% to make it; the risky cards: {names}"


def nil_points(rules: Rules, chance: float, tricks: float) -> float:
    """A nil's expected points where a failed nil costs no points, only its tricks as bags
    (two-player): the nil's value when it is made, and when it fails its tricks (about the
    hand's count, at least the one that broke it) each scoring a point and a bag, a bag
    costing its share of the bag penalty."""
    bag = rules.bag_penalty / rules.bag_limit if rules.bag_limit else 0.0
    return chance * rules.nil_value + (1.0 - chance) * max(1.0, tricks) * (1.0 - bag)


def _free_nil_reason(view: PlayerView, chance: float, tricks: float) -> str:
    """Why nil is still the bid when it will rarely be made: here a failed nil costs no
    points, only bags; its expected points against the best number's."""
    rules = view.rules
    lowest = min(b.tricks for b in allowed_bids(view) if not b.nil)
    number, points = best_contract(tricks, rules, lowest)
    nil = nil_points(rules, chance, tricks)
    return (f"a failed nil costs no points here, only its tricks as bags: nil is worth "
            f"about {nil:+.0f} points on average, the best number ({number}) about "
            f"{points:+.0f}")
