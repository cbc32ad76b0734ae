"""What a player id and a game id look like: the ids a request may name, checked before
anything is looked up (the store is never asked about an id that could not be one)."""

from __future__ import annotations

import re
from typing import Any

PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_player_id(value: Any) -> bool:
    return isinstance(value, str) and PLAYER_ID.fullmatch(value) is not None
