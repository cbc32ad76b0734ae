"""The server serialises the engine's preset registry and each table's seats as they are:
the browser receives every preset fact and its own seat instead of working them out."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from server_testkit import PLAYER, Driver, client, db_url, open_table

from spades.engine import REGISTRY, make_rules
from spades.seats import seat_names
from spades.server.lobby import new_game_row
from spades.server.presets import ChoiceError, presets_json, rules_for, table_json
from spades.server.wire import codes
from spades.store import SeatRow, Store

pytestmark = pytest.mark.timeout(60)



def test_every_preset_fact_comes_from_the_registry() -> None:
    data = presets_json()
    assert [p["name"] for p in data["presets"]] == ["house", *[n for n in REGISTRY
                                                              if n != "house"]]
    for sent in data["presets"]:
        preset = REGISTRY[sent["name"]]
        rules = preset.rules
        assert sent["label"] == preset.label and sent["help"] == preset.help
        assert sent["options"] == rules.options()
        assert sent["seats"] == list(seat_names(rules.players))
        assert sent["partner"] == rules.partner_of[sent["you"]]
        assert sent["house_rules"] == [
            {"name": h.name, "label": h.label, "help": h.help, "choices": list(h.choices),
             "default": h.default} for h in preset.house_rules]
        table = sent["table"]
        assert table == table_json(rules)
        assert table["hand_size"] == rules.hand_size
        assert table["bids"] == [rules.lowest_bid, rules.hand_size]
        assert table["deck_size"] == len(rules.deck)
        assert table["partner_of"] == list(rules.partner_of)
        assert table["sides"] == [list(s) for s in rules.sides]
    five = next(p for p in data["presets"] if p["name"] == "five-player")
    assert five["table"]["removed"] == ["2C", "2D", "2H", "2S"]
    assert five["table"]["hand_size"] == 10 and five["partner"] is None
    suicide = next(p for p in data["presets"] if p["name"] == "suicide")
    assert suicide["table"]["bids"] == [4, 13]
    two = next(p for p in data["presets"] if p["name"] == "two-player")
    assert "(200)" in two["help"]  # a number in the text, not a rulebook reference


def test_a_preset_name_error_stays_a_choice_error() -> None:
    with pytest.raises(ChoiceError, match="unknown preset 'bridge'"):
        rules_for("bridge")
    with pytest.raises(ChoiceError, match="unknown house rule"):
        rules_for("house", {"trumps": "hearts"})


def test_a_state_tells_the_player_their_own_seat_and_partner(tmp_path: Path) -> None:
    """A person at seat 2 is told so, with their partner at seat 0 and the table's facts."""
    rules = make_rules("house", jokers=True)
    row, first = new_game_row("someone-else-000", rules, {}, "random")
    state = first.state  # the server's lobby gives the first deal as a Snapshot
    names = seat_names(rules.players)
    seats = tuple(SeatRow(seat=s, kind="human", name=names[s], player_id=PLAYER) if s == 2
                  else SeatRow(seat=s, kind="computer", name=names[s], level="random")
                  for s in range(rules.players))
    row = dataclasses.replace(row, owner=PLAYER, seats=seats)
    store = Store(db_url(tmp_path))
    try:
        store.create_game(row, codes(state.hand.deck))
    finally:
        store.close()
    with client(tmp_path) as http, open_table(http, row.id) as ws:
        message = Driver(ws).recv()
    game = message["game"]
    assert game["you"] == 2 and game["partner"] == 0
    assert game["table"] == table_json(rules)
    assert game["table"]["removed"] == ["2C", "2D"] and game["table"]["hand_size"] == 13
    assert message["view"]["hand_sizes"][2] == 13
