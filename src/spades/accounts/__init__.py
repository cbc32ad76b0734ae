"""Optional accounts, apart from the web: hashing and checking passwords (``passwords``,
``policy``), holding back guessing (``limits``), naming a device (``devices``) and sending a
reset link (``mail``). The store keeps the rows (``spades.store.accounts``); the server's
routes (``spades.server.account_api``) put these together."""

from .devices import device_label
from .limits import Attempts, Limited
from .mail import MailError, Outbox, reset_message, smtp_target
from .passwords import COST, Cost, Passwords
from .policy import PolicyError, check_password, normalise_email

__all__ = [
    "COST",
    "Attempts",
    "Cost",
    "Limited",
    "MailError",
    "Outbox",
    "Passwords",
    "PolicyError",
    "check_password",
    "device_label",
    "normalise_email",
    "reset_message",
    "smtp_target",
]
