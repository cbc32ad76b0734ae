"""The card hint asked for at a table (docs/advice.md): the card the Hard player would play
in a person's seat, from that seat's view only, and why (``spades.ai.advice``).

``hint_view`` checks that a hint may be given now (hints allowed at the table, the person's
turn to play, the version they saw) and gives the seat's view; ``hint_job`` works the hint
out (in a worker process of the deep lane, as Hard's own decisions are, and with Hard's own
time limit: ``Thinker.hint``).
"""

from __future__ import annotations

import random
from typing import Any

from spades.ai.advice import hint_card
from spades.ai.hard import HardPlayer
from spades.engine import CODE_OF, Phase, PlayerView

from .refusal import Refusal
from .session import Snapshot

#: Why a hint is refused, for a person (``Refusal`` code "hint").
HINTS_OFF = "the host of this table did not allow hints"
NOT_NOW = "a hint is for your turn to play a card"
MOVED_ON = "the table had moved on: ask for a hint again"
TOO_LONG = "the hint took too long; ask again"
STOPPING = "the server is stopping; ask for a hint again in a moment"


def hint_view(snapshot: Snapshot, seat: int, version: int, allowed: bool) -> PlayerView:
    """The view of ``seat`` to give a hint for, asked from ``version``; ``Refusal("hint")``
    when hints are not ``allowed`` here, the table moved on, or it is not the seat's turn
    to play a card."""
    if not allowed:
        raise Refusal("hint", HINTS_OFF)
    if version != snapshot.version:
        raise Refusal("hint", MOVED_ON)
    view = snapshot.view(seat)
    if view.phase is not Phase.PLAY or not view.legal:
        raise Refusal("hint", NOT_NOW)
    return view


def hint_job(player: HardPlayer, view: PlayerView, seed: int) -> dict[str, Any]:
    """The hint as the protocol's fields: Hard's card, the sentence why, the cards as good
    and the level whose judgement it is."""
    hint = hint_card(view, random.Random(seed), player)
    return {"card": CODE_OF[hint.card], "reason": hint.sentence,
            "equals": [CODE_OF[c] for c in hint.equals], "level": hint.level}
