"""The yardstick (``bench/yardstick``, a frozen copy of Normal) plays legal whole games, is
seated by the arena by its path or as ``frozen``, and plays exactly as Normal played when it
was frozen: the fingerprints below are of Normal's own decisions (its code as at d232a58;
only its imports changed up to 30b6e00, the engine it was measured on), on decks dealt here
so that a change of the engine's shuffle does not move them. A change of the rules engine
itself (as two-player's draw between those commits) may need them taken again, from the
yardstick, never from a mended Normal."""

from __future__ import annotations

import ast
import hashlib
import random
from pathlib import Path

import pytest

from spades.ai.arena import ArenaConfig, Contender, make_contender, parse_contender, run_arena
from spades.engine import (
    PRESETS,
    Action,
    Bid,
    Draw,
    Exchange,
    PassCards,
    Play,
    apply,
    make_rules,
    new_game,
    player_view,
)

ROOT = Path(__file__).resolve().parents[2]
YARDSTICK = ROOT / "bench" / "yardstick"

#: (preset, seed) -> (decisions, fingerprint) of today's Normal in all seats, two hands.
#: Computed with ``make_contender("normal")`` (src/spades/ai) when the copy was taken.
FROZEN_DECISIONS = {
    ("partnership", 0): (112, "ee3550012dc0cdba"),
    ("partnership", 1): (112, "b63ae0f65d9d20cf"),
    ("cutthroat", 0): (112, "8d9e1ee2b086f264"),
    ("jokers", 1): (112, "2e6ef100bfae7cd8"),
    ("three-player-kitty", 0): (110, "ce64af0c9b690594"),
    ("two-player", 1): (108, "2354c747c08a3fe3"),
}


def _code(action: Action) -> str:
    """A spelling of an action that does not depend on the engine's reprs."""
    if isinstance(action, Play):
        return f"P{action.card}"
    if isinstance(action, Bid):
        return f"B{action.tricks}{'n' if action.nil else ''}{'b' if action.blind else ''}"
    if isinstance(action, PassCards):
        return "X" + "".join(str(c) for c in action.cards)
    if isinstance(action, Draw):
        return f"D{int(action.keep)}"
    if isinstance(action, Exchange):
        return f"E{int(action.take)}"
    raise AssertionError(f"unexpected action {action!r}")


def _fingerprint(level: str, preset: str, seed: int, hands: int = 2) -> tuple[int, str]:
    rules = PRESETS[preset]
    players = [make_contender(level) for _ in range(rules.players)]
    rngs = [random.Random(f"yardstick/{seed}/{s}") for s in range(rules.players)]
    deal = random.Random(f"yardstick-deal/{seed}")
    decks = [deal.sample(rules.deck, len(rules.deck)) for _ in range(hands)]
    state = new_game(rules, seed=f"yardstick/{seed}", decks=decks,
                     first_dealer=seed % rules.players)
    codes = []
    while not state.over and len(state.results) < hands:
        seat = state.hand.turn
        action = players[seat].choose(player_view(state, seat), rngs[seat])
        codes.append(_code(action))
        state = apply(state, action)  # raises on an illegal action
    return len(codes), hashlib.sha256(" ".join(codes).encode()).hexdigest()[:16]


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # "frozen" names bench/yardstick from the project's root


@pytest.mark.parametrize("key", sorted(FROZEN_DECISIONS))
def test_the_yardstick_plays_as_normal_did_when_frozen(key: tuple[str, int]) -> None:
    assert _fingerprint("frozen", *key) == FROZEN_DECISIONS[key]


def test_the_yardstick_imports_only_the_public_engine() -> None:
    for path in sorted(YARDSTICK.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module in ("__future__", "spades.engine", "dataclasses", "math",
                                       "random", "typing"), f"{path.name}: {node.module}"
            elif isinstance(node, ast.Import):
                assert all(a.name in ("math", "random") for a in node.names), path.name


def test_the_yardstick_plays_legal_whole_games() -> None:
    rules = make_rules("partnership", target_score=150, losing_score=-150)
    for seed in range(2):
        player = make_contender(str(YARDSTICK))
        rng = random.Random(seed)
        state = new_game(rules, seed=f"yardstick-game/{seed}")
        while not state.over and len(state.results) < 30:
            state = apply(state, player.choose(player_view(state, state.hand.turn), rng))
        assert state.over


def test_the_arena_seats_the_yardstick_by_name_or_path() -> None:
    assert parse_contender("bench/yardstick").level == "bench/yardstick"
    assert make_contender("frozen").name == "frozen-normal"
    config = ArenaConfig((Contender("bench/yardstick"), Contender("frozen")),
                         PRESETS["partnership"], deals=2, seed=3)
    report = run_arena(config)
    assert report.levels[1].label == "frozen"
    # the yardstick by path and by name is one player: in both chairs of a duplicate deal
    # nothing is between them (Normal itself has moved on since issue 13, so it no longer
    # scores level with its frozen copy)
    assert report.margin.value == pytest.approx(0.0)


@pytest.mark.parametrize("level, words", [("bench/nothing-here", "not a player module"),
                                         ("bench/engine.py", "no make_player")])
def test_a_bad_player_path_is_a_clear_error(level: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_contender(level)
