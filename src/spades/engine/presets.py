"""The preset registry: every named variant and what a player is told about it.

A preset is one entry of ``_ENTRIES``: its name, a label, a one-line description ending
with the rulebook it comes from, and its ``Rules``. Everything else is derived from those
rules, so that the engine, ``spades rules``, the server and the browser's help read the
same facts and none recomputes them: the hand size and the cards left out, the seats and
sides and each seat's partner (``Rules`` derives them), and the house rules of seed 004
that a new game may change (target score, nil, blind nil, bag penalty, mercy rule,
jokers), and "Allow undo" (issue 41), with the choices that can be played and their
defaults.

Adding a preset is one entry here plus its row in ``tests/engine/test_rules.py``; see
``docs/presets.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import NAME_OF
from .rules import Rules, RulesError

#: 004: "the first team to reach the target score (250, 300, or 500 points)".
TARGETS: tuple[int, ...] = (250, 300, 500)
#: 004: blind nil "only when your team is behind by 100 points or more", then "you pass two
#: cards to your partner, and they pass two back".
BLIND_NIL_DEFICIT = 100
BLIND_NIL_PASS = 2
#: 004: "With the mercy rule on, a team at minus 200 or lower loses."
MERCY_SCORE = -200
#: 004: "Every 10 bags (extra tricks), if bags are on: minus 100".
BAG_LIMIT = 10


class HouseRuleError(RulesError):
    """House-rule choices that a new game of a preset cannot take; the message says why."""


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One choice the new-game screen offers for a preset: ``choices`` are the values that
    can be played (at least two), ``default`` the preset's own."""

    name: str
    label: str
    help: str
    choices: tuple[Any, ...]
    default: Any


#: The house rules of 004, in the order a new-game screen shows them: name and label.
HOUSE_RULE_LABELS: tuple[tuple[str, str], ...] = (
    ("target_score", "Target score"),
    ("nil", "Nil"),
    ("blind_nil", "Blind nil"),
    ("bag_penalty", "Bag penalty"),
    ("mercy", "Mercy rule"),
    ("jokers", "Jokers"),
    ("undo", "Allow undo"),
)
HOUSE_RULE_NAMES: tuple[str, ...] = tuple(name for name, _ in HOUSE_RULE_LABELS)

#: "(001)", "(rulebook 001)": which of the rulebooks 000-004 a description comes from, for
#: developers only (a number such as "(200)" stays)
_SOURCE = re.compile(r"\s*\((?:rulebook )?00\d\)")


