"""The rules of a game as data: one frozen ``Rules`` value, checked when built.

Every variant our rulebooks describe is a ``Rules`` value; house rules are
``dataclasses.replace(preset, ...)`` (or ``rules.with_options(...)``); the named presets
live in ``presets.py``, the registry, which builds on this module (a preset is a ``Rules``
value; ``presets.preset_overrides`` says how rules differ from their preset). ``Rules`` checks
itself when built and refuses an inconsistent combination with a message that names the
options involved.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import BIG_JOKER, CARDS, LITTLE_JOKER, Card, parse_card

SpadesBreak = Literal["offsuit", "any-spade", "void"]
FailedNil = Literal["penalty-bags", "bags", "penalty-void"]
SetScoring = Literal["minus", "zero"]
FirstLead = Literal["left-of-dealer", "lowest-club"]

SPADES_BREAK_CHOICES: tuple[str, ...] = ("offsuit", "any-spade", "void")
FAILED_NIL_CHOICES: tuple[str, ...] = ("penalty-bags", "bags", "penalty-void")
SET_SCORING_CHOICES: tuple[str, ...] = ("minus", "zero")
FIRST_LEAD_CHOICES: tuple[str, ...] = ("left-of-dealer", "lowest-club")

#: The low cards taken out, in this order, so that the deck divides evenly.
_REMOVAL_ORDER = ("2C", "2D", "2H", "2S")


class RulesError(ValueError):
    """An option value or a combination of options that cannot be played."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """A complete description of one variant. See ``OPTION_HELP`` for each option."""

    name: str = "partnership"
    players: int = 4
    partnership: bool = True
    draw: bool = False
    kitty: bool = False
    jokers: bool = False
    target_score: int = 500
    losing_score: int | None = None
    nil: bool = True
    nil_value: int = 100
    blind_nil: bool = False
    blind_nil_value: int = 200
    blind_nil_deficit: int | None = None
    blind_nil_pass: int = 0
    bag_limit: int | None = 10
    bag_penalty: int = 100
    bag_takeback: bool = False
    min_bid: int = 1
    boston: bool = False
    moon_value: int | None = None
    suicide: bool = False
    suicide_min: int = 4
    set_scoring: SetScoring = "minus"
    failed_nil: FailedNil = "penalty-bags"
    spades_break: SpadesBreak = "offsuit"
    first_lead: FirstLead = "left-of-dealer"
    undo: bool = False

    # derived, filled in by __post_init__
    deck: tuple[Card, ...] = field(init=False, repr=False, compare=False)
    hand_size: int = field(init=False, repr=False, compare=False)
    sides: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    side_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    partner_of: tuple[int | None, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check(self)
        deck, hand_size = _deck(self)
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "hand_size", hand_size)
        n = self.players
        if self.partnership:
            sides: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
            partner: tuple[int | None, ...] = (2, 3, 0, 1)
        else:
            sides = tuple((s,) for s in range(n))
            partner = (None,) * n
        object.__setattr__(self, "sides", sides)
        object.__setattr__(self, "side_of", tuple(
            next(i for i, side in enumerate(sides) if s in side) for s in range(n)))
        object.__setattr__(self, "partner_of", partner)

    @property
    def max_bid(self) -> int:
        return self.hand_size

    @property
    def lowest_bid(self) -> int:
        """The lowest bid other than nil anyone may make (suicide: the non-nil partner's)."""
        return self.suicide_min if self.suicide else self.min_bid

    @property
    def removed(self) -> tuple[Card, ...]:
        """The cards of the 52 left out so that the deal comes out even (low twos)."""
        return tuple(c for c in CARDS[:52] if c not in self.deck)

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed (validated); unknown names are refused."""
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(unknown)}; "
                             f"known options: {', '.join(OPTION_NAMES)}")
        return dataclasses.replace(self, **options)

    def options(self) -> dict[str, Any]:
        """Every option and its value (what a record's ``rules`` may override)."""
        return {name: getattr(self, name) for name in OPTION_NAMES}


def _fail(message: str) -> None:
    raise RulesError(message)


def _check(r: Rules) -> None:
    """Refuse a value of the wrong kind, then an option out of range or a combination that
    cannot be played, naming the options involved."""
    _check_kinds(r)
    _check_players(r)
    _check_game_end(r)
    _check_bidding(r)


def _check_kinds(r: Rules) -> None:
    """Each option is of its kind: a whole number, true or false, or one of its choices."""
    ints = ("players", "target_score", "nil_value", "blind_nil_value", "blind_nil_pass",
            "bag_penalty", "min_bid", "suicide_min")
    for name in ints:
        value = getattr(r, name)
        if not isinstance(value, int) or isinstance(value, bool):
            _fail(f"{name} must be a whole number, not {value!r}")
    for name in ("losing_score", "blind_nil_deficit", "bag_limit", "moon_value"):
        value = getattr(r, name)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            _fail(f"{name} must be a whole number or null, not {value!r}")
    for name in ("partnership", "draw", "kitty", "jokers", "nil", "blind_nil", "boston",
                 "suicide", "bag_takeback", "undo"):
        if not isinstance(getattr(r, name), bool):
            _fail(f"{name} must be true or false, not {getattr(r, name)!r}")
    choices = (("spades_break", SPADES_BREAK_CHOICES), ("failed_nil", FAILED_NIL_CHOICES),
               ("set_scoring", SET_SCORING_CHOICES), ("first_lead", FIRST_LEAD_CHOICES))
    for name, allowed in choices:
        if getattr(r, name) not in allowed:
            _fail(f"{name} must be one of {', '.join(allowed)}, not {getattr(r, name)!r}")


def _check_players(r: Rules) -> None:
    """How many play, and how the cards are dealt to them."""
    if not 2 <= r.players <= 5:
        _fail(f"players must be 2 to 5, not {r.players}")
    if r.partnership and r.players != 4:
        _fail(f"partnership needs players = 4 (partners sit opposite), not {r.players}")
    if r.draw != (r.players == 2):
        _fail("two players build their hands with the draw: draw must be true exactly "
              f"when players = 2 (players = {r.players}, draw = {r.draw})")
    if r.kitty and (r.players != 3 or r.jokers):
        _fail("kitty is the three-player game with 52 cards: it needs players = 3 and "
              "jokers = false")


def _check_game_end(r: Rules) -> None:
    """The target score and the mercy rule."""
    if r.target_score <= 0:
        _fail(f"target_score must be positive, not {r.target_score}")
    if r.losing_score is not None and r.losing_score >= r.target_score:
        _fail(f"losing_score ({r.losing_score}) must be below target_score "
              f"({r.target_score})")
    if r.losing_score is not None and r.losing_score >= 0:
        _fail(f"losing_score must be negative (the mercy rule), not {r.losing_score}")


def _check_bidding(r: Rules) -> None:
    """Bids, nil and blind nil, bags, suicide and shooting the moon."""
    if r.min_bid < 0:
        _fail(f"min_bid must be 0 or more, not {r.min_bid}")
    if r.nil and r.min_bid == 0:
        _fail("min_bid = 0 with nil = true: a bid of 0 is nil; set min_bid to 1, or nil "
              "to false to allow a plain bid of 0")
    if r.blind_nil and not r.nil:
        _fail("blind_nil needs nil = true")
    if r.blind_nil_pass < 0:
        _fail(f"blind_nil_pass must be 0 or more, not {r.blind_nil_pass}")
    if r.blind_nil_pass and not r.partnership:
        _fail("blind_nil_pass needs partnership = true (cards go to the partner)")
    if r.blind_nil_deficit is not None and r.blind_nil_deficit < 0:
        _fail(f"blind_nil_deficit must be 0 or more, or null, not {r.blind_nil_deficit}")
    if r.bag_limit is not None and r.bag_limit <= 0:
        _fail(f"bag_limit must be positive or null (no bag penalty), not {r.bag_limit}")
    if r.bag_takeback and r.bag_limit is None:
        _fail("bag_takeback needs a bag_limit")
    if r.suicide and not (r.partnership and r.nil):
        _fail("suicide needs partnership = true and nil = true")
    if r.suicide and r.suicide_min < 1:
        _fail(f"suicide_min must be at least 1, not {r.suicide_min}")
    if r.moon_value is not None and r.partnership:
        _fail("moon_value (shooting the moon) is scored for a player alone: it needs "
              "partnership = false")


def _deck(r: Rules) -> tuple[tuple[Card, ...], int]:
    size = 54 if r.jokers else 52
    if r.draw:
        hand_size = 13
        needed = 4 * hand_size  # each kept card costs one discarded card
    else:
        hand_size = (size - (1 if r.kitty else 0)) // r.players
        needed = hand_size * r.players + (1 if r.kitty else 0)
    removed = _REMOVAL_ORDER[: size - needed]
    if size - needed > len(_REMOVAL_ORDER):
        raise RulesError(f"cannot make an even deal for {r.players} players")
    out = {parse_card(c) for c in removed}
    cards = [c for c in CARDS[:52] if c not in out]
    if r.jokers:
        cards += [LITTLE_JOKER, BIG_JOKER]
    if r.suicide and r.suicide_min > hand_size:
        raise RulesError(f"suicide_min ({r.suicide_min}) is more than a hand ({hand_size})")
    if r.min_bid > hand_size:
        raise RulesError(f"min_bid ({r.min_bid}) is more than a hand ({hand_size} cards)")
    if r.blind_nil_pass > hand_size:
        raise RulesError(f"blind_nil_pass ({r.blind_nil_pass}) is more than a hand "
                         f"({hand_size} cards): no pass could be made")
    return tuple(cards), hand_size


#: Every option a record or a person may set, in the order ``spades rules`` shows them.
OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.init and f.name != "name")

OPTION_HELP: dict[str, str] = {
    "players": "number of players, 2 to 5; seats 0..n-1 clockwise",
    "partnership": "partners sit opposite (sides [0,2] and [1,3]); needs 4 players",
    "draw": "two-player hand building: draw a card, keep it or discard it (then keep the "
            "next), until each holds 13",
    "kitty": "three players with 52 cards: 17 each, the last card face down; the holder of "
             "the 2 of clubs may swap it, unseen, for the kitty",
    "jokers": "Big Joker and Little Joker join as the two highest spades; low twos leave "
              "(2C, 2D, then 2H, 2S) so the deal comes out even",
    "target_score": "the game ends after the hand in which a side reaches this; the higher "
                    "score wins, a tie plays another hand",
    "losing_score": "mercy rule: a side at or below this loses at once (null = off)",
    "nil": "a bid of zero tricks is allowed (nil)",
    "nil_value": "points for a made nil (and lost for a failed one, see failed_nil)",
    "blind_nil": "nil may be bid before looking at the cards",
    "blind_nil_value": "points for a made blind nil (and lost for a failed one)",
    "blind_nil_deficit": "blind nil only when the side is behind by at least this many "
                         "points (null = any time)",
    # bandit reads a key holding "pass" as a password: it is passing cards (B105)
    "blind_nil_pass": "after the bids the blind-nil bidder passes this many cards to the "  # nosec B105
                      "partner, who passes as many back (0 = no passing)",
    "bag_limit": "every time a side's bags reach this it loses bag_penalty (null = bags "
                 "cost nothing)",
    "bag_penalty": "points lost each time the bags reach bag_limit",
    "bag_takeback": "the bags that trigger the penalty also give back the point each "
                    "scored (003: 15 bags net -95)",
    "min_bid": "the lowest bid other than nil",
    "boston": "a side that takes every trick of a hand wins the game at once",
    "moon_value": "shooting the moon (one player bids every trick): points when made; when "
                  "missed, the tricks are bags (null = no special scoring)",
    "suicide": "on each side one partner bids nil and the other at least suicide_min; the "
               "first of the pair to bid chooses which",
    "suicide_min": "the least the non-nil partner may bid in suicide",
    "set_scoring": "a missed bid scores minus 10 a trick bid (minus) or nothing (zero)",
    "failed_nil": "a failed nil: penalty-bags (lose the nil value, tricks are bags), bags "
                  "(no penalty, tricks are bags) or penalty-void (lose the value, tricks "
                  "count for nothing)",
    "spades_break": "when spades may be led: offsuit (after a spade is played on another "
                    "suit's lead), any-spade (after any spade is played), void (after a "
                    "player cannot follow suit)",
    "first_lead": "who leads the first trick: left-of-dealer, or lowest-club (the holder of "
                  "the lowest club leads it)",
    "undo": "a person playing only against computer players may take back their last card "
            "or bid, and what the computer players did after it, until the hand is over "
            "(the game then counts as practice)",
}

