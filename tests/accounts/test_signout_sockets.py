"""A game's socket lasts no longer than the sign-in its ticket was asked with
(docs/protocol.md, "When a sign-in ends"): signing out here, signing out everywhere on
another device, a password reset and deleting the account close it with code 4410 and a
reason a player reads; an intent sent on it after the sign-out's answer is not applied; a
ticket asked for before the sign-out opens nothing after it; nobody else's socket is touched."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import time
import warnings
from collections.abc import Iterator
from typing import Any

from accounts_testkit import PHONE, Device, server
from server_testkit import Driver

from spades.server.account_api import reset_id
from spades.server.identity import login_id, now
from spades.server.watchers import (
    ACCOUNT_DELETED,
    GAME_DELETED,
    GONE_CLOSE,
    SIGN_IN_EXPIRED,
    SIGNED_OUT_CLOSE,
    Watcher,
    Watchers,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

ANON = "browser-minted-0003"


def version_stored(http: TestClient, game_id: str) -> int | None:
    """The game's version in the store (None: no such game any more)."""
    stored = http.app.state.store.load_game(game_id)  # type: ignore[attr-defined]
    return None if stored is None else int(stored.game.version)


def settled(http: TestClient, game_id: str, before: int | None, sockets_left: int) -> int | None:
    """The stored version once the server is done with what a closed socket was sent: its
    handler has ended (no more than ``sockets_left`` sockets are open) or the game moved
    from ``before``. (The test client cancels a handler when its socket is left, so this
    is asked before leaving it.)"""
    watchers = http.app.state.watchers  # type: ignore[attr-defined]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        done = len(watchers) <= sockets_left
        version = version_stored(http, game_id)
        if done or version != before:
            return version
        time.sleep(0.02)
    raise AssertionError("the socket's handler did not end")


def closed_for(driver: Driver) -> tuple[dict[str, Any], int, str]:
    """Read up to the socket's close: its last message, the close code and the reason."""
    last: dict[str, Any] = {}
    try:
        for _ in range(1000):
            last = driver.recv()
    except WebSocketDisconnect as gone:
        return last, gone.code, gone.reason
    raise AssertionError("the socket was not closed")


def ready(driver: Driver) -> dict[str, Any]:
    """The state at seat 0's first decision, with its version stored."""
    state = driver.until_decision()
    assert not state["view"]["over"]
    return state


def two_devices(http: TestClient) -> tuple[Device, Device, str]:
    """An account signed in on a laptop (with a game) and a phone."""
    laptop, phone = Device(http), Device(http, PHONE)
    laptop.signup("ann@example.org")
    game = laptop.new_game()
    phone.signin("ann@example.org")
    return laptop, phone, game


def test_signing_out_everywhere_closes_the_other_devices_socket(db: tuple[str, str]) -> None:
    with server(*db) as http:
        laptop, phone, game = two_devices(http)
        with laptop.socket(game) as ws:
            driver = Driver(ws)
            state = ready(driver)
            before = version_stored(http, game)
            assert before == state["version"]
            assert phone.post("/api/account/signout-everywhere").status_code == 200
            # the stolen laptop tries to play on: too late, the answer was sent already
            driver.act(driver.choose(state))
            last, code, reason = closed_for(driver)
            assert settled(http, game, before, sockets_left=0) == before  # not applied
        assert code == SIGNED_OUT_CLOSE
        assert reason == "signed out on every device: sign in again to go on"
        assert last == {"type": "error", "code": "signed-out", "message": reason,
                        "version": None}
        assert [f for f in driver.frames if f["type"] == "state"][-1] == state


def test_signing_out_here_closes_this_devices_sockets_only(db: tuple[str, str]) -> None:
    with server(*db) as http:
        laptop, phone, game = two_devices(http)
        with phone.socket(game) as theirs:
            there = Driver(theirs)
            with laptop.socket(game) as mine:
                here = Driver(mine)
                state = ready(here)
                ready(there)
                before = version_stored(http, game)
                assert laptop.post("/api/account/signout").status_code == 200
                here.act(here.choose(state))
                _last, code, reason = closed_for(here)
                assert settled(http, game, before, sockets_left=1) == before  # not applied
            assert code == SIGNED_OUT_CLOSE and reason == "signed out: sign in again to go on"
            # the phone's sign-in goes on: it still plays
            there.act(there.choose(there.state or state))
            moved = there.recv()
            while moved["type"] != "state":
                moved = there.recv()
            assert moved["version"] > state["version"]
        stored = version_stored(http, game)
        assert stored is not None and stored >= moved["version"]


