"""Check a record's shuffles (docs/shuffle.md): for each hand, verified, not revealed, or
what did not match.

Three checks for every hand whose seed is revealed: the commitment shown before the deal
against the seed and salt; the deck against the one ``spades-shuffle/1`` gives from the seed
and the players' entropy; and the deck against the cards dealt and played (the record is
replayed through the rules: a card played by a seat that was not dealt it is refused).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .record import CHOSEN, RecordError, parse_record, replay, revealed_of
from .shuffle import ShuffleProblem, check_shuffle

#: A hand's seed is revealed and every check passed.
VERIFIED = "verified"
#: The deck is the one its revealed seed gives, but no commitment was shown before the deal.
UNCOMMITTED = "not committed"
#: No seed is revealed (a hand dealt before provable shuffles, or still secret).
NOT_REVEALED = "not revealed"
#: Something did not match: see the problems.
MISMATCH = "mismatch"
#: The deal was chosen (play a deal again), not shuffled: the record says so openly.
DEAL_CHOSEN = "deal chosen"


@dataclass(frozen=True, slots=True)
class HandCheck:
    """The verdict on hand ``number`` (from 1) of a record."""

    number: int
    status: str
    problems: tuple[ShuffleProblem, ...] = ()
    committed: bool = False

    @property
    def ok(self) -> bool:
        """Nothing did not match (a hand not revealed is not a failure)."""
        return self.status != MISMATCH

    def message(self) -> str:
        """One line for a player: "hand 3: shuffle verified" or what did not match."""
        if self.status == VERIFIED:
            return f"hand {self.number}: shuffle verified"
        if self.status == UNCOMMITTED:
            return (f"hand {self.number}: the deck is the one its seed gives, but no commitment "
                    "was recorded, so nothing shows the seed was chosen before the deal")
        if self.status == DEAL_CHOSEN:
            return f"hand {self.number}: deal chosen (a deal played again), not shuffled"
        if self.status == NOT_REVEALED:
            shown = " (a commitment was shown)" if self.committed else ""
            return f"hand {self.number}: not revealed, nothing to check{shown}"
        return "; ".join(f"hand {self.number}: {p.message}" for p in self.problems)

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.number, "status": self.status, "message": self.message(),
                "problems": [{"check": p.check, "message": p.message} for p in self.problems]}


def verify_record(data: Any) -> tuple[HandCheck, ...]:
    """Check every hand of a record (a parsed JSON object). Raises ``RecordError`` when the
    record cannot be read at all; a record whose plays break the rules or do not fit its
    deck is a mismatch of that hand, not an error."""
    record = parse_record(data, shuffles=False)
    hands_data = [h for h in data["hands"] if isinstance(h, Mapping) and "seen" not in h]
    misfits: dict[int, str] = {}
    try:
        replay(record)
    except RecordError as error:
        if error.hand is None:
            raise
        where = f"action {error.action}: " if error.action is not None else ""
        misfits[error.hand] = f"the cards dealt and played do not fit the deck: {where}" \
                              f"{error.reason}"
    out = []
    for h, (hand, (deck, _)) in enumerate(zip(hands_data, record.hands, strict=True), start=1):
        revealed = revealed_of(hand, h)
        problems = check_shuffle(record.rules.deck, deck, revealed)
        if h in misfits:
            problems.append(ShuffleProblem("cards", misfits[h]))
        committed = revealed.commitment is not None
        if problems:
            status = MISMATCH
        elif revealed.scheme == CHOSEN and revealed.seed is None and h == 1:
            status = DEAL_CHOSEN
        elif revealed.seed is None:
            status = NOT_REVEALED
        else:
            status = VERIFIED if committed else UNCOMMITTED
        out.append(HandCheck(h, status, tuple(problems), committed))
    if record.seen is not None:  # a download's hand in play, as one seat saw it
        out.append(HandCheck(len(out) + 1, NOT_REVEALED))
    return tuple(out)


__all__ = [
    "DEAL_CHOSEN",
    "MISMATCH",
    "NOT_REVEALED",
    "UNCOMMITTED",
    "VERIFIED",
    "HandCheck",
    "verify_record",
]
