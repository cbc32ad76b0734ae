"""Undo against the computer in the engine (issue 41 item 2): the house rule, what an undo
takes back, that the record keeps it (a ``spades-record/3`` entry) and replays to the same
state, that it never reaches into a finished hand, and what each seat learns of it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades.engine import (
    PRESETS,
    Bid,
    CardPlayed,
    GameState,
    IllegalActionError,
    Look,
    PassCards,
    Play,
    RecordError,
    TakenBack,
    apply,
    events,
    find_preset,
    legal_actions,
    load_record,
    new_game,
    player_view,
    practice_of,
    record_of,
    undo,
    undo_blocker,
)

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "records"


def _rules(preset: str = "partnership"):  # type: ignore[no-untyped-def]
    return find_preset(preset).with_options(undo=True)


def _play(state: GameState, count: int, rng: random.Random) -> GameState:
    for _ in range(count):
        if state.over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def _built(state: GameState, actions: list) -> GameState:  # type: ignore[type-arg]
    """The hand in play built directly from its deal with ``actions`` only."""
    fresh = new_game(state.rules, state.seed, first_dealer=state.first_dealer)
    for _, action in actions:
        fresh = apply(fresh, action)
    return fresh


def test_undo_takes_back_the_seats_last_card_and_everything_after() -> None:
    state = _play(new_game(_rules(), 3), 14, random.Random(2))
    actions = state.hand.actions
    last = max(i for i, (s, a) in enumerate(actions) if s == 0 and not isinstance(a, Look))
    after = undo(state, 0)
    assert after.hand.actions == actions[:last]
    assert after.hand.turn == 0
    assert after.undos[-1].taken == actions[last:]
    assert after.undos[-1].kept == last
    direct = _built(state, list(actions[:last]))
    assert after.hand == direct.hand
    assert (after.scores, after.bags, after.results) == (direct.scores, direct.bags, ())


def test_undo_of_a_bid_takes_back_the_bids_after_it() -> None:
    state = _play(new_game(_rules(), 5, first_dealer=3), 3, random.Random(1))
    assert [type(a) for _, a in state.hand.actions] == [Bid, Bid, Bid]
    after = undo(state, 0)
    assert after.hand.actions == ()
    assert after.hand.bids == (None,) * 4
    assert after.hand.turn == 0


def test_undo_needs_the_house_rule() -> None:
    state = _play(new_game("partnership", 3), 6, random.Random(2))
    assert "Allow undo" in (undo_blocker(state, 0) or "")
    with pytest.raises(IllegalActionError, match="Allow undo"):
        undo(state, 0)


def test_the_house_rule_is_off_in_every_preset() -> None:
    assert all(not find_preset(name).undo for name in PRESETS)


def test_undo_never_crosses_the_end_of_a_hand() -> None:
    state = new_game(_rules(), 9)
    rng = random.Random(4)
    while state.hand.number == 0:
        state = apply(state, rng.choice(legal_actions(state)))
    # the new hand: nothing of seat 0's yet (the dealer's left bids first)
    mine = [a for s, a in state.hand.actions if s == 0 and not isinstance(a, Look)]
    assert not mine
    with pytest.raises(IllegalActionError, match="no card or bid of this hand"):
        undo(state, 0)
    assert len(state.results) == 1


def test_no_undo_once_the_game_is_over() -> None:
    state = new_game(_rules().with_options(target_score=50, losing_score=-50), 2)
    rng = random.Random(3)
    while not state.over:
        state = apply(state, rng.choice(legal_actions(state)))
    assert undo_blocker(state, 0) == "the game is over"


def test_the_record_keeps_each_undo_in_its_place_and_replays_to_the_same_state() -> None:
    rng = random.Random(6)
    state = _play(new_game(_rules(), 11), 13, rng)
    state = undo(state, 0)
    state = _play(state, 6, rng)
    state = undo(state, 0)
    data = json.loads(json.dumps(record_of(state)))
    assert data["format"] == "spades-record/3"
    entries = data["hands"][0]["actions"]
    undos = [e for e in entries if "undo" in e]
    assert [e["seat"] for e in undos] == [0, 0]
    assert [e["undo"] for e in undos] == [len(u.taken) for u in state.undos]
    # every action ever made is in the record: the kept ones and the taken-back ones
    assert len(entries) == (len(state.hand.actions) + len(undos)
                            + sum(len(u.taken) for u in state.undos))
    loaded = load_record(data, 11)
    assert loaded._replace(decks=()) == state
    assert practice_of(loaded) == ("undo",)


def test_a_record_whose_undo_count_is_wrong_is_refused() -> None:
    state = undo(_play(new_game(_rules(), 11), 13, random.Random(6)), 0)
    data = record_of(state)
    entry = next(e for e in data["hands"][0]["actions"] if "undo" in e)
    entry["undo"] += 1
    with pytest.raises(RecordError, match="the record says"):
        load_record(data, 11)


def test_an_undo_entry_is_refused_in_an_older_format() -> None:
    state = undo(_play(new_game(_rules(), 11), 13, random.Random(6)), 0)
    data = record_of(state)
    data["format"] = "spades-record/2"
    with pytest.raises(RecordError):
        load_record(data, 11)


def test_older_records_still_load_and_are_written_as_before() -> None:
    for path in sorted(GOLDEN.glob("seed*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        state = load_record(data)
        assert not state.undos
        assert record_of(state)["format"] == "spades-record/2"
        assert practice_of(state) == ()


def test_each_seat_learns_what_was_taken_back_and_nothing_hidden() -> None:
    state = _play(new_game(_rules(), 3), 15, random.Random(2))
    after = undo(state, 0)
    for seat in range(4):
        told = events(state, after, seat)
        assert len(told) == 1 and isinstance(told[0], TakenBack)
        taken = told[0]
        assert (taken.seat, taken.count) == (0, len(after.undos[-1].taken))
        # cards and bids everyone saw played: public actions only
        assert all(isinstance(a, (Play, Bid, Look)) for _, a in taken.actions)
        assert taken.actions == after.undos[-1].taken
        # the views after the undo are the views of the state built directly
        kept = list(after.hand.actions)
        assert player_view(after, seat) == player_view(_built(state, kept), seat)


def test_events_across_an_undo_and_the_plays_after_it() -> None:
    rng = random.Random(8)
    state = _play(new_game(_rules(), 3), 15, rng)
    after = _play(undo(state, 0), 2, rng)
    told = events(state, after, 1)
    assert isinstance(told[0], TakenBack)
    played = [e for e in told[1:] if isinstance(e, CardPlayed)]
    assert [(e.seat, e.card) for e in played] == [
        (s, a.card) for s, a in after.hand.actions[after.undos[-1].kept:]
        if isinstance(a, Play)]


def test_a_pass_taken_back_is_told_only_to_its_two_seats() -> None:
    rules = find_preset("partnership").with_options(undo=True, blind_nil=True,
                                                    blind_nil_pass=2)
    state = new_game(rules, 1, first_dealer=3)
    state = apply(state, next(a for a in legal_actions(state)
                              if isinstance(a, Bid) and a.blind))
    rng = random.Random(1)
    while not any(isinstance(a, PassCards) for _, a in state.hand.actions):
        state = apply(state, rng.choice([a for a in legal_actions(state)
                                         if not (isinstance(a, Bid) and a.blind)]))
    after = undo(state, 0)
    for seat in range(4):
        taken = events(state, after, seat)[0]
        assert isinstance(taken, TakenBack)
        passes = [a for _, a in taken.actions if isinstance(a, PassCards)]
        assert bool(passes) == (seat in (0, 2))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10_000),
       moves=st.lists(st.tuples(st.integers(0, 20), st.booleans()), min_size=1, max_size=8))
def test_replaying_a_record_with_undos_equals_the_state_built_directly(
        preset: str, seed: int, moves: list[tuple[int, bool]]) -> None:
    rng = random.Random(seed)
    state = new_game(_rules(preset), seed)
    for count, take_back in moves:
        state = _play(state, count, rng)
        if state.over:
            break
        seat = rng.randrange(state.rules.players)
        if take_back and undo_blocker(state, seat) is None:
            before = state
            state = undo(state, seat)
            undone = state.undos[-1]
            # never into a finished hand, and the hand is the one built from the kept part
            assert undone.hand == before.hand.number
            assert state.results == before.results
            assert state.hand.actions == before.hand.actions[:undone.kept]
    loaded = load_record(json.loads(json.dumps(record_of(state))), seed)
    assert loaded._replace(decks=()) == state._replace(decks=())
    assert player_view(loaded, 0) == player_view(state, 0)


def test_a_download_in_play_keeps_the_undo_and_what_it_took_back() -> None:
    from spades.engine import parse_record, seat_record
    state = undo(_play(new_game(_rules(), 3), 15, random.Random(2)), 0)
    record = seat_record(state, 1)
    seen = record["hands"][-1]
    entries = seen["actions"]
    assert {"seat": 0, "undo": len(state.undos[-1].taken)} in entries
    assert len(entries) == len(state.hand.actions) + 1 + len(state.undos[-1].taken)
    assert parse_record(json.loads(json.dumps(record))).seen is not None


def _suit(card: int) -> int:
    return int(card) // 13


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), count=st.integers(5, 40), seat=st.integers(0, 3))
def test_an_undo_tells_a_seat_nothing_of_the_cards_it_has_not_seen(
        seed: int, count: int, seat: int) -> None:
    """Re-deal every card ``seat`` never saw (others' cards never played, shuffled among
    their places keeping each place's suit, so the same actions replay): its view after the
    undo, the events of the undo and the record it may download are the same."""
    rules = _rules()
    rng = random.Random(seed)
    deck = list(new_game(rules, seed).hand.deck)
    first = new_game(rules, seed, decks=[deck], first_dealer=3)
    state, actions = first, []
    for _ in range(count):
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state = apply(state, action)
        if state.results:
            return  # the hand is over: nothing of it to take back
    if undo_blocker(state, 0) is not None:
        return
    after = undo(state, 0)
    seen = {int(a.card) for _, a in after.undos[-1].taken if isinstance(a, Play)}
    seen |= {int(a.card) for _, a in after.hand.actions if isinstance(a, Play)}
    seen |= {int(c) for c in player_view(first, seat).hand}
    places = [i for i, c in enumerate(deck) if int(c) not in seen]
    other = list(deck)
    for suit in range(4):
        mine = [i for i in places if _suit(deck[i]) == suit]
        moved = [deck[i] for i in mine]
        rng.shuffle(moved)
        for i, card in zip(mine, moved, strict=True):
            other[i] = card
    twin = new_game(rules, seed, decks=[other], first_dealer=3)
    for action in actions:
        twin = apply(twin, action)
    twin_after = undo(twin, 0)
    from spades.engine import seat_record
    assert player_view(after, seat) == player_view(twin_after, seat)
    assert events(state, after, seat) == events(twin, twin_after, seat)
    assert seat_record(after, seat)["hands"][-1] == seat_record(twin_after, seat)["hands"][-1]
