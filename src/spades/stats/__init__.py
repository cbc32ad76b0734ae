"""A player's statistics, worked out from the stored game records replayed through the engine.

``figures`` is the pure computation (records in, typed figures out); ``games`` reads a
player's games from the store and caches the figures of finished games.
"""

from .figures import (
    NO_COMPUTER,
    UNKNOWN_LEVEL,
    GameFigures,
    Group,
    HandFigures,
    Stats,
    StatsError,
    Tally,
    figures_of_state,
    game_figures,
    game_json,
    player_stats,
    tally,
)
from .games import FigureCache, player_ids, store_figures, store_stats, stored_figures

__all__ = [
    "NO_COMPUTER",
    "UNKNOWN_LEVEL",
    "FigureCache",
    "GameFigures",
    "Group",
    "HandFigures",
    "Stats",
    "StatsError",
    "Tally",
    "figures_of_state",
    "game_figures",
    "game_json",
    "player_ids",
    "player_stats",
    "store_figures",
    "store_stats",
    "stored_figures",
    "tally",
]
