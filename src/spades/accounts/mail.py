"""Sending a password reset link: by SMTP when ``spades serve --smtp`` names a server,
else written to the server's log (a self-hoster on one machine reads it there)."""

from __future__ import annotations

import logging
import smtplib
import ssl
import urllib.parse
from dataclasses import dataclass
from email.message import EmailMessage

log = logging.getLogger("spades.accounts")
TIMEOUT = 20.0


class MailError(Exception):
    """The mail could not be sent (or the SMTP URL is not one)."""


@dataclass(frozen=True)
class SmtpTarget:
    host: str
    port: int
    user: str | None
    password: str | None
    tls: bool  # smtps://: TLS from the start; smtp://: STARTTLS when the server offers it
    sender: str


def smtp_target(url: str) -> SmtpTarget:
    """``smtp://user:pass@host:port?from=spades@example.org`` (or ``smtps://``)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise MailError("--smtp is a URL such as smtp://user:password@mail.example.org:587")
    try:
        port = parts.port or (465 if parts.scheme == "smtps" else 25)
    except ValueError:
        raise MailError("the port of --smtp is not a number") from None
    query = urllib.parse.parse_qs(parts.query)
    sender = query.get("from", [f"spades@{parts.hostname}"])[0]
    unquote = urllib.parse.unquote
    return SmtpTarget(parts.hostname, port, unquote(parts.username) if parts.username else None,
                      unquote(parts.password) if parts.password else None,
                      parts.scheme == "smtps", sender)


def reset_message(sender: str, to: str, link: str) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"] = sender, to
    message["Subject"] = "Reset your Spades password"
    message.set_content(
        "Someone (we hope you) asked to reset the password of your Spades account.\n\n"
        f"Choose a new password here within the hour:\n\n{link}\n\n"
        "The link works once. If you did not ask, ignore this email: nothing changes.\n")
    return message


class Outbox:
    """Where reset links go: an SMTP server, or the log when there is none."""

    def __init__(self, smtp_url: str | None):
        self.target = smtp_target(smtp_url) if smtp_url else None

    def send_reset(self, to: str, link: str) -> None:
        """Blocking (call it from a thread). MailError if the SMTP server refused."""
        if self.target is None:
            log.warning("password reset link for %s (no --smtp server to email it): %s",
                        to, link)
            return
        target = self.target
        message = reset_message(target.sender, to, link)
        try:
            if target.tls:
                with smtplib.SMTP_SSL(target.host, target.port, timeout=TIMEOUT,
                                      context=ssl.create_default_context()) as smtp:
                    self._deliver(smtp, message)
            else:
                with smtplib.SMTP(target.host, target.port, timeout=TIMEOUT) as smtp:
                    smtp.ehlo()
                    if smtp.has_extn("starttls"):
                        smtp.starttls(context=ssl.create_default_context())
                        smtp.ehlo()
                    self._deliver(smtp, message)
        except (smtplib.SMTPException, OSError) as error:
            raise MailError(f"the reset email to {to} could not be sent: {error}") from error

    def _deliver(self, smtp: smtplib.SMTP, message: EmailMessage) -> None:
        target = self.target
        assert target is not None
        if target.user:
            smtp.login(target.user, target.password or "")
        smtp.send_message(message)
