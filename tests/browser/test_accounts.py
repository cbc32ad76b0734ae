"""Accounts in the browser (issue 10): two browser contexts are two devices. Sign up on one
and play three tricks, sign in on the other: the game is listed and resumes at the same
trick. Games made on a device before signing in move into the account only when asked, and
the question comes once. The account window works by keyboard and is axe clean. No request
the page makes carries the player id in its URL."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest
from tablekit import ServerProcess, Table, new_page, serious_violations

pytestmark = pytest.mark.browser

PASSWORD = "felt-green-table-42"


def email() -> str:
    return f"player-{secrets.token_hex(4)}@example.org"


def open_account(page: Any) -> Any:
    page.click("#btn-account")
    dialog = page.locator("#dlg-account")
    dialog.locator("h3").first.wait_for()
    return dialog


def sign_in(page: Any, address: str, create: bool = False) -> Any:
    """Through the account window with the mouse; returns the window."""
    dialog = open_account(page)
    if create:
        dialog.get_by_role("button", name="Create an account").click()
    dialog.get_by_label("Email").fill(address)
    dialog.get_by_label("Password").fill(PASSWORD)
    dialog.get_by_role("button", name="Create account" if create else "Sign in").click()
    return dialog


def signed_in(dialog: Any, address: str) -> None:
    dialog.get_by_role("heading", name=f"Signed in as {address}").wait_for()


def signed_up_and_out(page: Any, server: ServerProcess, address: str) -> tuple[Table, Any]:
    """Open the table, create an account for ``address`` and sign out again: the table and
    the account window, left open."""
    table = Table(page, server.url)
    table.open()
    page.wait_for_selector("#new-preset option", state="attached")
    dialog = sign_in(page, address, create=True)
    signed_in(dialog, address)
    dialog.get_by_role("button", name="Sign out", exact=True).click()
    return table, dialog


def tricks_played(table: Table) -> int:
    return int(table.synced()["view"]["tricks_played"])


def play_tricks(table: Table, tricks: int) -> None:
    """Play with the mouse until ``tricks`` tricks of the first hand are over and it is
    this seat's turn again."""
    for _ in range(200):
        if table.wait_decision() == "play" and tricks_played(table) >= tricks:
            return
        table.act_with_mouse()
    raise AssertionError("the tricks were not played")


def test_two_devices_one_account_resume_at_the_same_trick(browser: Any,
                                                         server: ServerProcess) -> None:
    address = email()
    one, page_one = new_page(browser)
    two, page_two = new_page(browser)
    try:
        # device one: an account first, then a game
        table_one = Table(page_one, server.url)
        table_one.open()
        page_one.wait_for_selector("#new-preset option", state="attached")
        dialog = sign_in(page_one, address, create=True)
        signed_in(dialog, address)
        dialog.get_by_role("button", name="Close").click()
        table_one.start(level="easy")
        play_tricks(table_one, 3)
        left = table_one.synced()
        game_id = left["game"]["id"]
        assert left["view"]["tricks_played"] == 3

        # device two: signs in; the game in play opens there (issue 38 item 3), and its list
        # says where the games are saved
        table_two = Table(page_two, server.url)
        table_two.open()
        page_two.wait_for_selector("#new-preset option", state="attached")
        dialog = sign_in(page_two, address)
        signed_in(dialog, address)
        assert not dialog.get_by_text("Move the").count()  # nothing to move: no games here
        dialog.get_by_role("button", name="Close").click()
        page_two.wait_for_selector("#screen-table:not([hidden])")
        page_two.click("#btn-games")
        page_two.get_by_text("(open now)").wait_for()
        assert page_two.locator("#games-hint").inner_text().startswith(
            f"Saved in your account ({address})")
        page_two.click("#games-back")
        page_two.wait_for_function(
            "v => Number(document.getElementById('screen-table').dataset.version) === v",
            arg=left["version"])
        there = table_two.synced()
        assert there["game"]["id"] == game_id
        assert there["view"]["tricks_played"] == 3
        assert there["view"]["hand"] == left["view"]["hand"]
        assert there["view"]["trick"] == left["view"]["trick"]
        # play on from device two; device one sees it at once
        assert table_two.act_with_mouse() == "play"
        played = table_two.synced()["version"]
        table_one.wait_shown(left["version"])
        assert table_one.synced()["version"] >= played
        assert one_page_errors(page_one) == [] and one_page_errors(page_two) == []
    finally:
        one.close()
        two.close()


def one_page_errors(page: Any) -> list[str]:
    return list(page.errors)


