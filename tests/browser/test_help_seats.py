"""The help and the seat layout describe the table the server sends: your seat, your partner,
the sides, the hand size and the cards removed. Nothing assumes you sit at seat 0."""

from __future__ import annotations

from typing import Any

from tablekit import ServerProcess

from spades.engine import make_rules
from spades.seats import seat_names
from spades.server.presets import table_json

HELP = """async ([rules, table, names, you]) => {
  const { helpHtml } = await import("/js/help.js");
  const box = document.createElement("div");
  box.innerHTML = helpHtml(rules, { label: "Test", names, you, table });
  return box.innerText;
}"""

PLACES = """async ([players, you]) => {
  const { seatPlaces, sideShort } = await import("/js/seats.js");
  return [seatPlaces(players, you), sideShort([[0, 2], [1, 3]], [], 1, you)];
}"""


def _help(page: Any, rules_name: str, you: int, names: list[str], **options: Any) -> str:
    rules = make_rules(rules_name, **options)
    text: str = page.evaluate(HELP, [{"name": rules.name, **rules.options()}, table_json(rules),
                                     names, you])
    return text


def test_help_follows_the_seat_the_server_gives(page: Any, server: ServerProcess) -> None:
    page.goto(server.url + "help.html")
    page.wait_for_selector("#help-preset option", state="attached")
    names = ["Ash", "Birch", "You", "Elm"]
    text = _help(page, "house", 2, names, jokers=True)
    assert "You and your partner, Ash, play against Elm and Birch" in text
    assert "You and Ash against Birch and Elm" in text
    assert "Elm on your left" in text
    assert "Each player gets 13 cards" in text
    assert "the two of clubs, the two of diamonds leave it" in text
    alone = _help(page, "five-player", 3, ["A", "B", "C", "You", "E"])
    assert "You play against E, A, B and C, each for themselves" in alone
    assert "Each player gets 10 cards" in alone and "E on your left" in alone
    assert "two of hearts, the two of spades leave it" in alone
    assert "from 1 to 10" in alone and "every bid is at least 1" in alone
    suicide = _help(page, "suicide", 0, ["You", "B", "C", "D"])
    assert "from 4 to 13" in suicide


def test_seats_are_placed_around_your_own(page: Any, server: ServerProcess) -> None:
    page.goto(server.url + "help.html")
    page.wait_for_selector("#help-preset option", state="attached")
    assert page.evaluate(PLACES, [4, 0]) == [["s", "w", "n", "e"], "Them"]
    assert page.evaluate(PLACES, [4, 1]) == [["e", "s", "w", "n"], "Us"]
    assert page.evaluate(PLACES, [3, 2]) == [["nw", "ne", "s"], "Them"]


def test_the_help_page_reads_the_registry(page: Any, server: ServerProcess) -> None:
    page.goto(server.url + "help.html?preset=three-player-kitty")
    page.wait_for_selector("#help-body h1")
    text = page.locator("#help-body").inner_text()
    assert "Three players with a kitty" in text
    assert "Each player gets 17 cards" in text and "the two of clubs leaves the deck" not in text
    assert f"You play against {seat_names(3)[1]} and {seat_names(3)[2]}" in text
