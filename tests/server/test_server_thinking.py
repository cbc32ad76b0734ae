"""Computer players think in other processes; a computer player that fails or breaks a rule
never stops the table."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from server_testkit import Driver, client, new_game_id, open_table, run_async, stored

from spades.engine import Action, Play, PlayerView, find_preset, new_game, player_view
from spades.session import Thinker, thinking

pytestmark = pytest.mark.timeout(60)



class Failing:
    name = "failing"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        raise RuntimeError("the computer player is broken")


class Cheating:
    name = "cheating"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if view.phase.value == "play":
            return Play(next(c for c in find_preset("house").deck if c not in view.hand))
        return view.legal[0]


@pytest.mark.parametrize("player", [Failing(), Cheating()])
def test_a_failing_or_cheating_computer_player_does_not_stop_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, player: object) -> None:
    monkeypatch.setitem(thinking._PLAYERS, "random", player)
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = driver.until_decision()
            while state["view"]["hand_number"] == 1:
                driver.act(driver.choose(state))
                state = driver.until_decision()
    game = stored(tmp_path, game_id)
    # the first hand finished: three bids and 39 cards from the computer players
    assert sum(1 for a in game.actions if a.seat != 0 and a.hand == 0) == 3 + 3 * 13


def test_the_process_pool_decides_from_the_view() -> None:
    async def decide() -> tuple[Action, float]:
        brain = Thinker(workers=1, seed=3)
        try:
            await brain.start()
            view = player_view(new_game(find_preset("house"), 9), 0)
            assert brain.quick.spare()  # so Normal looks ahead, in the quick lane's process
            return await brain.choose("normal", view)
        finally:
            brain.close()

    action, seconds = run_async(decide())
    view = player_view(new_game(find_preset("house"), 9), 0)
    assert action in view.legal and 0 <= seconds < 5
