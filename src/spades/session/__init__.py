"""One game's session between the transports (web server, terminal) and the computer
players and the store: seats, the turn loop, saving, resuming, pacing, narration, and fair
thinking in worker processes."""

from spades.ai.review import ReviewError

from .appending import Appender
from .entropy import ENTROPY_REFUSED
from .games import dealt_again, first_deal, loaded, open_session, replayed, store_first
from .hinting import hint_view
from .narration import GameEnded, Narrated, ending, narrate, told
from .refusal import Refusal
from .reviewing import Reviews
from .saving import (
    Missed,
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
from .session import (
    Change,
    Decide,
    Listener,
    Session,
    Snapshot,
    can_undo,
    computer_view,
)
from .thinking import InlineThinker, Thinker
from .workers import OverrunError, StoppingError

__all__ = [
    "COMPUTER",
    "ENTROPY_REFUSED",
    "PERSON",
    "Appender",
    "Change",
    "Decide",
    "GameEnded",
    "InlineThinker",
    "Listener",
    "Missed",
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
    "can_undo",
    "computer_view",
    "contributors",
    "dealt_again",
    "ending",
    "first_deal",
    "game_row_of",
    "hint_view",
    "loaded",
    "narrate",
    "new_game_row",
    "one_person",
    "open_session",
    "progress",
    "replayed",
    "seat_rows",
    "state_from_store",
    "store_first",
    "told",
]
