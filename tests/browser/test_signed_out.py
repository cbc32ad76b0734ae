"""A device signed out from another one (issue 10): device A plays at its table, device B
signs out everywhere; A's table says so calmly (once, in its live region), stops
reconnecting and offers to sign in; signing in again brings the game back. axe stays clean."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from tablekit import ServerProcess, Table, new_page, serious_violations

pytestmark = pytest.mark.browser

PASSWORD = "felt-green-table-42"
SAID = "Signed out on every device: sign in again to go on."


def sign_in(page: Any, address: str, create: bool = False) -> Any:
    page.click("#btn-account")
    dialog = page.locator("#dlg-account")
    dialog.locator("h3").first.wait_for()
    if create:
        dialog.get_by_role("button", name="Create an account").click()
    dialog.get_by_label("Email").fill(address)
    dialog.get_by_label("Password").fill(PASSWORD)
    dialog.get_by_role("button", name="Create account" if create else "Sign in").click()
    dialog.get_by_role("heading", name=f"Signed in as {address}").wait_for()
    return dialog


def test_a_device_signed_out_everywhere_is_told_and_offered_to_sign_in(
        browser: Any, server: ServerProcess) -> None:
    address = f"player-{secrets.token_hex(4)}@example.org"
    one, page_a = new_page(browser)
    two, page_b = new_page(browser)
    sockets: list[Any] = []
    page_a.on("websocket", lambda ws: sockets.append(ws))
    try:
        table = Table(page_a, server.url)
        table.open()
        page_a.wait_for_selector("#new-preset option", state="attached")
        sign_in(page_a, address, create=True).get_by_role("button", name="Close").click()
        table.start(level="easy")
        table.wait_decision()
        game_id = table.synced()["game"]["id"]
        opened = len(sockets)

        Table(page_b, server.url).open()
        page_b.wait_for_selector("#new-preset option", state="attached")
        dialog = sign_in(page_b, address)
        dialog.get_by_role("button", name="Sign out everywhere").click()
        dialog.get_by_role("heading", name="Sign in").wait_for()

        # device A: told once, calmly, with a way to sign in; no reconnecting
        note = page_a.locator("#signed-out")
        note.wait_for()
        assert note.inner_text().startswith(SAID)
        assert page_a.locator("#live").inner_text().count(SAID) == 1
        assert page_a.locator("#connection").is_hidden()
        offer = note.get_by_role("button", name="Sign in")
        assert offer.is_visible()
        table.wait_frames(lambda frames: any(f.get("code") == "signed-out" for f in frames),
                          "the signed-out message")
        page_a.wait_for_timeout(3000)  # a looping page would have asked for a ticket again
        assert len(sockets) == opened
        assert not page_a.locator("#toast").is_visible()
        assert serious_violations(page_a) == [], "signed out"

        # the offer opens the Account window at "Sign in" (not the ended session)
        offer.click()
        account = page_a.locator("#dlg-account")
        account.get_by_role("heading", name="Sign in").wait_for()
        assert serious_violations(page_a) == [], "the account window"
        account.get_by_label("Email").fill(address)
        account.get_by_label("Password").fill(PASSWORD)
        account.get_by_role("button", name="Sign in").click()
        account.get_by_role("heading", name=f"Signed in as {address}").wait_for()
        account.get_by_role("button", name="Close").click()
        # signed in again: the game comes back at the same place, and the note goes
        page_a.locator("#screen-table").wait_for()
        table.wait_decision()
        assert table.synced()["game"]["id"] == game_id
        assert page_a.locator("#signed-out").is_hidden()
        assert list(page_a.errors) == [] and list(page_b.errors) == []
    finally:
        one.close()
        two.close()
