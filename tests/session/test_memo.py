"""A game's snapshots share what does not change between them (``Memo``): the views and the
shuffles' news they make are the engine's own made afresh (people adding to a shuffle
meanwhile), and the score sheet is made once a hand."""

from __future__ import annotations

import random

import pytest

from spades.engine import (
    NO_SEAT,
    PRESETS,
    add_entropy,
    apply,
    legal_actions,
    new_game,
    player_view,
    public_view,
    score_sheet,
    shuffle_news,
)
from spades.session import Snapshot
from spades.session.memo import Memo


@pytest.mark.parametrize("preset", ["partnership", "three-player-kitty", "two-player"])
def test_views_and_news_made_with_a_memo_are_the_engines_own(preset: str) -> None:
    rng = random.Random(preset)
    state = new_game(PRESETS[preset], seed=preset)
    memo = Memo()
    sheets = []  # kept alive: their ids stay theirs
    for step in range(400):
        if state.over:
            break
        snapshot = Snapshot(state, step, step, memo=memo)
        for seat in range(state.rules.players):
            assert snapshot.view(seat) == player_view(state, seat), (step, seat)
        assert snapshot.view(NO_SEAT) == public_view(state)
        assert snapshot.shuffle_news() == shuffle_news(state)
        sheets.append(snapshot.view(0).sheet)
        assert snapshot.view(0).sheet is snapshot.view(NO_SEAT).sheet
        state = apply(state, rng.choice(legal_actions(state)))
        if step % 17 == 5 and not state.over:  # a person adds to the next hand's shuffle
            state = add_entropy(state, state.hand.number + 1, [f"{step:x}"])
    # one sheet a hand (the hands finished so far, and the empty one), not one a view
    assert len({id(sheet) for sheet in sheets}) == len(state.results) + 1


def test_the_news_is_made_again_only_when_what_it_reads_changes() -> None:
    rng = random.Random(4)
    state = new_game(PRESETS["partnership"], seed="news")
    memo = Memo()
    first = memo.news_of(state)
    state = apply(state, rng.choice(legal_actions(state)))
    assert memo.news_of(state) is first  # a bid: the same news, not made again
    state = add_entropy(state, 1, ["ab"])
    added = memo.news_of(state)
    assert added is not first and added == shuffle_news(state)
    assert added["committed"][1]["entropy"] == ["ab"]


def test_a_sheet_of_another_length_is_refused() -> None:
    state = new_game(PRESETS["partnership"], seed="sheet")
    rng = random.Random(3)
    while not state.results:
        state = apply(state, rng.choice(legal_actions(state)))
    assert player_view(state, 1, score_sheet(state)) == player_view(state, 1)
    with pytest.raises(ValueError, match="sheet"):
        player_view(state, 1, ())


def test_a_bare_change_keeps_every_field_but_the_projections() -> None:
    """``Change.bare`` builds the change field by field (for speed): a field added to
    ``Change`` or ``Snapshot`` and not copied there fails here."""
    import dataclasses

    from spades.engine import Card, Play, find_preset, new_game
    from spades.session.memo import Memo
    from spades.session.session import Change, Snapshot

    state = new_game(find_preset("partnership"), seed=3)
    after = Snapshot(state, 7, 6, 2, Memo())
    change = Change(state, after, 1, Play(Card(5)), stand_in=True, undone=True,
                    followed=True, whole=True)
    after.view(0)
    change.update(0)
    bare = change.bare()
    for field in dataclasses.fields(Change):
        if field.init and field.name != "after":
            assert getattr(bare, field.name) == getattr(change, field.name), field.name
    for field in dataclasses.fields(Snapshot):
        if field.init:
            assert getattr(bare.after, field.name) is getattr(after, field.name), field.name
    assert bare._updates is None and bare.after._views is None
