"""The few words people may say at a table (docs/protocol.md, "Phrases"): a fixed set and
a few emoji, never free text; at most one a second per person, in bursts of 3."""

from __future__ import annotations

import time
from collections.abc import Callable

from .wire import Json

PHRASES: dict[str, str] = {
    "good-game": "Good game",
    "nice-nil": "Nice nil!",
    "well-played": "Well played, partner",
    "oops": "Oops",
    "thanks": "Thanks",
    "one-moment": "One moment",
    "thumbs-up": "\N{THUMBS UP SIGN}",
    "laugh": "\N{SMILING FACE WITH OPEN MOUTH AND SMILING EYES}",
    "wow": "\N{FACE WITH OPEN MOUTH}",
    "clap": "\N{CLAPPING HANDS SIGN}",
}
RATE = 1.0  # phrases a second
BURST = 3
TOO_FAST = "one phrase a second at most"


def phrases_json() -> list[Json]:
    return [{"name": name, "text": text} for name, text in PHRASES.items()]


class Bucket:
    """A token bucket: ``take`` says whether one more phrase may go now."""

    def __init__(self, rate: float = RATE, burst: int = BURST,
                 clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.last = clock()

    def take(self) -> bool:
        moment = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (moment - self.last) * self.rate)
        self.last = moment
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
