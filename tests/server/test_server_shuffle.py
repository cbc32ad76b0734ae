"""Shuffles anyone can verify, at the table (docs/shuffle.md, "At the table"): a socket sees
the commitment of a hand before it is dealt and its seed only after it is over; a person's
entropy changes the next deck, is saved, and a restarted server deals the same; games saved
before keep dealing as before."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest
from server_testkit import (
    HEADERS,
    PLAYER,
    Driver,
    check_frames,
    client,
    db_url,
    new_game_id,
    open_table,
    run_async,
    stored,
)

from spades.engine import (
    PRESETS,
    VERIFIED,
    apply,
    hand_commitment,
    hand_salt,
    hand_seed,
    legal_actions,
    parse_card,
    rules_from_json,
    shuffled,
    verify_record,
)
from spades.server.lobby import new_game_row
from spades.server.wire import codes
from spades.session import Refusal, Session, StoreSaver, state_from_store
from spades.store import ActionRow, Store, StoredGame

pytestmark = pytest.mark.timeout(120)



def play_out_hand(driver: Driver, state: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 plays at random until the hand in play is over; the first state after."""
    number = state["view"]["hand_number"]
    while state["view"]["hand_number"] == number and not state["view"]["over"]:
        driver.act(driver.choose(state))
        state = driver.until_decision()
    return state


def test_the_commitment_comes_before_the_deal_and_the_seed_after_the_hand(
        tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws, random.Random(4))
            state = driver.until_decision()
            for _ in range(3):
                state = play_out_hand(driver, state)
    game = stored(tmp_path, game_id)
    seed = game.game.seed
    # every frame: commitments of the hand in play and the next, no unfinished seed
    assert check_frames(driver.frames, game) > 30
    first_seen: dict[int, int] = {}  # hand -> index of the first frame with its commitment
    shown: dict[int, str] = {}  # hand -> the commitment first shown
    dealt: dict[int, int] = {}  # hand -> index of the first frame showing it in play
    revealed: dict[int, int] = {}
    for index, frame in enumerate(driver.frames):
        if frame["type"] != "state":
            continue
        for entry in frame["shuffle"]["committed"]:
            assert entry["commitment"] == hand_commitment(seed, entry["hand"] - 1)
            first_seen.setdefault(entry["hand"], index)
            shown.setdefault(entry["hand"], entry["commitment"])
        dealt.setdefault(frame["view"]["hand_number"], index)
        if frame["shuffle"]["revealed"]:
            revealed.setdefault(frame["shuffle"]["revealed"]["hand"], index)
    assert len(game.decks) >= 4
    for hand in range(2, len(game.decks) + 1):
        assert first_seen[hand] < dealt[hand], f"hand {hand} was dealt before its commitment"
    # hand 1 is committed in the very first state, before anyone acted
    first = driver.frames[0]
    assert first["step"] == 0 and first["shuffle"]["committed"][0]["hand"] == 1
    for hand in range(1, len(game.decks)):
        entry = driver.frames[revealed[hand]]["shuffle"]["revealed"]
        assert revealed[hand] >= dealt[hand + 1], f"hand {hand} was revealed while in play"
        assert entry["seed"] == hand_seed(seed, hand - 1)
        assert entry["salt"] == hand_salt(seed, hand - 1)
        assert entry["commitment"] == shown[hand]
        assert entry["deck"] == list(game.decks[hand - 1])
        deck = rules_from_json(game.game.rules).deck
        assert shuffled(deck, entry["seed"], entry["entropy"]) == tuple(
            parse_card(c) for c in entry["deck"])


