"""Tables with friends in the browser (issue 39), with a browser context per person (a player
id each): a table made from the new-game window, joined by its link, played by two people and
two computer players, then by four people with a second tab and a spectator; one person's
window closed mid-hand (the others see the countdown, the computer plays for them, they come
back by the link at their next decision); a removed person, a wrong code and a revoked one
all meet the same "no such table". Every frame and body each page received holds no card
its socket had not seen; axe finds nothing serious in each new view."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from friendkit import (
    Person,
    at_table,
    behind,
    check_bodies,
    check_seat,
    check_spectator,
    join,
    join_by_keyboard,
    load,
    make_table,
    play_game,
    play_hand,
    wait_seated,
)
from tablekit import PHONE, ServerProcess, serious_violations

pytestmark = pytest.mark.browser

#: The grace period of these tests' server (seconds): long enough to see it count down.
GRACE = 6


@pytest.fixture(scope="module")
def friends_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of its own: a short grace period, so a lost person's turn comes soon."""
    srv = ServerProcess(tmp_path_factory.mktemp("friends"), args=("--grace", str(GRACE)))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture()
def people(browser: Any, friends_server: ServerProcess) -> Iterator[list[Person]]:
    made: list[Person] = []

    def person(name: str, **kw: Any) -> Person:
        player = f"{name.lower()}-player-{len(made)}-{id(made):x}"
        p = Person(browser, friends_server, name, player, **kw)
        made.append(p)
        return p

    yield person  # type: ignore[misc]
    errors = [e for p in made for e in p.errors()]
    for p in made:
        p.context.close()
    assert not errors, f"a page raised: {errors}"


def test_two_friends_and_two_computers_play_a_hand(people: Any,
                                                   friends_server: ServerProcess) -> None:
    ann = people("Ann")
    bob = people("Bob", viewport=PHONE, touch=True)
    ann.page.goto(friends_server.url)
    ann.page.wait_for_selector("#new-preset option", state="attached")
    ann.page.check("input[name=who][value=friends]")
    ann.page.wait_for_selector("#new-friends #new-name")  # its options load when chosen
    assert serious_violations(ann.page) == [], "new-game window, friends chosen"
    link = make_table(ann, level="easy", target_score=250, timer=60)
    code = ann.page.inner_text("#invite-code").replace(" ", "")
    assert re.fullmatch(r"[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{9}", code), code
    assert link.endswith(f"/t/{code}")
    assert serious_violations(ann.page) == [], "waiting room (host)"
    # Bob opens the link on a phone: the rules, the seats, a name, a free seat
    bob.page.goto(link)
    bob.page.wait_for_selector("[data-key='sit-2']")
    assert "House rules" in bob.page.inner_text("#friends-rules")
    assert bob.page.evaluate("[innerWidth, document.documentElement.scrollWidth]") == [360, 360]
    assert serious_violations(bob.page) == [], "the invite link's page"
    bob.page.fill("#friends-name", "Bob")
    bob.page.locator("[data-key='sit-2']").tap()
    bob.page.wait_for_selector("#friends-leave")
    assert serious_violations(bob.page) == [], "waiting room (a friend, phone)"
    wait_seated(ann, "Bob")
    assert "Waiting for Ann" in bob.page.inner_text("#friends-body")
    # the host starts: both are at the table, Bob as Ann's partner
    ann.page.click("#friends-start")
    at_table(ann.table)
    at_table(bob.table)
    assert ann.table.state["game"]["you"] == 0 and bob.table.state["game"]["you"] == 2
    # Bob's phone shows the table at its width, the Say and Leave buttons in reach
    assert bob.page.evaluate("[innerWidth, document.documentElement.scrollWidth]") == [360, 360]
    for box in bob.page.eval_on_selector_all(
            "#btn-say, #btn-leave", "es => es.map(e => e.getBoundingClientRect().toJSON())"):
        assert box["right"] <= 360 and box["width"] >= 24 and box["height"] >= 24, box
    assert bob.table.state["game"]["players"][0] == "Ann"
    # the turn timer counts down for whoever decides first, on every page (a socket that
    # joins as the game starts hears the timer running right after its first state)
    for person in (ann, bob):
        person.table.wait_frames(lambda frames: any(
            f["type"] == "turn-timer" and f["seat"] is not None for f in frames),
            "the turn timer running")
        timers = [f for f in person.table.frames if f["type"] == "turn-timer"]
        mine = timers[-1]["seat"] == person.table.state["game"]["you"]
        pattern = "Your turn: \\d+ s left" if mine else "(Ann|Bob): \\d+ s left to play"
        person.page.wait_for_function(
            "p => new RegExp(p).test(document.getElementById('presence').textContent)",
            arg=pattern)
    play_hand([ann.table, bob.table])
    game = load(friends_server, ann.table.state["game"]["id"])
    assert check_seat(ann.table.frames, game, 0) > 10
    assert check_seat(bob.table.frames, game, 2) > 10
    assert check_bodies(ann.table.bodies + bob.table.bodies) >= 3


