"""Blind nil: while it is open to you your cards stay on the server until you look; the
passing that follows; the bid suggestion; computer players never bid blind nil."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from server_testkit import (
    HEADERS,
    PLAYER,
    Driver,
    check_frames,
    client,
    db_url,
    new_game_id,
    open_table,
    stored,
    true_states,
)

from spades.engine import BLIND_NIL, Action, Bid, PlayerView, make_rules
from spades.server.lobby import new_game_row
from spades.server.wire import codes
from spades.session import thinking  # the thinking moved to the session (issue 9)
from spades.store import Store

pytestmark = pytest.mark.timeout(60)



def crafted_game(tmp_path: Path, first_dealer: int, **options: Any) -> str:
    """A house game where blind nil is open at any score (no deficit needed)."""
    rules = make_rules("house", blind_nil=True, blind_nil_deficit=None, **options)
    row, first = new_game_row(PLAYER, rules, {}, "random", first_dealer=first_dealer)
    state = first.state  # the server's lobby gives the first deal as a Snapshot
    store = Store(db_url(tmp_path))
    try:
        store.create_game(row, codes(state.hand.deck))
    finally:
        store.close()
    return row.id


def assert_face_down(state: dict[str, Any]) -> None:
    view = state["view"]
    assert view["hand"] is None and view["hand_hidden"] and view["can_look"]
    assert view["drawn"] is None


def test_two_player_blind_nil_before_the_first_draw(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http, "two-player")
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = driver.until_decision()
            assert state["view"]["phase"] == "draw" and state["view"]["turn"] == 0
            assert_face_down(state)
            assert state["legal"] == {"kind": "blind_nil", "actions": [
                {"bid": "blind-nil", "label": "Blind nil"},
                {"look": True, "label": "Look at my cards"}]}
            record = http.get(f"/api/games/{game_id}/record", headers=HEADERS).json()
            assert record["hands"] == [{"seen": {"seat": 0, "cards": []}, "actions": []}]
            driver.act({"bid": "blind-nil"})
            state = driver.until_decision()
            assert state["view"]["bids"][0] == "blind-nil"
            assert not state["view"]["hand_hidden"] and state["legal"]["kind"] == "draw"
            assert state["view"]["drawn"] == state["legal"]["card"] is not None
            assert state["legal"]["actions"][0]["label"].startswith("Keep the ")
            record = http.get(f"/api/games/{game_id}/record", headers=HEADERS).json()
            assert record["hands"][-1]["actions"][0] == {"seat": 0, "bid": "blind-nil"}
        check_frames(driver.frames, stored(tmp_path, game_id))


def test_looking_turns_the_cards_up_and_closes_blind_nil(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http, "two-player")
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = driver.until_decision()
            driver.act({"look": True})
            looked = driver.recv()
            assert looked["version"] == state["version"] + 1
            # a look is an engine action: it is a step, recorded like any other
            assert looked["step"] == state["step"] + 1 == 1
            assert looked["events"] == [{"kind": "look", "step": 1,
                                         "text": "You look at your cards."}]
            assert looked["view"]["drawn"] is not None and looked["legal"]["kind"] == "draw"
            assert all("blind" not in str(a) for a in looked["legal"]["actions"])
            driver.act({"bid": "blind-nil"})
            error = driver.recv()
            assert error["code"] == "illegal" and "looked at your cards" in error["message"]
            driver.recv()
            driver.act({"look": True})
            error = driver.recv()
            assert error["code"] == "illegal" and "already face up" in error["message"]
            driver.recv()
        # the look is saved: a reload does not offer blind nil again
        with open_table(http, game_id) as ws:
            again = Driver(ws).recv()
            assert again["view"]["drawn"] == looked["view"]["drawn"]
            assert again["legal"] == looked["legal"]
        game = stored(tmp_path, game_id)
        assert game.looks == set()
        assert [row.action for row in game.actions] == [{"seat": 0, "look": True}]


def test_a_look_saved_in_the_old_looks_table_resumes_the_same(tmp_path: Path) -> None:
    """Games saved before the look was an engine action kept it in the ``looks`` table:
    such a game resumes with the cards face up and blind nil closed, as it was."""
    with client(tmp_path) as http:
        game_id = new_game_id(http, "two-player")
        with open_table(http, game_id) as ws:
            before = Driver(ws).until_decision()
            assert before["view"]["hand_hidden"] and before["view"]["drawn"] is None
    store = Store(db_url(tmp_path))
    try:
        with store.engine.begin() as conn:  # the row an older server saved for a look
            conn.execute(sa.insert(store.tables.looks).values(
                game_id=game_id, hand=0, seat=0, created=dt.datetime.now(dt.UTC)))
    finally:
        store.close()
    with client(tmp_path) as http, open_table(http, game_id) as ws:
        again = Driver(ws).recv()
        assert not again["view"]["hand_hidden"] and again["view"]["drawn"] is not None
        assert again["legal"]["kind"] == "draw"
        assert all("blind" not in str(a) for a in again["legal"]["actions"])


def test_partnership_blind_nil_cards_stay_hidden_then_two_cards_each_way(
        tmp_path: Path) -> None:
    game_id = crafted_game(tmp_path, first_dealer=0)  # Bramble bids first
    with client(tmp_path) as http, open_table(http, game_id) as ws:
        driver = Driver(ws)
        state = driver.until_decision()
        assert state["view"]["bids"][1] is not None  # others bid while my cards hid
        for frame in driver.frames:
            if frame["type"] == "state":
                assert_face_down(frame)
        assert state["legal"]["kind"] == "blind_nil"
        driver.act({"bid": "blind-nil"})
        state = driver.until_decision()
        assert state["legal"]["kind"] == "pass"
        assert state["legal"]["count"] == 2 and state["legal"]["to"] == 2
        assert state["legal"]["cards"] == state["view"]["hand"]
        driver.act({"pass": ["2C"]})
        error = driver.recv()
        assert error == {"type": "error", "code": "illegal",
                         "message": "pass exactly 2 different cards",
                         "version": state["version"]}
        driver.recv()
        given = state["view"]["hand"][-2:]
        held = set(state["view"]["hand"])
        driver.act({"pass": given})
        state = driver.until_decision()
        passes = state["view"]["passes"]
        assert passes[0] == {"from": 0, "to": 2, "cards": given}
        assert passes[1]["from"] == 2 and passes[1]["to"] == 0
        assert set(state["view"]["hand"]) == held - set(given) | set(passes[1]["cards"])
        texts = [e["text"] for f in driver.frames if f["type"] == "state" for e in f["events"]
                 if e["kind"] == "pass"]
        assert texts[0].startswith("You pass Juniper the ")
        assert texts[1].startswith("Juniper passes you the ")
    check_frames(driver.frames, stored(tmp_path, game_id))


class BlindNilLover:
    """A computer player that bids blind nil whenever it is offered."""

    name = "blind-nil-lover"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return BLIND_NIL if BLIND_NIL in view.legal else rng.choice(view.legal)


def test_computer_players_never_bid_blind_nil(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(thinking._PLAYERS, "random", BlindNilLover())
    game_id = crafted_game(tmp_path, first_dealer=0)
    with client(tmp_path) as http, open_table(http, game_id) as ws:
        driver = Driver(ws)
        state = driver.until_decision()
        while state["view"]["hand_number"] <= 2 and not state["view"]["over"]:
            if state["legal"]["kind"] == "blind_nil":
                driver.act({"look": True})
                state = driver.until_decision()
            driver.act(driver.choose(state))
            state = driver.until_decision()
    game = stored(tmp_path, game_id)
    bids = [a.action["bid"] for a in game.actions if "bid" in a.action and a.seat != 0]
    assert len(bids) >= 3 * 2 and "blind-nil" not in bids
    check_frames(driver.frames, game)
    assert true_states(game)[-1].results


@dataclass
class Suggestion:
    bid: Bid
    reasons: list[str]


def fake_advise_bid(view: PlayerView, rng: object, player: object) -> Suggestion:
    return Suggestion(Bid(len(view.hand) // 4), [f"{len(view.hand)} cards in hand"])


@pytest.mark.parametrize("late", [False, True])
def test_the_bid_suggestion_with_the_bid_pad(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             late: bool) -> None:
    """A client whose hello says ``late_suggestion`` (the page) gets the turn to bid at
    once and its suggestion in a state of the same step after it; a client of before (its
    hello says nothing more) gets the turn with its suggestion in it."""
    monkeypatch.setattr(thinking, "advise_bid", fake_advise_bid)
    game_id = crafted_game(tmp_path, first_dealer=3)
    hello = {"late_suggestion": True} if late else {}
    with client(tmp_path) as http, open_table(http, game_id, hello=hello) as ws:
        driver = Driver(ws)
        state = driver.until_decision()
        assert state["legal"]["kind"] == "blind_nil" and state["suggestion"] is None
        driver.act({"look": True})
        state = driver.recv()
        assert state["legal"]["kind"] == "bid"
        assert [b["bid"] for b in state["legal"]["bids"]] == ["nil", *range(1, 14)]
        assert state["legal"]["bids"][0]["label"] == "Nil"
        if late:
            assert state["suggestion"] is None
            again = driver.recv()
            assert (again["type"], again["step"], again["events"]) == ("state", state["step"],
                                                                      [])
            assert again["legal"] == state["legal"]
            state = again
        assert state["suggestion"] == {"bid": 3, "label": "3", "reasons": ["13 cards in hand"]}
        driver.act({"bid": 3})
        state = driver.until_decision()
        assert state["legal"]["kind"] == "play" and state["suggestion"] is None

