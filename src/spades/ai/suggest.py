"""The hand's count behind the bid suggestion: a legal bid and the reasons behind it.

The web table and the terminal suggest Hard's bid (``advice.advise_bid``, docs/advice.md):
where Hard bids what this count suggests, this suggestion is shown word for word; where not,
the count's reasons for the hand's strength explain Hard's bid.

``suggest_bid(view)`` counts the seat's hand the way the Normal player does (sure winners in
side suits, long spades, short suits to trump, the nil chance), then adjusts for the
partner's bid, the table, the score and the bags, and says so in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from spades.engine import NAME_OF, NIL, Bid, PlayerView, Rules

from .bidding import NIL_NOTE, Item, allowed_bids, contract_value, normal_bid


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
    """The bid the Normal player would make with this hand, and why; except a nil where a
    failed nil costs no points, only bags (two-player), whose expected points are below the
    number's: there the number (Normal's nils by choice lost points, bench/RESULTS.md)."""
    choice = normal_bid(view, blind_nil=False)
    est = choice.estimate
    bid = choice.bid
    if bid not in allowed_bids(view):  # never, but a suggestion must be legal
        bid = next(b for b in allowed_bids(view) if not b.blind)
    tricks = est.tricks
    reasons: list[str] = []
    notes = list(choice.notes)
    free = _free_nil(view, est.nil_chance, tricks) if bid.nil else None
    if free is not None and free.nil < free.points:
        bid = free.number
        notes = [note for note in notes if not note.startswith(NIL_NOTE)]
        reasons.extend(_number_reasons(est.items, tricks, bid))
        reasons.append(f"no nil: about {round(est.nil_chance * 100)}% to make it; "
                       f"{free.reason}")
    elif bid.nil:
        # One nil figure (the hand's) and the reasons a nil can fail; the decision's own
        # "nil: about N%" note would repeat it, and the trick-taking reasons argue for a
        # number bid, not for this one.
        reasons.append(_nil_reason(est.nil_chance, est.nil_risks))
        if free is not None:
            reasons.append(free.reason)
        notes = [note for note in notes if not note.startswith(NIL_NOTE)]
        if NIL in allowed_bids(view) and len(allowed_bids(view)) == 1:
            reasons.append("your partner bid, so this hand bids nil")
    else:
        reasons.extend(_number_reasons(est.items, tricks, bid))
    reasons.extend(notes)
    return Suggestion(bid=bid, reasons=reasons, tricks=round(tricks, 2))


def _number_reasons(items: list[Item], tricks: float, bid: Bid) -> list[str]:
    """The hand's trick-taking reasons, strongest first, and its count."""
    ordered = sorted(items, key=lambda item: -item.value)
    return [*(item.reason for item in ordered if item.value >= 0.15),
            f"about {tricks:.1f} tricks in all: bid {bid.label}"]


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


@dataclass(frozen=True, slots=True)
class FreeNil:
    """A nil where a failed nil costs no points, only bags, against the number instead."""

    nil: float  #: the nil's expected points
    number: Bid  #: the number Normal bids with nil off the table
    points: float  #: its expected points
    reason: str  #: the two figures in words


def _free_nil(view: PlayerView, chance: float, tricks: float) -> FreeNil | None:
    """Where a failed nil costs no points, only its tricks as bags, and a number may be bid:
    the nil's expected points against the number's (else None). That a failed nil costs
    nothing does not make a hopeless nil right: its tricks are bags."""
    rules = view.rules
    plain = tuple(b for b in allowed_bids(view) if not b.nil)
    if rules.failed_nil != "bags" or not plain:
        return None
    number = normal_bid(replace(view, legal=plain)).bid
    points = contract_value(tricks, rules, number.tricks)
    nil = nil_points(rules, chance, tricks)
    return FreeNil(nil, number, points,
                   f"a failed nil costs no points here, only its tricks as bags: nil is "
                   f"worth about {_signed(nil)} {_points(nil)} on average, a bid of {number.label} "
                   f"about {_signed(points)}")


def _points(points: float) -> str:
    """The noun after ``_signed(points)``: "point" for +1 and -1."""
    return "point" if abs(round(points)) == 1 else "points"


def _signed(points: float) -> str:
    """``+12``, ``-3``, ``0`` (never ``-0``)."""
    whole = round(points)
    return f"{whole:+d}" if whole else "0"