def test_games_on_this_device_move_into_the_account_when_asked_once(
        browser: Any, server: ServerProcess) -> None:
    address = email()
    # the account is made on another device, with no games
    other, other_page = new_page(browser)
    try:
        Table(other_page, server.url).open()
        signed_in(sign_in(other_page, address, create=True), address)
    finally:
        other.close()
    context, page = new_page(browser)
    try:
        table = Table(page, server.url)
        table.start(level="easy")  # an anonymous game on this device
        game_id = table.synced()["game"]["id"]
        dialog = sign_in(page, address)
        question = dialog.get_by_text("Move the game on this device into your account?")
        question.wait_for()
        assert dialog.get_by_role("button", name="Keep apart").is_visible()
        assert serious_violations(page) == [], "the move question"
        dialog.get_by_role("button", name="Move").click()
        signed_in(dialog, address)
        dialog.get_by_role("button", name="Close").click()
        # the game is the account's now, and it is still open here
        games = page.evaluate("fetch('/api/games').then(r => r.json())")["games"]
        assert [g["id"] for g in games] == [game_id]
        version = table.synced()["version"]
        assert table.act_with_mouse() in ("bid", "play")
        assert table.synced()["version"] > version
        # signed out and in again: not asked again
        dialog = open_account(page)
        dialog.get_by_role("button", name="Sign out", exact=True).click()
        dialog.get_by_role("heading", name="Sign in").wait_for()
        dialog.get_by_role("button", name="Close").click()
        dialog = sign_in(page, address)
        signed_in(dialog, address)
        assert not dialog.get_by_text("Move the").count()
    finally:
        context.close()


def test_games_kept_apart_stay_with_the_device(browser: Any, server: ServerProcess) -> None:
    address = email()
    context, page = new_page(browser)
    try:
        table, dialog = signed_up_and_out(page, server, address)
        dialog.get_by_role("heading", name="Sign in").wait_for()
        dialog.get_by_role("button", name="Close").click()
        table.start(level="easy")
        game_id = table.synced()["game"]["id"]
        dialog = sign_in(page, address)
        dialog.get_by_role("button", name="Keep apart").click()
        signed_in(dialog, address)
        dialog.get_by_role("button", name="Close").click()
        # the account does not have it, so the page shows the account's games (none)
        page.wait_for_selector("#screen-games:not([hidden])")
        games = page.evaluate("fetch('/api/games').then(r => r.json())")["games"]
        assert game_id not in [g["id"] for g in games]
        # signed out, the device has its game back
        dialog = open_account(page)
        dialog.get_by_role("button", name="Sign out", exact=True).click()
        dialog.get_by_role("heading", name="Sign in").wait_for()
        games = page.evaluate("fetch('/api/games').then(r => r.json())")["games"]
        assert [g["id"] for g in games] == [game_id]
        # and signing in again does not ask again: the answer was kept
        dialog.get_by_role("button", name="Close").click()
        dialog = sign_in(page, address)
        signed_in(dialog, address)
        assert not dialog.get_by_text("Move the").count()
    finally:
        context.close()


def test_the_account_window_by_keyboard_and_axe_clean(browser: Any,
                                                      server: ServerProcess) -> None:
    address = email()
    context, page = new_page(browser)
    try:
        table = Table(page, server.url)
        table.open()
        page.wait_for_selector("#new-preset option", state="attached")
        page.focus("#btn-account")
        page.keyboard.press("Enter")
        dialog = page.locator("#dlg-account")
        heading = dialog.get_by_role("heading", name="Sign in")
        heading.wait_for()
        assert page.evaluate("document.activeElement.textContent") == "Sign in"
        assert serious_violations(page) == [], "sign in"
        # Tab to "Create an account" and press it
        for _ in range(12):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.textContent") == "Create an account":
                break
        page.keyboard.press("Enter")
        dialog.get_by_role("heading", name="Create an account").wait_for()
        assert serious_violations(page) == [], "sign up"
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.type") == "email"
        page.keyboard.type(address)
        page.keyboard.press("Tab")
        page.keyboard.type("short")
        page.keyboard.press("Enter")
        alert = dialog.locator("[role=alert]").first
        alert.wait_for()
        page.wait_for_function(
            "() => document.querySelector('#dlg-account [role=alert]').textContent.length > 0")
        assert "10" in alert.inner_text()  # the server's reason: at least 10 characters
        assert page.evaluate("document.activeElement.type") == "password"  # to fix it
        page.keyboard.press("Control+A")
        page.keyboard.type(PASSWORD)
        page.keyboard.press("Enter")
        signed_in(dialog, address)
        assert serious_violations(page) == [], "signed in"
        dialog.locator(".devices li").first.wait_for()
        assert "this device" in dialog.locator(".devices").inner_text()
        assert dialog.get_by_role("link", name="Download my games (a zip of game records)"
                                  ).get_attribute("href") == "/api/account/games.zip"
        page.keyboard.press("Escape")
        assert not table.dialog_open("dlg-account")
        assert page.evaluate("document.activeElement.id") == "btn-account"
    finally:
        context.close()


