"""What a person coming back is told was played for them ("While you were away"), rebuilt
from the store (``history.played_for``): the actions the computer player made for them
since they last acted, and, for a person away until now, not hidden by an action of their
own made as they came back (at another process, before the table's leader knew they were
back: CI once lost a summary that way)."""

from __future__ import annotations

from pathlib import Path

from friends_kit import played_game
from server_testkit import client

from spades.server.history import played_for

ANN = "player-ann-00001"


def test_an_action_made_as_a_person_comes_back_does_not_hide_what_was_made_for_them(
        tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id, driver = played_game(http, ANN)
        game = http.app.state.store.load_game(game_id)  # type: ignore[attr-defined]
        names = tuple(driver.state["game"]["players"])
    # seat 1's actions: the first its person's own, the next two made for them while they
    # were away, the last their own again, made as they came back
    steps = [n for n, row in enumerate(game.actions, start=1) if row.seat == 1]
    assert len(steps) >= 4, steps
    own, made, again = steps[0], steps[1:3], steps[3]
    stand_ins = {step: 1 for step in made}
    upto = again

    def told(back: bool, until: int = upto) -> list[int]:
        events = played_for(game, stand_ins, names, 1, until, back)
        assert events is not None
        assert {e["step"] for e in events} == {e["step"] for e in events
                                               if e.get("played_for") == names[1]}
        return sorted({e["step"] for e in events})

    assert told(back=True) == made  # what was made for them, though they acted since
    assert told(back=False) == []  # a socket that opens again later: acted since, nothing
    assert told(back=False, until=again - 1) == made  # before their own action: all of it
    assert own < made[0]