def test_a_ticket_from_before_the_sign_out_opens_nothing(db: tuple[str, str]) -> None:
    with server(*db) as http:
        laptop, phone, game = two_devices(http)
        answer = laptop.ticket(game)
        assert answer.status_code == 200
        assert phone.post("/api/account/signout-everywhere").status_code == 200
        headers = {"User-Agent": laptop.agent, "Origin": "http://testserver"}
        with http.websocket_connect(f"/ws/games/{game}", headers=headers) as ws:
            ws.send_json({"type": "hello", "ticket": answer.json()["ticket"]})
            last, code, reason = closed_for(Driver(ws))
        assert code == SIGNED_OUT_CLOSE and last["code"] == "signed-out"
        assert "sign in again" in reason
        assert laptop.ticket(game).status_code == 400  # and no new ticket either


def test_deleting_the_account_closes_every_socket_of_it(db: tuple[str, str]) -> None:
    with server(*db) as http:
        laptop, phone, game = two_devices(http)
        answer = phone.ticket(game)
        with laptop.socket(game) as one, phone.socket(game) as two:
            first, second = Driver(one), Driver(two)
            state = ready(first)
            ready(second)
            deleted = phone.post("/api/account/delete", {"password": "seven tricks and a nil"})
            assert deleted.status_code == 200, deleted.text
            first.act(first.choose(state))
            for driver in (first, second):
                last, code, reason = closed_for(driver)
                assert code == SIGNED_OUT_CLOSE, (code, reason)
                assert reason == "the account was deleted, with its games"
                assert last["code"] == "signed-out"
            assert settled(http, game, None, sockets_left=1) is None  # nothing came back
        headers = {"User-Agent": phone.agent, "Origin": "http://testserver"}
        with http.websocket_connect(f"/ws/games/{game}", headers=headers) as ws:
            ws.send_json({"type": "hello", "ticket": answer.json()["ticket"]})
            _last, code, _reason = closed_for(Driver(ws))
        assert code == SIGNED_OUT_CLOSE


def test_a_password_reset_closes_every_socket_of_the_account(db: tuple[str, str]) -> None:
    with server(*db) as http:
        laptop, _phone, game = two_devices(http)
        with laptop.socket(game) as ws:
            driver = Driver(ws)
            ready(driver)
            accounts = http.app.state.store.accounts  # type: ignore[attr-defined]
            account = accounts.by_email("ann@example.org")
            accounts.add_reset(reset_id("r" * 43), account.id, now() + dt.timedelta(hours=1))
            done = Device(http).post("/api/account/reset/confirm",
                                     {"token": "r" * 43, "password": "a brand new password 7"})
            assert done.status_code == 200, done.text
            _last, code, reason = closed_for(driver)
        assert code == SIGNED_OUT_CLOSE and reason.startswith("the password was changed")


def test_nobody_elses_socket_is_touched(db: tuple[str, str]) -> None:
    """An anonymous player (a cookie session, and a script's header) and another account
    play on while Ann signs out everywhere and deletes her account."""
    with server(*db) as http:
        laptop, phone, _game = two_devices(http)
        guest = Device(http)
        guest.start(ANON)
        guest_game = guest.new_game()
        bob = Device(http)
        bob.signup("bob@example.org")
        bob_game = bob.new_game()
        script = "script-player-0004"
        created = http.post("/api/games", json={"preset": "house", "level": "random"},
                            headers={"X-Spades-Player": script})
        assert created.status_code == 201, created.text
        script_game = created.json()["id"]
        token = http.post(f"/api/games/{script_game}/ticket",
                          headers={"X-Spades-Player": script}).json()["ticket"]
        with guest.socket(guest_game) as g, bob.socket(bob_game) as b, \
                http.websocket_connect(f"/ws/games/{script_game}",
                                       headers={"Origin": "http://testserver"}) as s:
            s.send_json({"type": "hello", "ticket": token})
            drivers = [Driver(g), Driver(b), Driver(s)]
            states = [ready(d) for d in drivers]
            assert phone.post("/api/account/signout-everywhere").status_code == 200
            laptop.signin("ann@example.org")
            assert laptop.post("/api/account/delete",
                               {"password": "seven tricks and a nil"}).status_code == 200
            for driver, state in zip(drivers, states, strict=True):
                driver.act(driver.choose(state))
                moved = driver.recv()
                while moved["type"] != "state":
                    assert moved["type"] != "error", moved
                    moved = driver.recv()
                assert moved["version"] > state["version"]
        for game_id, state in zip((guest_game, bob_game, script_game), states, strict=True):
            stored = version_stored(http, game_id)
            assert stored is not None and stored > state["version"]


