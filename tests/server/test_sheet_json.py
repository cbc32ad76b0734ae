"""The score sheet in a state message is made once a sheet (``wire.sheet_json``) and says
what it would say made afresh."""

from __future__ import annotations

import random

import pytest

from spades.engine import PRESETS, SheetLine, apply, legal_actions, new_game, score_sheet
from spades.server import wire


def test_a_sheet_as_json_is_made_once_and_a_new_sheet_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "SHEETS_KEPT", 2)
    rules = PRESETS["partnership"]
    state = new_game(rules, seed="sheet-json")
    rng = random.Random(2)
    sheets: list[tuple[SheetLine, ...]] = []
    while len(state.results) < 3:
        state = apply(state, rng.choice(legal_actions(state)))
        if len(state.results) > len(sheets):
            sheets.append(score_sheet(state))
    for sheet in sheets:
        made = wire.sheet_json(sheet, rules.sides)
        assert made == [wire.sheet_line(line, rules.sides) for line in sheet]
        assert wire.sheet_json(sheet, rules.sides) is made  # kept
        # an equal sheet that is another object has its own, equal
        other = tuple(list(sheet))
        assert other is not sheet
        assert wire.sheet_json(other, rules.sides) == made
        assert wire.sheet_json(other, rules.sides) is not made
    assert len(wire._sheets) <= 2  # the oldest went
