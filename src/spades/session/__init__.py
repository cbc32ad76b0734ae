"""One game's session between the transports (web server, terminal) and the computer
players and the store: seats, the turn loop, saving, resuming, pacing, narration, and fair
thinking in worker processes."""

from spades.ai.review import ReviewError

from .entropy import ENTROPY_REFUSED
from .hinting import hint_view
from .narration import GameEnded, Narrated, ending, narrate
from .refusal import Refusal
from .reviewing import Reviews
from .saving import (
    RecordFile,
    Saver,
    StoreSaver,
    Unsaved,
    contributors,
    progress,
    state_from_store,
)
from .seating import (
    COMPUTER,
    PERSON,
    Sitter,
    game_row_of,
    new_game_row,
    one_person,
    seat_rows,
)
from .session import Change, Decide, Listener, Session, Snapshot, computer_view
from .thinking import InlineThinker, Thinker
from .workers import OverrunError, StoppingError

__all__ = [
    "COMPUTER",
    "ENTROPY_REFUSED",
    "PERSON",
    "Change",
    "Decide",
    "GameEnded",
    "InlineThinker",
    "Listener",
    "Narrated",
    "OverrunError",
    "RecordFile",
    "Refusal",
    "ReviewError",
    "Reviews",
    "Saver",
    "Session",
    "Sitter",
    "Snapshot",
    "StoppingError",
    "StoreSaver",
    "Thinker",
    "Unsaved",
    "computer_view",
    "contributors",
    "ending",
    "game_row_of",
    "hint_view",
    "narrate",
    "new_game_row",
    "one_person",
    "progress",
    "seat_rows",
    "state_from_store",
]
