"""The people's entropy for the shuffles (docs/shuffle.md, "At the table"): which hand a
contribution goes to, and what a contribution may be.

While hand ``n`` is in play the table shows the commitment to the seed of hand ``n + 1``;
a person may then add a contribution to that hand's shuffle, once per hand. One that
arrives after its hand was dealt goes to the hand after. Only people give entropy: the
server plays the computer players, so theirs would add nothing it could not choose.
"""

from __future__ import annotations

import re
from typing import Any

from spades.engine import GameState, shuffle_news

from .refusal import Refusal

#: The most hex digits a contribution may have (64: 256 bits, more than the shuffle's key).
MAX_DIGITS = 64
HEX = re.compile(rf"[0-9a-f]{{1,{MAX_DIGITS}}}")
#: The protocol's code for a contribution refused for its timing or a second one.
ENTROPY_REFUSED = "entropy"


def checked_value(value: Any) -> str:
    """The contribution itself: 1 to 64 lower-case hex digits, else a ``Refusal``."""
    if not isinstance(value, str) or not HEX.fullmatch(value):
        raise Refusal("bad-message", f'"value" must be 1 to {MAX_DIGITS} hex digits (0-9, '
                      'a-f), e.g. 16 random bytes from crypto.getRandomValues')
    return value


def target_hand(state: GameState, hand: Any, seat: int,
                given: frozenset[tuple[int, int]]) -> int:
    """The hand (from 0) a contribution asked for ``hand`` (from 0) goes to: that hand if it
    is the next one, the next one if it was already dealt; ``given`` holds (hand, seat) of
    the contributions made. A ``Refusal`` says why there is none."""
    if not isinstance(hand, int) or isinstance(hand, bool):
        raise Refusal("bad-message", '"hand" must be the number of the hand to shuffle, '
                      "e.g. the next hand's")
    if state.over:
        raise Refusal(ENTROPY_REFUSED, "the game is over: no hand is left to shuffle")
    following = state.hand.number + 1
    if hand > following:
        raise Refusal(ENTROPY_REFUSED, f"hand {hand + 1} has no commitment yet: add to the "
                      f"shuffle of hand {following + 1}")
    committed = {entry["hand"] for entry in shuffle_news(state)["committed"]}
    if following not in committed:
        raise Refusal(ENTROPY_REFUSED, "this game's hands are not dealt from a committed "
                      "seed: there is no shuffle to add to")
    if (following, seat) in given:
        raise Refusal(ENTROPY_REFUSED, "you have already added to the shuffle of hand "
                      f"{following + 1}")
    return following
