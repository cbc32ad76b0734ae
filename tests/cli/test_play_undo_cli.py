"""`spades play`: the terminal's `undo` command (issue 41 item 2) and `--deal RECORD --hand N`
(item 3): a deal played again is dealt the same 13 cards."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from spades.ai.simple import RandomPlayer
from spades.cli.play import TerminalTable, card_text
from spades.engine import (
    Play,
    apply,
    find_preset,
    legal_actions,
    load_record,
    new_game,
    player_view,
    record_of,
)

pytestmark = pytest.mark.timeout(120)


def _table(rules_undo: bool, lines: list[str], answers: list[str],
           save: Path | None = None) -> TerminalTable:
    rules = find_preset("partnership").with_options(undo=rules_undo)
    table: TerminalTable

    def ask(prompt: str) -> str:
        if answers:
            return answers.pop(0)
        view = player_view(table.state, 0)
        if view.phase.value == "bid":
            return "3"
        if len([line for line in lines if line.startswith("You take back")]) >= 1 or \
                any("undo is not allowed" in line for line in lines):
            raise EOFError
        plays = [a for a in view.legal if isinstance(a, Play)]
        played = [a for s, a in table.state.hand.actions if s == 0 and isinstance(a, Play)]
        if played:
            return "undo"
        return str(plays[0].card)

    table = TerminalTable(rules, seed=11, ask=ask, say=lines.append,
                          save=None if save is None else str(save),
                          players={s: RandomPlayer() for s in range(1, 4)})
    return table


def test_undo_takes_back_my_card_and_the_saved_record_keeps_it(tmp_path: Path) -> None:
    lines: list[str] = []
    save = tmp_path / "game.json"
    table = _table(True, lines, [], save)
    with pytest.raises(EOFError):
        table.play()
    said = next(line for line in lines if line.startswith("You take back"))
    assert said.startswith("You take back your ")
    assert table.state.undos and table.state.hand.turn == 0
    data = json.loads(save.read_text(encoding="utf-8"))
    assert any("undo" in entry for entry in data["hands"][0]["actions"])
    assert load_record(data, 11).hand == table.state.hand


def test_undo_without_the_house_rule_says_why() -> None:
    lines: list[str] = []
    table = _table(False, lines, [])
    with pytest.raises(EOFError):
        table.play()
    assert any("undo is not allowed at this table" in line for line in lines)
    assert not table.state.undos


def _finished(tmp_path: Path) -> tuple[Path, object]:
    state = new_game("partnership", 21)
    rng = random.Random(2)
    while len(state.results) < 2:
        state = apply(state, rng.choice(legal_actions(state)))
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record_of(state)), encoding="utf-8")
    return path, state


def test_play_a_deal_again_is_dealt_the_same_13_cards(tmp_path: Path) -> None:
    path, old = _finished(tmp_path)
    save = tmp_path / "again.json"
    result = subprocess.run(
        [sys.executable, "-m", "spades.cli.main", "play", "--deal", str(path), "--hand", "2",
         "--from-scores", "--seed", "4", "--level", "easy", "--save", str(save)],
        input="q\n", capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    hand = old.results[1]  # type: ignore[attr-defined]
    mine = {hand.deck[i] for i in range(52) if (hand.dealer + 1 + i) % 4 == 0}
    line = next(t for t in result.stdout.splitlines() if t.startswith("Your hand: "))
    shown = line.removeprefix("Your hand: ").replace("*", "").split()
    assert sorted(shown) == sorted(card_text(c) for c in mine)  # the same 13 cards
    data = json.loads(save.read_text(encoding="utf-8"))  # the computer players bid first
    assert data["start"]["scores"] == list(old.results[0].score.scores)  # type: ignore[attr-defined]
    assert data["hands"][0]["commitment_scheme"] == "chosen"
    assert data["hands"][0]["deck"] == [str(c) for c in hand.deck]


def test_play_a_deal_again_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    path, _ = _finished(tmp_path)
    for args, words in ((["--deal", str(path)], "needs --hand"),
                        (["--hand", "1"], "go with --deal"),
                        (["--deal", str(path), "--hand", "3"], "not a finished hand"),
                        (["--deal", str(tmp_path / "none.json"), "--hand", "1"], "cannot read")):
        result = subprocess.run([sys.executable, "-m", "spades.cli.main", "play", *args],
                                input="q\n", capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and words in result.stderr, (args, result.stderr)


def test_spades_replay_understands_undos(tmp_path: Path) -> None:
    from spades.engine import undo
    state = new_game(find_preset("partnership").with_options(undo=True), 5, first_dealer=3)
    rng = random.Random(1)
    while len(state.results) < 1 or len(state.hand.actions) < 6:
        state = apply(state, rng.choice(legal_actions(state)))
    state = undo(state, 0)
    path = tmp_path / "undone.json"
    path.write_text(json.dumps(record_of(state)), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "spades.cli.main", "replay", str(path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    count = len(state.undos[0].taken)
    assert f"Undo: seat 0 took back {count} action{'' if count == 1 else 's'}" in result.stdout
    assert "Practice game (undo)" in result.stdout
    data = subprocess.run([sys.executable, "-m", "spades.cli.main", "replay", "--json",
                           str(path)], capture_output=True, text=True, timeout=60)
    assert json.loads(data.stdout)["practice"] == ["undo"]
