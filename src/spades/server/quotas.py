"""How many games one may start: a few a minute per player id and per client address (a
burst allowed: the moving windows of ``spades.accounts.Rates``), and at most so many
unfinished games per person; one deletes an unfinished game from the games list
(``DELETE /api/games/{id}``) to start another."""

from __future__ import annotations

from dataclasses import dataclass

from limits.aio.storage import Storage

from spades.accounts import Limited, Rates, take_all

#: New games per player id, and per client address (a family behind one router shares it).
GAMES_PER_PLAYER = "10/minute;60/hour"
GAMES_PER_ADDRESS = "20/minute;120/hour"
#: Unfinished games one person may have.
UNFINISHED = 50
TOO_FAST = "you are starting new games too fast"


def too_many(most: int) -> str:
    return (f"you have {most} unfinished games, the most one may have: finish one, or "
            "delete one you no longer play from the games list (Your games, Delete)")


@dataclass(frozen=True)
class GameLimits:
    """The limits of new games, each a ``spades serve`` flag."""

    per_player: str = GAMES_PER_PLAYER
    per_address: str = GAMES_PER_ADDRESS
    unfinished: int = UNFINISHED


class GameQuota:
    """The counts of new games by player id and by address."""

    def __init__(self, limits: GameLimits = GameLimits(), storage: Storage | None = None):
        self.limits = limits
        self.per_player = Rates("games-player", limits.per_player, storage)
        self.per_address = Rates("games-address", limits.per_address, storage)

    async def take(self, player: str, address: str) -> None:
        """Count a new game, or raise Limited (nothing counted)."""
        if wait := await take_all((self.per_player, (player,)), (self.per_address, (address,))):
            raise Limited(wait, TOO_FAST)
