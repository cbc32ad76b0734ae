"""The installable app: a manifest, icons and a service worker served with their types; the
table opens from the device's cache and says plainly when the server cannot be reached; a
page older than the server is told to reload; what the table needs to open stays within
150 KB, the help loads when opened."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tablekit import ServerProcess, Table, new_page

pytestmark = pytest.mark.browser

PAGE_BUDGET = 150 * 1024
WORKER = "() => navigator.serviceWorker.controller !== null"


def get(url: str) -> tuple[str, dict[str, str], bytes]:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.status, dict(answer.headers.items()), answer.read()


@pytest.fixture()
def own_server(tmp_path: Path, browser: Any) -> Iterator[ServerProcess]:
    """A server of the test's own, which the test may stop."""
    srv = ServerProcess(tmp_path)
    srv.start()
    yield srv
    srv.stop()


def test_the_manifest_icons_and_worker_are_served_with_their_types(
        server: ServerProcess) -> None:
    status, headers, body = get(server.url + "manifest.webmanifest")
    assert status == 200 and headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["name"] == "Spades" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        status, headers, body = get(server.url + icon["src"])
        assert status == 200 and headers["content-type"].startswith(icon["type"]), icon
        assert len(body) > 100
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
    status, headers, body = get(server.url + "sw.js")
    assert headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript")
    status, headers, body = get(server.url + "api/version")
    version = json.loads(body)["version"]
    assert isinstance(version, str) and version
    assert "no-store" in headers.get("cache-control", "")
    page = get(server.url)[2].decode()
    assert 'rel="manifest"' in page


def test_the_table_is_installable(browser: Any, server: ServerProcess) -> None:
    context, page = new_page(browser)
    try:
        page.goto(server.url)
        page.wait_for_function(WORKER)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [], manifest["errors"]
        problems = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        # a test browser's context is incognito, where nothing installs: that one is ours
        assert [p for p in problems if p["errorId"] != "in-incognito"] == [], problems
        assert not page.errors, f"the page raised: {page.errors}"
    finally:
        context.close()


def test_the_table_opens_from_the_cache_and_says_the_server_is_away(
        browser: Any, own_server: ServerProcess) -> None:
    context, page = new_page(browser)
    try:
        table = Table(page, own_server.url)
        table.start(level="easy")
        table.wait_decision()
        page.wait_for_function(WORKER)
        own_server.stop()
        page.reload()
        # the page itself came from the device: the bar, the menu, the styles
        assert page.locator("#btn-settings").is_visible()
        assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") \
            == "rgb(19, 55, 38)"
        notice = page.locator("#app-notice")
        notice.wait_for(state="visible")
        assert "server cannot be reached" in notice.inner_text()
        # one banner says it (issue 38 item 5), not one more for the table's connection:
        # give the table's socket the time to fail and retry
        page.wait_for_timeout(2500)
        shown = page.eval_on_selector_all(
            "main .connection", "es => es.filter(e => e.getClientRects().length)"
            ".map(e => e.textContent)")
        assert len(shown) == 1, shown
        assert not page.errors, f"the page raised: {page.errors}"
    finally:
        context.close()


def test_a_page_older_than_the_server_is_told_to_reload(browser: Any,
                                                       server: ServerProcess) -> None:
    context, page = new_page(browser)
    try:
        table = Table(page, server.url)
        table.start(level="easy")
        table.wait_decision()
        page.wait_for_function(WORKER)
        old = page.evaluate("new URL(navigator.serviceWorker.controller.scriptURL)"
                            ".searchParams.get('v')")
        assert old == json.loads(get(server.url + "api/version")[2])["version"]
        # the server is upgraded (here: it says so) while the page runs the old files
        newer = json.dumps({"version": old + ".next"})
        page.route("**/api/version", lambda route: route.fulfill(
            status=200, content_type="application/json", body=newer))
        page.reload()
        notice = page.locator("#app-notice")
        notice.wait_for(state="visible")
        assert "new version" in notice.inner_text()
        notice.get_by_role("button", name="Reload").click()
        page.wait_for_function(
            "v => navigator.serviceWorker.controller && new URL(navigator.serviceWorker"
            ".controller.scriptURL).searchParams.get('v') === v", arg=old + ".next")
        page.wait_for_selector("#screen-table:not([hidden])")
        page.wait_for_timeout(300)
        assert not notice.is_visible()
        assert not page.errors, f"the page raised: {page.errors}"
    finally:
        context.close()


def test_the_table_opens_within_its_budget_and_help_loads_when_asked(
        page: Any, server: ServerProcess) -> None:
    loaded: dict[str, int] = {}

    def measured(response: Any) -> None:
        kind = response.headers.get("content-type", "")
        if any(k in kind for k in ("html", "javascript", "css")):
            loaded[response.url.removeprefix(server.url)] = len(response.body())

    page.on("response", measured)
    asked: list[str] = []  # every file asked for, also those the service worker answers
    page.on("request", lambda request: asked.append(request.url.removeprefix(server.url)))
    table = Table(page, server.url)
    table.start(level="easy")
    table.wait_decision()
    page.wait_for_timeout(300)
    opening = dict(loaded)
    total = sum(opening.values())
    print(f"the table opened with {total / 1024:.1f} KB of HTML, JS and CSS in "
          f"{len(opening)} files")
    assert total <= PAGE_BUDGET, opening
    assert "js/help.js" not in opening and "js/help.js" not in asked
    page.click("#btn-help")
    page.locator("#help-body h2").first.wait_for()
    assert "js/help.js" in asked
