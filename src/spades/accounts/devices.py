"""A device's name for the list of signed-in devices, from its User-Agent: "Firefox on
Windows", "Safari on iPhone". Only a label for a person; nothing depends on it. And the
device cookie that tells a browser which signed in to an account before (``DeviceKeys``)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

#: (a word in the User-Agent, the name shown), the more specific first.
BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser", "Samsung Internet"),
            ("Firefox/", "Firefox"), ("FxiOS", "Firefox"), ("CriOS", "Chrome"),
            ("Chromium/", "Chromium"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
            ("curl/", "curl"), ("python", "a script"))
SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
           ("Windows", "Windows"), ("Mac OS X", "a Mac"), ("Macintosh", "a Mac"),
           ("CrOS", "ChromeOS"), ("Linux", "Linux"))
MAX_LABEL = 128


def device_label(user_agent: str | None) -> str:
    agent = user_agent or ""
    browser = next((name for word, name in BROWSERS if word in agent), "a browser")
    system = next((name for word, name in SYSTEMS if word in agent), "")
    label = f"{browser} on {system}" if system else browser.capitalize()
    return label[:MAX_LABEL]


#: Accounts one browser's device cookie remembers (a family computer), the newest first.
DEVICE_ACCOUNTS = 5


class DeviceKeys:
    """Device cookies (OWASP, "Slow down online guessing attacks with device cookies"): a
    browser that signed in to an account gets a token ``NONCE.SIGNATURE``, the signature an
    HMAC-SHA256 of the account's email and the nonce with this server's key. It names no
    account (it only proves, for an email typed, "this browser signed in as it before");
    it lets that browser through the slow lane of an account under attack, and its own
    failures hold back only itself (by its nonce). A cookie holds up to DEVICE_ACCOUNTS
    tokens, separated by ``~``."""

    def __init__(self, key: bytes):
        self.key = key

    def _signature(self, email: str, nonce: str) -> str:
        mac = hmac.new(self.key, f"{email}\n{nonce}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:18]).decode()

    def known(self, email: str, cookie: str | None) -> str | None:
        """The nonce of the cookie's token for ``email``, None if it holds none (or a
        forged one)."""
        for token in (cookie or "").split("~")[:DEVICE_ACCOUNTS]:
            nonce, _, signature = token.partition(".")
            if nonce and hmac.compare_digest(signature.encode(),
                                             self._signature(email, nonce).encode()):
                return nonce
        return None

    def remember(self, email: str, cookie: str | None) -> str:
        """The cookie after signing in as ``email``: a new token for it first, the tokens
        of other accounts kept (those that are still this server's)."""
        nonce = secrets.token_urlsafe(12)
        tokens = [f"{nonce}.{self._signature(email, nonce)}"]
        mine = self.known(email, cookie)
        for token in (cookie or "").split("~")[:DEVICE_ACCOUNTS]:
            if token and not (mine and token.startswith(f"{mine}.")) and len(token) < 64:
                tokens.append(token)
        return "~".join(tokens[:DEVICE_ACCOUNTS])
