"""Sessions: the cookie, adopting the browser's old id, CSRF, fixation, replay, sign-out."""

from __future__ import annotations

from typing import Any

from accounts_testkit import PASSWORD, Device, server

OLD_ID = "browser-minted-0001"


def test_a_session_adopts_the_browsers_id_and_its_games(db: tuple[str, str]) -> None:
    with server(*db) as http:
        # the browser played before sessions, with an id it minted (header, as before)
        made = http.post("/api/games", json={"level": "random"},
                         headers={"X-Spades-Player": OLD_ID})
        assert made.status_code == 201
        device = Device(http)
        assert device.get("/api/session").json() == {"player": None, "account": None,
                                                     "csrf": None}
        started = device.post("/api/session", {"player": OLD_ID})
        assert started.status_code == 201
        body = started.json()
        assert body["player"] == OLD_ID and body["account"] is None and len(body["csrf"]) > 20
        cookie = started.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
        assert "secure" not in cookie  # plain HTTP here
        assert device.token and device.token != OLD_ID
        assert device.games() == [made.json()["id"]]  # by the cookie alone
        assert device.get("/api/session").json() == body
        # a fresh id when the page has none
        fresh = Device(http).start()
        assert fresh["player"] != OLD_ID and len(fresh["player"]) >= 16


def test_the_cookie_is_secure_behind_a_trusted_https_proxy(db: tuple[str, str]) -> None:
    with server(*db, peer="192.0.2.10", trusted_proxies=("10.0.0.0/8",)) as http:
        # the peer is no trusted proxy: anyone may write that header, it is ignored
        response = Device(http).post("/api/session", headers={"X-Forwarded-Proto": "https"})
        assert "secure" not in response.headers["set-cookie"].lower()
    with server(*db, peer="10.1.2.3", trusted_proxies=("10.0.0.0/8",)) as http:
        device = Device(http)
        response = device.post("/api/session", headers={"X-Forwarded-Proto": "https"})
        assert "; secure" in response.headers["set-cookie"].lower()


def test_the_url_names_nobody_and_a_player_id_moved_into_an_account_is_not_a_key(
        db: tuple[str, str]) -> None:
    with server(*db) as http:
        assert http.get(f"/api/games?player={OLD_ID}").status_code == 400
        device = Device(http)
        device.start(OLD_ID)
        game = device.new_game()
        answer = device.signup("ann@example.org")
        assert answer["move_games"] == {"count": 1}
        assert device.post("/api/account/move", {"move": True}).status_code == 200
        # the old id was a bearer key; now only the account reaches its games
        by_header = http.get("/api/games", headers={"X-Spades-Player": OLD_ID})
        assert by_header.status_code == 400
        assert http.get(f"/api/games/{game}", headers={"X-Spades-Player": OLD_ID}
                        ).status_code == 400
        with http.websocket_connect(f"/ws/games/{game}?player={OLD_ID}") as ws:
            assert ws.receive_json()["code"] == "reload"  # an id in the address opens nothing
        assert http.post(f"/api/games/{game}/ticket", headers={"X-Spades-Player": OLD_ID}
                         ).status_code == 400
        # and a session for it is a fresh id, not the account's games
        thief = Device(http)
        assert thief.start(OLD_ID)["player"] != OLD_ID
        assert thief.games() == []
        assert device.games() == [game]


def test_csrf_a_change_by_cookie_needs_its_own_sessions_token(db: tuple[str, str]) -> None:
    with server(*db) as http:
        mine, theirs = Device(http), Device(http)
        mine.start()
        theirs.start()
        body = {"level": "random"}
        # no token, another session's token, a wrong one: refused, nothing made
        for token in (None, theirs.csrf, "x" * 43):
            headers = {} if token is None else {"X-CSRF-Token": token}
            response = mine.request("POST", "/api/games", json=body, csrf=False,
                                    headers=headers)
            assert response.status_code == 403, response.text
            assert "X-CSRF-Token" in response.json()["error"]
        assert mine.games() == []
        assert mine.post("/api/games", body).status_code == 201  # its own token
        assert len(mine.games()) == 1
        # account changes too
        mine.csrf, kept = theirs.csrf, mine.csrf
        assert mine.post("/api/account/signup", {"email": "a@example.org",
                                                 "password": PASSWORD}).status_code == 403
        assert mine.post("/api/account/signout").status_code == 403
        mine.csrf = kept
        # a header's id needs none (a page elsewhere cannot send the header)
        assert http.post("/api/games", json=body, headers={"X-Spades-Player": OLD_ID}
                         ).status_code == 201


