"""A decision depends on the view and the seed only, not on what the process decided before
(issue 40 item 3). The deal sampler's fitted line (``sampler._fit``) was kept by a kind of
table (seats, jokers, kitty, draw): the first four-seat preset a process met fitted it for
all of them, so a full ``bench/decisions.py`` run (cutthroat first) bid suicide's hands
with cutthroat's line and gave another digest than suicide run alone."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from spades.ai import sampler
from spades.ai.arena import ArenaConfig, parse_contender, run_start, seat_choice
from spades.ai.hard import HardPlayer
from spades.engine import PRESETS, Action, PlayerView, apply, player_view


@pytest.fixture
def fresh_fits() -> Iterator[None]:
    """The process as if new: no line fitted yet (the lines kept are put back after)."""
    kept = dict(sampler._FITS)
    sampler._FITS.clear()
    yield
    sampler._FITS.clear()
    sampler._FITS.update(kept)


def _arena_view(preset: str, actions: int | None = None) -> tuple[PlayerView, random.Random]:
    """Hard's view and random stream in deal 0 of ``bench/decisions.py`` (seed 36, Hard
    against Normal, seated as it seats them) at its first decision, or at its first turn
    after ``actions`` actions of the hand."""
    config = ArenaConfig((parse_contender("hard"), parse_contender("normal")),
                         PRESETS[preset], deals=1, seed="36", chairs="swap")
    who, players, rngs, state = run_start(config, 0, 0)
    while who[state.hand.turn] != 0 or len(state.hand.actions) < (actions or 0):
        seat = state.hand.turn
        state = apply(state, seat_choice(players[seat], player_view(state, seat), rngs[seat]))
    return player_view(state, state.hand.turn), rngs[state.hand.turn]


def _decide(preset: str) -> Action:
    view, rng = _arena_view(preset)
    return HardPlayer().choose(view, rng)


@pytest.mark.usefixtures("fresh_fits")
def test_each_rules_get_their_own_line_whatever_came_before() -> None:
    alone = sampler._fit(PRESETS["suicide"])
    sampler._FITS.clear()
    cutthroat = sampler._fit(PRESETS["cutthroat"])
    assert sampler._fit(PRESETS["suicide"]) == alone
    assert cutthroat != alone  # (the two tables fit different lines: the check has teeth)


@pytest.mark.usefixtures("fresh_fits")
def test_hard_plays_the_same_card_after_another_preset() -> None:
    """The first decision that told the two digests apart: the nil bidder's card after
    four bids and a trick of suicide's deal 0 (it played the 5 of hearts in a new process
    and the 3 of clubs after a cutthroat bid, before the fix). Decided in a new process and
    after a decision at a cutthroat table, from the same view and seed, it is the same."""
    view, rng = _arena_view("suicide", actions=8)
    start = rng.getstate()
    sampler._FITS.clear()
    alone = HardPlayer().choose(view, rng)
    rng.setstate(start)
    sampler._FITS.clear()
    _decide("cutthroat")
    assert HardPlayer().choose(view, rng) == alone
