"""Play a deal again (issue 41 item 3): a new game from a finished hand's exact deal, from
0-0 or from the scores before it; its record and shuffle news say the deal was chosen;
``spades verify``'s check says "deal chosen"; such a game is practice."""

from __future__ import annotations

import json
import random

import pytest

from spades.engine import (
    GameState,
    apply,
    deal_again,
    legal_actions,
    load_record,
    new_game,
    player_view,
    practice_of,
    record_of,
    shuffle_news,
    verify_record,
)


def _two_hands() -> GameState:
    state = new_game("partnership", 5)
    rng = random.Random(5)
    while len(state.results) < 2:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_the_same_deal_the_same_seats_from_0_0() -> None:
    old = _two_hands()
    again = deal_again(old, 1, seed="new-seed")
    hand = old.results[1]
    assert again.hand.deck == hand.deck and again.hand.dealer == hand.dealer
    assert again.scores == (0, 0) and again.bags == (0, 0)
    for seat in range(4):  # every seat holds the very cards it held then
        assert set(player_view(again, seat).hand) == _dealt(hand.deck, hand.dealer, seat)
    assert practice_of(again) == ("deal",)


def _dealt(deck: tuple, dealer: int, seat: int) -> set:  # type: ignore[type-arg]
    """The cards one at a time from the top, from the dealer's left: ``seat``'s."""
    return {deck[i] for i in range(52) if (dealer + 1 + i) % 4 == seat}


def test_from_the_scores_before_that_hand() -> None:
    old = _two_hands()
    again = deal_again(old, 1, seed=7, from_scores=True)
    assert again.scores == old.results[0].score.scores
    assert again.bags == old.results[0].score.bags
    assert deal_again(old, 0, seed=7, from_scores=True).scores == (0, 0)


def test_only_a_finished_hand_is_played_again() -> None:
    old = _two_hands()
    with pytest.raises(ValueError, match="not a finished hand"):
        deal_again(old, 2, seed=1)


def test_the_record_and_the_shuffle_news_say_the_deal_was_chosen() -> None:
    old = _two_hands()
    again = deal_again(old, 1, seed="s", from_scores=True)
    news = shuffle_news(again)
    assert news["committed"][0] == {"hand": 0, "commitment": None,
                                    "commitment_scheme": "chosen", "entropy": []}
    assert news["committed"][1]["commitment_scheme"] == "spades-commit/1"  # the next: shuffled
    rng = random.Random(2)
    while not again.results:
        again = apply(again, rng.choice(legal_actions(again)))
    assert shuffle_news(again)["revealed"][0]["commitment_scheme"] == "chosen"
    data = json.loads(json.dumps(record_of(again, reveal=True)))
    assert data["format"] == "spades-record/3"
    assert data["start"] == {"scores": list(old.results[0].score.scores),
                             "bags": list(old.results[0].score.bags)}
    assert data["hands"][0]["commitment_scheme"] == "chosen"
    assert "seed" not in data["hands"][0]
    loaded = load_record(data, "s")
    assert loaded.results == again.results and loaded.scores == again.scores
    checks = verify_record(data)
    assert checks[0].status == "deal chosen" and checks[0].ok
    assert "deal chosen" in checks[0].message()
    assert checks[1].status == "not revealed"  # the hand in play keeps its seed