def test_entropy_changes_the_next_deck_and_survives_a_restart(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            start = driver.until_decision()
            driver.send({"type": "entropy", "hand": 2, "value": "00ff" * 8})
            # a second one for the same hand, and bad ones, are refused with a sentence
            for bad, code in (({"hand": 2, "value": "abcd"}, "entropy"),
                              ({"hand": 2, "value": "XYZ"}, "bad-message"),
                              ({"hand": 2, "value": "a" * 65}, "bad-message"),
                              ({"hand": 2, "value": 17}, "bad-message"),
                              ({"hand": 5, "value": "abcd"}, "entropy")):
                driver.send({"type": "entropy", **bad})
                error = driver.recv()
                assert error["type"] == "error" and error["code"] == code, (bad, error)
                assert error["intent"] == "entropy" and error["message"]
            driver.send({"type": "entropy", "hand": "2", "value": "abcd"})
            assert driver.recv()["code"] == "bad-message"
            driver.recv()  # the state that follows a malformed message
            # an intent made from the version before the contribution still counts
            driver.act(driver.choose(start), version=start["version"])
            after = driver.until_decision()
            assert not [f for f in driver.frames if f["type"] == "error"
                        and f.get("intent") != "entropy" and f["code"] != "bad-message"]
            assert after["step"] > start["step"]
            assert after["shuffle"]["committed"][1] == {
                "hand": 2, "commitment": start["shuffle"]["committed"][1]["commitment"],
                "commitment_scheme": "spades-commit/1", "entropy": ["00ff" * 8]}
    game = stored(tmp_path, game_id)
    assert [r.action for r in game.entropy] == [{"seat": 0, "entropy": "00ff" * 8, "hand": 1}]
    assert len(game.actions) == after["step"] and game.rows == after["step"] + 1
    assert game.actions[start["step"]].seat == 0  # the intent made before the contribution
    # the server restarts: the commitment and the entropy are still on the table
    with client(tmp_path) as http, open_table(http, game_id) as ws:
        driver = Driver(ws, random.Random(2))
        resumed = driver.recv()
        assert resumed["shuffle"] == after["shuffle"]
        driver.send({"type": "entropy", "hand": 2, "value": "abcd"})  # still once only
        assert driver.recv()["code"] == "entropy"
        state = play_out_hand(driver, resumed)
        assert state["view"]["hand_number"] == 2
        revealed = state["shuffle"]["revealed"]
        assert revealed["hand"] == 1 and revealed["seed"]
        record = http.get(f"/api/games/{game_id}/record", headers=HEADERS).json()
    game = stored(tmp_path, game_id)
    seed = game.game.seed
    deck = PRESETS["house"].deck
    with_entropy = shuffled(deck, hand_seed(seed, 1), ["00ff" * 8])
    assert with_entropy != shuffled(deck, hand_seed(seed, 1))
    assert tuple(codes(with_entropy)) == game.decks[1]
    # the download of the game in play reveals the finished hand, and it verifies
    assert record["hands"][0]["seed"] == hand_seed(seed, 0)
    assert verify_record(record)[0].status == VERIFIED


def test_a_contribution_after_the_deal_goes_to_the_hand_after(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            start = driver.until_decision()
            driver.send({"type": "entropy", "hand": 1, "value": "beef"})  # hand 1 is dealt
            driver.act(driver.choose(start))
            state = driver.until_decision()
    assert state["shuffle"]["committed"][1]["entropy"] == ["beef"]
    assert [r.action["hand"] for r in stored(tmp_path, game_id).entropy] == [1]


def test_only_people_give_entropy(tmp_path: Path) -> None:
    store = Store(db_url(tmp_path))
    try:
        row, first = new_game_row(PLAYER, PRESETS["house"], {}, "random")
        state = first.state  # the server's lobby gives the first deal as a Snapshot
        store.create_game(row, codes(state.hand.deck))
        session = Session(row.id, row.seats, state, saver=StoreSaver(store, row.id),
                          thinker=None)  # type: ignore[arg-type]
        with pytest.raises(Refusal, match="only people"):
            run_async(session.contribute(1, 1, "abcd"))
        run_async(session.contribute(0, 1, "abcd"))
        assert session.state.shuffle.entropy == ((1, ("abcd",)),)
        loaded = store.load_game(row.id)
        assert loaded is not None and [r.seat for r in loaded.entropy] == [0]
    finally:
        store.close()


def test_a_game_saved_before_resumes_and_deals_as_before() -> None:
    """A game saved before entropy existed (spades-shuffle/1, no entropy rows) resumes with
    its hands committed and deals the next hand as it would have; one with an entropy row
    deals with it."""
    rules = PRESETS["partnership"]
    row, first = new_game_row("someone", rules, {}, "random")
    state = first.state  # the server's lobby gives the first deal as a Snapshot
    stored_game = StoredGame(game=row, decks=(tuple(codes(state.hand.deck)),), actions=(),
                             looks=frozenset())
    resumed = state_from_store(stored_game)
    assert resumed.hand == state.hand
    assert resumed.decks == ()  # the stored deck is the seed's: it stays committed
    rng = random.Random(0)
    played = resumed
    while not played.results:
        played = apply(played, rng.choice(legal_actions(played)))
    assert played.hand.deck == shuffled(rules.deck, hand_seed(row.seed, 1))
    given = dataclasses.replace(stored_game, entropy=(
        ActionRow(seq=1, hand=0, seat=0, action={"seat": 0, "entropy": "01", "hand": 1}),))
    again = state_from_store(given)
    rng = random.Random(0)
    while not again.results:
        again = apply(again, rng.choice(legal_actions(again)))
    assert again.hand.deck == shuffled(rules.deck, hand_seed(row.seed, 1), ["01"])
    # a stored deck that is not the seed's stays as stored (and is not committed)
    other = list(state.hand.deck)
    other[0], other[1] = other[1], other[0]
    odd = dataclasses.replace(stored_game, decks=(tuple(codes(other)),))
    assert state_from_store(odd).decks == (tuple(other),)


def test_the_download_is_revealed_only_for_finished_hands(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws, random.Random(9))
            state = play_out_hand(driver, driver.until_decision())
            record = http.get(f"/api/games/{game_id}/record", headers=HEADERS).json()
    seed = stored(tmp_path, game_id).game.seed
    text = json.dumps(record)
    assert hand_seed(seed, 1) not in text and hand_salt(seed, 1) not in text
    assert record["hands"][0]["commitment"] == hand_commitment(seed, 0)
    assert state["view"]["hand_number"] == 2
