"""Statistics in the browser: after a finished short game, open them by keyboard; they load
only then (the table opens without them), agree with the game just played, have real tables
behind the charts, pass axe, and give focus back when closed."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from tablekit import ServerProcess, Table
from test_access import serious_violations


def js_fixed1(value: float) -> str:
    """What JavaScript's ``value.toFixed(1)`` shows: the float's exact value rounded half away
    from zero (Python's format rounds ties to even, so 18.25 would read 18.2 there, 18.3 here)."""
    return str(Decimal(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_statistics_after_a_finished_short_game(page: Any, server: ServerProcess) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    table = Table(page, server.url)
    table.start(preset="short", level="easy")
    for _ in range(400):
        if table.act_with_mouse() == "over":
            break
    else:
        raise AssertionError("the short game did not end")
    assert not [u for u in requested if "stats" in u], "statistics loaded before they opened"
    final = table.state["view"]
    you = table.state["game"]["you"]
    side = next(i for i, s in enumerate(table.state["game"]["sides"]) if you in s)
    won = final["winner"] == side

    page.keyboard.press("Escape")  # the game-over window
    page.wait_for_function("() => !document.getElementById('dlg-over').open")
    page.focus("#btn-stats")
    # the answer itself, not the page's copy of bodies, which is filled a moment later
    with page.expect_response(lambda answer: "/api/stats" in answer.url) as answer:
        page.keyboard.press("Enter")
    page.wait_for_selector("#dlg-stats[open] #stats-recent")
    assert [u for u in requested if u.endswith("/js/stats.js")]
    data = answer.value.json()
    overall = data["overall"]
    assert (overall["games"], overall["wins"], overall["in_play"]) == (1, int(won), 0)
    assert overall["hands"] == len(final["sheet"])
    lead = page.locator("#stats-body .stats-lead").inner_text()
    assert lead.startswith(f"1 finished game, {int(won)} won")
    # the recent games table: this game, its result and hands
    row = page.locator("#stats-recent tbody tr")
    assert row.count() == 1
    cells = row.first.locator("td").all_inner_texts()
    assert cells[1] == ("Won" if won else "Lost") and cells[2] == str(overall["hands"])
    assert row.first.locator("th").inner_text().startswith("Short game")
    # three charts, each an image with a name and a description a screen reader reads
    charts = page.locator("#stats-body figure svg[role=img]")
    assert charts.count() == 3
    for i in range(3):
        chart = charts.nth(i)
        for attr in ("aria-labelledby", "aria-describedby"):
            ref = chart.get_attribute(attr)
            assert ref and page.locator(f"#{ref}").inner_text().strip()
    assert page.locator("#stats-body svg rect.bar").count() >= 2
    described = page.locator(f"#{charts.first.get_attribute('aria-describedby')}").inner_text()
    assert js_fixed1(overall["points_per_hand"]) in described
    # the tables behind the charts: overall, by variant, by level, recent games
    captions = page.locator("#stats-body table caption").all_inner_texts()
    assert captions == ["All your games", "By variant", "By computer players' level",
                        "Your last games, newest first"]
    assert page.locator("#stats-body table").nth(2).locator("tbody th").inner_text() == "Easy"
    assert serious_violations(page) == [], "statistics"
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('dlg-stats').open")
    assert page.evaluate("document.activeElement.id") == "btn-stats"