@dataclass(frozen=True, slots=True)
class Preset:
    """A named variant: ``rules`` and the words for it. ``about`` names the rulebook;
    ``help`` is the same sentence for players, without it."""

    name: str
    label: str
    about: str
    rules: Rules
    house_rules: tuple[HouseRule, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rules.name != self.name:
            raise RulesError(f"preset {self.name!r} holds rules named {self.rules.name!r}")
        object.__setattr__(self, "house_rules", _house_rules(self.rules))

    @property
    def help(self) -> str:
        text = _SOURCE.sub("", self.about)
        return text[:1].upper() + text[1:]

    def with_house_rules(self, choices: Mapping[str, Any] | None = None
                         ) -> tuple[Rules, dict[str, Any]]:
        """These rules with 004's house rules applied, and the choices in full; a choice
        the preset cannot take raises ``HouseRuleError`` saying why."""
        return _apply(self, dict(choices or {}))


# ---------------------------------------------------------------------------- house rules

def _defaults(rules: Rules) -> dict[str, Any]:
    return {
        "target_score": rules.target_score,
        "nil": rules.nil,
        "blind_nil": rules.blind_nil,
        "bag_penalty": rules.bag_limit is not None,
        "mercy": rules.losing_score is not None,
        "jokers": rules.jokers,
        "undo": rules.undo,
    }


def _choices(rules: Rules, name: str) -> tuple[Any, ...]:
    """The values of a house rule that these rules can be played with, read off the limits
    ``Rules`` checks (a test proves every other value is refused)."""
    if name == "target_score":
        return tuple(sorted({*TARGETS, rules.target_score}))
    if name == "nil" and rules.suicide:
        return (True,)  # suicide is built on nil
    if name == "nil" and rules.min_bid == 0:
        return (False,)  # a bid of 0 is a plain bid here, not nil
    if name == "blind_nil" and rules.min_bid == 0:
        return (False,)  # blind nil needs nil
    if name == "jokers" and rules.kitty:
        return (False,)  # the kitty is the 52-card three-player game
    return (True, False)


def _options(rules: Rules, chosen: Mapping[str, Any]) -> dict[str, Any]:
    """The engine options that house-rule choices stand for."""
    options: dict[str, Any] = {"target_score": chosen["target_score"], "nil": chosen["nil"],
                               "blind_nil": chosen["blind_nil"], "jokers": chosen["jokers"],
                               "undo": chosen["undo"]}
    if chosen["blind_nil"] and not rules.blind_nil:
        options["blind_nil_deficit"] = BLIND_NIL_DEFICIT
        options["blind_nil_pass"] = BLIND_NIL_PASS if rules.partnership else 0
    if chosen["bag_penalty"]:
        options["bag_limit"] = rules.bag_limit or BAG_LIMIT
    else:
        options["bag_limit"] = None
        options["bag_takeback"] = False
    options["losing_score"] = (rules.losing_score or MERCY_SCORE) if chosen["mercy"] else None
    return options


def _apply(preset: Preset, given: dict[str, Any]) -> tuple[Rules, dict[str, Any]]:
    unknown = sorted(set(given) - set(HOUSE_RULE_NAMES))
    if unknown:
        raise HouseRuleError(f"unknown house rule(s): {', '.join(unknown)}; house rules: "
                             f"{', '.join(HOUSE_RULE_NAMES)}")
    base = preset.rules
    chosen = {**_defaults(base), **given}
    target = chosen["target_score"]
    targets = _choices(base, "target_score")
    if not isinstance(target, int) or isinstance(target, bool) or target not in targets:
        raise HouseRuleError(f"target_score must be one of {', '.join(map(str, targets))}, "
                             f"not {target!r}")
    for name in HOUSE_RULE_NAMES[1:]:
        if not isinstance(chosen[name], bool):
            raise HouseRuleError(f"{name} must be true or false, not {chosen[name]!r}")
    if chosen["blind_nil"] and not chosen["nil"]:
        raise HouseRuleError("blind nil needs nil: turn nil on, or blind nil off")
    try:
        rules = base.with_options(**_options(base, chosen))
    except RulesError as error:
        raise HouseRuleError(f"{preset.label} cannot be played with these house rules: "
                             f"{error}") from None
    return rules, chosen


def _minus(points: int) -> str:
    return f"minus {-points}" if points < 0 else f"plus {points}"


def _nil_help(r: Rules, value: int) -> str:
    if r.failed_nil == "bags":
        return f"plus {value} if made; if broken no penalty, the tricks count as bags"
    return f"plus {value} if made, minus {value} if broken"


def _help(rules: Rules, name: str) -> str:
    """A house rule's help for this preset, in the numbers it plays with when on."""
    if name == "target_score":
        return ("the game ends after the hand in which a side reaches it; the higher score "
                "wins")
    turned = {name: True, "nil": True} if name == "blind_nil" else {name: True}
    on = rules.with_options(**_options(rules, {**_defaults(rules), **turned}))
    if name == "nil":
        return f"a bid of no tricks: {_nil_help(on, on.nil_value)}"
    if name == "blind_nil":
        text = f"nil bid before looking at your cards: {_nil_help(on, on.blind_nil_value)}"
        if on.draw:
            text += "; declared before your first draw"
        if on.blind_nil_deficit is not None:
            text += (f"; offered only when your side is behind by {on.blind_nil_deficit} "
                     "points or more")
        if on.blind_nil_pass:
            cards = "card goes" if on.blind_nil_pass == 1 else "cards go"
            text += (f"; then {on.blind_nil_pass} {cards} to your partner and "
                     f"{on.blind_nil_pass} come back")
        return text
    if name == "bag_penalty":
        assert on.bag_limit is not None
        takeback = ", and the point each of them scored" if on.bag_takeback else ""
        return (f"every {on.bag_limit} bags (tricks over the bid) cost {on.bag_penalty} "
                f"points{takeback}")
    if name == "undo":
        return ("against computer players only: take back your last card or bid, and what "
                "they played after it, until the hand is over (the game counts as practice)")
    if name == "mercy":
        assert on.losing_score is not None
        return f"a side at {_minus(on.losing_score)} or lower loses"
    out = [f"the {NAME_OF[c]}" for c in on.removed]
    gone = ""
    if out:
        listed = out[0] if len(out) == 1 else ", ".join(out[:-1]) + " and " + out[-1]
        gone = f"{listed} {'leave' if len(out) > 1 else 'leaves'}; "
    return f"{gone}the Big and Little Joker are the two highest spades"


def _house_rules(rules: Rules) -> tuple[HouseRule, ...]:
    defaults = _defaults(rules)
    out = []
    for name, label in HOUSE_RULE_LABELS:
        choices = _choices(rules, name)
        if len(choices) > 1:
            out.append(HouseRule(name=name, label=label, help=_help(rules, name),
                                 choices=choices, default=defaults[name]))
    return tuple(out)


# ---------------------------------------------------------------------------- the registry

def _entry(name: str, label: str, about: str, **options: Any) -> Preset:
    return Preset(name=name, label=label, about=about, rules=Rules(name=name, **options))


_ENTRIES: tuple[Preset, ...] = (
    _entry("partnership", "Partnership",
           "four players, partners opposite, nil, bags; to 500 (rulebook 001)"),
    _entry("two-player", "Two players",
           "two players build hands by drawing; blind nil before the first draw (200), "
           "failed nil costs nothing, bid 13 and take all for 250 (000)",
           players=2, partnership=False, draw=True, blind_nil=True, blind_nil_value=200,
           failed_nil="bags", moon_value=250, spades_break="void"),
    _entry("cutthroat", "Cutthroat (four, each for themselves)",
           "four players each for themselves, no nil, bids 1-13, a set scores 0 (001)",
           players=4, partnership=False, nil=False, set_scoring="zero"),
    _entry("three-player", "Three players",
           "three each for themselves with both jokers, 18 cards each (001)",
           players=3, partnership=False, nil=False, jokers=True, set_scoring="zero"),
    _entry("three-player-kitty", "Three players with a kitty",
           "three each for themselves, 17 cards each and a kitty the 2 of clubs may be "
           "swapped for (003)",
           players=3, partnership=False, nil=False, kitty=True, set_scoring="zero"),
    _entry("five-player", "Five players",
           "five each for themselves, jokers in and twos out, 10 cards each (001)",
           players=5, partnership=False, nil=False, jokers=True, set_scoring="zero"),
    _entry("jokers", "Jokers",
           "partnership with the jokers as the two top spades; the 2 of clubs and 2 of "
           "diamonds leave (001)",
           jokers=True),
    _entry("suicide", "Suicide",
           "partnership where one partner of each side bids nil, the other 4 or more (001)",
           suicide=True),
    _entry("short", "Short game",
           "partnership to 200; a side at -200 or below loses (001)",
           target_score=200, losing_score=MERCY_SCORE),
    _entry("online", "Online rules",
           "partnership where any spade breaks spades, a failed nil's tricks count for "
           "nothing, ten bags cost 100 and their own points, and taking all 13 tricks "
           "(Boston) wins (003)",
           spades_break="any-spade", failed_nil="penalty-void", bag_takeback=True,
           boston=True),
    _entry("house", "House rules",
           "the app's house rules (004): choose target, nil, blind nil, bag penalty, mercy "
           "and jokers",
           spades_break="any-spade", blind_nil_value=200, blind_nil_deficit=BLIND_NIL_DEFICIT,
           blind_nil_pass=BLIND_NIL_PASS),
)

#: Every preset by name, in the order ``spades rules`` lists them.
REGISTRY: dict[str, Preset] = {p.name: p for p in _ENTRIES}
PRESETS: dict[str, Rules] = {name: p.rules for name, p in REGISTRY.items()}
PRESET_HELP: dict[str, str] = {name: p.about for name, p in REGISTRY.items()}


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def find_entry(name: str) -> Preset:
    """The registry entry of that name; a clear error lists the known names."""
    preset = REGISTRY.get(_key(name)) if isinstance(name, str) else None
    if preset is None:
        raise RulesError(f"unknown preset {name!r}; presets: {', '.join(REGISTRY)}")
    return preset


def find_preset(name: str) -> Rules:
    """The rules of the preset of that name; a clear error lists the known names."""
    return find_entry(name).rules


def make_rules(preset: str = "partnership", **options: Any) -> Rules:
    """A preset with options changed, e.g. ``make_rules("house", target_score=300)``."""
    return find_preset(preset).with_options(**options)


def preset_overrides(rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` that differ from its preset's (every option when its name
    is no preset's)."""
    base = PRESETS.get(rules.name)
    if base is None:
        return rules.options()
    return {k: v for k, v in rules.options().items() if getattr(base, k) != v}
