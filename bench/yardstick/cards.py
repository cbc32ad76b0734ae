"""The card tables the frozen Normal reads, rebuilt from the engine's public API (a frozen
copy of what ``spades.engine.cards`` held when the yardstick was taken)."""

from __future__ import annotations

from spades.engine import Card, Suit

NAME_OF: tuple[str, ...] = tuple(Card(i).name for i in range(54))
SUIT_OF: tuple[Suit, ...] = tuple(Suit(min(i // 13, 3)) for i in range(54))
#: The bit mask of every card of each suit; the spade mask holds the jokers too.
SUIT_MASKS: tuple[int, int, int, int] = (
    ((1 << 13) - 1),
    ((1 << 13) - 1) << 13,
    ((1 << 13) - 1) << 26,
    ((1 << 15) - 1) << 39,
)
