"""What a game's snapshots share from one change to the next, made once: each hand's
secrets for the shuffles' news, the news itself while no hand begins or ends and nobody adds
to a shuffle, and the score sheet while no hand ends."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spades.engine import GameState, HandResult, Secrets, SheetLine, score_sheet, shuffle_news


@dataclass(slots=True)
class Memo:
    """One game's: the session's own, never sent (``secrets`` holds hands not yet played)."""

    #: the hands' seeds, salts and commitments derived so far (``shuffle_news``'s memo)
    secrets: Secrets = field(default_factory=dict)
    #: the finished hands the sheet was made from (the state's own tuple: a new one when a
    #: hand ends or the game is read again from the store)
    results: tuple[HandResult, ...] | None = None
    sheet: tuple[SheetLine, ...] = ()
    #: what the shuffles' news was made from (``_news_key``), and the news
    news_key: tuple[Any, ...] | None = None
    news: dict[str, Any] = field(default_factory=dict)

    def sheet_of(self, state: GameState) -> tuple[SheetLine, ...]:
        """``score_sheet(state)``, made again only when its finished hands changed."""
        if state.results is not self.results:
            self.results, self.sheet = state.results, score_sheet(state)
        return self.sheet

    def news_of(self, state: GameState) -> dict[str, Any]:
        """``shuffle_news(state)``, made again only when what it reads changed (shared:
        not to be changed)."""
        key = _news_key(state)
        if key != self.news_key:
            self.news_key, self.news = key, shuffle_news(state, self.secrets)
        return self.news


def _news_key(state: GameState) -> tuple[Any, ...]:
    """Everything ``shuffle_news`` reads of a state: the game's seed and start, which hand
    is in play, whether the game is over, the decks it was given, the shuffle with its
    entropy and the finished hands (tuples kept from state to state, compared by identity
    first)."""
    return (state.seed, state.start, state.hand.number, state.over, state.decks,
            state.shuffle, state.results)
