"""Issue 38, item 3, the sign-in flows: after a remote "Sign out everywhere" the table shows
plainly that it is signed out (no gold-edged cards that do nothing) and its "Sign in" opens
"Sign in" even where the window last showed "Create an account"; signing in on a new device
opens the game in play there; a password reset says that the password is changed and that
this device is signed in."""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

import pytest
from tablekit import ServerProcess, Table, new_page, serious_violations

pytestmark = pytest.mark.browser

PASSWORD = "felt-green-table-42"


def account(page: Any) -> Any:
    page.click("#btn-account")
    dialog = page.locator("#dlg-account")
    dialog.locator("h3").first.wait_for()
    return dialog


def sign_in(page: Any, address: str, create: bool = False, password: str = PASSWORD) -> Any:
    dialog = account(page)
    if create:
        dialog.get_by_role("button", name="Create an account").click()
    dialog.get_by_label("Email").fill(address)
    dialog.get_by_label("Password").fill(password)
    dialog.get_by_role("button", name="Create account" if create else "Sign in").click()
    dialog.get_by_role("heading", name=f"Signed in as {address}").wait_for()
    return dialog


def fresh_table(page: Any, server: ServerProcess) -> Table:
    table = Table(page, server.url)
    table.open()
    page.wait_for_selector("#new-preset option", state="attached")
    return table


def play_to_my_card(table: Table) -> None:
    for _ in range(40):
        if table.wait_decision() == "play":
            return
        table.act_with_mouse()
    raise AssertionError("no card to play came")


def test_signed_out_elsewhere_the_table_is_plainly_signed_out(
        browser: Any, server: ServerProcess) -> None:
    address = f"player-{secrets.token_hex(4)}@example.org"
    one, page_a = new_page(browser)
    two, page_b = new_page(browser)
    try:
        table = fresh_table(page_a, server)
        # the account was made here: the window last showed "Create an account"
        sign_in(page_a, address, create=True).get_by_role("button", name="Close").click()
        table.start(level="easy")
        play_to_my_card(table)
        assert page_a.locator("#hand .card-btn.playable").count() > 0

        fresh_table(page_b, server)
        dialog = sign_in(page_b, address)
        dialog.get_by_role("button", name="Sign out everywhere").click()
        dialog.get_by_role("heading", name="Sign in", exact=True).wait_for()

        note = page_a.locator("#signed-out")
        note.wait_for()
        page_a.wait_for_function("() => !document.querySelector('#hand .card-btn.playable')")
        assert page_a.locator("#hand .card-btn").count() > 0  # the hand is still shown
        assert page_a.locator("#actions button").count() == 0
        assert "signed out" in page_a.locator("#prompt").inner_text().lower()
        assert page_a.locator("#screen-table").get_attribute("data-decision") == ""
        # a click on a card sends nothing and changes nothing
        page_a.locator("#hand .card-btn").first.click(force=True)
        assert page_a.locator("#hand .card-btn.lifted").count() == 0
        assert serious_violations(page_a) == [], "signed out"

        note.get_by_role("button", name="Sign in").click()
        window = page_a.locator("#dlg-account")
        window.get_by_role("heading", name="Sign in", exact=True).wait_for()
        assert window.get_by_role("heading", name="Create an account").count() == 0
        window.get_by_label("Email").fill(address)
        window.get_by_label("Password").fill(PASSWORD)
        window.get_by_role("button", name="Sign in").click()
        window.get_by_role("heading", name=f"Signed in as {address}").wait_for()
        window.get_by_role("button", name="Close").click()
        # signed in again: the table can be played again
        page_a.wait_for_selector("#hand .card-btn.playable")
        assert page_a.locator("#signed-out").is_hidden()
        assert list(page_a.errors) == [] and list(page_b.errors) == []
    finally:
        one.close()
        two.close()


def test_signing_in_on_a_new_device_opens_the_game_in_play(
        browser: Any, server: ServerProcess) -> None:
    address = f"player-{secrets.token_hex(4)}@example.org"
    one, page_a = new_page(browser)
    two, page_b = new_page(browser)
    try:
        table = fresh_table(page_a, server)
        sign_in(page_a, address, create=True).get_by_role("button", name="Close").click()
        table.start(level="easy")
        play_to_my_card(table)
        left = table.synced()

        other = fresh_table(page_b, server)
        assert page_b.locator("#screen-new").is_visible()  # a new device: the new-game screen
        sign_in(page_b, address).get_by_role("button", name="Close").click()
        page_b.wait_for_selector("#screen-table:not([hidden])")
        other.wait_decision()
        there = other.synced()
        assert there["game"]["id"] == left["game"]["id"]
        assert there["view"]["hand"] == left["view"]["hand"]
        assert list(page_a.errors) == [] and list(page_b.errors) == []
    finally:
        one.close()
        two.close()


def test_a_password_reset_says_it_is_done_and_signs_in(browser: Any,
                                                      server: ServerProcess) -> None:
    address = f"player-{secrets.token_hex(4)}@example.org"
    context, page = new_page(browser)
    try:
        fresh_table(page, server)
        dialog = sign_in(page, address, create=True)
        dialog.get_by_role("button", name="Sign out", exact=True).click()
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
        dialog.get_by_label("New password", exact=True).fill("a-new-felt-table-77")
        dialog.get_by_role("button", name="Set the password").click()
        dialog.get_by_role("heading", name=f"Signed in as {address}").wait_for()
        said = dialog.get_by_role("status").filter(has_text="password")
        assert said.inner_text() == "Your password is changed; you are signed in."
        assert serious_violations(page) == []
        assert not page.errors, f"the page raised: {page.errors}"
    finally:
        context.close()
