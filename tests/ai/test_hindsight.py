"""What Hard would have done (issue 41 item 4): beside each bid and card of a finished hand,
Hard's own decision for that seat's view at that moment (the same seed, the same playouts),
the same on two runs, with the double-dummy worth of its card beside the card played."""

from __future__ import annotations

import random

from spades.ai.easy import EasyPlayer
from spades.ai.hard import HardPlayer
from spades.ai.hindsight import (
    HardChoice,
    choices_json,
    hand_views,
    hard_choices,
    position_seed,
)
from spades.ai.review import review_hand
from spades.engine import (
    CODE_OF,
    Bid,
    GameState,
    Play,
    apply,
    find_preset,
    new_game,
    player_view,
)

ITERATIONS = 60


def finished(preset: str, seed: int, hands: int = 1) -> GameState:
    state = new_game(find_preset(preset), seed=seed)
    rng = random.Random(seed)
    easy = EasyPlayer()
    while len(state.results) < hands:
        state = apply(state, easy.choose(player_view(state, state.hand.turn), rng))
    return state


def test_the_hard_column_is_hards_decision_for_the_same_view() -> None:
    state = finished("partnership", 4, hands=2)  # the second hand: views after a score
    choices = hard_choices(state, 2, review_hand(state, 2), iterations=ITERATIONS, seats=(0,))
    views = hand_views(state, 2)
    deck = "".join(CODE_OF[c] for c in state.results[1].deck)
    mine = [(i, a, v) for i, (s, a, v) in enumerate(views) if s == 0 and isinstance(a, Bid | Play)]
    assert len(choices) == len(mine) == 14  # the bid and thirteen cards
    differ = 0
    for choice, (index, action, view) in zip(choices, mine, strict=True):
        assert view.seat == 0 and action in view.legal
        hard = HardPlayer(iterations=ITERATIONS).choose(
            view, random.Random(position_seed(deck, 2, index)))
        if len(view.legal) == 1:
            hard = view.legal[0]
        code = hard.code if isinstance(hard, Bid) else CODE_OF[hard.card]  # type: ignore[attr-defined]
        assert choice.hard == code
        assert choice.played == (action.code if isinstance(action, Bid) else CODE_OF[action.card])
        differ += not choice.same
    plays = [c for c in choices if c.kind == "play"]
    assert [c.trick for c in plays] == list(range(1, 14))
    assert differ >= 1  # Hard would have done something else somewhere


def test_the_same_review_says_the_same_thing() -> None:
    state = finished("partnership", 7)
    review = review_hand(state, 1)
    first = hard_choices(state, 1, review, iterations=ITERATIONS)
    again = hard_choices(state, 1, review_hand(state, 1), iterations=ITERATIONS)
    assert first == again
    assert len(first) == 4 + 52  # every bid and every card of the hand
    assert choices_json(first, ITERATIONS)["choices"][0]["same"] == first[0].same


def test_the_worth_of_hards_card_against_the_card_played() -> None:
    state = finished("partnership", 7)
    review = review_hand(state, 1)
    plays = [c for c in hard_choices(state, 1, review, iterations=ITERATIONS)
             if c.kind == "play"]
    by_order = {(p.trick, p.seat): p for p in review.plays}
    for choice in plays:
        played = by_order[(choice.trick, choice.seat)]
        assert played.card == choice.played
        if played.exact:
            assert choice.played_tricks == played.after
        if choice.same:
            assert choice.hard_tricks == choice.played_tricks
    other = [c for c in plays if not c.same and c.hard_tricks is not None]
    assert other, "some card Hard would have played instead is worked out"
    # its worth never beats the best play from the position before the card
    for choice in other:
        played = by_order[(choice.trick, choice.seat)]
        assert choice.hard_tricks is not None and choice.hard_tricks <= played.before


def test_without_a_review_no_worth_is_told() -> None:
    state = finished("two-player", 2)
    choices = hard_choices(state, 1, iterations=ITERATIONS, seats=(1,))
    assert choices and all(c.seat == 1 for c in choices)
    assert all(isinstance(c, HardChoice) and c.hard_tricks is None for c in choices)


def test_every_variant_gets_a_hard_column() -> None:
    """Random play (blind nils at a two-player draw included) in every preset: a choice
    beside every card, each of Hard's cards one the seat held."""
    from spades.ai.simple import RandomPlayer
    from spades.engine import PRESETS

    for name, rules in PRESETS.items():
        for seed in range(3):
            state = new_game(rules, seed=seed)
            rng = random.Random(seed)
            player = RandomPlayer()
            while len(state.results) < 1:
                state = apply(state, player.choose(player_view(state, state.hand.turn), rng))
            choices = hard_choices(state, 1, iterations=8)
            cards = [c for c in choices if c.kind == "play"]
            views = [v for _, a, v in hand_views(state, 1) if isinstance(a, Play)]
            assert len(cards) == len(views) == len(state.results[0].history) * rules.players
            for choice, view in zip(cards, views, strict=True):  # a card the seat could play
                assert choice.hard in {CODE_OF[a.card] for a in view.legal
                                       if isinstance(a, Play)}, name
