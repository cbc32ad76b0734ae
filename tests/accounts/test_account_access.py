"""One access model: a game is reachable by the people seated at it, an anonymous id or an
account, and by nobody else: two accounts and an anonymous id try to list, open, watch,
act in, download and delete each other's games, and get 404 (docs/protocol.md)."""

from __future__ import annotations

import io
import zipfile

from accounts_testkit import OTHER_PASSWORD, PASSWORD, Device, server

from spades.engine import parse_record, replay

NOT_FOUND = {"error": "no such game for this player"}


def test_nobody_reaches_anothers_game(db: tuple[str, str]) -> None:
    with server(*db) as http:
        ann, bob, anon = Device(http), Device(http), Device(http)
        ann.signup("ann@example.org")
        bob.signup("bob@example.org", OTHER_PASSWORD)
        anon.start()
        games = {name: device.new_game() for name, device in
                 (("ann", ann), ("bob", bob), ("anon", anon))}
        people = {"ann": ann, "bob": bob, "anon": anon}
        for name, device in people.items():
            assert device.games() == [games[name]]  # lists only its own
            for other, game in games.items():
                if other == name:
                    assert device.get(f"/api/games/{game}").status_code == 200
                    assert device.get(f"/api/games/{game}/record").status_code == 200
                    continue
                for path in (f"/api/games/{game}", f"/api/games/{game}/record"):
                    response = device.get(path)
                    assert response.status_code == 404 and response.json() == NOT_FOUND
                # watch, and so act: no ticket to the game's socket
                refused = device.ticket(game)
                assert refused.status_code == 404 and refused.json() == NOT_FOUND
            archive = zipfile.ZipFile(io.BytesIO(device.get("/api/account/games.zip").content))
            assert archive.namelist() == [f"spades-{games[name]}.json"]
        # the owner's socket is let in and sees its game
        with ann.socket(games["ann"]) as ws:
            assert ws.receive_json()["type"] == "state"
        # deleting an account deletes its games and nobody else's
        deleted = ann.post("/api/account/delete", {"password": PASSWORD})
        assert deleted.status_code == 200 and deleted.json()["games"] == 1
        assert bob.games() == [games["bob"]] and anon.games() == [games["anon"]]
        assert Device(http).post("/api/account/signin", {
            "email": "ann@example.org", "password": PASSWORD}).status_code == 401
        assert bob.get(f"/api/games/{games['ann']}").status_code == 404
        # bob cannot delete bob's account without bob's password; his games stay
        wrong = bob.post("/api/account/delete", {"password": PASSWORD})
        assert wrong.status_code == 403 and bob.games() == [games["bob"]]


def test_the_zip_holds_every_game_as_a_record_the_reader_loads(db: tuple[str, str]) -> None:
    with server(*db) as http:
        device = Device(http)
        device.signup("ann@example.org")
        made = [device.new_game(preset) for preset in ("house", "two-player", "cutthroat")]
        with device.socket(made[0]) as ws:  # play a little of the first
            for _ in range(40):
                message = ws.receive_json()
                if message["type"] == "state" and message["legal"]:
                    legal = message["legal"]
                    action = dict(next(a for a in legal["actions"] if "look" not in a))
                    action.pop("label", None)
                    ws.send_json({"type": "act", "version": message["version"],
                                  "action": action})
                    break
            # then the computer players answer: the table is still once it is ours again
            while not ((message := ws.receive_json())["type"] == "state"
                       and (message["legal"] or message["view"]["over"])):
                pass
        response = device.get("/api/account/games.zip")
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/zip"
        assert "attachment" in response.headers["content-disposition"]
        archive = zipfile.ZipFile(io.BytesIO(response.content))
        assert sorted(archive.namelist()) == sorted(f"spades-{g}.json" for g in made)
        for game in made:
            data = archive.read(f"spades-{game}.json")
            single = device.get(f"/api/games/{game}/record").content
            assert data.decode() == single.decode()  # the download, as one file each
            import json

            record = json.loads(data)
            assert record["format"] == "spades-record/2"
            state = replay(parse_record(record))
            assert state.rules.name in ("house", "two-player", "cutthroat")
