"""What the new-game screen offers, as JSON: the engine's preset registry and the levels.

Every preset fact (label, help, house-rule choices and defaults, hand size, seats, sides,
partners) comes from ``spades.engine.REGISTRY``; this module only adds the seat names and
serialises, so that the browser holds no rules logic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spades.engine import REGISTRY, HouseRuleError, Preset, Rules, RulesError, find_entry
from spades.seats import seat_names

from .phrases import phrases_json

LEVELS: tuple[tuple[str, str], ...] = (("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard"))
LEVEL_NAMES: tuple[str, ...] = tuple(name for name, _ in LEVELS)
DEFAULT_LEVEL = "normal"
DEFAULT_PRESET = "house"
#: The seat a new game gives the person who starts it (the lobby seats them there).
CREATOR_SEAT = 0

PRESET_LABELS: dict[str, str] = {name: p.label for name, p in REGISTRY.items()}


class ChoiceError(ValueError):
    """A new-game request we cannot honour; the message says why."""


def rules_for(preset: str,
              choices: Mapping[str, Any] | None = None) -> tuple[Rules, dict[str, Any]]:
    """The rules of ``preset`` with 004's house rules applied, and the choices in full."""
    try:
        return find_entry(preset).with_house_rules(choices)
    except (HouseRuleError, RulesError) as error:
        raise ChoiceError(str(error)) from None


#: Levels accepted beyond those offered: instant players for tests and benchmarks.
HIDDEN_LEVELS: tuple[str, ...] = ("random",)


def level_of(value: Any) -> str:
    key = value.strip().lower() if isinstance(value, str) else None
    if key not in LEVEL_NAMES + HIDDEN_LEVELS:
        raise ChoiceError(f"level must be one of {', '.join(LEVEL_NAMES)}, not {value!r}")
    return key


def table_json(rules: Rules) -> dict[str, Any]:
    """Who sits where and what is dealt, as the engine derives it from ``rules``: what the
    help and the table show instead of working it out."""
    return {
        "players": rules.players,
        "hand_size": rules.hand_size,
        "bids": [rules.lowest_bid, rules.max_bid],
        "deck_size": len(rules.deck),
        "removed": [str(c) for c in rules.removed],
        "sides": [list(side) for side in rules.sides],
        "side_of": list(rules.side_of),
        "partner_of": list(rules.partner_of),
    }


def preset_json(preset: Preset) -> dict[str, Any]:
    rules = preset.rules
    return {
        "name": preset.name,
        "label": preset.label,
        "help": preset.help,
        "players": rules.players,
        "partnership": rules.partnership,
        "seats": list(seat_names(rules.players)),
        "you": CREATOR_SEAT,
        "partner": rules.partner_of[CREATOR_SEAT],
        "sides": [list(side) for side in rules.sides],
        "table": table_json(rules),
        "options": rules.options(),
        "house_rules": [{"name": h.name, "label": h.label, "help": h.help,
                         "choices": list(h.choices), "default": h.default}
                        for h in preset.house_rules],
    }


def presets_json() -> dict[str, Any]:
    order = [DEFAULT_PRESET, *[n for n in REGISTRY if n != DEFAULT_PRESET]]
    return {
        "default_preset": DEFAULT_PRESET,
        "default_level": DEFAULT_LEVEL,
        "levels": [{"name": n, "label": label} for n, label in LEVELS],
        "presets": [preset_json(REGISTRY[n]) for n in order],
        "phrases": phrases_json(),
    }
