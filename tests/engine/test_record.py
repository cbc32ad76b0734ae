"""Game records (``spades-record/1``): the shared examples, refusals with hand and action
numbers, lenient card spelling, and ``record_of`` round trips."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from spades.engine import (
    PRESETS,
    GameState,
    RecordError,
    Rules,
    apply,
    legal_actions,
    load_record,
    loads,
    make_rules,
    new_game,
    record_of,
    summary,
)

HERE = Path(__file__).resolve().parent
RECORDS = HERE.parent / "golden" / "records"  # the project's copies of the shared examples
EXPECTED: dict[str, dict[str, Any]] = json.loads((RECORDS / "expected.json").read_text())


def read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text())
    return data


def test_every_example_record_has_its_expectation() -> None:
    """tests/golden/records holds the examples and what replaying each must give (no test
    reads outside the repository: a clone has no ../shared)."""
    names = sorted(p.name for p in RECORDS.glob("*.json"))
    assert names == sorted([f"{n}.json" for n in EXPECTED] + ["expected.json"])


@pytest.mark.parametrize("name", [n for n, e in EXPECTED.items() if "replay_json" in e])
def test_shared_records_give_the_expected_summary(name: str) -> None:
    assert summary(load_record(read(name))) == EXPECTED[name]["replay_json"]


def test_the_illegal_revoke_is_refused_at_hand_1_action_6() -> None:
    with pytest.raises(RecordError) as refused:
        load_record(read("illegal_revoke"))
    error = refused.value
    assert (error.hand, error.action) == (1, 6)
    assert str(error).startswith("hand 1, action 6: ")
    assert "you must follow diamonds" in str(error)


# ---------------------------------------------------------------------------- refusals

Edit = Callable[[dict[str, Any]], Any]


def _set(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return edit


def _dupe_card(deck: list[str]) -> None:
    deck[deck.index("2C")] = "AS"


MALFORMED: list[tuple[str, Edit, int | None, int | None, str]] = [
    ("not an object", lambda d: [d], None, None, "a record is a JSON object"),
    ("wrong format", _set(("format",), "pgn"), None, None, '"format" must be'),
    ("unknown field", _set(("moves",), []), None, None, "unknown field(s): moves"),
    ("rules not an object", _set(("rules",), "partnership"), None, None, '"rules" must be'),
    ("unknown preset", _set(("rules", "preset"), "bridge"), None, None, "unknown preset"),
    ("unknown option", _set(("rules", "trumps"), "hearts"), None, None, "trumps"),
    ("bad option value", _set(("rules", "spades_break"), "never"), None, None,
     "spades_break"),
    ("inconsistent options", _set(("rules", "players"), 3), None, None, "players"),
    ("players not names", _set(("players",), ["a", "b"]), None, None, '"players"'),
    ("first dealer out of range", _set(("first_dealer",), 4), None, None, "first_dealer"),
    ("hands not a list", _set(("hands",), {}), None, None, '"hands" must be a list'),
    ("hand not an object", _set(("hands", 0), []), 1, None, "a hand is an object"),
    ("hand with a stray key", _set(("hands", 0, "score"), 3), 1, None, "a hand is an object"),
    ("deck not a list", _set(("hands", 0, "deck"), "AS KS"), 1, None, '"deck" must be a list'),
    ("bad card in the deck", _set(("hands", 0, "deck", 7), "1X"), 1, None, "'1X' is not a card"),
    ("actions not a list", _set(("hands", 0, "actions"), {}), 1, None, '"actions" must be'),
    ("action not an object", _set(("hands", 0, "actions", 2), "bid 3"), 1, 3,
     "an action is an object"),
    ("action of no kind", _set(("hands", 0, "actions", 0), {"seat": 0, "bet": 4}), 1, 1,
     'exactly one of "bid"'),
    ("action of two kinds", _set(("hands", 0, "actions", 0), {"seat": 0, "bid": 4,
                                                              "play": "AS"}), 1, 1,
     'exactly one of "bid"'),
    ("seat out of range", _set(("hands", 0, "actions", 1, "seat"), 7), 1, 2,
     '"seat" must be a seat from 0 to 3'),
    ("seat as a bool", _set(("hands", 0, "actions", 1, "seat"), True), 1, 2, '"seat"'),
    ("wrong seat", _set(("hands", 0, "actions", 1, "seat"), 2), 1, 2,
     "it is seat 1's turn, not seat 2's"),
    ("bad bid", _set(("hands", 0, "actions", 3, "bid"), "four"), 1, 4, "a bid is"),
    ("bid out of range", _set(("hands", 0, "actions", 3, "bid"), 14), 1, 4, "not 14"),
    ("bad card in a play", _set(("hands", 0, "actions", 5, "play"), "ZZ"), 1, 6,
     "'ZZ' is not a card"),
    ("card not held", _set(("hands", 0, "actions", 5, "play"), "AD"), 1, 6,
     "you do not hold the ace of diamonds"),
    ("a draw in partnership", _set(("hands", 0, "actions", 0), {"seat": 0, "draw": "keep"}),
     1, 1, "you cannot draw now"),
]


@pytest.mark.parametrize(("edit", "hand", "action", "message"),
                         [pytest.param(*m[1:], id=m[0]) for m in MALFORMED])
def test_malformed_records_are_refused_with_the_place(edit: Edit, hand: int | None,
                                                      action: int | None,
                                                      message: str) -> None:
    data = read("seed001_partners_4_3_take_9")
    replaced = edit(data)
    if replaced is not None and not isinstance(replaced, str):
        data = replaced
    with pytest.raises(RecordError) as refused:
        load_record(data)
    error = refused.value
    assert message in str(error), str(error)
    assert (error.hand, error.action) == (hand, action), str(error)
    if hand is not None and action is not None:
        assert str(error).startswith(f"hand {hand}, action {action}: ")


def test_the_base_of_the_table_above_is_legal() -> None:
    data = read("seed001_partners_4_3_take_9")
    assert data["hands"][0]["actions"][4] == {"seat": 0, "play": "AD"}
    state = load_record(data)
    assert state.results and not state.over


@pytest.mark.parametrize(("edit", "message"), [
    (_dupe_card, "twice: AS"),
    (lambda deck: deck.pop(), "missing: "),
    (lambda deck: deck.append("BJ"), "not in this variant's deck: BJ"),
])
def test_a_bad_deck_is_refused_naming_its_hand(edit: Callable[[list[str]], Any],
                                               message: str) -> None:
    state = _finished_hands(PRESETS["partnership"], 5, hands=2)
    record = record_of(state)
    assert len(record["hands"]) == 3
    edit(record["hands"][1]["deck"])
    with pytest.raises(RecordError) as refused:
        load_record(record)
    assert message in str(refused.value)
    assert "hand 2" in str(refused.value)
    assert refused.value.hand in (None, 2)


def test_not_json_is_refused() -> None:
    with pytest.raises(RecordError, match="not JSON"):
        loads('{"format": "spades-record/1", ')


def test_a_record_refused_by_loads_names_the_place_too() -> None:
    text = (RECORDS / "illegal_revoke.json").read_text()
    with pytest.raises(RecordError, match=r"^hand 1, action 6: "):
        loads(text)


def _finished_hands(rules: Rules, seed: int, hands: int = 10**6) -> GameState:
    """Random play until the game is over or ``hands`` hands are finished."""
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    while not state.over and len(state.results) < hands:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_actions_after_game_over_are_refused() -> None:
    state = _finished_hands(PRESETS["short"], 3)
    record = record_of(state)
    hands = len(record["hands"])
    assert load_record(record).over
    last = record["hands"][-1]["actions"]
    extra = copy.deepcopy(record)
    extra["hands"][-1]["actions"].append({"seat": 0, "bid": 3})
    with pytest.raises(RecordError) as refused:
        load_record(extra)
    assert (refused.value.hand, refused.value.action) == (hands, len(last) + 1)
    assert "the game is over" in str(refused.value)
    another = copy.deepcopy(record)
    another["hands"].append({"deck": record["hands"][0]["deck"],
                             "actions": [{"seat": 0, "bid": 3}]})
    with pytest.raises(RecordError) as refused:
        load_record(another)
    assert (refused.value.hand, refused.value.action) == (hands + 1, 1)
    assert "the game is over" in str(refused.value)


def test_a_hand_that_stops_with_another_after_it_is_refused() -> None:
    data = read("seed001_partners_4_3_take_9")
    data["hands"][0]["actions"] = data["hands"][0]["actions"][:20]
    data["hands"].append({"deck": data["hands"][0]["deck"], "actions": []})
    with pytest.raises(RecordError) as refused:
        load_record(data)
    assert refused.value.hand == 1
    assert "the hand is not finished but another hand follows it" in str(refused.value)
    data["hands"][1]["actions"] = [{"seat": 0, "bid": 3}]
    with pytest.raises(RecordError) as refused:
        load_record(data)
    assert refused.value.hand in (1, 2)


def test_a_record_may_stop_mid_hand() -> None:
    data = read("seed001_partners_4_3_take_9")
    data["hands"][0]["actions"] = data["hands"][0]["actions"][:23]
    state = load_record(data)
    assert not state.results and len(state.hand.trick) == 3
    assert summary(state)["hands"] == [] and summary(state)["final"]["over"] is False


# ---------------------------------------------------------------------------- spelling


def _respell(data: dict[str, Any], spell: Callable[[str], str]) -> dict[str, Any]:
    out = copy.deepcopy(data)
    for hand in out["hands"]:
        hand["deck"] = [spell(c) for c in hand["deck"]]
        for action in hand["actions"]:
            if "play" in action:
                action["play"] = spell(action["play"])
    return out


@pytest.mark.parametrize("spell", [
    str.lower,
    lambda c: "10" + c[1:] if c[0] == "T" else c,
    lambda c: ("10" + c[1:] if c[0] == "T" else c).lower(),
], ids=["lower case", "10H", "10h"])
def test_lower_case_and_ten_as_10_are_read(spell: Callable[[str], str]) -> None:
    name = "seed001_partners_4_3_take_9"
    data = read(name)
    respelled = _respell(data, spell)
    assert respelled != data
    assert summary(load_record(respelled)) == EXPECTED[name]["replay_json"]


def test_nil_may_be_written_0_or_nil() -> None:
    name = "seed001_nil_made_and_failed"
    data = read(name)
    bids = [a for a in data["hands"][0]["actions"] if "bid" in a]
    assert [a["bid"] for a in bids[:2]] == [0, 0]
    for action in bids[:2]:
        action["bid"] = "nil"
    assert summary(load_record(data)) == EXPECTED[name]["replay_json"]


def test_zero_is_a_plain_bid_where_nil_is_off_and_min_bid_zero() -> None:
    rules = make_rules("cutthroat", min_bid=0)
    state = new_game(rules, seed=1)
    record = record_of(state)
    record["hands"][0]["actions"] = [{"seat": 0, "bid": 0}]
    loaded = load_record(record)
    assert loaded.hand.bids[0] is not None and not loaded.hand.bids[0].nil
    with pytest.raises(RecordError, match="nil is not played"):
        load_record({**record, "rules": {"preset": "cutthroat"},
                     "hands": [{"deck": record["hands"][0]["deck"],
                                "actions": [{"seat": 0, "bid": "nil"}]}]})


# ---------------------------------------------------------------------------- round trips

ROUND_TRIP_RULES: dict[str, Rules] = {
    **PRESETS,
    "partnership+blind-nil-pass": make_rules("partnership", blind_nil=True, blind_nil_pass=2,
                                             target_score=300),
    "house+mercy": make_rules("house", blind_nil=True, target_score=250, losing_score=-200),
}


def _same_game(a: GameState, b: GameState) -> None:
    assert a.rules == b.rules
    assert a.hand == b.hand
    assert a.results == b.results
    assert (a.scores, a.bags, a.over, a.winner, a.first_dealer) == (
        b.scores, b.bags, b.over, b.winner, b.first_dealer)


@pytest.mark.parametrize("name", list(ROUND_TRIP_RULES))
def test_record_of_round_trips_through_load_record(name: str) -> None:
    rules = ROUND_TRIP_RULES[name]
    rng = random.Random(name)
    state = new_game(rules, seed=name, first_dealer=rules.players - 2)
    checkpoints = {rng.randrange(1, 200) for _ in range(4)}
    steps = 0
    while not state.over and steps < 600:
        state = apply(state, rng.choice(legal_actions(state)))
        steps += 1
        if steps in checkpoints or state.over:
            record = record_of(state, players=[f"P{i}" for i in range(rules.players)])
            text = json.dumps(record)
            loaded = loads(text)
            _same_game(loaded, state)
            assert record_of(loaded, players=record["players"]) == record
            assert summary(loaded) == summary(state)
            assert record["rules"]["preset"] == rules.name
            assert load_record(json.loads(text)).hand == state.hand


def test_a_seen_hand_is_read_but_not_replayed() -> None:
    data = read("seed001_partners_4_3_take_9")
    data["hands"].append({"seen": {"seat": 0, "cards": ["AS", "KH"]},
                          "actions": [{"seat": 0, "bid": 4}]})
    state = load_record(data)
    assert summary(state) == EXPECTED["seed001_partners_4_3_take_9"]["replay_json"]
    data["hands"].insert(0, data["hands"].pop())
    with pytest.raises(RecordError) as refused:
        load_record(data)
    assert refused.value.hand == 1 and "seen" in str(refused.value)


# ---------------------------------------------------------------------------- spades-record/2


def _two_player_record() -> dict[str, Any]:
    """A /1 two-player record: seat 0 draws at once, so /2 infers its look there."""
    rules = PRESETS["two-player"]
    state = new_game(rules, seed="two", first_dealer=1)
    return {"format": "spades-record/1", "rules": {"preset": "two-player"}, "first_dealer": 1,
            "hands": [{"deck": [str(c) for c in state.hand.deck],
                       "actions": [{"seat": 0, "draw": "keep"}, {"seat": 1, "bid": "blind-nil"},
                                   {"seat": 1, "draw": "discard"}]}]}


def test_a_v1_record_loads_with_its_looks_inferred_and_is_written_as_v2() -> None:
    data = _two_player_record()
    state = load_record(data)
    written = record_of(state)
    assert written["format"] == "spades-record/2"
    assert written["hands"][0]["actions"] == [
        {"seat": 0, "look": True}, {"seat": 0, "draw": "keep"},
        {"seat": 1, "bid": "blind-nil"}, {"seat": 1, "draw": "discard"}]
    assert load_record(written).hand == state.hand


def test_a_look_is_recorded_and_closes_blind_nil() -> None:
    data = _two_player_record()
    data["format"] = "spades-record/2"
    data["hands"][0]["actions"][1:1] = [{"seat": 1, "look": True}]  # out of turn
    with pytest.raises(RecordError) as refused:
        load_record(data)
    assert (refused.value.hand, refused.value.action) == (1, 3)
    assert "blind nil is bid before looking" in str(refused.value)


def test_a_look_is_refused_in_a_v1_record() -> None:
    data = _two_player_record()
    data["hands"][0]["actions"].insert(0, {"seat": 0, "look": True})
    with pytest.raises(RecordError) as refused:
        load_record(data)
    assert (refused.value.hand, refused.value.action) == (1, 1)


def _revealed() -> dict[str, Any]:
    rules = PRESETS["partnership"]
    state = new_game(rules, seed="reveal")
    rng = random.Random(3)
    while len(state.results) < 2:
        state = apply(state, rng.choice(legal_actions(state)))
    return record_of(state, reveal=True)


def test_revealed_seeds_check_their_decks_and_commitments() -> None:
    data = _revealed()
    first = data["hands"][0]
    assert {"seed", "commitment", "deck"} <= set(first)
    assert "seed" not in data["hands"][-1], "the hand in play keeps its seed"
    state = load_record(data)
    assert len(state.results) == 2
    for edit, message in (
            (lambda h: h.update(commitment="0" * 64), "not match the commitment"),
            (lambda h: h.update(entropy=["extra"]), "does not match the revealed seed"),
            (lambda h: h["deck"].reverse(), "does not match the revealed seed"),
            (lambda h: h.update(seed=7), '"seed" must be a string')):
        bad = copy.deepcopy(data)
        edit(bad["hands"][1])
        with pytest.raises(RecordError, match=message) as refused:
            load_record(bad)
        assert refused.value.hand == 2
    seen = copy.deepcopy(data)
    seen["hands"][-1] = {"seen": {"seat": 0, "cards": []}, "actions": [], "seed": "x"}
    with pytest.raises(RecordError, match='no "deck" nor "seed"'):
        load_record(seen)
    old = copy.deepcopy(data)
    old["format"] = "spades-record/1"
    with pytest.raises(RecordError, match="hand 1"):
        load_record(old)


def test_levels_are_kept_and_checked() -> None:
    """``levels``: each seat's computer player level or null for a person; written by
    ``record_of(levels=...)``, read back by ``parse_record``, refused when malformed."""
    from spades.engine import parse_record

    state = new_game(PRESETS["partnership"], seed=1)
    record = record_of(state, ["You", "B", "J", "C"], levels=[None, "easy", "easy", "easy"])
    assert record["levels"] == [None, "easy", "easy", "easy"]
    assert parse_record(record).levels == (None, "easy", "easy", "easy")
    assert "levels" not in record_of(state) and parse_record(record_of(state)).levels is None
    for bad in ([None, "easy"], "easy", [None, 3, None, None], [None, "", None, None],
                [None, "x" * 33, None, None]):
        with pytest.raises(RecordError, match='"levels" must be a list of 4 entries'):
            parse_record({**record, "levels": bad})
