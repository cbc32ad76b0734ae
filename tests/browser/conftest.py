"""Browser tests: the real `spades serve` in a subprocess, driven by headless Debian Chromium
through Playwright. They skip with a reason when Chromium or Playwright is missing."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from tablekit import ServerProcess

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1200, "height": 860}


def _chromium() -> str:
    path = shutil.which("chromium")
    if path is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("playwright is not installed (pip install playwright)")
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module: Playwright's sync API keeps an event loop running
    while it is open, which would break asyncio.run() in the next (non-browser) tests that
    the same worker runs."""
    executable = _chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the session (games are per player id, so tests do not meet)."""
    _chromium()  # skip with the reason when there is no browser
    srv = ServerProcess(tmp_path_factory.mktemp("server"))
    srv.start()
    yield srv
    srv.stop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed browser test shows the end of the server's log (what the server saw then:
    a timeout in the page is often a fault on its side)."""
    report = yield
    server = getattr(item, "funcargs", {}).get("server")
    if report.failed and call.when == "call" and isinstance(server, ServerProcess) and (
            server.log.exists()):
        tail = server.log.read_text(errors="replace")[-4000:]
        report.sections.append(("the end of the server's log", tail))
    return report


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"the page raised: {errors}"