def test_four_friends_a_second_tab_a_spectator_and_a_lost_connection(
        people: Any, friends_server: ServerProcess) -> None:
    ann, bob, cat, dan = (people(n) for n in ("Ann", "Bob", "Cat", "Dan"))
    link = make_table(ann, level="easy", watching=True, take_seats=True, target_score=250)
    watch = ann.page.get_attribute("#watch-link", "href")
    assert watch and "/w/" in watch
    for person, seat in ((bob, 1), (cat, 2), (dan, 3)):
        (join_by_keyboard if person is cat else join)(person, link, seat)
        wait_seated(ann, person.name)
    # a spectator waits for the start too
    eve = people("Eve")
    eve.page.goto(watch)
    eve.page.wait_for_selector("#friend-seats")
    ann.page.click("#friends-start")
    for person in (ann, bob, cat, dan):
        at_table(person.table)
    at_table(eve.table)
    assert eve.page.locator("#hand .card-btn").count() == 0
    assert serious_violations(eve.page) == [], "the spectator's table"
    # Bob's second tab shows the same table and either tab may act
    bob2 = bob.tab()
    bob2.open()
    at_table(bob2)
    tables = [ann.table, bob.table, cat.table, dan.table]
    play_until_mid_hand([bob2, *tables])  # Bob's second tab first: it decides for him
    # both of Bob's tabs show the table as it is now
    version = bob.table.synced()["version"]
    bob2.page.wait_for_function(
        "v => Number(document.getElementById('screen-table').dataset.version) >= v", arg=version)
    # Dan's window closes mid-hand: the others see the countdown
    dan.close()
    ann.page.wait_for_function(
        "() => /Dan lost connection - \\d+ s/"
        ".test(document.getElementById('presence').textContent)")
    assert serious_violations(ann.page) == [], "the table with someone away"
    # the computer plays for Dan when his turn comes after the grace period
    game_id = ann.table.state["game"]["id"]
    play_hand_until([*tables[:3], bob2], lambda: any(
        e.get("played_for") == "Dan" for f in ann.table.frames if f["type"] == "state"
        for e in f["events"]))
    assert "Played for Dan" in " ".join(
        e["text"] for f in ann.table.frames if f["type"] == "state" for e in f["events"])
    # Dan opens the link again: his seat, from his next decision, told what was played
    back = dan.again()
    back.page.goto(link)
    at_table(back)
    assert back.state["game"]["you"] == 3
    play_hand([*tables[:3], back, bob2])
    assert any(f["type"] == "while-away" for f in back.frames)
    # he decided again himself at his seat (his page was asked, and his action is his)
    assert any(f["type"] == "state" and f["legal"] and f["game"]["you"] == 3 for f in back.frames)
    # the spectator sees the hand end, with its review offered as to a player
    eve.page.wait_for_function("() => document.getElementById('dlg-over').open")
    assert eve.page.locator("#over-actions button", has_text="Review").count() == 1
    assert serious_violations(eve.page) == [], "the spectator's end of the hand"
    game = load(friends_server, game_id)
    for person, seat in ((ann, 0), (bob, 1), (cat, 2)):
        assert check_seat(person.table.frames, game, seat) > 10
    assert check_seat(bob2.frames, game, 1) > 5
    assert getattr(bob2, "acts", 0) > 0, "Bob's second tab made none of his decisions"
    assert check_seat(back.frames, game, 3) > 5
    assert check_spectator(eve.table.frames, game) > 10
    for person in (ann, bob, cat, dan, eve):
        assert check_bodies([b for t in person.tabs for b in t.bodies]) >= 0


def play_until_mid_hand(tables: list[Any]) -> None:
    """Decisions made at each page until the first trick is done (mid-hand)."""
    play_hand_until(tables, lambda: tables[0].state["view"].get("tricks_played", 0) >= 1)


