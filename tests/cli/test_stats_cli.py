"""`spades stats`: record files with --seat, the store with --player (or its only player),
--json equal to the figures of the games replayed, and clear refusals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spades.engine import Bid, apply, find_preset, legal_actions, new_game, record_of
from spades.stats import game_figures, player_stats
from spades.store import OVER, ActionRow, GameRow, SeatRow, Store
from spades.store.store import now

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
ME = "player-cli-0000"
YOU = "player-cli-1111"

pytestmark = pytest.mark.timeout(120)


def spades(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spades.cli.main", "stats", *args],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "120"})


def test_record_files_with_a_seat() -> None:
    files = [str(GOLDEN / "scoring_001_nil_made_and_failed.json"),
             str(GOLDEN / "scoring_003_fifteen_bags.json")]
    result = spades(*files, "--seat", "1", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    figures = [game_figures(json.loads(Path(f).read_text()), [1],
                            game=Path(f).name) for f in files]
    assert data == player_stats(figures).to_json(recent=10)
    assert data["overall"]["nil"] == 1 and data["overall"]["nil_made"] == 0
    text = spades(*files, "--seat", "1")
    assert text.returncode == 0, text.stderr
    assert "Statistics of seat 1: 0 finished games; 2 in play." in text.stdout
    for heading in ("Overall", "By variant", "By computer players' level", "Recent games"):
        assert heading in text.stdout
    assert "scoring_003_fifteen_bags.json" in text.stdout and "0/1" in text.stdout


def test_hostile_records_get_a_message_and_names_are_shown_as_text(tmp_path: Path) -> None:
    nan = tmp_path / "nan.json"
    nan.write_text('{"format": "spades-record/1", "hands": NaN}')
    result = spades(str(nan))
    assert result.returncode == 2 and "NaN is not a JSON number" in result.stderr
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (9 * 1024 * 1024))
    result = spades(str(big))
    assert result.returncode == 2 and "larger than 8 MB" in result.stderr
    # rich markup in a file name is shown, not obeyed (nor a crash)
    odd = tmp_path / "[bold]odd[red].json"
    odd.write_text((GOLDEN / "scoring_001_nil_made_and_failed.json").read_text())
    result = spades(str(odd))
    assert result.returncode == 0, result.stderr
    assert "[bold]odd[red]" in result.stdout


def test_bad_record_files_and_seats_are_refused() -> None:
    golden = str(GOLDEN / "scoring_001_nil_made_and_failed.json")
    result = spades(golden, "--seat", "4")
    assert result.returncode == 2
    assert "seat 4 is not a seat of a 4-player game" in result.stderr
    result = spades(str(GOLDEN / "nothing-here.json"))
    assert result.returncode == 2 and "cannot read" in result.stderr
    result = spades(golden, "--player", ME)
    assert result.returncode == 2 and "--seat" in result.stderr


def finished(seed: int) -> Any:
    rules = find_preset("partnership").with_options(target_score=100, losing_score=-100)
    state = new_game(rules, seed)
    while not state.over:
        state = apply(state, Bid(3) if state.phase.value == "bid" else legal_actions(state)[0])
    return state


def save(store: Store, game_id: str, player: str, seat: int, state: Any) -> None:
    """A finished game stored whole (as the server leaves it)."""
    record = record_of(state)
    seats = tuple(SeatRow(seat=s, kind="human", name="You", player_id=player) if s == seat
                  else SeatRow(seat=s, kind="computer", name=f"Bot {s}", level="hard")
                  for s in range(4))
    moment = now()
    store.create_game(GameRow(
        id=game_id, owner=player, rules=record["rules"], seed="x",
        first_dealer=record["first_dealer"],
        options={"preset": "partnership", "label": "Partnership", "level": "hard"},
        seats=seats, created=moment, updated=moment, version=0), record["hands"][0]["deck"])
    step = 0
    for number, hand in enumerate(record["hands"]):
        for index, action in enumerate(hand["actions"]):
            last_of_hand = index == len(hand["actions"]) - 1
            follows = last_of_hand and number + 1 < len(record["hands"])
            store.append_action(
                game_id, step, ActionRow(seq=step + 1, hand=number, seat=action["seat"],
                                         action=action),
                deck=(number + 1, record["hands"][number + 1]["deck"]) if follows else None,
                status=OVER if last_of_hand and not follows else None)
            step += 1


def test_the_store_for_a_player(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    mine, theirs = finished(1), finished(2)
    store = Store(url)
    try:
        save(store, "mine", ME, 0, mine)
    finally:
        store.close()
    # one player in the store: no --player needed
    result = spades("--db", url, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    want = game_figures(record_of(mine), [0], game="mine")
    assert data["overall"] == player_stats([want]).to_json()["overall"]
    assert data["overall"]["games"] == 1 and data["by_level"][0]["key"] == "hard"
    store = Store(url)
    try:
        save(store, "theirs", YOU, 3, theirs)
    finally:
        store.close()
    result = spades("--db", url)
    assert result.returncode == 2
    assert "choose one with --player" in result.stderr
    assert ME in result.stderr and YOU in result.stderr
    result = spades("--db", url, "--player", YOU, "--json")
    assert result.returncode == 0, result.stderr
    theirs_figures = game_figures(record_of(theirs), [3], game="theirs")
    assert json.loads(result.stdout)["overall"] == player_stats(
        [theirs_figures]).to_json()["overall"]
    text = spades("--db", url, "--player", ME)
    assert text.returncode == 0 and f"Statistics of player {ME}: 1 finished game." in text.stdout


def test_no_store_is_not_created(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'none.db'}"
    result = spades("--db", url)
    assert result.returncode == 2 and "no games are stored" in result.stderr
    assert not (tmp_path / "none.db").exists()


def _typed_game(tmp_path: Path, preset: str, level: str, seed: int) -> Path:
    """A whole game typed into `spades play --level LEVEL --save FILE` (random legal
    answers; the computer players play at random to be quick, seated as ``level``)."""
    import random

    from test_play_cli import typed

    from spades.ai.simple import RandomPlayer
    from spades.cli.play import TerminalTable
    from spades.engine import BLIND_NIL, Look, player_view

    rules = find_preset(preset).with_options(target_score=100, losing_score=-100)
    rng = random.Random(seed)
    save = tmp_path / f"{preset}-{level}.json"
    table: TerminalTable

    def ask(prompt: str) -> str:
        if "blind nil before you look" in prompt:
            return "n"
        return typed(rng.choice([a for a in player_view(table.state, 0).legal
                                 if not isinstance(a, Look) and a != BLIND_NIL]))

    table = TerminalTable(rules, seed=seed, level=level, ask=ask, say=lambda _: None,
                          save=str(save),
                          players={s: RandomPlayer() for s in range(1, rules.players)})
    table.play()
    return save


def test_a_saved_terminal_game_keeps_its_level(tmp_path: Path) -> None:
    """`spades play --level easy --save` writes the computer players' level into the record
    (``levels``), and `spades stats` counts the game under it, not as "unknown"."""
    saved = _typed_game(tmp_path, "partnership", "easy", 3)
    record = json.loads(saved.read_text())
    assert record["levels"] == [None, "easy", "easy", "easy"]
    result = spades(str(saved), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [g["label"] for g in data["by_level"]] == ["easy"]
    assert data["recent"][0]["level"] == "easy"


@pytest.mark.parametrize("columns", [80, 60])
def test_no_word_is_broken_at_80_and_60_columns(tmp_path: Path, columns: int) -> None:
    """The tables fit the terminal with every word whole: headings, variants and levels
    (wrapped between words, or turned a quarter when too narrow), nothing cut off."""
    from rich.console import Console

    from spades.cli.stats import figures_of_files, show

    games = [_typed_game(tmp_path, preset, level, seed) for seed, (preset, level) in
             enumerate([("partnership", "easy"), ("three-player-kitty", "hard"),
                        ("two-player", "normal"), ("cutthroat", "easy")])]
    stats = player_stats(figures_of_files([str(g) for g in games], [0]))
    console = Console(width=columns, record=True)
    show(console, "seat 0", stats, 10)
    lines = console.export_text().splitlines()
    words = {w for line in lines for w in line.split()}
    assert all(len(line.rstrip()) <= columns for line in lines)
    assert not any("…" in line for line in lines)
    expected = {"Games", "Won", "Hands", "Made", "Sets", "Nil", "Blind", "nil", "Bags",
                "Points", "easy", "hard", "normal", "partnership-easy.json"}
    assert expected <= words, expected - words
    for group in stats.by_preset:
        assert all(w in words for w in group.label.split())
