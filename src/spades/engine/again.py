"""Play a deal again (issue 41 item 3): a new game from a finished hand's exact deal.

The new game's first hand is dealt from that hand's deck by the same dealer (so every seat
holds the same cards), from 0-0 or from the scores and bags before that hand, as the player
chooses; the hands after it are shuffled from the new game's own seed. Its first deal was
chosen, not shuffled from a committed seed, and its record and commitments say so openly
(``Start``; the ``chosen`` commitment scheme, docs/shuffle.md); such a game is practice.
"""

from __future__ import annotations

from .game import new_game
from .state import GameState, Start


def deal_again(state: GameState, number: int, seed: int | str, *,
               from_scores: bool = False) -> GameState:
    """A new game (secret ``seed`` for its later hands) from finished hand ``number`` (from
    0) of ``state``'s game: its deck and dealer, and with ``from_scores`` the scores and
    bags before it (else 0-0). ``ValueError`` says why not."""
    if not 0 <= number < len(state.results):
        finished = len(state.results)
        raise ValueError(f"hand {number + 1} is not a finished hand of this game (it has "
                         f"{finished} finished hand{'' if finished == 1 else 's'})")
    result = state.results[number]
    zeros = (0,) * len(state.rules.sides)
    if not from_scores:
        start = Start(scores=zeros, bags=zeros)
    elif number:
        before = state.results[number - 1].score
        start = Start(scores=before.scores, bags=before.bags)
    else:
        start = state.start or Start(scores=zeros, bags=zeros)
    return new_game(state.rules, seed, decks=[result.deck], first_dealer=result.dealer,
                    start=start)


__all__ = ["deal_again"]
