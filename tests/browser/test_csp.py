"""The table plays under the server's Content-Security-Policy (no inline script or style,
nothing from elsewhere): a game with its dialogs, the statistics and the help page, with no
violation reported by the browser (securitypolicyviolation events, console) and axe clean."""

from __future__ import annotations

import urllib.request
from typing import Any

import pytest
from tablekit import ServerProcess, Table, play_until, serious_violations

from spades.server.headers import CONTENT_SECURITY_POLICY

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

LISTEN = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', e => window.__violations.push(
    `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}`));
"""


def violations(page: Any, console: list[str]) -> list[str]:
    found: list[str] = list(page.evaluate("window.__violations || []"))
    return found + [c for c in console if "Content Security Policy" in c or "CSP" in c]


def test_the_table_plays_under_the_policy_with_no_violation(
        browser: Any, server: ServerProcess) -> None:
    with urllib.request.urlopen(server.url, timeout=10) as response:
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    context.set_default_timeout(15_000)
    context.add_init_script(LISTEN)
    page = context.new_page()
    console: list[str] = []
    errors: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        table = Table(page, server.url)
        table.start("house", "easy")

        def two_tricks(kind: str) -> bool:
            return kind == "play" and table.state["view"]["tricks_played"] >= 2

        play_until(table, two_tricks)
        tricks = table.state["view"]["tricks_played"]
        assert tricks >= 2
        for button, dialog in (("#btn-last", "dlg-last"), ("#btn-sheet", "dlg-sheet"),
                               ("#btn-help", "dlg-help"), ("#btn-settings", "dlg-settings")):
            page.click(button)
            page.wait_for_function(f"() => document.getElementById('{dialog}').open")
            assert serious_violations(page) == [], dialog
            page.keyboard.press("Escape")
            page.wait_for_function(f"() => !document.getElementById('{dialog}').open")
        table.act_with_mouse()  # and play on
        page.click("#btn-stats")  # its own style sheet, an SVG chart
        page.wait_for_function("() => document.getElementById('dlg-stats')?.open")
        assert serious_violations(page) == []
        page.keyboard.press("Escape")
        page.goto(server.url + "help.html?preset=house")
        page.wait_for_selector("#help-body h1")
        assert serious_violations(page) == []
        assert violations(page, console) == []
        assert errors == []
    finally:
        context.close()


def test_an_inline_script_is_blocked_and_reported(browser: Any, server: ServerProcess) -> None:
    """The listener above hears a violation when there is one: the policy is in force."""
    context = browser.new_context()
    context.add_init_script(LISTEN)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    try:
        page.goto(server.url + "help.html")
        page.wait_for_selector("#help-body h1")
        page.evaluate("""() => {
            const s = document.createElement('script');
            s.textContent = 'window.__ran = true';
            document.body.append(s);
            const d = document.createElement('div');
            d.setAttribute('style', 'color: red');
            document.body.append(d);
        }""")
        page.wait_for_function("() => window.__violations.length >= 2")
        assert page.evaluate("window.__ran === undefined")
        found = violations(page, console)
        assert any(v.startswith("script-src") for v in found), found
        assert any(v.startswith("style-src") for v in found), found
    finally:
        context.close()
