"""Cloud saves: on sign-in an anonymous id's games move into the account only when the
person says so (asked once); every signed-in device lists and opens the same games; the
same game open on two devices has one writer, and the other device sees each change."""

from __future__ import annotations

from accounts_testkit import PHONE, Device, server
from server_testkit import Driver

ANON = "browser-minted-0002"


def test_games_move_into_the_account_only_when_asked(db: tuple[str, str]) -> None:
    with server(*db) as http:
        owner = Device(http)
        owner.signup("ann@example.org")
        in_account = owner.new_game()
        device = Device(http)
        device.start(ANON)
        mine = [device.new_game(), device.new_game("two-player")]
        answer = device.signin("ann@example.org")
        assert answer["move_games"] == {"count": 2}
        assert device.games() == [in_account]  # nothing moved yet
        assert owner.games() == [in_account]
        moved = device.post("/api/account/move", {"move": True})
        assert moved.status_code == 200 and "move_games" not in moved.json()
        assert sorted(device.games()) == sorted([in_account, *mine])
        assert sorted(owner.games()) == sorted(device.games())  # on every device
        with owner.socket(mine[0]) as ws:  # and each opens any of them
            assert Driver(ws).until_decision()["type"] == "state"
        # asked once: a second answer, or another sign-in from that id, asks nothing
        assert device.post("/api/account/move", {"move": False}).status_code == 409
        again = Device(http)
        again.start(ANON)
        assert "move_games" not in again.signin("ann@example.org")
        # a new game of a signed-in device is the account's
        new = device.new_game()
        assert new in owner.games()


def test_no_keeps_the_games_apart_and_is_remembered(db: tuple[str, str]) -> None:
    with server(*db) as http:
        device = Device(http)
        device.start(ANON)
        kept = device.new_game()
        assert device.signup("ann@example.org")["move_games"] == {"count": 1}
        assert device.post("/api/account/move", {"move": "yes"}).status_code == 400
        assert device.post("/api/account/move", {"move": False}).status_code == 200
        assert device.games() == []
        assert device.post("/api/account/signout").status_code == 200
        # the anonymous id still has its games, and is not asked again
        assert device.start(ANON)["player"] == ANON
        assert device.games() == [kept]
        assert "move_games" not in device.signin("ann@example.org")
        assert device.games() == []


def test_an_anonymous_id_without_games_is_not_asked(db: tuple[str, str]) -> None:
    with server(*db) as http:
        device = Device(http)
        device.start(ANON)
        assert "move_games" not in device.signup("ann@example.org")
        assert device.post("/api/account/move", {"move": True}).status_code == 409


def test_one_game_on_two_devices_has_one_writer(db: tuple[str, str]) -> None:
    with server(*db) as http:
        laptop, phone = Device(http), Device(http, PHONE)
        laptop.signup("ann@example.org")
        game = laptop.new_game()
        phone.signin("ann@example.org")
        assert phone.games() == [game]
        devices = {d["label"] for d in phone.get("/api/account").json()["devices"]}
        assert devices == {"Firefox on Windows", "Safari on iPhone"}
        with laptop.socket(game) as one, phone.socket(game) as two:
            first, second = Driver(one), Driver(two)
            bid_one, bid_two = first.until_decision(), second.until_decision()
            assert bid_one["version"] == bid_two["version"]
            first.act({"bid": 3})
            # the phone's bid was made from the old table: refused in a player's words
            second.act({"bid": 5}, version=bid_two["version"])
            error = second.recv()
            while error["type"] != "error":
                error = second.recv()
            assert error["code"] == "stale"
            assert error["message"] in ("the table had moved on; here it is now",
                                        "the table changed meanwhile")
            # both devices reach the first card with the laptop's bid in the view
            play_one, play_two = first.until_decision(), second.until_decision()
            assert play_one["version"] == play_two["version"]
            assert play_one["view"]["bids"][0] == play_two["view"]["bids"][0] == 3
            # the laptop plays a card: the phone sees it at once (the same table)
            card = first.choose(play_one)
            first.act(card)
            seen = second.recv()
            while seen["type"] != "state" or seen["version"] == play_two["version"]:
                seen = second.recv()
            mine = first.recv()
            while mine["type"] != "state":
                mine = first.recv()
            assert seen["version"] == mine["version"] and seen["view"] == mine["view"]
            assert any(e.get("seat") == 0 and e["kind"] == "play" for e in seen["events"])
