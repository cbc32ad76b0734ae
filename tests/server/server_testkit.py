"""Helpers for the server tests: an app on a temporary SQLite file, a websocket driver that
keeps every frame, and the check that no frame shows seat 0 a card it may not see."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

from spades.accounts import AccountLimits
from spades.engine import (
    GameState,
    apply,
    can_bid_blind_nil,
    hand_salt,
    hand_seed,
    new_game,
    parse_card,
    undo,
)
from spades.engine.cards import CODE_OF, NAME_OF
from spades.engine.record import parse_action, rules_from_json
from spades.server import Settings, create_app
from spades.server.hosts import LOCAL_HOSTS
from spades.server.quotas import GameLimits
from spades.store import Store, StoredGame

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

T = TypeVar("T")
PLAYER = "player-0000-aaaa"
OTHER = "player-1111-bbbb"
HEADERS = {"X-Spades-Player": PLAYER}
CODES = frozenset(CODE_OF)


def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


#: The names the test app answers to: Starlette's TestClient sends ``Host: testserver``.
TEST_HOSTS = (*LOCAL_HOSTS, "testserver")


#: Limits on new games (and sign-ups) no test meets unless it means to: a test sets its own.
ROOMY_GAMES = GameLimits(per_player="10000/minute", per_address="10000/minute",
                         unfinished=10_000)
ROOMY_ACCOUNTS = AccountLimits(signups_per_address="10000/minute",
                               signups_in_all="10000/minute")
#: The same for a real `spades serve` (LiveServer, the browser tests' server).
ROOMY_FLAGS = ("--games-limit", "10000/minute", "--games-limit-address", "10000/minute",
               "--unfinished-games", "10000", "--signup-limit", "10000/minute",
               "--signup-limit-all", "10000/minute")


def client(tmp_path: Path, peer: str = "testclient", **settings: Any) -> TestClient:
    """The app on a SQLite file in ``tmp_path``; requests come from the address ``peer``."""
    options: dict[str, Any] = {"db_url": db_url(tmp_path), "workers": 0, "pace": 0.0,
                               "seed": 5, "allowed_hosts": TEST_HOSTS,
                               "game_limits": ROOMY_GAMES, "account_limits": ROOMY_ACCOUNTS}
    options.update(settings)
    return TestClient(create_app(Settings(**options)), client=(peer, 50000))


def new_game_id(http: TestClient, preset: str = "house", level: str = "random",
                **house_rules: Any) -> str:
    """A new game for PLAYER; ``random`` computer players unless told."""
    body = {"preset": preset, "level": level, "house_rules": house_rules}
    response = http.post("/api/games", json=body, headers=HEADERS)
    assert response.status_code == 201, response.text
    game_id: str = response.json()["id"]
    return game_id


def ticket(http: TestClient, game_id: str, player: str = PLAYER) -> str:
    """A ticket to open ``game_id``'s websocket as ``player`` (POST /api/games/{id}/ticket)."""
    response = http.post(f"/api/games/{game_id}/ticket", headers={"X-Spades-Player": player})
    assert response.status_code == 200, response.text
    token: str = response.json()["ticket"]
    return token


@contextlib.contextmanager
def open_table(http: TestClient, game_id: str, player: str = PLAYER,
               **options: Any) -> Iterator[Any]:
    """The game's websocket for ``player``, as the page opens it: a ticket, then the socket
    with the ticket in its first message."""
    token = ticket(http, game_id, player)
    hello = options.pop("hello", {})  # more of the hello (``late_suggestion``, ``brief``)
    with http.websocket_connect(f"/ws/games/{game_id}", **options) as ws:
        ws.send_json({"type": "hello", "ticket": token, **hello})
        yield ws


class Driver:
    """Drives seat 0 through a websocket and keeps every frame it receives."""

    def __init__(self, ws: Any, rng: random.Random | None = None):
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.rng = rng or random.Random(7)
        #: the step of the state last acted from (its bid suggestion may follow in a state
        #: of the same step: not a new turn); None after a refusal (the turn is still ours)
        self.acted: int | None = None

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.frames.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def until_decision(self, limit: int = 5000) -> dict[str, Any]:
        """Read until seat 0 must act or the game is over; the last state."""
        for _ in range(limit):
            message = self.recv()
            if message["type"] == "error":
                self.acted = None
            if message["type"] == "state" and (message["view"]["over"] or (
                    message["legal"] and message["step"] != self.acted)):
                return message
        raise AssertionError("no decision came")

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        """A random legal action for seat 0, as the browser would send it."""
        legal = state["legal"]
        if legal["kind"] == "pass":
            return {"pass": self.rng.sample(legal["cards"], legal["count"])}
        choices = [a for a in legal["actions"] if "look" not in a]
        action = dict(self.rng.choice(choices))
        action.pop("label", None)
        return action

    def act(self, action: dict[str, Any], version: int | None = None) -> None:
        assert self.state is not None
        self.acted = self.state["step"]
        self.send({"type": "act", "action": action,
                   "version": self.state["version"] if version is None else version})


