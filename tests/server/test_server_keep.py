"""The tables a server holds in memory (``Lobby._keep``): past ``KEEP_TABLES`` it lets go of
idle tables only once nothing has used them for ``LET_GO`` seconds. It let go of any idle
table before, one just made or just asked for among them, so that at 300 tables and more
(bench/load.py) a game could be held twice, its two people's sockets on two copies: one
never heard the other's cards, and its cards were refused as stale."""

from __future__ import annotations

from pathlib import Path

import pytest
from server_testkit import Driver, client, new_game_id, open_table

from spades.server import lobby

pytestmark = pytest.mark.timeout(120)


def test_a_table_just_made_or_used_is_not_let_go(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "KEEP_TABLES", 2)
    with client(tmp_path) as http:
        held = http.app.state.lobby.tables  # type: ignore[attr-defined]
        first = new_game_id(http)
        table = held[first]
        others = [new_game_id(http) for _ in range(3)]  # each past the cap, all in use
        assert held[first] is table and set(held) == {first, *others}
        with open_table(http, first) as ws:  # the same table, not a second copy
            assert Driver(ws).until_decision()["game"]["id"] == first
            assert held[first] is table and table.hub.connections
        monkeypatch.setattr(lobby, "LET_GO", 0.0)  # now the idle ones may go
        last = new_game_id(http)
        assert set(held) == {last} and first not in held
        with open_table(http, first) as ws:  # loaded again from the store, and played
            state = Driver(ws).until_decision()
            assert state["game"]["id"] == first and held[first] is not table
