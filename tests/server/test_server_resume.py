"""Saved after every action: a reload, a restart, or a server killed with SIGKILL in the
middle of a hand resumes exactly where the game was, never with a new deal."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_testkit import (
    HEADERS,
    Driver,
    client,
    db_url,
    live_socket,
    new_game_id,
    open_table,
    stored,
)

from spades.engine import PRESETS, apply, hand_seed, legal_actions, shuffled
from spades.server.lobby import new_game_row
from spades.server.wire import codes
from spades.session import state_from_store
from spades.store import ActionRow, Store, StoredGame

pytestmark = pytest.mark.timeout(90)



def same_table(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("version", "step", "game", "view", "legal"):
        assert a[key] == b[key], key


def into_the_hand(driver: Driver, plays: int) -> dict[str, Any]:
    """Bid, then play ``plays`` cards: a state in the middle of the first hand where seat
    0 is to play a card that does not end the trick."""
    state = driver.until_decision()
    done = 0
    while done < plays or state["legal"]["kind"] != "play" or len(state["view"]["trick"]) == 3:
        if state["legal"]["kind"] == "play":
            done += 1
        driver.act(driver.choose(state))
        state = driver.until_decision()
    assert state["view"]["hand_number"] == 1
    assert state["view"]["tricks_played"] >= plays - 1
    return state


def test_a_reload_and_a_restart_resume_the_same_hand(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            last = into_the_hand(Driver(ws), plays=3)
        with open_table(http, game_id) as ws:  # the page reloads
            again = Driver(ws).recv()
        same_table(again, last)
        assert again["events"] == []
    # the server restarts on the same store
    with client(tmp_path) as http, open_table(http, game_id) as ws:
        driver = Driver(ws)
        resumed = driver.recv()
        same_table(resumed, last)
        driver.act(driver.choose(resumed))
        assert driver.until_decision()["step"] > last["step"]


def test_a_restart_while_computers_were_to_play_lets_them_play_on(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            state = into_the_hand(Driver(ws), plays=2)
    # the server saved my card and died before the computer players' turn
    card = state["legal"]["cards"][0]
    store = Store(db_url(tmp_path))
    try:
        store.append_action(game_id, state["version"], ActionRow(
            seq=state["step"] + 1, hand=0, seat=0, action={"seat": 0, "play": card}))
    finally:
        store.close()
    with client(tmp_path) as http, open_table(http, game_id) as ws:
        driver = Driver(ws)
        first = driver.recv()
        assert first["version"] == state["version"] + 1 and first["legal"] is None
        assert first["view"]["turn"] == 1 and card not in first["view"]["hand"]
        later = driver.until_decision()
        assert later["view"]["hand_number"] == 1
        assert set(later["view"]["hand"]) == set(state["view"]["hand"]) - {card}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(url: str, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "spades.cli.main", "serve", "--port", str(port), "--db", url,
         "--pace", "0", "--workers", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ},
        start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out = process.stdout.read().decode() if process.stdout else ""
            raise AssertionError(f"spades serve exited: {out}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("spades serve did not start")


def test_a_server_killed_with_sigkill_mid_hand_resumes_the_same_hand(tmp_path: Path) -> None:

    url = db_url(tmp_path)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(url, port)
    try:
        assert server.stdout is not None
        assert f"open http://127.0.0.1:{port}/" in server.stdout.readline().decode()
        created = httpx.post(f"{base}/api/games", headers=HEADERS,
                             json={"preset": "house", "level": "random"})
        assert created.status_code == 201
        game_id = created.json()["id"]
        with live_socket(port, game_id) as ws:
            driver = Driver(SyncSocket(ws))
            last = into_the_hand(driver, plays=4)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
        deck_before = stored(tmp_path, game_id).decks
        server = start_server(url, port)
        with live_socket(port, game_id) as ws:
            driver = Driver(SyncSocket(ws))
            resumed = driver.recv()
            same_table(resumed, last)
            driver.act(driver.choose(resumed))
            after = driver.until_decision()
            assert after["step"] > last["step"]
        game = stored(tmp_path, game_id)
        assert game.decks == deck_before  # no new deal
        assert state_from_store(game).hand.number == 0
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


class SyncSocket:
    """The ``websockets`` client with the test client's receive_json/send_json."""

    def __init__(self, ws: Any):
        self.ws = ws

    def receive_json(self) -> Any:
        return json.loads(self.ws.recv(timeout=30))

    def send_json(self, message: Any) -> None:
        self.ws.send(json.dumps(message))


def test_a_game_saved_before_the_provable_shuffle_deals_on_as_it_would_have() -> None:
    """A stored game whose options carry no shuffle version was made with Python's random:
    its next hands are dealt by that shuffle still; a new game says spades-shuffle/1."""
    rules = PRESETS["partnership"]
    row, first = new_game_row("someone", rules, {}, "random")
    state = first.state  # the server's lobby gives the first deal as a Snapshot
    assert row.options["shuffle"] == 2
    old_row = dataclasses.replace(row, options={k: v for k, v in row.options.items()
                                                if k != "shuffle"})
    for game_row, legacy in ((row, False), (old_row, True)):
        stored = StoredGame(game=game_row, decks=(tuple(codes(state.hand.deck)),), actions=(),
                            looks=frozenset())
        resumed = state_from_store(stored)
        assert resumed.hand == state.hand
        rng = random.Random(0)
        while not resumed.results:
            resumed = apply(resumed, rng.choice(legal_actions(resumed)))
        cards = list(rules.deck)
        random.Random(f"{row.seed}/1").shuffle(cards)
        expected = tuple(cards) if legacy else shuffled(rules.deck, hand_seed(row.seed, 1))
        assert resumed.hand.deck == expected
