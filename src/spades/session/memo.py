"""What a game's snapshots share from one change to the next, made once: each hand's
secrets for the shuffles' news, and the score sheet while no hand ends."""

from __future__ import annotations

from dataclasses import dataclass, field

from spades.engine import GameState, HandResult, Secrets, SheetLine, score_sheet


@dataclass(slots=True)
class Memo:
    """One game's: the session's own, never sent (``secrets`` holds hands not yet played)."""

    #: the hands' seeds, salts and commitments derived so far (``shuffle_news``'s memo)
    secrets: Secrets = field(default_factory=dict)
    #: the finished hands the sheet was made from (the state's own tuple: a new one when a
    #: hand ends or the game is read again from the store)
    results: tuple[HandResult, ...] | None = None
    sheet: tuple[SheetLine, ...] = ()

    def sheet_of(self, state: GameState) -> tuple[SheetLine, ...]:
        """``score_sheet(state)``, made again only when its finished hands changed."""
        if state.results is not self.results:
            self.results, self.sheet = state.results, score_sheet(state)
        return self.sheet
