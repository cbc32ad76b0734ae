"""The review at the table keeps nobody waiting (issue 38 item 2): its first tricks come in
``review-progress`` messages while the rest is worked out, and a review whose socket closed
(nobody else waiting) stops its work within a second or two, and so does one asked for over
HTTP whose client has gone."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest
from server_testkit import Driver, client, new_game_id, open_table

from spades.server.review import ClientGone, while_connected
from spades.session import reviewing

pytestmark = pytest.mark.timeout(180)


def finish_first_hand(driver: Driver) -> None:
    state = driver.until_decision()
    while state["view"]["hand_number"] == 1:
        driver.act(driver.choose(state))
        state = driver.until_decision()


def until(driver: Driver, kind: str) -> list[dict[str, Any]]:
    frames = []
    for _ in range(2000):
        frames.append(driver.recv())
        if frames[-1]["type"] == kind:
            return frames
    raise AssertionError(f"no {kind} came")


def test_the_first_tricks_come_before_the_whole_review(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviewing, "PROGRESS_EVERY", 0.0)  # every step told (inline)
    with client(tmp_path) as http:
        game_id = new_game_id(http, "partnership")
        with open_table(http, game_id) as ws:
            driver = Driver(ws, random.Random(4))
            finish_first_hand(driver)
            driver.send({"type": "review", "hand": 1})
            frames = until(driver, "review")
    final = frames[-1]["review"]
    partial = [f["review"] for f in frames if f["type"] == "review-progress" and "review" in f]
    assert partial, "no trick was shown before the whole review"
    assert partial[0]["partial"] is True and final["partial"] is False
    sizes = [len(p["plays"]) for p in partial]
    assert sizes == sorted(sizes) and sizes[0] < len(final["plays"])
    for p in partial:
        assert p["plays"] == final["plays"][:len(p["plays"])]
        assert [s["seats"] for s in p["sides"]] == [s["seats"] for s in final["sides"]]


def test_a_review_whose_socket_closed_stops(tmp_path: Path) -> None:
    with client(tmp_path, workers=1) as http:
        lobby = http.app.state.lobby  # type: ignore[attr-defined]
        game_id = new_game_id(http, "three-player-kitty")
        with open_table(http, game_id) as ws:
            driver = Driver(ws, random.Random(2))
            finish_first_hand(driver)
            driver.send({"type": "review", "hand": 1})
            until(driver, "review-progress")  # its process is working
        closed = time.monotonic()
        lane = lobby.thinker.reviews
        while (lane.busy or lobby.reviews.running) and time.monotonic() - closed < 5:
            time.sleep(0.05)
        took = time.monotonic() - closed
    assert took < 2.0, f"the review went on {took:.1f} s after its socket closed"
    assert lobby.reviews.computed == 1 and not lobby.reviews.kept


class _Gone:
    """An HTTP request whose client has hung up."""

    async def is_disconnected(self) -> bool:
        return True


def test_a_review_asked_over_http_stops_waiting_when_its_client_has_gone() -> None:
    async def go() -> tuple[bool, float]:
        stopped = asyncio.Event()

        async def review() -> dict[str, Any]:
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                stopped.set()  # Reviews.review: nobody waiting, the work is cancelled
                raise
            return {}

        start = time.monotonic()
        with pytest.raises(ClientGone):
            await while_connected(_Gone(), review())  # type: ignore[arg-type]
        await asyncio.sleep(0)
        return stopped.is_set(), time.monotonic() - start

    stopped, took = asyncio.run(go())
    assert stopped and took < 2.0
