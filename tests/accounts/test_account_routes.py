"""Accounts: sign up and in, weak passwords, holding back guessing (with a trusted proxy),
reset links by log and by SMTP."""

from __future__ import annotations

import logging
import re
import time
from email import message_from_bytes
from typing import Any

import pytest
from accounts_testkit import FAST, PASSWORD, PHONE, Device, server

from spades.accounts import (
    Cost,
    Passwords,
    PolicyError,
    check_password,
    device_label,
    normalise_email,
)

WRONG = {"error": "the email or password is wrong"}


@pytest.mark.parametrize(("password", "why"), [
    ("short", "too short"),
    ("123456789", "too short"),
    ("password123", "most common"),
    ("Password1234", "most common"),
    ("qwertyuiop", "most common"),
    ("iloveyou12", "most common"),
    ("ann@example.org", "email"),
    ("ANN@EXAMPLE.ORG", "email"),
    (12345678901, "text"),
])
def test_weak_passwords_are_refused(password: Any, why: str) -> None:
    with pytest.raises(PolicyError, match=why):
        check_password(password, "ann@example.org")


def test_good_passwords_and_emails() -> None:
    assert check_password(PASSWORD, "ann@example.org") == PASSWORD
    assert normalise_email("  Ann@Example.ORG ") == "ann@example.org"
    for bad in ("ann", "ann@", "@example.org", "a b@example.org", None, "x" * 250 + "@a.bc"):
        with pytest.raises(PolicyError):
            normalise_email(bad)


def test_sign_up_refuses_weak_passwords_and_changes_nothing(db: tuple[str, str]) -> None:
    with server(*db) as http:
        device = Device(http)
        for password in ("short", "password123", "ann@example.org"):
            response = device.post("/api/account/signup", {"email": "Ann@Example.org",
                                                            "password": password})
            assert response.status_code == 400 and response.json()["error"]
        assert device.post("/api/account/signup", {"email": "not an email",
                                                   "password": PASSWORD}).status_code == 400
        assert device.post("/api/account/signin", {"email": "ann@example.org",
                                                   "password": "short"}).json() == WRONG
        device.signup("Ann@Example.org")  # lower-cased: one account per address
        again = Device(http).post("/api/account/signup", {"email": "ANN@example.org",
                                                          "password": PASSWORD})
        assert again.status_code == 409
        assert Device(http).signin("ann@EXAMPLE.org")["account"] == {
            "email": "ann@example.org"}


def test_unknown_email_and_wrong_password_get_the_same_answer(db: tuple[str, str]) -> None:
    with server(*db) as http:
        Device(http).signup("ann@example.org")
        unknown = Device(http).post("/api/account/signin", {"email": "zed@example.org",
                                                            "password": PASSWORD})
        wrong = Device(http).post("/api/account/signin", {"email": "ann@example.org",
                                                          "password": PASSWORD + "!"})
        assert unknown.status_code == wrong.status_code == 401
        assert unknown.json() == wrong.json() == WRONG


def test_passwords_are_argon2id_and_rehashed_at_a_new_cost() -> None:
    weak = Passwords(Cost(time=1, memory=64, lanes=1))
    stored = weak.hash(PASSWORD)
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert weak.verify(stored, PASSWORD) and not weak.verify(stored, PASSWORD + "x")
    assert not weak.verify(None, PASSWORD)  # no account: the decoy, and no
    assert not weak.verify("not a hash", PASSWORD)
    stronger = Passwords(Cost(time=2, memory=128, lanes=1))
    assert stronger.verify(stored, PASSWORD) and stronger.stale(stored)
    assert not weak.stale(stored)


def test_sign_in_is_held_back_after_five_failures(db: tuple[str, str]) -> None:
    with server(*db) as http:
        laptop = Device(http)
        laptop.signup("ann@example.org")
        guesser = Device(http)
        for n in range(5):
            response = guesser.post("/api/account/signin", {"email": "ann@example.org",
                                                            "password": f"guess number {n}"})
            assert response.status_code == 401
        held = guesser.post("/api/account/signin", {"email": "ann@example.org",
                                                    "password": PASSWORD})  # even right
        assert held.status_code == 429
        assert int(held.headers["retry-after"]) > 60
        assert "try again in 15 minutes" in held.json()["error"]
        # this address is held on this account; a browser that signed in to it before is not
        assert Device(http).post("/api/account/signin", {
            "email": "ann@example.org", "password": PASSWORD}).status_code == 429
        assert laptop.signin("ann@example.org")["account"] == {"email": "ann@example.org"}


def test_the_client_address_comes_from_a_trusted_proxy_only(db: tuple[str, str]) -> None:
    def guesses(http: Any, forwarded: str, count: int) -> list[int]:
        device = Device(http)
        return [device.post("/api/account/signin", {
            "email": f"user{n}@example.org", "password": "wrong password"},
            headers={"X-Forwarded-For": forwarded}).status_code for n in range(count)]

    # behind a trusted proxy: each client has its own count, however the proxy is shared
    with server(*db, peer="10.0.0.1", trusted_proxies=("10.0.0.1",)) as http:
        assert guesses(http, "198.51.100.1", 20) == [401] * 20
        assert guesses(http, "198.51.100.1", 1) == [429]
        assert guesses(http, "198.51.100.2", 1) == [401]  # another client
        # a client that writes its own X-Forwarded-For gets the address the proxy saw
        assert guesses(http, "203.0.113.77, 198.51.100.1", 1) == [429]
    # not a trusted proxy: the header is anyone's to write, and ignored
    with server(*db, peer="192.0.2.50", trusted_proxies=("10.0.0.1",)) as http:
        assert guesses(http, "198.51.100.1", 20) == [401] * 20
        assert guesses(http, "198.51.100.3", 1) == [429]  # still the peer's count


