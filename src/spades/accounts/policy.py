"""What an email and a password must be, in a sentence when they are not."""

from __future__ import annotations

import functools
import re
import unicodedata
from importlib import resources

#: The least length of a password (NIST SP 800-63B asks 8 at least; 10 here).
MIN_LENGTH = 10
MAX_LENGTH = 256
MAX_EMAIL = 254
#: Something@something.something, no spaces: the check that matters is the reset email.
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


class PolicyError(ValueError):
    """An email or password we refuse; the message says why, for a person."""


@functools.cache
def common_passwords() -> frozenset[str]:
    text = resources.files("spades.accounts").joinpath("common_passwords.txt").read_text()
    return frozenset(line.strip().lower() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


def normalise_email(email: object) -> str:
    """The email as stored: trimmed and lower-cased; PolicyError if it is not one."""
    if not isinstance(email, str):
        raise PolicyError("the email is text, such as ann@example.org")
    value = unicodedata.normalize("NFKC", email).strip().lower()
    if len(value) > MAX_EMAIL or not EMAIL.fullmatch(value):
        raise PolicyError("that is not an email address such as ann@example.org")
    return value


def check_password(password: object, email: str = "") -> str:
    """The password if we accept it; PolicyError says why not."""
    if not isinstance(password, str):
        raise PolicyError("the password is text")
    if len(password) < MIN_LENGTH:
        raise PolicyError(f"the password is too short: use at least {MIN_LENGTH} characters "
                          "(a few words together are easy to remember)")
    if len(password) > MAX_LENGTH:
        raise PolicyError(f"the password is over {MAX_LENGTH} characters")
    folded = password.strip().lower()
    if folded in common_passwords():
        raise PolicyError("that password is one of the most common ones, which are tried "
                          "first: choose another")
    if email and folded in (email.lower(), email.lower().split("@")[0]):
        raise PolicyError("the password must not be your email address")
    return password
