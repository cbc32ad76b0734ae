"""A frozen copy of the Normal computer player, the yardstick progress is measured against.

Copied from ``src/spades/ai`` at commit d232a58 (normal.py and every module it relies on:
base, bidding, heuristics_deal, heuristics_trick, heuristics_value, knowledge), with the card
tables it read from ``spades.engine.cards`` rebuilt in ``cards.py`` from the engine's public
API. It imports nothing of ``spades.ai``, so mending Normal or the AI modules does not move
it. Do not edit these modules: a yardstick that changes measures nothing. (Only an engine API
change may need a matching edit here; ``tests/ai/test_yardstick.py`` says when.)

Use it in the arena by its path, from the project's root::

    spades arena hard bench/yardstick --deals 300 --jobs 2
    spades arena hard --field easy,normal,frozen --deals 100     # "frozen" = bench/yardstick

or from Python: ``make_player()`` returns the player.
"""

from __future__ import annotations

from typing import Any

from .normal import NormalPlayer

__all__ = ["NormalPlayer", "make_player"]


def make_player(**options: Any) -> NormalPlayer:
    """The frozen Normal (options as Normal's: ``blind_nil``)."""
    options.setdefault("name", "frozen-normal")
    return NormalPlayer(**options)
