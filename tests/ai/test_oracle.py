"""``bench/experiments/oracle.py``: Hard handed the true deal, for measuring what information
is worth. It must see exactly the deal being played, only in the phases it is told, and
refuse a decision whose state it has not seen."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import spades.ai.arena as arena
import spades.ai.hard as hard
from spades.ai.arena import ArenaConfig, Tally, parse_contender, play_run
from spades.ai.sampler import DealSampler
from spades.engine import PRESETS, Phase, apply, new_game, player_view

ROOT = Path(__file__).resolve().parents[2]
PATH = ROOT / "bench" / "experiments" / "oracle.py"


@pytest.fixture()
def oracle() -> Iterator[ModuleType]:
    module = arena._player_module(str(PATH))  # the module the arena seats by this path
    yield module
    module.uninstall()
    assert arena.player_view is player_view  # type: ignore[attr-defined]


def _to_play(seed: str) -> Any:
    """A partnership game advanced by Easy players to its first card."""
    rules = PRESETS["partnership"]
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    easy = arena.make_contender("easy")
    while state.hand.phase is not Phase.PLAY:
        state = apply(state, easy.choose(player_view(state, state.hand.turn), rng))
    return state


def test_the_true_deal_is_the_state_behind_the_view(oracle: ModuleType) -> None:
    state = _to_play("oracle-1")
    seat = state.hand.turn
    view = oracle._watch(state, seat)
    assert oracle.true_deal(view) == [*state.hand.hands, 0]
    sampler = oracle.TrueDeal(view)
    assert sampler.sample(random.Random(1)) == [*state.hand.hands, 0]
    other = _to_play("oracle-2")
    with pytest.raises(RuntimeError, match="not the one"):
        oracle.true_deal(player_view(other, other.hand.turn))
    oracle.uninstall()
    with pytest.raises(RuntimeError, match="sees no state"):
        oracle.true_deal(view)


def test_it_sees_the_deal_only_where_told(oracle: ModuleType,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    samplers: list[object] = []
    real_play = hard.HardPlayer._play

    def spy(self: hard.HardPlayer, *args: Any) -> Any:
        samplers.append(hard.DealSampler)  # type: ignore[attr-defined]
        return real_play(self, *args)

    monkeypatch.setattr(hard.HardPlayer, "_play", spy)
    state = _to_play("oracle-3")
    for where, sees in (("play", True), ("both", True), ("bid", False)):
        player = oracle.make_player(where=where, iterations=20)
        assert player.sees(Phase.PLAY) is sees
        assert player.sees(Phase.BID) is (where != "play")
        view = arena.player_view(state, state.hand.turn)  # type: ignore[attr-defined]
        action = player.choose(view, random.Random(5))
        assert action in view.legal
        assert samplers[-1] is (oracle.TrueDeal if sees else DealSampler)
        assert hard.DealSampler is DealSampler  # type: ignore[attr-defined]  # put back after the decision
    with pytest.raises(ValueError, match="where"):
        oracle.make_player(where="everywhere")


def test_the_arena_seats_it_by_path(oracle: ModuleType) -> None:
    config = ArenaConfig((parse_contender(f"{PATH}:where=both,iterations=20"),
                          parse_contender("easy")), PRESETS["partnership"], deals=1,
                         seed="oracle")
    tallies = (Tally(), Tally())
    _, _, hands, state = play_run(config, 0, 0, tallies)
    assert hands == 1 and state.results
    assert tallies[0].side_hands == 1 and tallies[0].times
