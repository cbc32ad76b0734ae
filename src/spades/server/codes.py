"""Invite and watch codes, and the display names people give at a table for friends
(docs/protocol.md, "Tables with friends").

A code is 9 characters of a 31-letter alphabet with no 0, O, 1, I or L (it can be read
aloud), drawn with ``secrets``: 31**9 is over 2**44. Only its SHA-256 is stored.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections.abc import Collection
from typing import Any

from .presets import ChoiceError

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 9
#: The names of the computer players: a person who picks one gets a number.
COMPUTER_NAMES = ("You", "Bramble", "Juniper", "Clover", "Hazel", "Rowan", "Willow")
NAME_LENGTH = 24
NAME_RULE = "a name is 1 to 24 characters"
#: Characters that reorder text (bidi overrides and isolates): never in a name.
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}
_SEPARATORS = re.compile(r"[\s-]+")


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: Any) -> str | None:
    """The code a person typed or a link holds (any case, spaces and dashes ignored), or
    None if it cannot be one."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = _SEPARATORS.sub("", text).upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def digest(code: str) -> str:
    """What the store keeps of a code."""
    return hashlib.sha256(code.encode()).hexdigest()


def clean_name(text: Any) -> str:
    """A display name: control and bidi-override characters removed, spaces trimmed and
    runs of them made one, 1 to 24 characters; ``ChoiceError`` otherwise."""
    if not isinstance(text, str) or len(text) > 200:
        raise ChoiceError(NAME_RULE)
    kept = "".join(c for c in text if ord(c) not in _BIDI
                   and not unicodedata.category(c).startswith("C"))
    name = " ".join(kept.split())
    if not 1 <= len(name) <= NAME_LENGTH:
        raise ChoiceError(NAME_RULE)
    return name


def unique_name(name: str, taken: Collection[str]) -> str:
    """``name``, or with a number if a computer player or someone seated has it (case
    ignored): "Ann 2", "Ann 3"."""
    used = {t.casefold() for t in (*taken, *COMPUTER_NAMES)}
    if name.casefold() not in used:
        return name
    number = 2
    while True:
        base = name[: NAME_LENGTH - len(str(number)) - 1]
        candidate = f"{base} {number}"
        if candidate.casefold() not in used:
            return candidate
        number += 1