def test_device_labels() -> None:
    assert device_label(PHONE) == "Safari on iPhone"
    assert device_label("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like "
                        "Gecko) Chrome/126.0.0.0 Safari/537.36") == "Chrome on Linux"
    assert device_label(None) == "A browser"


def reset_link(text: str) -> str:
    found = re.search(r"http://spades\.example\.org/#reset=([A-Za-z0-9_-]+)", text)
    assert found, text
    return found.group(1)


def wait_for(check: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("it did not come")


def use_reset(http: Any, token: str) -> None:
    laptop = Device(http)
    laptop.signin("ann@example.org")
    weak = Device(http).post("/api/account/reset/confirm", {"token": token,
                                                            "password": "short"})
    assert weak.status_code == 400  # the link stays good for a good password
    new = "a brand new long password"
    phone = Device(http)  # the device the link was opened on
    done = phone.post("/api/account/reset/confirm", {"token": token, "password": new})
    assert done.status_code == 200, done.text
    assert laptop.get("/api/account").status_code == 401  # signed out everywhere
    # ... but the device that set the new password is signed in with it, and says so
    assert done.json()["account"]["email"] == "ann@example.org"
    assert done.json()["message"] == "your password is changed; you are signed in"
    assert phone.get("/api/account").status_code == 200
    again = Device(http).post("/api/account/reset/confirm", {"token": token,
                                                             "password": "yet another one!"})
    assert again.status_code == 400 and "used" in again.json()["error"]  # one use
    assert Device(http).post("/api/account/signin", {
        "email": "ann@example.org", "password": PASSWORD}).status_code == 401
    Device(http).signin("ann@example.org", new)


def test_reset_by_the_log(db: tuple[str, str], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="spades.accounts")
    with server(*db) as http:
        Device(http).signup("ann@example.org")
        asked = Device(http).post("/api/account/reset", {"email": "ANN@example.org"})
        unknown = Device(http).post("/api/account/reset", {"email": "zed@example.org"})
        assert asked.status_code == unknown.status_code == 200
        assert asked.json() == unknown.json()  # never says whether the email exists
        token = wait_for(lambda: "#reset=" in caplog.text and reset_link(caplog.text))
        assert "zed@example.org" not in caplog.text
        assert Device(http).post("/api/account/reset/confirm", {
            "token": "x" * 43, "password": "a brand new long password"}).status_code == 400
        use_reset(http, token)


def test_an_expired_reset_link_is_refused(db: tuple[str, str],
                                          caplog: pytest.LogCaptureFixture) -> None:
    import datetime as dt

    from spades.server import account_api

    caplog.set_level(logging.WARNING, logger="spades.accounts")
    with server(*db) as http:
        Device(http).signup("ann@example.org")
        account_api.RESET_LIFETIME, kept = dt.timedelta(seconds=-1), account_api.RESET_LIFETIME
        try:
            Device(http).post("/api/account/reset", {"email": "ann@example.org"})
            token = wait_for(lambda: "#reset=" in caplog.text and reset_link(caplog.text))
        finally:
            account_api.RESET_LIFETIME = kept
        response = Device(http).post("/api/account/reset/confirm", {
            "token": token, "password": "a brand new long password"})
        assert response.status_code == 400 and "hour" in response.json()["error"]


def test_reset_by_smtp(db: tuple[str, str]) -> None:
    from aiosmtpd.controller import Controller
    from aiosmtpd.handlers import Message

    received: list[Any] = []

    class Keep(Message):  # type: ignore[misc]
        def handle_message(self, message: Any) -> None:
            received.append(message)

    import socket

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    controller = Controller(Keep(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        url = f"smtp://127.0.0.1:{port}?from=spades@example.org"
        with server(*db, smtp_url=url) as http:
            Device(http).signup("ann@example.org")
            assert Device(http).post("/api/account/reset",
                                     {"email": "ann@example.org"}).status_code == 200
            Device(http).post("/api/account/reset", {"email": "zed@example.org"})
            wait_for(lambda: received)
            time.sleep(0.3)
            assert len(received) == 1  # none for an email without an account
            mail = received[0]
            assert mail["To"] == "ann@example.org" and mail["From"] == "spades@example.org"
            body = mail.get_payload(decode=True) if not mail.is_multipart() else b""
            text = (body or b"").decode() or str(message_from_bytes(bytes(mail)))
            use_reset(http, reset_link(text))
    finally:
        controller.stop()


def test_reset_requests_are_held_back(db: tuple[str, str]) -> None:
    with server(*db) as http:
        device = Device(http)
        codes = [device.post("/api/account/reset", {"email": "ann@example.org"}).status_code
                 for _ in range(4)]
        assert codes == [200, 200, 200, 429]


def test_the_cost_of_tests_is_not_the_servers() -> None:
    from spades.accounts import COST

    assert FAST != COST and COST.time >= 2 and COST.memory >= 19 * 1024
