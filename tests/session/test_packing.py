"""A thinking process's jobs, pickled by ``Packer``: what it reads is what was sent (every
preset's views, every action), each game's rules travel once, and a process and its
packer never disagree on what a rules number names."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from sessionkit import run_async

from spades.engine import (
    PRESETS,
    Card,
    PlayerView,
    Trick,
    apply,
    legal_actions,
    new_game,
    player_view,
)
from spades.session import packing
from spades.session.lanes import Lane
from spades.session.packing import Packer

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def _fresh_process_table() -> None:
    """The rules a thinking process keeps live in its module: each test starts empty."""
    packing._rules.clear()


def _views(preset: str, count: int = 80) -> list[PlayerView]:
    rng = random.Random(preset)
    state = new_game(PRESETS[preset], seed=preset)
    views: list[PlayerView] = []
    while len(views) < count and state.turn is not None:
        views.append(player_view(state, state.turn))
        state = apply(state, rng.choice(legal_actions(state)))
    return views


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_view_and_action_reads_back_equal(preset: str) -> None:
    packer = Packer()
    for view in _views(preset):
        job = ("choose", (view, tuple(view.legal), 7))
        read = pickle.loads(packer.pack(job))
        assert read == job
        assert type(read[1][0]) is type(view)
        got = read[1][0]
        cards = [*got.hand, *got.discards, *(c for t in got.history for c in t.cards)]
        assert all(type(card) is Card for card in cards)  # sent as bytes, read as cards
        assert all(type(t) is Trick for t in got.history)


def test_a_games_rules_travel_once_then_by_number() -> None:
    views = _views("partnership", 20)
    packer = Packer()
    sizes = [len(packer.pack(view)) for view in views]
    rules = len(pickle.dumps(views[0].rules))
    assert sizes[0] > rules
    # later views are about as large as the first without its rules
    assert max(sizes[1:]) < sizes[0] - rules // 2
    # a second process (a second packer) is sent them again
    assert len(Packer().pack(views[1])) > rules


def test_a_message_that_cannot_be_pickled_sends_no_rules() -> None:
    views = _views("cutthroat", 2)
    packer = Packer()
    with pytest.raises((pickle.PicklingError, TypeError, AttributeError)):
        packer.pack((views[0], lambda: None))
    # the process never read those rules: the next message carries them
    read = pickle.loads(packer.pack(views[1]))
    assert read == views[1]


def test_a_process_forgets_the_oldest_rules_as_its_packer_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packing, "KEEP", 3)
    games = [_views(name, 1)[0] for name in ("partnership", "cutthroat", "five-player",
                                              "three-player", "two-player")]
    packer = Packer()
    for round_ in range(3):
        for view in games:
            assert pickle.loads(packer.pack(view)) == view, round_
            assert len(packing._rules) <= 3


def test_a_thinking_process_reads_the_packed_jobs() -> None:
    """Through a real thinking process: each job's view comes back whole."""
    views = _views("jokers", 6)

    async def go() -> list[PlayerView]:
        lane = Lane("test", 1)
        try:
            return [await lane.run("t", 30.0, copy.copy, view) for view in views]
        finally:
            lane.close()

    assert run_async(go()) == views
