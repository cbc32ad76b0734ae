"""`spades play`'s ``hint`` command (issue 41 item 1): on the turn to play, Hard's legal card
and its reason, and nothing played by asking (the game is practice then); at a bid, a word
that the hint is for the play."""

from __future__ import annotations

import re

import pytest

from spades.ai.hard import HardPlayer
from spades.ai.simple import RandomPlayer
from spades.cli import play as play_module
from spades.cli.play import TerminalTable, card_text
from spades.engine import (
    Bid,
    Phase,
    Play,
    find_preset,
    parse_card,
    player_view,
    practice_of,
)

HINT = re.compile(r"  Hint \(Hard\): (\S+)\. (.+\.)$")


def test_hint_in_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Hard with a small budget, so the test is quick (the command's own is Hard's time)
    monkeypatch.setattr(play_module, "HardPlayer",
                        lambda time_limit: HardPlayer(iterations=30))
    said: list[str] = []
    played: list[str] = []
    asking = False
    table: TerminalTable

    def ask(prompt: str) -> str:
        nonlocal asking
        view = player_view(table.state, 0)
        if view.phase is Phase.BID:
            if NOT_NOW not in said:
                return "hint"
            bid = next(a for a in view.legal if isinstance(a, Bid) and not a.nil)
            return str(bid.tricks)
        if len(played) == 3:
            raise EOFError
        if not asking:
            asking = True
            return "hint"
        asking = False
        match = HINT.match(said[-1])
        assert match, said[-1]
        cards = [a.card for a in view.legal if isinstance(a, Play)]
        card = next(c for c in cards if card_text(c) == match.group(1))  # a legal card
        assert len(match.group(2)) > 10
        assert not player_view(table.state, 0).played >> card & 1  # asking played nothing
        played.append(str(card))
        return str(card).lower()

    table = TerminalTable(find_preset("short"), seed=3, ask=ask, say=said.append,
                          players={s: RandomPlayer() for s in range(1, 4)})
    with pytest.raises(EOFError):
        table.play()
    assert NOT_NOW in said
    assert len(played) == 3
    # the hinted cards were played when typed, and only then
    gone = player_view(table.state, 0).played
    assert all(gone >> parse_card(card) & 1 for card in played)
    assert practice_of(table.state) == ("hint",)  # a game played with hints is practice


NOT_NOW = "  A hint is for your turn to play a card (the bid has its suggestion)."
