"""Optional accounts, apart from the web: hashing and checking passwords (``passwords``,
``policy``), holding back guessing and sign-ups (``limits``, counted by ``rates``), a bound on
the hashes computed at once (``hashing``), naming and recognising a device (``devices``) and
sending a reset link (``mail``). The store keeps the rows (``spades.store.accounts``); the server's
routes (``spades.server.account_api``) put these together."""

from .devices import DeviceKeys, device_label
from .hashing import Hashing
from .limits import AccountLimits, Guesses, Limited, Resets, Signups
from .mail import MailError, Outbox, reset_message, smtp_target
from .passwords import COST, Cost, Passwords
from .policy import PolicyError, check_password, normalise_email
from .rates import Rates, counts_in, parse_rate, take_all

__all__ = [
    "COST",
    "AccountLimits",
    "Cost",
    "DeviceKeys",
    "Guesses",
    "Hashing",
    "Limited",
    "MailError",
    "Outbox",
    "Passwords",
    "PolicyError",
    "Rates",
    "Resets",
    "Signups",
    "check_password",
    "counts_in",
    "device_label",
    "normalise_email",
    "parse_rate",
    "reset_message",
    "smtp_target",
    "take_all",
]
