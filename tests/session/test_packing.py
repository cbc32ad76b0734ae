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
    score_sheet,
)
from spades.session import packing
from spades.session.lanes import Lane
from spades.session.packing import Packer

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def _fresh_process_table() -> None:
    """The rules a thinking process keeps live in its module: each test starts empty."""
    packing._rules.clear()
    packing._sheets.clear()


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


def _hand_views(count: int) -> list[PlayerView]:
    """Views of one hand made as the session makes them: one score sheet shared (after a
    first hand, so that the sheet is not empty)."""
    rng = random.Random(4)
    state = new_game(PRESETS["partnership"], seed=4)
    while not state.results:
        state = apply(state, rng.choice(legal_actions(state)))
    sheet = score_sheet(state)
    views: list[PlayerView] = []
    while len(views) < count and state.turn is not None:
        views.append(player_view(state, state.turn, sheet))
        state = apply(state, rng.choice(legal_actions(state)))
    return views


def test_a_hands_score_sheet_travels_once_then_by_number() -> None:
    views = _hand_views(6)
    assert views[0].sheet and all(v.sheet is views[0].sheet for v in views)
    packer = Packer()
    packed = [packer.pack(view) for view in views]
    read = [pickle.loads(data) for data in packed]
    assert read == views
    assert all(r.sheet is read[0].sheet for r in read)  # the process keeps one
    sheet_size = len(pickle.dumps(views[0].sheet))
    assert max(len(d) for d in packed[1:]) < len(packed[0]) - sheet_size // 2
    # a new process's packer sends it again
    assert len(Packer().pack(views[1])) > len(packed[1]) + sheet_size // 2


def test_a_process_forgets_the_oldest_sheets_as_its_packer_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packing, "KEEP", 2)
    views = [_views(name, 30)[-1] for name in ("partnership", "cutthroat", "jokers")]
    packer = Packer()
    for round_ in range(3):
        for view in views:
            assert pickle.loads(packer.pack(view)) == view, round_
            assert len(packing._sheets) <= 2


def test_a_sheet_in_a_message_that_failed_is_sent_with_the_next() -> None:
    views = _hand_views(2)
    packer = Packer()
    with pytest.raises((pickle.PicklingError, TypeError, AttributeError)):
        packer.pack((views[0], lambda: None))
    assert pickle.loads(packer.pack(views[1])) == views[1]
