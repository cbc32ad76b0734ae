"""What the new-game screen offers: the presets, the house rules of seed 004, the levels.

The house rules are the choices 004 gives with each new game (target score, nil, blind nil,
bag penalty, mercy rule, jokers), turned into engine options here, so that the browser
holds no rules logic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from spades.engine import PRESET_HELP, PRESETS, Rules, RulesError, find_preset
from spades.seats import seat_names

#: "(001)", "(rulebook 001)": which rulebook a preset comes from, for developers only
_SOURCE = re.compile(r"\s*\((?:rulebook )?\d{3}\)")

LEVELS: tuple[tuple[str, str], ...] = (("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard"))
LEVEL_NAMES: tuple[str, ...] = tuple(name for name, _ in LEVELS)
DEFAULT_LEVEL = "normal"
DEFAULT_PRESET = "house"
TARGETS: tuple[int, ...] = (250, 300, 500)
#: 004: blind nil only when the side is behind by 100 or more; then two cards each way.
BLIND_NIL_DEFICIT = 100
BLIND_NIL_PASS = 2
MERCY_SCORE = -200
BAG_LIMIT = 10

PRESET_LABELS: dict[str, str] = {
    "house": "House rules",
    "partnership": "Partnership",
    "two-player": "Two players",
    "cutthroat": "Cutthroat (four, each for themselves)",
    "three-player": "Three players",
    "three-player-kitty": "Three players with a kitty",
    "five-player": "Five players",
    "jokers": "Jokers",
    "suicide": "Suicide",
    "short": "Short game",
    "online": "Online rules",
}

HOUSE_RULES: tuple[tuple[str, str, str], ...] = (
    ("target_score", "Target score",
     "the game ends after the hand in which a side reaches it; the higher score wins"),
    ("nil", "Nil", "a bid of no tricks: plus 100 if made, minus 100 if broken"),
    ("blind_nil", "Blind nil",
     "nil bid before looking at your cards: plus or minus 200; offered only when your "
     "side is behind by 100 points or more"),
    ("bag_penalty", "Bag penalty", "every 10 bags (tricks over the bid) cost 100 points"),
    ("mercy", "Mercy rule", "a side at minus 200 or lower loses"),
    ("jokers", "Jokers",
     "the 2 of clubs and 2 of diamonds leave; the Big and Little Joker are the two highest "
     "spades"),
)
HOUSE_RULE_NAMES: tuple[str, ...] = tuple(name for name, _, _ in HOUSE_RULES)


class ChoiceError(ValueError):
    """A new-game request we cannot honour; the message says why."""


def house_defaults(base: Rules) -> dict[str, Any]:
    return {
        "target_score": base.target_score,
        "nil": base.nil,
        "blind_nil": base.blind_nil,
        "bag_penalty": base.bag_limit is not None,
        "mercy": base.losing_score is not None,
        "jokers": base.jokers,
    }


def target_choices(base: Rules) -> list[int]:
    return sorted({*TARGETS, base.target_score})


def rules_for(preset: str,
              choices: Mapping[str, Any] | None = None) -> tuple[Rules, dict[str, Any]]:
    """The rules of ``preset`` with 004's house rules applied, and the choices in full."""
    try:
        base = find_preset(preset)
    except RulesError as error:
        raise ChoiceError(str(error)) from None
    given = dict(choices or {})
    unknown = sorted(set(given) - set(HOUSE_RULE_NAMES))
    if unknown:
        raise ChoiceError(f"unknown house rule(s): {', '.join(unknown)}; house rules: "
                          f"{', '.join(HOUSE_RULE_NAMES)}")
    chosen = {**house_defaults(base), **given}
    target = chosen["target_score"]
    if (not isinstance(target, int) or isinstance(target, bool)
            or target not in target_choices(base)):
        raise ChoiceError(f"target_score must be one of "
                          f"{', '.join(map(str, target_choices(base)))}, not {target!r}")
    for name in HOUSE_RULE_NAMES[1:]:
        if not isinstance(chosen[name], bool):
            raise ChoiceError(f"{name} must be true or false, not {chosen[name]!r}")
    if chosen["blind_nil"] and not chosen["nil"]:
        raise ChoiceError("blind nil needs nil: turn nil on, or blind nil off")
    options: dict[str, Any] = {"target_score": target, "nil": chosen["nil"],
                               "blind_nil": chosen["blind_nil"], "jokers": chosen["jokers"]}
    if chosen["blind_nil"] and not base.blind_nil:
        options["blind_nil_deficit"] = BLIND_NIL_DEFICIT
        options["blind_nil_pass"] = BLIND_NIL_PASS if base.partnership else 0
    if chosen["bag_penalty"]:
        options["bag_limit"] = base.bag_limit or BAG_LIMIT
    else:
        options["bag_limit"] = None
        options["bag_takeback"] = False
    options["losing_score"] = (base.losing_score or MERCY_SCORE) if chosen["mercy"] else None
    try:
        rules = base.with_options(**options)
    except RulesError as error:
        raise ChoiceError(f"{PRESET_LABELS.get(base.name, base.name)} cannot be played "
                          f"with these house rules: {error}") from None
    return rules, chosen


def house_rule_choices(base: Rules) -> list[dict[str, Any]]:
    """The house rules that can change for this preset, with their valid values."""
    defaults = house_defaults(base)
    out = []
    for name, label, help_text in HOUSE_RULES:
        values: list[Any] = target_choices(base) if name == "target_score" else [True, False]
        valid = []
        for value in values:
            probe = {name: value}
            if name == "blind_nil" and value:
                probe["nil"] = True
            if name == "nil" and not value:
                probe["blind_nil"] = False
            try:
                rules_for(base.name, probe)
            except ChoiceError:
                continue
            valid.append(value)
        if len(valid) > 1:
            out.append({"name": name, "label": label, "help": help_text, "choices": valid,
                        "default": defaults[name]})
    return out


#: Levels accepted beyond those offered: instant players for tests and benchmarks.
HIDDEN_LEVELS: tuple[str, ...] = ("random",)


def level_of(value: Any) -> str:
    key = value.strip().lower() if isinstance(value, str) else None
    if key not in LEVEL_NAMES + HIDDEN_LEVELS:
        raise ChoiceError(f"level must be one of {', '.join(LEVEL_NAMES)}, not {value!r}")
    return key


def side_names(rules: Rules, names: tuple[str, ...]) -> list[str]:
    return [" and ".join(names[s] for s in side) for side in rules.sides]


def preset_json(name: str, rules: Rules) -> dict[str, Any]:
    names = seat_names(rules.players)
    return {
        "name": name,
        "label": PRESET_LABELS.get(name, name.replace("-", " ").capitalize()),
        "help": player_help(name),
        "players": rules.players,
        "partnership": rules.partnership,
        "seats": list(names),
        "partner": rules.partner_of[0],
        "sides": [list(side) for side in rules.sides],
        "options": rules.options(),
        "house_rules": house_rule_choices(rules),
    }


def presets_json() -> dict[str, Any]:
    order = [DEFAULT_PRESET, *[n for n in PRESETS if n != DEFAULT_PRESET]]
    return {
        "default_preset": DEFAULT_PRESET,
        "default_level": DEFAULT_LEVEL,
        "levels": [{"name": n, "label": label} for n, label in LEVELS],
        "presets": [preset_json(n, PRESETS[n]) for n in order if n in PRESETS],
    }


def player_help(name: str) -> str:
    """A preset's one-line description for players: without the rulebook references."""
    text = _SOURCE.sub("", PRESET_HELP.get(name, ""))
    return text[:1].upper() + text[1:]
