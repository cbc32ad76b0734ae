"""Who sits where at our table: seat 0 is you; your partner Juniper sits opposite (seed 004)."""

from __future__ import annotations

_NAMES = {
    2: ("You", "Bramble"),
    3: ("You", "Bramble", "Clover"),
    4: ("You", "Bramble", "Juniper", "Clover"),
    5: ("You", "Bramble", "Hazel", "Juniper", "Clover"),
}


def seat_names(players: int) -> tuple[str, ...]:
    """Names for seats 0..players-1, clockwise; in a four-player partnership seat 2 is your
    partner Juniper and seats 1 and 3 are Bramble and Clover."""
    try:
        return _NAMES[players]
    except KeyError:
        raise ValueError(f"no table for {players} players") from None
