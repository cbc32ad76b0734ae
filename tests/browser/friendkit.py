"""Helpers for the browser tests of tables with friends: a person (a browser context of their
own, so a player id of their own), making a table from the new-game window, joining it by its
link, playing at several pages at once, and the checks that no frame or body a page received
holds a card its socket had not seen."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from tablekit import ServerProcess, Table, new_page

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_testkit import assert_hides, check_frames, hidden_cards, true_states

from spades.engine.record import parse_action
from spades.store import Store, StoredGame

ALL_CARDS = set(range(54))


class Person:
    """Someone at their own browser: a context of their own (their player id), a page."""

    def __init__(self, browser: Any, server: ServerProcess, name: str, player: str,
                 viewport: dict[str, int] | None = None, touch: bool = False):
        self.browser = browser
        self.server = server
        self.name = name
        self.player = player
        self.viewport = viewport
        self.touch = touch
        self.context, self.page = new_page(browser, viewport, touch, player=player)
        self.table = Table(self.page, server.url)
        self.table.touch = touch  # type: ignore[attr-defined]
        self.tabs = [self.table]

    def tab(self) -> Table:
        """A second tab of this person (the same storage and cookie)."""
        page = self.context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        table = Table(page, self.server.url)
        self.tabs.append(table)
        return table

    def again(self) -> Table:
        """The same person in a new browser window (the context before was closed): the
        same player id, a new session."""
        self.context, self.page = new_page(self.browser, self.viewport, self.touch,
                                           player=self.player)
        old = self.table
        self.table = Table(self.page, self.server.url)
        self.table.frames = old.frames  # one record of what this person received
        self.table.bodies = old.bodies
        self.tabs.append(self.table)
        return self.table

    def errors(self) -> list[str]:
        return [e for t in self.tabs for e in getattr(t.page, "errors", [])]

    def close(self) -> None:
        self.context.close()


def make_table(host: Person, level: str = "easy", watching: bool = False,
               take_seats: bool = False, timer: int = 0, share_link: bool = False,
               **house: Any) -> str:
    """The host makes a table for friends from the new-game window; its invite link."""
    page = host.page
    host.table.open()
    page.wait_for_selector("#new-preset option", state="attached")
    page.select_option("#new-preset", "house")
    page.check(f"input[name=level][value={level}]")
    page.check("input[name=who][value=friends]")
    page.fill("#new-name", host.name)
    page.set_checked("#new-watching", watching)
    page.set_checked("#new-take-seats", take_seats)
    page.set_checked("#new-share-link", share_link)
    page.check(f"input[name=turn_timer][value='{timer}']")
    for name, value in house.items():
        if name == "target_score":
            page.check(f"input[name=target_score][value='{value}']")
        else:
            page.set_checked(f"input[name={name}]", bool(value))
    page.click("#new-start")
    page.wait_for_selector("#invite-code")
    return str(page.input_value("#invite-link"))


def join(person: Person, link: str, seat: int) -> None:
    """``person`` opens the invite link, writes their name and sits at ``seat``."""
    page = person.page
    page.goto(link)
    page.wait_for_selector(f"[data-key='sit-{seat}']")
    page.fill("#friends-name", person.name)
    page.click(f"[data-key='sit-{seat}']")
    page.wait_for_selector("#friends-leave")  # in the waiting room


def join_by_keyboard(person: Person, link: str, seat: int) -> None:
    """As ``join``, with the keyboard only: the name typed, Tab to the seat's button, Enter."""
    page = person.page
    page.goto(link)
    page.wait_for_selector(f"[data-key='sit-{seat}']")
    page.focus("#friends-name")
    page.keyboard.press("Control+A")
    page.keyboard.type(person.name)
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.key") == f"sit-{seat}":
            break
    else:
        raise AssertionError(f"Tab never reaches the button of seat {seat}")
    page.keyboard.press("Enter")
    page.wait_for_selector("#friends-leave")


def seated_names(person: Person) -> list[str]:
    return [str(t) for t in person.page.locator("#friend-seats li .who").all_inner_texts()]


def wait_seated(person: Person, name: str) -> None:
    person.page.wait_for_function(
        "name => [...document.querySelectorAll('#friend-seats .who')]"
        ".some(e => e.textContent.startsWith(name))", arg=name)


def at_table(table: Table) -> None:
    table.page.wait_for_selector("#screen-table:not([hidden])")
    table.page.wait_for_function(
        "() => document.getElementById('screen-table').dataset.version !== undefined")


def behind(tables: list[Table]) -> set[int]:
    """The pages not yet showing the last step of the game another page was sent (steps,
    not versions: entropy for a shuffle moves the version without a state), or not yet
    showing the last state they were sent: what such a page asks may be decided already
    (by another tab of the same person), so it waits for the news."""
    steps = [t.state["step"] for t in tables]
    latest = max(steps)
    return {i for i, t in enumerate(tables)
            if steps[i] < latest or t.shown_version < t.state["version"]}


