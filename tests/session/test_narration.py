"""The session's narration: a finished game says why it ended (engine.end_reason)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades.engine import Bid, HandScore, end_reason, find_preset, load_record
from spades.session import GameEnded, ending, narrate

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


@pytest.mark.parametrize("name,reason", [
    ("scoring_003_boston", "boston"),
    ("scoring_001_mercy", "mercy"),
    ("preset_partnership", "target"),
])
def test_a_finished_game_says_why_it_ended(name: str, reason: str) -> None:
    state = load_record(json.loads((GOLDEN / f"{name}.json").read_text()))
    if not state.over:
        pytest.fail(f"{name} is not a finished game")
    end = ending(state)
    assert end == GameEnded(state.winner, tuple(state.scores), reason)


def test_the_last_action_narrates_the_end_with_its_reason() -> None:
    record = json.loads((GOLDEN / "scoring_003_boston.json").read_text())
    state = load_record(record)
    last = record["hands"][-1]
    shorter = {**record, "hands": [*record["hands"][:-1],
                                   {**last, "actions": last["actions"][:-1]}]}
    before = load_record(shorter)
    told = narrate(before, state, 0)
    assert told[-1] == GameEnded(state.winner, tuple(state.scores), "boston")


def test_a_moon_shot_to_the_win_is_the_reason() -> None:
    rules = find_preset("two-player")
    assert rules.moon_value is not None
    bids = (Bid(rules.hand_size), Bid(1))
    tricks = (rules.hand_size, 0)
    won = HandScore(points=(rules.moon_value, -10), bags=(0, 0),
                    scores=(rules.target_score + 10, 40))
    assert end_reason(rules, bids, tricks, won) == "moon"
    # the same hand far from the target ends nothing
    short = HandScore(points=(rules.moon_value, -10), bags=(0, 0), scores=(10, 40))
    assert end_reason(rules, bids, tricks, short) is None
    # a plain bid made to the target ends it by the target
    plain = (Bid(5), Bid(1))
    assert end_reason(rules, plain, (5, 8), won) == "target"