def play_hand_until(tables: list[Any], done: Any, rounds: int = 4000) -> None:
    for _ in range(rounds):
        if done():
            return
        late = behind(tables)
        moved = False
        for i, table in enumerate(tables):
            kind = "" if i in late else table.decision()
            if kind and kind != "over" and not table.dialog_open("dlg-over"):
                if table.act(touch=getattr(table, "touch", False),
                             next_hand=False) != "hand-over":
                    table.acts = getattr(table, "acts", 0) + 1
                moved = True
                break
        if not moved:
            tables[0].page.wait_for_timeout(40)
    raise AssertionError("it did not happen")


def test_removed_wrong_and_revoked_codes_meet_the_same_answer(
        people: Any, friends_server: ServerProcess) -> None:
    ann, bob = people("Ann"), people("Bob")
    link = make_table(ann)
    join(bob, link, 1)
    wait_seated(ann, "Bob")
    code = link.rsplit("/", 1)[1]

    def answer(person: Person, path: str) -> Any:
        return person.page.evaluate(
            "p => fetch(p).then(async r => [r.status, await r.text()])", path)

    never = answer(bob, f"/api/tables/{'x' * 12}")
    wrong = answer(bob, "/api/invites/ABCDEFGHJ")
    assert wrong == never
    # the host removes Bob: his page says there is no such table, as for a wrong code
    ann.page.click("[data-key='remove-1']")
    bob.page.wait_for_selector("#screen-new:not([hidden])")  # his socket was told: not found
    assert answer(bob, f"/api/invites/{code}") == never
    # the host renews the link: the old code answers as a wrong one
    ann.page.click("#renew-link")
    ann.page.wait_for_function(
        "old => !document.getElementById('invite-link').value.endsWith(old)", arg=code)
    stranger = people("Cyd")
    stranger.page.goto(link)
    stranger.page.wait_for_function(
        "() => /no table for this link/.test(document.getElementById('friends-body').textContent)")
    assert answer(stranger, f"/api/invites/{code}") == never
    assert serious_violations(stranger.page) == [], "no such table"
    assert json.loads(never[1]) == {"error": "no such game for this player"}


def test_phrases_are_shown_by_the_seat_announced_and_can_be_muted(
        people: Any, friends_server: ServerProcess) -> None:
    ann, bob = people("Ann"), people("Bob")
    link = make_table(ann)
    join(bob, link, 2)
    wait_seated(ann, "Bob")
    ann.page.click("#friends-start")
    at_table(ann.table)
    at_table(bob.table)
    bob.page.click("#btn-say")
    assert serious_violations(bob.page) == [], "the Say window"
    bob.page.click("#dlg-say [data-phrase='good-game']")
    ann.page.wait_for_selector("#felt .seat[data-seat='2'] .said")
    assert ann.page.inner_text("#felt .seat[data-seat='2'] .said") == "Good game"
    ann.page.wait_for_function(
        "() => document.getElementById('live').textContent.includes('Bob: Good game')")
    # Ann mutes phrases on her device: the next one is neither shown nor announced
    ann.page.click("#btn-say")
    ann.page.check("#say-mute")
    ann.page.keyboard.press("Escape")
    bob.page.wait_for_timeout(1100)  # one a second at most
    bob.page.click("#btn-say")
    bob.page.click("#dlg-say [data-phrase='thanks']")
    bob.page.wait_for_function(
        "() => [...document.querySelectorAll('#live p')]"
        ".some(p => p.textContent === 'You: Thanks')")
    ann.page.wait_for_timeout(500)
    assert ann.page.locator("#felt .said").count() == 0
    assert "Thanks" not in ann.page.inner_text("#live")
    # Leave table asks first; the seat goes to a computer player for good
    tables_seen = [(f["table"]["status"], f["table"]["you"]) for f in bob.table.frames
                   if f["type"] == "table"]
    menu = bob.page.locator(".menu").inner_text()
    assert bob.page.locator("#btn-leave").count(), (tables_seen, menu)
    bob.page.click("#btn-leave")
    assert serious_violations(bob.page) == [], "the Leave table window"
    bob.page.click("#leave-confirm")
    bob.page.wait_for_selector("#screen-games:not([hidden])")
    ann.page.wait_for_function(
        "() => /Bob left the table/.test(document.getElementById('live').textContent)")


