"""Security headers on every HTTP response (docs/self-hosting.md).

The page runs only its own files: no inline script, no inline style attribute, nothing from
another site, never inside another site's frame. ``Strict-Transport-Security`` is sent only
on a request that came over HTTPS (directly, or through a trusted reverse proxy that says so
with ``X-Forwarded-Proto``), or on every request when ``--public-url`` is an https:// address
(the pages are served over TLS by a proxy in front): over plain HTTP it would be
meaningless, and on a local server it could pin a browser to HTTPS for the name
``localhost``.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
))

#: Sent on every HTTP response that does not set its own value.
SECURITY_HEADERS = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
    ("cross-origin-opener-policy", "same-origin"),
    ("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=()"),
)
#: Sent only over HTTPS: a year, as browsers' preload lists expect.
STRICT_TRANSPORT = ("strict-transport-security", "max-age=31536000")


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP response (and on a refused
    websocket's HTTP answer); ``https``: HSTS on every response too (an https:// public
    URL)."""

    def __init__(self, app: ASGIApp, https: bool = False):
        self.app = app
        self.https = https

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        secure = self.https or scope.get("scheme") in ("https", "wss")

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    headers.setdefault(name, value)
                if secure:
                    headers.setdefault(*STRICT_TRANSPORT)
            await send(message)

        await self.app(scope, receive, send_with_headers)