def test_a_cross_site_form_post_changes_nothing(db: tuple[str, str]) -> None:
    """What a page elsewhere can send without asking: a form or text/plain, with the
    cookie (SameSite=Lax still sends it on a top-level POST for two minutes in some
    browsers) and without our headers."""
    with server(*db) as http:
        device = Device(http)
        device.start()
        forms: list[tuple[str, Any]] = [
            ("/api/games", b'{"level":"easy"}'),
            ("/api/account/signup", b'{"email":"evil@example.org","password":"' +
             PASSWORD.encode() + b'"}'),
            ("/api/account/signin", b'{"email":"evil@example.org","password":"x"}'),
            ("/api/session", b'{"player":"attackers-own-id"}'),
        ]
        before = device.get("/api/session").json()
        for path, content in forms:
            for kind in ("text/plain", "application/x-www-form-urlencoded"):
                response = device.request("POST", path, content=content, csrf=False,
                                          headers={"Content-Type": kind})
                assert response.status_code in (403, 415), (path, kind, response.text)
        assert device.games() == []
        assert device.get("/api/session").json() == before
        assert Device(http).post("/api/account/signin", {
            "email": "evil@example.org", "password": PASSWORD}).status_code == 401


def test_session_fixation_signing_in_makes_a_new_cookie(db: tuple[str, str]) -> None:
    with server(*db) as http:
        Device(http).signup("ann@example.org")
        victim = Device(http)
        victim.start()
        planted = victim.token  # say an attacker set this cookie before the sign-in
        planted_csrf = victim.csrf
        victim.signin("ann@example.org")
        assert victim.token and victim.token != planted
        assert victim.csrf != planted_csrf
        attacker = Device(http)
        attacker.jar.set("spades_session", planted or "")
        assert attacker.get("/api/session").json()["account"] is None
        assert attacker.get("/api/account").status_code == 401
        assert attacker.get("/api/games").status_code == 400  # the planted login is gone
        assert victim.get("/api/account").json()["email"] == "ann@example.org"


def test_a_cookie_replayed_after_sign_out_is_refused(db: tuple[str, str]) -> None:
    with server(*db) as http:
        device = Device(http)
        device.signup("ann@example.org")
        game = device.new_game()
        stolen = device.token
        out = device.post("/api/account/signout")
        assert out.status_code == 200 and out.json()["account"] is None
        assert "spades_session=" in out.headers["set-cookie"]  # cleared
        replay = Device(http)
        replay.jar.set("spades_session", stolen or "")
        assert replay.get("/api/session").json() == {"player": None, "account": None,
                                                     "csrf": None}
        assert replay.get("/api/games").status_code == 400
        assert replay.get(f"/api/games/{game}").status_code == 400
        assert replay.get("/api/account").status_code == 401
        assert replay.ticket(game).status_code == 400  # nor a ticket to its socket


def test_sign_out_everywhere(db: tuple[str, str]) -> None:
    with server(*db) as http:
        laptop, phone, other = Device(http), Device(http), Device(http)
        laptop.signup("ann@example.org")
        phone.signin("ann@example.org")
        other.signup("bob@example.org")
        devices = laptop.get("/api/account").json()["devices"]
        assert len(devices) == 2 and sum(d["this_device"] for d in devices) == 1
        assert {d["label"] for d in devices} == {"Firefox on Windows"}
        assert phone.post("/api/account/signout-everywhere").status_code == 200
        for device in (laptop, phone):
            assert device.get("/api/account").status_code == 401
            assert device.get("/api/games").status_code == 400
        assert other.get("/api/account").status_code == 200  # another account is untouched
        laptop.signin("ann@example.org")
        assert len(laptop.get("/api/account").json()["devices"]) == 1
