"""Computer players: they see a PlayerView (what a person in the seat sees), nothing else."""

from .base import Player

__all__ = ["Player"]