def play_hand(tables: list[Table], limit: float = 180) -> None:
    """Every page makes its decisions as they come, with clicks, until each has seen the
    hand end (its end-of-hand window, left open), one decision at a time and never from a
    page behind the others (``behind``). The hand may end between a page's look for that
    window and its look for a decision (the first bid of the next hand then shows): the
    decision made finds the window instead, and must not close it with Next hand, or that
    page never counts as done and the others wait for it."""
    done: set[int] = set()
    deadline = time.monotonic() + limit
    while len(done) < len(tables):
        assert time.monotonic() < deadline, "the hand does not end"
        late = behind(tables)
        moved = False
        for i, table in enumerate(tables):
            if i in done:
                continue
            if table.dialog_open("dlg-over"):
                done.add(i)
                continue
            kind = "" if i in late else table.decision()
            if kind and kind != "over":
                try:
                    if table.act(touch=getattr(table, "touch", False),
                                 next_hand=False) != "hand-over":
                        table.acts = getattr(table, "acts", 0) + 1  # type: ignore[attr-defined]
                except Exception as e:
                    raise AssertionError(f"page {i} could not {kind}: {table.errors()[-3:]}, "
                                         f"last frames {[f['type'] for f in table.frames[-5:]]}"
                                         ) from e
                moved = True
                break
        if not moved:
            tables[0].page.wait_for_timeout(40)


def play_game(tables: list[Table], limit: float = 400) -> None:
    """As ``play_hand``, hand after hand (each page closes its end-of-hand window with Next
    hand) until every page shows the game over."""
    done: set[int] = set()
    deadline = time.monotonic() + limit
    while len(done) < len(tables):
        assert time.monotonic() < deadline, "the game does not end"
        moved = False
        for i, table in enumerate(tables):
            if i in done:
                continue
            if table.dialog_open("dlg-over"):
                if table.page.locator("#over-title").inner_text() == "Game over":
                    done.add(i)
                    continue
            elif not table.decision():
                continue
            table.act(touch=getattr(table, "touch", False))
            moved = True
        if not moved:
            tables[0].page.wait_for_timeout(40)


def load(server: ServerProcess, game_id: str) -> StoredGame:
    store = Store(server.db_url)
    try:
        game = store.load_game(game_id)
    finally:
        store.close()
    assert game is not None
    return game


def check_events(events: list[dict[str, Any]], game: StoredGame, seat: int | None,
                 where: str) -> None:
    """Events (as a while-away message lists them) show nothing ``seat`` (None: a
    spectator) had not seen before each one, less what its action made public."""
    states = true_states(game)
    for event in events:
        at = event["step"]
        before = states[at - 1]
        secret = held(before) if seat is None else hidden_cards(before, seat, True)
        _, action = parse_action(game.actions[at - 1].action, before.rules)
        card = getattr(action, "card", None)
        if card is not None:
            secret.discard(card)
        assert_hides(event, secret, f"{where}: event {event['kind']} at step {at}")


def held(state: Any) -> set[int]:
    """Every card in a hand (nobody may see them but their holder)."""
    out: set[int] = set()
    if state.over:
        return out
    for cards in state.hand.hands:
        out |= {c for c in range(54) if cards >> c & 1}
    return out


def check_seat(frames: list[dict[str, Any]], game: StoredGame, seat: int) -> int:
    """No frame a person at ``seat`` received shows a card that seat had not seen."""
    away = [f for f in frames if f["type"] == "while-away"]
    for frame in away:
        check_events(frame["events"], game, seat, "while-away")
    rest = [f for f in frames if f["type"] != "while-away"
            and (f["type"] != "state" or f["game"]["id"] == game.game.id)]
    return check_frames(rest, game, seat)


def check_spectator(frames: list[dict[str, Any]], game: StoredGame) -> int:
    """A spectator's frames hold no card of any hand in play, ever; no hand is sent."""
    states = true_states(game)
    checked = 0
    for frame in frames:
        if frame["type"] != "state":
            assert_hides(frame, ALL_CARDS, f"a {frame['type']} frame")
            continue
        assert frame["view"]["hand"] is None and frame["legal"] is None, "a spectator got a hand"
        assert frame["game"]["you"] is None
        state = states[frame["step"]]
        body = {k: v for k, v in frame.items() if k not in ("events", "shuffle")}
        assert_hides(body, held(state), f"spectator's state at step {frame['step']}")
        check_events(frame["events"], game, None, "spectator")
        checked += 1
    return checked


def check_bodies(bodies: list[tuple[str, str]]) -> int:
    """The table, invite, watch and game bodies name no card at all."""
    checked = 0
    for url, body in bodies:
        path = url.split("?")[0]
        if "/record" in path or not any(part in path for part in (
                "/api/tables", "/api/invites", "/api/watch", "/api/games")):
            continue
        assert_hides(json.loads(body), ALL_CARDS, path)
        checked += 1
    return checked