def test_the_host_moves_a_person_one_leaves_and_the_host_powers_pass(
        people: Any, friends_server: ServerProcess) -> None:
    ann, bob, cat = people("Ann"), people("Bob"), people("Cat")
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"])
    link = make_table(ann)
    ann.page.click("#copy-link")
    assert ann.page.evaluate("navigator.clipboard.readText()") == link
    join(bob, link, 1)
    join(cat, link, 3)
    wait_seated(ann, "Cat")
    # the host moves Bob opposite (his partner's seat)
    ann.page.select_option("[data-key='move-to-1']", "2")
    ann.page.click("[data-key='move-1']")
    ann.page.wait_for_function(
        "() => document.querySelector('#friend-seats li[data-seat=\"2\"] .who')"
        ".textContent.startsWith('Bob')")
    bob.page.wait_for_selector("#friend-seats li.you[data-seat='2']")  # told on his socket
    # Cat leaves before the start: her seat is empty again for everyone
    cat.page.click("#friends-leave")
    cat.page.wait_for_selector("#screen-games:not([hidden])")
    ann.page.wait_for_function(
        "() => document.querySelector('#friend-seats li[data-seat=\"3\"]').classList"
        ".contains('kind-empty')")
    # the host leaves: Bob, the next person clockwise, may start now
    ann.page.click("#friends-leave")
    bob.page.wait_for_selector("#friends-start")
    bob.page.wait_for_function(
        "() => document.getElementById('friends-status').textContent"
        ".includes('You are the host now.')")
    assert serious_violations(bob.page) == [], "the waiting room of the new host"
    bob.page.click("#friends-start")
    at_table(bob.table)
    assert bob.table.state["game"]["you"] == 2
    assert bob.table.state["game"]["players"][0] != "Ann"  # a computer player has her seat


def test_after_the_game_play_again_is_one_click_for_each_person(
        people: Any, friends_server: ServerProcess) -> None:
    ann, bob = people("Ann"), people("Bob")
    link = make_table(ann, target_score=250, mercy=True)
    join(bob, link, 2)
    wait_seated(ann, "Bob")
    ann.page.click("#friends-start")
    at_table(ann.table)
    at_table(bob.table)
    old = ann.table.state["game"]["id"]
    play_game([ann.table, bob.table])
    assert serious_violations(bob.page) == [], "the end of the game at a table with friends"
    ann.page.click("#play-again")
    ann.page.wait_for_selector("#friends-start")  # the next table: Ann hosts it
    bob.page.wait_for_selector("#play-again:text('join them')")
    bob.page.click("#play-again")
    bob.page.wait_for_selector("#friends-leave")
    wait_seated(ann, "Bob")
    assert bob.page.locator("#friend-seats li.you").get_attribute("data-seat") == "2"
    ann.page.click("#friends-start")
    at_table(ann.table)
    at_table(bob.table)
    assert ann.table.state["game"]["id"] != old
    assert bob.table.state["game"]["you"] == 2


def test_deleting_a_friends_account_leaves_the_game_playable_for_the_others(
        people: Any, friends_server: ServerProcess) -> None:
    ann, bob = people("Ann"), people("Bob")
    link = make_table(ann)
    # Bob opens the link, makes an account there, then sits down (with its player id)
    bob.page.goto(link)
    bob.page.wait_for_selector("[data-key='sit-2']")
    bob.page.click("#btn-account")
    dialog = bob.page.locator("#dlg-account")
    dialog.get_by_role("button", name="Create an account").click()
    dialog.get_by_label("Email").fill(f"bob-{id(bob):x}@example.org")
    dialog.get_by_label("Password").fill("a long pass phrase")
    dialog.get_by_role("button", name="Create account").click()
    dialog.get_by_role("heading", name="Signed in as").wait_for()
    bob.page.keyboard.press("Escape")
    bob.page.fill("#friends-name", "Bob")
    bob.page.click("[data-key='sit-2']")
    bob.page.wait_for_selector("#friends-leave")
    wait_seated(ann, "Bob")
    ann.page.click("#friends-start")
    at_table(ann.table)
    at_table(bob.table)
    play_until_mid_hand([ann.table, bob.table])
    deleted = bob.page.evaluate("""async () => {
        const session = await (await fetch('/api/session')).json();
        const answer = await fetch('/api/account/delete', {method: 'POST', headers: {
            'Content-Type': 'application/json', 'X-CSRF-Token': session.csrf},
            body: JSON.stringify({password: 'a long pass phrase'})});
        return [answer.status, await answer.json()];
    }""")
    assert deleted[0] == 200, deleted
    # Ann is told, Bob's seat is a computer player's, and the hand plays on to its end
    ann.page.wait_for_function(
        "() => /Bob left the table/.test(document.getElementById('live').textContent)")
    ann.page.wait_for_function(
        "() => document.querySelector('#felt .seat[data-seat=\"2\"] .name').textContent"
        ".startsWith('a former player')")
    play_hand([ann.table])
    game = load(friends_server, ann.table.state["game"]["id"])
    assert check_seat(ann.table.frames, game, 0) > 10