def test_a_game_deleted_with_its_account_closes_anyones_socket_on_it() -> None:
    """The watchers' own rule: a socket of another login on a deleted game is told the
    game is gone (4404), the account's own are told they were signed out."""
    watchers = Watchers()
    own = watchers.add(Watcher("g1", "p1", "login-a", "acct"))
    other = watchers.add(Watcher("g1", "p2", "login-b", None))
    elsewhere = watchers.add(Watcher("g2", "p3", None, None))
    told: list[str] = []
    other.on_end = lambda why: told.append(why.reason)
    assert asyncio.run(watchers.end(ACCOUNT_DELETED, account="acct")) == 1
    assert asyncio.run(watchers.end(GAME_DELETED, games=["g1"])) == 1
    assert own.ended == ACCOUNT_DELETED and other.ended == GAME_DELETED
    assert other.ended.close == GONE_CLOSE and told == [GAME_DELETED.reason]
    assert elsewhere.ended is None
    assert asyncio.run(watchers.end(GAME_DELETED, games=["g1"])) == 0  # ended once


def expire_in(http: TestClient, device: Device, seconds: float) -> str:
    """Make the device's login expire in ``seconds``, as if last used now; its id."""
    assert device.token is not None
    login = login_id(device.token)
    when = now()
    http.app.state.store.accounts.touch(  # type: ignore[attr-defined]
        login, when, when + dt.timedelta(seconds=seconds))
    return login


@contextlib.contextmanager
def expiring_socket(http: TestClient, seconds: float) -> Iterator[tuple[Device, Driver]]:
    """A signed-in device whose login expires in ``seconds``, at its game's first decision
    on a socket opened after that expiry was set."""
    laptop = Device(http)
    laptop.signup("ann@example.org")
    game = laptop.new_game()
    expire_in(http, laptop, seconds)
    with laptop.socket(game) as ws:
        driver = Driver(ws)
        ready(driver)
        yield laptop, driver


def test_a_login_that_expires_closes_its_socket(db: tuple[str, str]) -> None:
    """A page left open is not a use of the login: when it expires, its socket ends as at a
    sign-out, with a reason that says so, and not before."""
    with server(*db) as http, expiring_socket(http, 2.0) as (_, driver):
        driver.send({"type": "ping"})  # still open before the expiry
        assert driver.recv() == {"type": "pong"}
        time.sleep(3.0)
        driver.send({"type": "ping"})  # closed by now: this is not answered
        frames: list[dict[str, Any]] = []
        try:
            for _ in range(50):
                frames.append(driver.recv())
                assert frames[-1] != {"type": "pong"}, "the socket outlived its login"
        except WebSocketDisconnect as gone:
            code, reason = gone.code, gone.reason
        assert code == SIGNED_OUT_CLOSE and reason == SIGN_IN_EXPIRED.reason
        assert frames[-1] == {"type": "error", "code": "signed-out", "message": reason,
                              "version": None}


def test_a_login_put_off_meanwhile_keeps_its_socket(db: tuple[str, str]) -> None:
    """Another page of the device used the login (over HTTP) before it expired: the expiry
    moved, and the open socket goes on."""
    with server(*db) as http, expiring_socket(http, 1.0) as (laptop, driver):
        expire_in(http, laptop, 3600.0)
        time.sleep(2.0)  # past the first expiry: the socket read the login again
        driver.send({"type": "ping"})
        frames = [driver.recv()]
        while frames[-1] != {"type": "pong"} and len(frames) < 50:
            frames.append(driver.recv())  # a closed socket raises here
        assert frames[-1] == {"type": "pong"}
        assert not [f for f in frames if f["type"] == "error"]
