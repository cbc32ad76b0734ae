"""Practice games (issue 41): a game with an undo, a hint or a chosen deal counts apart in
the statistics (``Stats.practice``), in no other figure; ``spades stats`` shows them apart."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from spades.engine import (
    GameState,
    Start,
    apply,
    find_preset,
    legal_actions,
    mark_practice,
    new_game,
    record_of,
    undo,
)
from spades.stats import game_figures, player_stats


def _finished_hand(state: GameState, rng: random.Random) -> GameState:
    while not state.results:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def _games() -> dict[str, GameState]:
    rules = find_preset("partnership").with_options(undo=True)
    rng = random.Random(3)
    plain = _finished_hand(new_game(rules, 1), rng)
    undone = new_game(rules, 2, first_dealer=3)
    for _ in range(6):
        undone = apply(undone, rng.choice(legal_actions(undone)))
    undone = _finished_hand(undo(undone, 0), rng)
    hinted = mark_practice(_finished_hand(new_game(rules, 3), rng), "hint")
    deck = new_game(rules, 9).hand.deck
    dealt = _finished_hand(new_game(rules, 4, decks=[deck],
                                    start=Start(scores=(120, 80), bags=(3, 1))), rng)
    return {"plain": plain, "undone": undone, "hinted": hinted, "dealt": dealt}


def test_practice_games_count_apart() -> None:
    games = _games()
    figures = [game_figures(json.loads(json.dumps(record_of(state))), [0], game=name)
               for name, state in games.items()]
    practice = {f.game: f.practice for f in figures}
    assert practice == {"plain": (), "undone": ("undo",), "hinted": ("hint",),
                        "dealt": ("deal",)}
    stats = player_stats(figures)
    only = player_stats([f for f in figures if f.game == "plain"])
    assert stats.overall == only.overall  # the practice games are in no other figure
    assert stats.by_preset == only.by_preset and stats.by_level == only.by_level
    assert stats.practice.in_play == 3 and stats.practice.hands == 3
    data = stats.to_json()
    assert data["practice"]["hands"] == 3
    assert {g["game"]: g["practice"] for g in data["recent"]}["undone"] == ["undo"]


def test_spades_stats_shows_practice_games_apart(tmp_path: Path) -> None:
    files = []
    for name, state in _games().items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(record_of(state)), encoding="utf-8")
        files.append(str(path))
    result = subprocess.run([sys.executable, "-m", "spades.cli.main", "stats", *files],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "COLUMNS": "160"})
    assert result.returncode == 0, result.stderr
    assert "Practice games (undo, hint or a chosen deal), counted apart" in result.stdout
    assert "(practice)" in result.stdout