def test_a_friend_takes_a_computer_players_seat_in_a_game_under_way(
        people: Any, friends_server: ServerProcess) -> None:
    ann, bob = people("Ann"), people("Bob")
    link = make_table(ann, take_seats=True)
    ann.page.click("#friends-start")  # Ann alone with three computer players
    at_table(ann.table)
    play_until_mid_hand([ann.table])
    bob.page.goto(link)
    bob.page.wait_for_selector("[data-key='sit-2']")
    assert "Take a computer player's seat" in bob.page.inner_text("#friends-body")
    assert serious_violations(bob.page) == [], "taking a seat in a game under way"
    bob.page.fill("#friends-name", "Bob")
    bob.page.click("[data-key='sit-2']")
    at_table(bob.table)
    assert bob.table.state["game"]["you"] == 2
    ann.page.wait_for_function(  # Ann's table names him at once
        "() => document.querySelector('#felt .seat[data-seat=\"2\"] .name').textContent"
        ".startsWith('Bob')")
    play_hand([ann.table, bob.table])
    assert any(f["type"] == "state" and f["legal"] for f in bob.table.frames), "Bob never decided"
    game = load(friends_server, ann.table.state["game"]["id"])
    assert check_seat(bob.table.frames, game, 2) > 5


def test_anyone_seated_shares_the_link_once_started_and_no_spectator_sees_it(
        people: Any, friends_server: ServerProcess) -> None:
    ann, bob, cat, eve = people("Ann"), people("Bob"), people("Cat"), people("Eve")
    bob.context.grant_permissions(["clipboard-read", "clipboard-write"])
    link = make_table(ann, take_seats=True, share_link=True, watching=True)
    watch = ann.page.get_attribute("#watch-link", "href")
    join(bob, link, 2)
    wait_seated(ann, "Bob")
    assert bob.page.input_value("#invite-link") == link  # shared while waiting too
    ann.page.click("#friends-start")
    at_table(ann.table)
    at_table(bob.table)
    assert watch
    eve.page.goto(watch)
    at_table(eve.table)
    # Bob, seated but not the host, opens the link from the table's menu and copies it
    bob.page.click("#btn-invite")
    assert bob.page.evaluate("document.getElementById('dlg-invite').open")
    assert bob.page.input_value("#table-invite-link") == link
    assert serious_violations(bob.page) == [], "the table's invite window"
    bob.page.click("#copy-table-link")
    assert bob.page.evaluate("navigator.clipboard.readText()") == link
    bob.page.keyboard.press("Escape")
    # the spectator has no such button, and no frame or body of hers holds the code
    assert eve.page.locator("#btn-invite").count() == 0
    code = link.rsplit("/", 1)[1]
    assert code not in json.dumps(eve.table.frames) + json.dumps(eve.table.bodies)
    # whoever Bob sends it to takes a computer player's seat
    cat.page.goto(link)
    cat.page.wait_for_selector("[data-key='sit-1']")
    cat.page.fill("#friends-name", "Cat")
    cat.page.click("[data-key='sit-1']")
    at_table(cat.table)
    assert cat.table.state["game"]["you"] == 1


def test_an_anonymous_friend_deletes_their_data_and_the_game_goes_on(
        people: Any, friends_server: ServerProcess) -> None:
    ann, bob = people("Ann"), people("Bob")
    link = make_table(ann)
    join(bob, link, 2)
    wait_seated(ann, "Bob")
    ann.page.click("#friends-start")
    at_table(ann.table)
    at_table(bob.table)
    bob.page.click("#btn-games")
    bob.page.click("#forget-me")
    bob.page.wait_for_selector("#forget-confirm")  # asked in place, the focus on Keep it
    assert bob.page.evaluate("document.activeElement.textContent") == "Keep it"
    assert serious_violations(bob.page) == [], "deleting my data, asked"
    # the page starts afresh (its socket at the table was told "not found" first: the
    # page it reloads is the one to read)
    with bob.page.expect_navigation():
        bob.page.click("#forget-confirm")
    bob.page.wait_for_selector("#screen-new:not([hidden])")
    mine = bob.page.evaluate("fetch('/api/games').then(r => r.json())")
    assert mine["games"] == [], mine  # nothing of his is left
    # Ann is told, and Bob's seat is a computer player's named "a former player"
    ann.page.wait_for_function(
        "() => /Bob left the table/.test(document.getElementById('live').textContent)")
    ann.page.wait_for_function(
        "() => document.querySelector('#felt .seat[data-seat=\"2\"] .name').textContent"
        ".startsWith('a former player')")
    play_until_mid_hand([ann.table])  # the game goes on for her
