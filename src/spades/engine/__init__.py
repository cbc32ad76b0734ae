"""The rules engine: pure Python, standard library only, no I/O, no global random.

Public API: ``new_game``, ``legal_actions``, ``apply``, ``player_view``, the actions, the
``Rules`` and the preset registry, and game records.
"""

from .actions import (
    BLIND_NIL,
    DISCARD,
    KEEP,
    NIL,
    Action,
    Bid,
    Draw,
    Exchange,
    IllegalActionError,
    PassCards,
    Play,
)
from .cards import Card, CardError, Suit, cards_in, format_cards, mask_of, parse_card
from .game import DeckError, apply, can_bid_blind_nil, legal_actions, new_game, trick_winner
from .presets import (
    HOUSE_RULE_NAMES,
    PRESET_HELP,
    PRESETS,
    REGISTRY,
    HouseRule,
    HouseRuleError,
    Preset,
    find_entry,
    find_preset,
    make_rules,
)
from .record import RecordError, load_record, loads, record_of, replay, summary
from .rules import OPTION_HELP, Rules, RulesError
from .scoring import game_end, score_hand
from .state import GameState, HandResult, HandScore, HandState, Phase, Trick
from .view import PlayerView, SheetLine, player_view

__all__ = [
    "BLIND_NIL",
    "DISCARD",
    "HOUSE_RULE_NAMES",
    "KEEP",
    "NIL",
    "OPTION_HELP",
    "PRESETS",
    "PRESET_HELP",
    "REGISTRY",
    "Action",
    "Bid",
    "Card",
    "CardError",
    "DeckError",
    "Draw",
    "Exchange",
    "GameState",
    "HandResult",
    "HandScore",
    "HandState",
    "HouseRule",
    "HouseRuleError",
    "IllegalActionError",
    "PassCards",
    "Phase",
    "Play",
    "PlayerView",
    "Preset",
    "RecordError",
    "Rules",
    "RulesError",
    "SheetLine",
    "Suit",
    "Trick",
    "apply",
    "can_bid_blind_nil",
    "cards_in",
    "find_entry",
    "find_preset",
    "format_cards",
    "game_end",
    "legal_actions",
    "load_record",
    "loads",
    "make_rules",
    "mask_of",
    "new_game",
    "parse_card",
    "player_view",
    "record_of",
    "replay",
    "score_hand",
    "summary",
    "trick_winner",
]