# ------------------------------------------------------------------ the truth, from the store

def stored(tmp_path: Path, game_id: str) -> StoredGame:
    store = Store(db_url(tmp_path))
    try:
        game = store.load_game(game_id)
    finally:
        store.close()
    assert game is not None
    return game


def cards_face_down(state: GameState, seat: int, looked: bool = False) -> bool:
    """The seat's cards are face down for blind nil (the engine knows whether it looked:
    a look is an action; ``looked`` says a look of an older save's ``looks`` table)."""
    return not looked and can_bid_blind_nil(state, seat)


def true_states(game: StoredGame) -> list[GameState]:
    """The state after each step (index = number of actions), replayed from the store."""
    rules = rules_from_json(game.game.rules)
    decks = [[parse_card(c) for c in deck] for deck in game.decks]
    state = new_game(rules, game.game.seed, decks=decks, first_dealer=game.game.first_dealer)
    states = [state]
    for row in game.actions:
        if "undo" in row.action:  # a seat took back its last card or bid (issue 41)
            state = undo(state, row.seat)
        else:
            _, action = parse_action(row.action, rules)
            state = apply(state, action)
        states.append(state)
    return states


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def hidden_cards(state: GameState, seat: int, looked: bool) -> set[int]:
    """Cards ``seat`` may not see in ``state``: other seats' cards it was not given or did
    not give, the undrawn stock, the kitty; its own cards while face down for blind nil."""
    hand = state.hand
    if state.over:
        return set()
    secret = 0
    for other, held in enumerate(hand.hands):
        if other != seat:
            secret |= held
    for giver, _receiver, cards in hand.passes:
        if giver == seat:
            for card in cards:
                secret &= ~(1 << card)
    out = {c for c in range(len(CODE_OF)) if secret >> c & 1}
    if state.rules.draw:
        undrawn = set(hand.deck[hand.stock:])
        if hand.phase.value == "draw" and hand.turn == seat and not cards_face_down(
                state, seat, looked):
            undrawn.discard(hand.deck[hand.stock])  # the card it is drawing
        out |= undrawn
    if hand.kitty is not None and not hand.hands[seat] >> hand.kitty & 1:
        out.add(hand.kitty)
    if cards_face_down(state, seat, looked):
        out |= {c for c in range(len(CODE_OF)) if hand.hands[seat] >> c & 1}
    return out


def shown(value: Any) -> tuple[set[int], str]:
    """The cards a JSON value names by code, and all its text joined (for names)."""
    codes = set()
    texts = []
    for text in strings(value):
        if text in CODES:
            codes.add(CODE_OF.index(text))
        else:
            texts.append(text)
    return codes, "\n".join(texts)


def assert_hides(value: Any, secret: set[int], where: str, kitty: bool = False) -> None:
    codes, text = shown(value)
    leaked = codes & secret
    assert not leaked, f"{where} shows {[CODE_OF[c] for c in sorted(leaked)]}"
    for card in secret:
        if kitty and CODE_OF[card] == "2C":
            continue  # the kitty's two of clubs is named in its public choice
        assert f"the {NAME_OF[card]}" not in text, f"{where} names the {NAME_OF[card]}"


def check_shuffle_news(frame: dict[str, Any], state: GameState, game: StoredGame) -> None:
    """A state's shuffle news: the commitments of the hand in play and the next, never the
    seed or salt of a hand not over; the reveal only of a finished hand, with its deck
    (public once the hand is over: the download holds it too)."""
    seed = game.game.seed
    finished = len(state.results)
    text = json.dumps(frame)
    for number in range(finished, finished + 3):
        assert hand_seed(seed, number) not in text, f"the seed of hand {number + 1} shows"
        assert hand_salt(seed, number) not in text, f"the salt of hand {number + 1} shows"
    news = frame["shuffle"]
    for entry in news["committed"]:
        assert set(entry) == {"hand", "commitment", "commitment_scheme", "entropy"}, entry
    wanted = [] if state.over else [state.hand.number + 1, state.hand.number + 2]
    assert [e["hand"] for e in news["committed"]] == wanted
    revealed = news["revealed"]
    if revealed is None:
        assert not finished
        return
    assert revealed["hand"] == finished, "the reveal is not the last finished hand"
    assert revealed["seed"] == hand_seed(seed, finished - 1)
    assert revealed["deck"] == list(game.decks[finished - 1])


