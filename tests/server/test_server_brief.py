"""Brief sockets (docs/protocol.md, "Brief states"): a hello with ``"brief": true`` gets
states that leave out the game's facts and the shuffles' news when they are as in the last
state of that socket; filled in from it, each is the whole state a socket without it gets."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from server_testkit import Driver, client, new_game_id, ticket

from spades.server.connections import KEPT, KEPT_IN_VIEW, Connection

pytestmark = pytest.mark.timeout(120)


def whole(states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A brief socket's states with what each left out taken from the one before."""
    made: list[dict[str, Any]] = []
    for state in states:
        filled = dict(state)
        for key in KEPT:
            if key not in filled:
                assert made, f"the first state left out {key!r}"
                filled[key] = made[-1][key]
        filled["view"] = dict(filled["view"])
        for key in KEPT_IN_VIEW:
            if key not in filled["view"]:
                assert made, f"the first state's view left out {key!r}"
                filled["view"][key] = made[-1]["view"][key]
        made.append(filled)
    return made


def test_a_brief_socket_gets_every_state_a_whole_one_gets_less_its_repeats(
        tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http, "partnership", target_score=250)
        full_ticket, brief_ticket = ticket(http, game_id), ticket(http, game_id)
        with http.websocket_connect(f"/ws/games/{game_id}") as full_ws, \
                http.websocket_connect(f"/ws/games/{game_id}") as brief_ws:
            full_ws.send_json({"type": "hello", "ticket": full_ticket})
            brief_ws.send_json({"type": "hello", "ticket": brief_ticket, "brief": True})
            full, brief = Driver(full_ws, random.Random(3)), Driver(brief_ws)
            state = full.until_decision()
            hands = 0
            while not state["view"]["over"] and hands < 2:
                full.act(full.choose(state))
                state = full.until_decision()
                hands = state["view"]["hand_number"] - 1
            # the table waits for seat 0 now: the other socket has had the same states
            while brief.state is None or brief.state["version"] != state["version"]:
                brief.recv()
    full_states = [f for f in full.frames if f["type"] == "state"]
    brief_states = [f for f in brief.frames if f["type"] == "state"]
    assert all(key in full_states[0] for key in KEPT)
    assert all(key in brief_states[0] for key in KEPT)  # a socket's first state is whole
    assert [s["version"] for s in brief_states] == [s["version"] for s in full_states]
    assert whole(brief_states) == full_states
    left_out = {key: sum(key not in s for s in brief_states) for key in KEPT}
    assert left_out["game"] == len(brief_states) - 1
    # the shuffles' news changes with each hand (a hand's deck revealed): then it is sent
    sent = [s for s in brief_states[1:] if "shuffle" in s]
    assert 0 < len(sent) < left_out["shuffle"]
    made = whole(brief_states)  # and only then: sent again, it is always new
    assert all(made[i][key] != made[i - 1][key] for i in range(1, len(made))
               for key in KEPT if key in brief_states[i])
    # the score sheet, in the view, likewise: sent when a hand ends, else left out
    sheets = [i for i in range(1, len(made)) if "sheet" in brief_states[i]["view"]]
    assert 0 < len(sheets) < len(made) // 10
    assert all(made[i]["view"]["sheet"] != made[i - 1]["view"]["sheet"] for i in sheets)
    assert all("sheet" in s["view"] for s in full_states)


def test_only_a_hello_that_says_true_makes_a_socket_brief(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http, "partnership")
        token = ticket(http, game_id)
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "ticket": token, "brief": "yes"})
            first = ws.receive_json()
            ws.send_json({"type": "sync"})
            second = ws.receive_json()
            while second["type"] != "state":
                second = ws.receive_json()
    assert first["type"] == "state"
    assert all(key in second for key in KEPT)


def test_a_part_that_changes_is_sent_again_and_a_new_connection_starts_whole() -> None:
    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        sent: list[dict[str, Any]] = []

        async def send_text(text: str) -> None:
            sent.append(json.loads(text))

        states = [{"type": "state", "version": v, "game": {"players": names},
                   "shuffle": {"committed": [1]}, "view": {"v": v}}
                  for v, names in enumerate([["A", "B"], ["A", "B"], ["A", "C"], ["A", "C"]])]
        conn = Connection(0, send_text, brief=True)
        for state in states:
            conn.send(state)
        conn.send({"type": "thinking", "seat": 1})
        conn.close()
        await conn.pump(json.dumps)
        again: list[dict[str, Any]] = []

        async def send_again(text: str) -> None:
            again.append(json.loads(text))

        other = Connection(0, send_again, brief=True)
        other.send(states[-1])
        other.close()
        await other.pump(json.dumps)
        return sent, again

    sent, again = asyncio.run(run())
    assert ["game" in s for s in sent[:4]] == [True, False, True, False]
    assert ["shuffle" in s for s in sent[:4]] == [True, False, False, False]
    assert sent[2]["game"] == {"players": ["A", "C"]}
    assert sent[4] == {"type": "thinking", "seat": 1}
    assert "game" in again[0] and "shuffle" in again[0]
