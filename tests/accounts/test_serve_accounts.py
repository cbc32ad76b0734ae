"""`spades serve` and accounts: the flags are checked before serving, and a real server
writes a reset link to its log when it has no SMTP server, starting with --public-url."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path

import pytest
from accounts_testkit import PASSWORD
from server_testkit import LiveServer

from spades.cli.main import main


@pytest.mark.parametrize(("flags", "why"), [
    (["--trusted-proxy", "my-proxy"], "--trusted-proxy: 'my-proxy' is not an IP address"),
    (["--smtp", "mail.example.org"], "--smtp is a URL such as smtp://"),
    (["--public-url", "cards.example.org"], "--public-url starts with http"),
])
def test_bad_account_flags_are_refused_before_serving(
        tmp_path: Path, flags: list[str], why: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["serve", "--db", f"sqlite:///{tmp_path / 'games.db'}", "--port", "1",
                 *flags])
    assert code == 2
    assert why in capsys.readouterr().err


def post(url: str, body: object, headers: dict[str, str] | None = None) -> tuple[int, str, str]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **(headers or {})})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status, response.headers.get("set-cookie", ""), response.read().decode()


@pytest.mark.timeout(300)
def test_a_real_server_logs_the_reset_link_and_trusts_only_its_proxy(tmp_path: Path) -> None:
    with LiveServer(tmp_path, "--public-url", "https://cards.example.net",
                    "--trusted-proxy", "127.0.0.1") as server:
        status, cookie, _ = post(server.url + "/api/account/signup",
                                 {"email": "ann@example.org", "password": PASSWORD},
                                 {"X-Forwarded-Proto": "https"})
        assert status == 201 and "secure" in cookie.lower() and "httponly" in cookie.lower()
        status, _, body = post(server.url + "/api/account/reset", {"email": "ann@example.org"},
                               {"Host": "evil.example.com"})
        assert status == 200 and json.loads(body)["sent"] is True
        deadline = time.monotonic() + 60
        found = None
        while time.monotonic() < deadline and found is None:
            found = re.search(r"(\S+)/#reset=([A-Za-z0-9_-]{20,})", server.log.read_text())
            time.sleep(0.1)
        assert found, server.log.read_text()
        assert found.group(1).endswith("https://cards.example.net")  # never the Host header
        status, _, _ = post(server.url + "/api/account/reset/confirm",
                            {"token": found.group(2), "password": "a brand new long password"})
        assert status == 200
