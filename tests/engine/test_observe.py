"""The observation layer's events and downloads, case by case (the no-leak property over
every preset is in test_properties.py): who is told which card, and what a look does."""

from __future__ import annotations

import random

from engine_testkit import deck_for

from spades.engine import (
    BLIND_NIL,
    KEEP,
    PRESETS,
    Bid,
    BidMade,
    CardDrawn,
    CardsPassed,
    Exchange,
    GameOver,
    HandDealt,
    HandScored,
    KittyExchanged,
    Look,
    Looked,
    Phase,
    apply,
    events,
    legal_actions,
    make_rules,
    new_game,
    parse_card,
    player_view,
    seat_record,
)


def test_a_draw_tells_the_kept_card_to_the_drawer_only() -> None:
    rules = PRESETS["two-player"]
    state = apply(new_game(rules, seed=1), Look(0))
    after = apply(state, KEEP)
    drawn, shown = state.hand.deck[0], state.hand.deck[1]
    assert events(state, after, 0) == [CardDrawn(0, True, shown, drawn)]
    assert events(state, after, 1) == [CardDrawn(0, True, shown, None)]


def test_drawing_face_down_looks_first_and_says_so() -> None:
    rules = PRESETS["two-player"]
    state = new_game(rules, seed=1)
    view = player_view(state, 0)
    assert view.face_down and view.hand == () and view.drawn is None
    assert legal_actions(state)[0] == Look(0) and BLIND_NIL in legal_actions(state)
    after = apply(state, KEEP)
    assert [type(e) for e in events(state, after, 1)] == [Looked, CardDrawn]
    assert not player_view(after, 0).face_down


def test_a_pass_tells_its_cards_to_the_two_partners_only() -> None:
    rules = make_rules("partnership", blind_nil=True, blind_nil_pass=2)
    state = new_game(rules, seed=5)
    while state.hand.phase is Phase.BID:
        seat = state.hand.turn
        state = apply(state, BLIND_NIL if seat == 0 else Bid(3))
    assert state.hand.phase is Phase.PASS and state.hand.pending[0] == (0, 2)
    after = apply(state, legal_actions(state)[0])
    told = [e for e in events(state, after, 2) if isinstance(e, CardsPassed)]
    untold = [e for e in events(state, after, 1) if isinstance(e, CardsPassed)]
    assert told[0].cards is not None and len(told[0].cards) == 2
    assert untold == [CardsPassed(0, 2, 2, None)]
    record = seat_record(after, 1)
    assert all("pass" not in a for a in record["hands"][-1]["actions"])
    record = seat_record(after, 2)
    assert any("pass" in a for a in record["hands"][-1]["actions"])


def test_the_kitty_card_is_told_to_its_taker_only() -> None:
    rules = PRESETS["three-player-kitty"]
    kitty = parse_card("AS")
    deck = deck_for(rules, {}, kitty=kitty)
    state = new_game(rules, decks=[deck])
    assert state.hand.phase is Phase.KITTY
    holder = state.hand.turn
    after = apply(state, Exchange(True))
    assert events(state, after, holder) == [KittyExchanged(holder, True, kitty)]
    other = (holder + 1) % 3
    assert events(state, after, other) == [KittyExchanged(holder, True, None)]


def test_a_hand_ends_with_its_score_then_the_next_deal() -> None:
    rules = PRESETS["partnership"]
    state = new_game(rules, seed=2)
    rng = random.Random(2)
    while True:
        after = apply(state, rng.choice(legal_actions(state)))
        if after.results:
            break
        state = after
    kinds = [type(e) for e in events(state, after, 0)][-2:]
    assert kinds == [HandScored, HandDealt]
    assert [type(e) for e in events(new_game(rules, seed=2), after, 3)].count(BidMade) == 4
    assert GameOver not in kinds


def test_a_download_in_play_holds_no_face_down_cards() -> None:
    rules = PRESETS["two-player"]
    state = new_game(rules, seed=4)
    record = seat_record(state, 0)
    assert record["format"] == "spades-record/2"
    assert record["hands"] == [{"seen": {"seat": 0, "cards": []}, "actions": []}]
    state = apply(state, Look(0))
    state = apply(state, KEEP)
    seen = seat_record(state, 0)["hands"][-1]
    assert seen["seen"]["cards"] == [str(state.hand.deck[0])]
    assert seen["actions"] == [{"seat": 0, "look": True}, {"seat": 0, "draw": "keep"}]
    assert seat_record(state, 1)["hands"][-1]["seen"]["cards"] == []


def test_a_hands_count_and_its_last_actions_are_its_actions_in_every_preset() -> None:
    """``HandState.action_count`` and ``actions_from`` (what a change's events are read from)
    agree with the hand's whole list of actions at every step of two hands of each preset,
    passes, draws, the kitty and undone cards included."""
    for name, rules in PRESETS.items():
        rng = random.Random(name)
        state = new_game(rules, seed=name)
        while len(state.results) < 2 and not state.over:
            hand = state.hand
            actions = hand.actions
            assert hand.action_count == len(actions), name
            for start in range(len(actions) + rules.players + 2):  # and past its end
                assert hand.actions_from(start) == actions[start:], (name, start)
            state = apply(state, rng.choice(legal_actions(state)))