def test_no_request_url_carries_the_player_id(browser: Any, server: ServerProcess) -> None:
    player = "device-" + secrets.token_hex(8)
    context, page = new_page(browser, player=player)
    urls: list[str] = []
    headers: list[str] = []
    context.on("request", lambda r: (urls.append(r.url), headers.append(str(r.headers))))
    page.on("websocket", lambda ws: urls.append(ws.url))
    try:
        table = Table(page, server.url)
        table.start(level="easy")
        table.act_with_mouse()
        page.reload()
        table.wait_decision()
        page.click("#btn-games")
        link = page.get_by_role("link", name="Download the record").first
        link.wait_for()
        with page.expect_download() as download:
            link.click()
        assert download.value.suggested_filename.startswith("spades-")
        urls.append(download.value.url)
        assert download.value.failure() is None
        record = json.loads(Path(download.value.path()).read_text())
        assert record["players"][0] == "You"  # the cookie said whose record it is
        page.click("#btn-stats")
        page.locator("#stats-body").wait_for()
        page.keyboard.press("Escape")
        open_account(page)
        page.keyboard.press("Escape")
        # the id the page was given is the one its games are seated with
        assert page.evaluate("localStorage.getItem('spades.player')") == player
        games = page.evaluate("fetch('/api/games').then(r => r.json())")["games"]
        assert len(games) == 1
    finally:
        context.close()
    assert any("/ws/games/" in u for u in urls) and any("/record" in u for u in urls)
    assert [u for u in urls if player in u] == []
    assert [h for h in headers if player in h] == []


def test_a_page_of_the_old_version_is_told_to_reload(page: Any, server: ServerProcess) -> None:
    """The page before tickets opened its socket with ?player=<id>: from a real browser
    page (its real Origin), the server answers with the reason to reload, which the old
    page shows as it shows any error's message."""
    table = Table(page, server.url)
    table.start(level="easy")
    game_id = table.synced()["game"]["id"]
    player = page.evaluate("localStorage.getItem('spades.player')")
    answer = page.evaluate("""([game, player]) => new Promise((resolve) => {
        const ws = new WebSocket(`ws://${location.host}/ws/games/${game}?player=${player}`);
        const got = [];
        ws.onmessage = (e) => got.push(JSON.parse(e.data));
        ws.onclose = (e) => resolve({ got, code: e.code, reason: e.reason });
    })""", [game_id, player])
    assert answer["code"] == 4426 and "reload" in answer["reason"]
    assert [m["code"] for m in answer["got"]] == ["reload"]
    assert "reload it to play on" in answer["got"][0]["message"]
    assert not any(m["type"] == "state" for m in answer["got"])


def test_a_forgotten_password_is_reset_by_the_link(browser: Any, server: ServerProcess) -> None:
    """Forgot your password: the link (in the server's log here, no --smtp) opens the
    account window to choose a new one; the new one signs in."""
    import re
    import time

    address = email()
    context, page = new_page(browser)
    try:
        _, dialog = signed_up_and_out(page, server, address)
        dialog.get_by_role("button", name="Forgot your password?").click()
        dialog.get_by_label("Email").fill(address)
        dialog.get_by_role("button", name="Send me a reset link").click()
        dialog.get_by_text("a link to choose a new password is on its way").wait_for()
        link = None
        for _ in range(100):
            found = re.findall(rf"reset link for {re.escape(address)}.*?(#reset=[\w-]+)",
                               server.log.read_text())
            if found:
                link = found[-1]
                break
            time.sleep(0.1)
        assert link, "no reset link in the server's log"
        page.goto(server.url + link)
        dialog = page.locator("#dlg-account")
        dialog.get_by_role("heading", name="Choose a new password").wait_for()
        assert "#reset" not in page.url  # the token leaves the address bar at once
        dialog.get_by_label("New password", exact=True).fill("a-new-felt-table-77")
        dialog.get_by_role("button", name="Set the password").click()
        signed_in(dialog, address)  # this device is signed in with the new password
        dialog.get_by_role("button", name="Sign out", exact=True).click()
        dialog.get_by_role("heading", name="Sign in").wait_for()
        dialog.get_by_label("Email").fill(address)
        dialog.get_by_label("Password").fill(PASSWORD)  # the old one no longer works
        tries: list[str] = []
        page.on("request", lambda r: tries.append(r.url) if "/signin" in r.url else None)
        dialog.get_by_role("button", name="Sign in").click()
        dialog.locator("[role=alert]").filter(has_text="password").wait_for()
        assert len(tries) == 1  # a refused password is not sent again (sign-in limits)
        dialog.get_by_label("Password").fill("a-new-felt-table-77")
        dialog.get_by_role("button", name="Sign in").click()
        signed_in(dialog, address)
    finally:
        context.close()
