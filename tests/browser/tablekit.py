"""Helpers for the browser tests: the server process, and a page wrapper that keeps every
websocket frame and API body and knows how to wait for the table."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from spades.server.connections import unbrief

ROOT = Path(__file__).resolve().parents[2]
#: Limits no browser test meets (one server serves the whole session from 127.0.0.1); a
#: test of a limit starts its own server (as tests/server/server_testkit.py's ROOMY_FLAGS).
ROOMY_FLAGS = ("--games-limit", "10000/minute", "--games-limit-address", "10000/minute",
               "--unfinished-games", "10000", "--signup-limit", "10000/minute",
               "--signup-limit-all", "10000/minute")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """`python -m spades.cli.main serve` on a free port with a SQLite file in ``folder``
    (named games.db, as tests/server/server_testkit.py expects); computer players move
    ``pace`` seconds apart (0: at once); ``args``: more options of `spades serve`."""

    def __init__(self, folder: Path, pace: float = 0.0, args: tuple[str, ...] = ()):
        self.folder = folder
        self.pace = pace
        self.args = args
        self.db_path = folder / "games.db"
        self.db_url = f"sqlite:///{self.db_path}"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = folder / "server.log"

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "spades.cli.main", "serve", "--port", str(self.port),
                 "--db", self.db_url, "--pace", str(self.pace), *ROOMY_FLAGS,
                 *self.args],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"spades serve exited: {self.log.read_text()}")
            try:
                with urllib.request.urlopen(self.url + "api/presets", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"spades serve did not answer: {self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, as when the machine loses power."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


class Table:
    """A page at the table, with every websocket frame and API body it received."""

    def __init__(self, page: Any, url: str):
        self.page = page
        self.url = url
        self.frames: list[dict[str, Any]] = []
        self.bodies: list[tuple[str, str]] = []
        page.on("websocket", self._socket)
        page.on("response", self._response)

    def _socket(self, ws: Any) -> None:
        last: list[dict[str, Any]] = []  # this socket's last state

        def received(payload: Any) -> None:
            text = payload.decode() if isinstance(payload, bytes) else payload
            frame = json.loads(text)
            if frame.get("type") == "state":  # brief, as the page asks: filled as it does
                last[:] = [unbrief(frame, last[0] if last else None)]
            self.frames.append(frame)

        ws.on("framereceived", received)

    def _response(self, response: Any) -> None:
        if "/api/" not in response.url:
            return
        with contextlib.suppress(Exception):  # a download the page did not read
            self.bodies.append((response.url, response.text()))

    # ------------------------------------------------------------------ reading

    @property
    def state(self) -> dict[str, Any]:
        states = [f for f in self.frames if f["type"] == "state"]
        assert states, "no state has arrived"
        return states[-1]

    @property
    def shown_version(self) -> int:
        return int(self.page.locator("#screen-table").get_attribute("data-version") or -1)

    def decision(self) -> str:
        return self.page.locator("#screen-table").get_attribute("data-decision") or ""

    def dialog_open(self, name: str) -> bool:
        return bool(self.page.evaluate(f"document.getElementById('{name}').open"))

    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "error"]

    # ------------------------------------------------------------------ waiting

    def wait_shown(self, above: int) -> None:
        """Until the page shows a state newer than version ``above``."""
        self.page.wait_for_function(
            "v => Number(document.getElementById('screen-table').dataset.version) > v", arg=above)

    def wait_frames(self, found: Any, what: str) -> None:
        """Until ``found(frames)`` holds (frames reach this side a moment after the page)."""
        for _ in range(250):
            if found(self.frames):
                return
            self.page.wait_for_timeout(20)
        raise AssertionError(f"no frame came: {what}")

    def synced(self) -> dict[str, Any]:
        """The state the page shows (frames reach this side a moment after the page)."""
        for _ in range(200):
            if self.frames and self.state["version"] == self.shown_version:
                return self.state
            self.page.wait_for_timeout(20)
        raise AssertionError("the page and the recorded frames disagree")

    def wait_decision(self, timeout: float = 20_000) -> str:
        """Until the page asks for a decision, a hand or the game ends; which one. A turn
        to bid at a table with hints waits for its suggestion too (it follows the turn)."""
        self.page.wait_for_function(
            "() => document.getElementById('screen-table').dataset.decision"
            " || document.getElementById('dlg-over').open", timeout=timeout)
        if self.dialog_open("dlg-over"):
            return "hand-over"
        kind = self.decision()
        if kind == "bid":
            self.page.wait_for_function(
                "() => document.getElementById('screen-table').dataset.hints === 'off'"
                " || document.getElementById('suggestion')"
                " || document.getElementById('screen-table').dataset.decision !== 'bid'",
                timeout=timeout)
            if self.page.locator("#suggestion").count():  # its frame reaches this side too
                self.wait_frames(lambda frames: self.state.get("suggestion") is not None,
                                 "the state with the bid suggestion")
            return self.decision()
        return kind

    # ------------------------------------------------------------------ acting

    def open(self) -> None:
        self.page.goto(self.url)

    def start(self, preset: str = "house", level: str = "easy", **house: Any) -> None:
        """Start a game from the new-game screen with the mouse."""
        page = self.page
        self.open()
        page.wait_for_selector("#new-preset option", state="attached")
        page.select_option("#new-preset", preset)
        page.check(f"input[name=level][value={level}]")
        for name, value in house.items():
            if name == "target_score":
                page.check(f"input[name=target_score][value='{value}']")
            elif value:
                page.check(f"input[name={name}]")
            else:
                page.uncheck(f"input[name={name}]")
        page.click("#new-start")
        page.wait_for_selector("#screen-table:not([hidden])")
        self.page.wait_for_function(
            "() => document.getElementById('screen-table').dataset.version !== undefined")

    def act_with_mouse(self) -> str:
        """Make the decision on the page with clicks: the suggested (or first) bid, the
        first playable card, the first two cards to pass, the first choice. Returns it."""
        return self.act(touch=False)

    def act(self, touch: bool = False, next_hand: bool = True) -> str:
        """The decision made with clicks, or with taps (``touch``: a card is tapped twice,
        the first tap lifts it). Returns which decision it was ("over" at the game's end).
        With ``next_hand`` False, a hand's end found instead is left open ("hand-over")."""
        page = self.page

        def press(locator: Any) -> None:
            if touch:
                locator.tap()
            else:
                locator.click()

        kind = self.wait_decision()
        before = self.shown_version
        if kind == "hand-over":
            if page.locator("#over-title").inner_text() == "Game over":
                return "over"
            if not next_hand:
                return kind
            press(page.locator("#over-actions button", has_text="Next hand"))
            page.wait_for_function("() => !document.getElementById('dlg-over').open")
            return kind
        if kind == "bid":
            marked = page.locator("#bidpad .bid.suggested")
            press(marked if marked.count() else page.locator("#bidpad .bid").first)
        elif kind == "play":
            card = page.locator("#hand .card-btn.playable").first
            key = card.get_attribute("data-card")
            press(card)
            if touch and page.locator(f"#hand .card-btn.lifted[data-card='{key}']").count():
                press(card)
        elif kind == "pass":
            cards = page.locator("#hand .card-btn.playable")
            press(cards.nth(0))
            press(cards.nth(1))
            press(page.locator("#pass-send"))
        elif kind == "blind_nil":
            press(page.get_by_role("button", name="Look at my cards"))
        elif kind in ("draw", "exchange"):
            press(page.locator("#actions .choice-row button").first)
        else:
            return kind
        self.wait_shown(before)
        return kind


def play_until(table: Table, stop: Any, touch: bool = False) -> str:
    """Make decisions with clicks (or taps) until ``stop(kind)`` holds for the decision the
    page asks (not made); returns it. "hand-over" and "over" are decisions too."""
    for _ in range(2000):
        kind = table.wait_decision()
        if kind == "hand-over" and table.page.locator("#over-title").inner_text() == "Game over":
            kind = "over"
        if stop(kind):
            return kind
        if kind == "over":
            raise AssertionError("the game ended first")
        table.act(touch=touch)
    raise AssertionError("too many decisions")


# ---------------------------------------------------------------------- pages and checks

PHONE = {"width": 360, "height": 740}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def new_page(browser: Any, viewport: dict[str, int] | None = None, touch: bool = False,
             player: str | None = None, game: str | None = None,
             **options: Any) -> tuple[Any, Any]:
    """A fresh context (its own storage) and page; ``player``/``game`` preset the ids the
    page keeps in localStorage. Close the context when done."""
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800},
                                  has_touch=touch, is_mobile=touch, **options)
    context.set_default_timeout(15_000)
    script = ""
    if player:
        script += f"localStorage.setItem('spades.player', '{player}');"
    if game:
        script += f"localStorage.setItem('spades.game', '{game}');"
    if script:
        context.add_init_script(script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return context, page


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    """Two boxes ({x, y, width, height}) share more than a pixel."""
    ax, ay = a.get("x", a.get("left", 0)), a.get("y", a.get("top", 0))
    bx, by = b.get("x", b.get("left", 0)), b.get("y", b.get("top", 0))
    return (min(ax + a["width"], bx + b["width"]) - max(ax, bx) > 1
            and min(ay + a["height"], by + b["height"]) - max(ay, by) > 1)


def serious_violations(page: Any, ids: bool = False, everything: bool = False) -> list[Any]:
    """axe-core's serious and critical violations on the page as it is (``everything``: all
    impacts); as sentences, or with ``ids`` the raw violations."""
    import pytest

    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        pytest.skip("axe-playwright-python is not installed")
    results = Axe().run(page)
    found = [v for v in results.response["violations"]
             if everything or v.get("impact") in ("serious", "critical")]
    if ids:
        return found
    out = []
    for v in found:
        targets = [n["target"] for n in v["nodes"]][:3]
        out.append(f"{v['id']} ({v['impact']}): {v['help']} at {targets}")
    return out


# ---------------------------------------------------------------------- a game behind by 100

def seed_game_behind(db_url: str, player: str) -> str:
    """Store a house game with blind nil on, whose first hand is over with your side set
    (you and Juniper bid 7 each, 14 tricks cannot be taken): in hand 2 your side is behind
    by 100 or more, so blind nil is open to you (seed 004). Computer players play at
    random. Returns the game id."""
    import secrets

    from spades.engine import Bid, apply, legal_actions, new_game
    from spades.engine.record import action_to_json, rules_to_json
    from spades.seats import seat_names
    from spades.server.presets import rules_for
    from spades.server.wire import codes
    from spades.session import progress
    from spades.store import PLAYING, ActionRow, GameRow, SeatRow, Store
    from spades.store.store import now

    rules, chosen = rules_for("house", {"blind_nil": True})
    def first_hand(state: Any) -> Any:
        while not state.results:
            seat = state.turn
            assert seat is not None
            state = apply(state, Bid(7 if seat in (0, 2) else 1) if state.phase.value == "bid"
                          else legal_actions(state)[0])
        return state

    for _ in range(50):  # a deal where the first hand leaves your side 100 or more behind
        seed = secrets.token_hex(8)
        end = first_hand(new_game(rules, seed))
        if end.scores[1] - end.scores[0] >= 100:
            break
    state = new_game(rules, seed)
    names = seat_names(rules.players)
    game_id = "seeded-" + secrets.token_hex(4)
    moment = now()
    row = GameRow(
        id=game_id, owner=player, rules=rules_to_json(rules), seed=seed,
        first_dealer=state.first_dealer,
        options={"preset": "house", "label": "House rules", "level": "random",
                 "house_rules": chosen},
        seats=(SeatRow(seat=0, kind="human", name=names[0], player_id=player),
               *(SeatRow(seat=s, kind="computer", name=names[s], level="random")
                 for s in range(1, rules.players))),
        created=moment, updated=moment, status=PLAYING, version=0, result=progress(state))
    store = Store(db_url)
    try:
        store.create_game(row, codes(state.hand.deck))
        version = 0
        step = 0
        while not state.results:
            seat = state.turn
            assert seat is not None
            action = (Bid(7 if seat in (0, 2) else 1) if state.phase.value == "bid"
                      else legal_actions(state)[0])
            after = apply(state, action)
            step += 1
            dealt = after.hand.number != state.hand.number
            version = store.append_action(
                game_id, version, ActionRow(seq=step, hand=state.hand.number, seat=seat,
                                            action=action_to_json(seat, action)),
                deck=(after.hand.number, codes(after.hand.deck)) if dealt else None,
                result=progress(after) if dealt else None)
            state = after
    finally:
        store.close()
    assert state.scores[1] - state.scores[0] >= 100, state.scores
    return game_id


# ---------------------------------------------------------------------- a hand to bid nil

def seed_game_nil(db_url: str, player: str) -> tuple[str, list[str]]:
    """Store a house game whose first hand is yours to bid, with a hand the table suggests
    nil for and that still has some trick-taking strength (a guarded king, a short suit, a
    spade...: reasons for a number bid that a nil suggestion must not list). The computer
    players (random) bid 3 before you if they bid first. Returns the game id and the hand's
    trick-taking reasons, in the engine's words."""
    import random
    import secrets

    from spades.ai.advice import advise_bid, view_seed
    from spades.ai.bidding import normal_bid
    from spades.ai.hard import HardPlayer
    from spades.engine import Bid, apply, new_game, player_view
    from spades.engine.record import action_to_json, rules_to_json
    from spades.seats import seat_names
    from spades.server.presets import rules_for
    from spades.server.wire import codes
    from spades.session import progress
    from spades.session.thinking import HARD_TIME_LIMIT
    from spades.store import PLAYING, ActionRow, GameRow, SeatRow, Store
    from spades.store.store import now

    rules, chosen = rules_for("house", {})

    def to_you(state: Any) -> tuple[Any, list[tuple[int, Any]]]:
        bids = []
        while state.turn != 0:
            bids.append((state.turn, Bid(3)))
            state = apply(state, Bid(3))
        return state, bids

    for _ in range(5000):  # about one deal in twenty
        seed = secrets.token_hex(8)
        state, bids = to_you(new_game(rules, seed))
        view = player_view(state, 0)
        # the server's suggestion: Hard's bid seeded from the view (session/thinking.py)
        hard = HardPlayer(time_limit=HARD_TIME_LIMIT)
        if not advise_bid(view, random.Random(view_seed(view)), hard).bid.nil:
            continue
        strength = [item.reason for item in normal_bid(view).estimate.items
                    if item.value >= 0.15]
        if strength:
            break
    else:
        raise AssertionError("no deal to bid nil in 5000")
    start = new_game(rules, seed)
    names = seat_names(rules.players)
    game_id = "seeded-" + secrets.token_hex(4)
    moment = now()
    row = GameRow(
        id=game_id, owner=player, rules=rules_to_json(rules), seed=seed,
        first_dealer=start.first_dealer,
        options={"preset": "house", "label": "House rules", "level": "random",
                 "house_rules": chosen},
        seats=(SeatRow(seat=0, kind="human", name=names[0], player_id=player),
               *(SeatRow(seat=s, kind="computer", name=names[s], level="random")
                 for s in range(1, rules.players))),
        created=moment, updated=moment, status=PLAYING, version=0, result=progress(start))
    store = Store(db_url)
    try:
        store.create_game(row, codes(start.hand.deck))
        version = 0
        for step, (seat, bid) in enumerate(bids, 1):
            version = store.append_action(
                game_id, version, ActionRow(seq=step, hand=start.hand.number, seat=seat,
                                            action=action_to_json(seat, bid)))
    finally:
        store.close()
    return game_id, strength
