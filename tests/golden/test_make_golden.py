"""tests/golden/make_golden.py never overwrites a golden file: an expectation written from
today's code would pass whatever the code does."""

from __future__ import annotations

import importlib.util
import random
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from spades.engine import GameState, apply, find_preset, legal_actions, new_game

HERE = Path(__file__).resolve().parent


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_golden", HERE / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


make_golden = _load()


def a_game(seed: int) -> GameState:
    state = new_game(find_preset("partnership"), seed=seed)
    rng = random.Random(seed)
    while len(state.results) < 2:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_a_new_game_is_written_and_the_same_game_again_is_left_alone(tmp_path: Path) -> None:
    assert make_golden.write("g", a_game(1), tmp_path) == "written"
    record, expected = tmp_path / "g.json", tmp_path / "g.expected.json"
    texts = record.read_text(), expected.read_text()
    assert '"scores"' in texts[1]
    assert make_golden.write("g", a_game(1), tmp_path) == "unchanged"
    assert (record.read_text(), expected.read_text()) == texts


def test_an_existing_expected_file_is_never_overwritten(tmp_path: Path) -> None:
    make_golden.write("g", a_game(1), tmp_path)
    expected = tmp_path / "g.expected.json"
    record = tmp_path / "g.json"
    kept = record.read_text()
    expected.write_text("hand-checked figures\n")
    with pytest.raises(make_golden.GoldenExists, match=r"g\.expected\.json"):
        make_golden.write("g", a_game(1), tmp_path)
    assert expected.read_text() == "hand-checked figures\n"
    # another game under the same name: refused too, and neither file is touched
    expected.write_text(make_golden.summary_text(make_golden.summary(a_game(1))))
    with pytest.raises(make_golden.GoldenExists):
        make_golden.write("g", a_game(2), tmp_path)
    assert record.read_text() == kept
    # an expected file alone (its record deleted) is not rewritten beside a new record
    record.unlink()
    with pytest.raises(make_golden.GoldenExists):
        make_golden.write("g", a_game(1), tmp_path)
    assert not record.exists()


def test_the_script_refuses_changed_games_and_writes_only_missing_ones(tmp_path: Path) -> None:
    for path in HERE.glob("*.json"):
        shutil.copy(path, tmp_path)
    changed = tmp_path / "preset_partnership.expected.json"
    changed.write_text(changed.read_text().replace('"over": true', '"over": false'))
    tampered = changed.read_text()
    (tmp_path / "scoring_003_boston.json").unlink()
    (tmp_path / "scoring_003_boston.expected.json").unlink()
    assert make_golden.main(tmp_path) == 1
    assert changed.read_text() == tampered
    for name in ("scoring_003_boston.json", "scoring_003_boston.expected.json"):
        assert (tmp_path / name).read_text() == (HERE / name).read_text()