def check_frames(frames: list[dict[str, Any]], game: StoredGame, seat: int = 0) -> int:
    """No frame shows ``seat`` a card it may not see; returns how many frames were checked.

    A state is checked against the true state at its step; an event against the state
    before its action, less what that action made public."""
    states = true_states(game)
    looks = game.looks
    checked = 0
    for frame in frames:
        if frame["type"] == "while-away":  # what was played for the seat: events alone
            codes, _ = shown({k: v for k, v in frame.items() if k != "events"})
            assert not codes, f"a while-away frame names cards outside its events: {frame}"
            check_events(frame["events"], states, game, seat)
            checked += 1
            continue
        if frame["type"] != "state":
            codes, _ = shown(frame)
            assert not codes, f"a {frame['type']} frame names cards: {frame}"
            continue
        step = frame["step"]
        state = states[step]
        looked = (state.hand.number, seat) in looks
        body = {k: v for k, v in frame.items() if k not in ("events", "shuffle")}
        check_shuffle_news(frame, state, game)
        kitty = state.rules.kitty
        assert_hides(body, hidden_cards(state, seat, looked), f"state at step {step}", kitty)
        check_events(frame["events"], states, game, seat)
        checked += 1
    return checked


def check_events(events: list[dict[str, Any]], states: list[GameState], game: StoredGame,
                 seat: int) -> None:
    """Each event shows ``seat`` no card but those it saw before the event's action and
    what that action made public."""
    looks = game.looks
    for event in events:
        at = event["step"]
        if event["kind"] in ("look",):
            continue
        before = states[at - 1]
        kitty = before.rules.kitty
        secret = hidden_cards(before, seat, (before.hand.number, seat) in looks)
        if event["kind"] == "undo":  # it tells only cards already played
            assert_hides(event, secret, f"event undo at step {at}", kitty)
            continue
        _, action = parse_action(game.actions[at - 1].action, before.rules)
        card = getattr(action, "card", None)
        if card is not None:
            secret.discard(card)
        if event["kind"] == "draw":
            hand = before.hand
            secret.discard(hand.deck[hand.stock + (1 if event["keep"] else 0)])
            if event["seat"] == seat:
                secret.discard(hand.deck[hand.stock + (0 if event["keep"] else 1)])
        if event["kind"] == "pass" and seat in (event["from"], event["to"]):
            secret -= set(getattr(action, "cards", ()))
        assert_hides(event, secret, f"event {event['kind']} at step {at}", kitty)


# ------------------------------------------------------------------ a real `spades serve`

class LiveServer:
    """`python -m spades.cli.main serve` on a free loopback port, in its own process group
    (so a test can signal the group, and nothing it started can hide), with its output in
    ``folder / "server.log"``. Use as a context manager: it is always stopped."""

    def __init__(self, folder: Path, *args: str, workers: int = 0):
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.folder = folder
        self.db_url = db_url(folder)
        self.log = folder / "server.log"
        self.command = [sys.executable, "-m", "spades.cli.main", "serve", "--port",
                        str(self.port), "--db", self.db_url, "--pace", "0",
                        "--workers", str(workers), *ROOMY_FLAGS, *args]
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(self.command, env=env, stdout=log,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"spades serve exited: {self.log.read_text()}")
            try:
                with urllib.request.urlopen(self.url + "/api/presets", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        self.__exit__()
        raise RuntimeError(f"spades serve did not answer: {self.log.read_text()}")

    def __exit__(self, *_: object) -> None:
        """Stop the server and anything left in its process group."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def group(self) -> list[int]:
        """The processes still in the server's process group (the server's included)."""
        out = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    if int(fields[2]) == self.pid and fields[0] != "Z":
                        out.append(int(entry.name))
        return out

    def rss(self) -> int:
        """The server's resident memory, in bytes."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise AssertionError("no VmRSS")

    def new_game(self, player: str = PLAYER) -> str:
        request = urllib.request.Request(
            self.url + "/api/games", data=b'{"level": "random"}', method="POST",
            headers={"X-Spades-Player": player, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            game_id: str = json.loads(response.read())["id"]
        return game_id


def live_ticket(base: str, game_id: str, player: str = PLAYER) -> str:
    """A ticket from a real server at ``base`` (http://host:port)."""
    request = urllib.request.Request(f"{base}/api/games/{game_id}/ticket", method="POST",
                                     data=b"", headers={"X-Spades-Player": player})
    with urllib.request.urlopen(request, timeout=30) as response:
        token: str = json.loads(response.read())["ticket"]
    return token


@contextlib.contextmanager
def live_socket(port: int, game_id: str, player: str = PLAYER,
                **options: Any) -> Iterator[Any]:
    """The game's websocket on a real server (the ``websockets`` client), hello sent."""
    from websockets.sync.client import connect

    token = live_ticket(f"http://127.0.0.1:{port}", game_id, player)
    with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}", **options) as ws:
        ws.send(json.dumps({"type": "hello", "ticket": token}))
        yield ws


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: a browser test before this one in the same
    worker may have left its event loop running in this thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
