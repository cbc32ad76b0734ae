"""Game records (``spades-record/3``, see docs/record-format.md) to and from states.

A record is a game's rules, each hand's deck and the ordered actions. Reading one replays it
through the engine, so a record that breaks a rule is refused with the hand and action
numbers (both counted from 1) and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import (
    BLIND_NIL,
    NIL,
    Action,
    Bid,
    Draw,
    Exchange,
    IllegalActionError,
    Look,
    PassCards,
    Play,
)
from .cards import CODE_OF, Card, CardError, parse_card
from .game import DeckError, apply, check_deck, is_idle_look, new_game
from .presets import find_preset, preset_overrides
from .rules import OPTION_NAMES, Rules, RulesError
from .shuffle import (
    COMMIT,
    COMMIT_PLAIN,
    CURRENT,
    Revealed,
    Shuffle,
    check_shuffle,
    deck_of_hand,
    hand_commitment,
    hand_salt,
    hand_seed,
)
from .state import GameState, Start, Undo
from .takeback import hand_log, undo

FORMAT = "spades-record/3"
#: The formats we read: /1 has no looks (a look is inferred where a seat acted on its
#: cards) and no per-hand seeds; /2 has no undos, no chosen deal and no practice marks.
FORMATS = ("spades-record/1", "spades-record/2", FORMAT)
#: The commitment scheme of a hand whose deal was chosen (play a deal again): no seed.
CHOSEN = "chosen"
#: What a practice mark may say (``undo`` and ``deal`` a game shows by itself).
PRACTICE_REASONS = ("deal", "hint", "undo")


@dataclass(frozen=True, slots=True)
class TakeBack:
    """A record's undo entry: the seat took back its last card or bid and what followed,
    the hand's last ``count`` actions (``/3``)."""

    count: int


#: A record's hands: each one's deck and entries (actions and undos), in order.
Hands = tuple[tuple[tuple[Card, ...], tuple[tuple[int, Action | TakeBack], ...]], ...]


class RecordError(ValueError):
    """A record we cannot read or that breaks the rules; ``hand`` and ``action`` count
    from 1 when the fault is in one action."""

    def __init__(self, message: str, hand: int | None = None, action: int | None = None):
        where = ""
        if hand is not None and action is not None:
            where = f"hand {hand}, action {action}: "
        elif hand is not None:
            where = f"hand {hand}: "
        super().__init__(where + message)
        self.hand = hand
        self.action = action
        self.reason = message


@dataclass(frozen=True, slots=True)
class SeenHand:
    """The hand in play as one seat saw it (a download of a game in play): that seat's
    cards and the public actions. It is read and shown, never replayed."""

    seat: int
    cards: tuple[Card, ...]
    actions: tuple[tuple[int, Action | TakeBack], ...]


@dataclass(frozen=True, slots=True)
class Record:
    rules: Rules
    players: tuple[str, ...] | None
    first_dealer: int | None
    hands: Hands
    seen: SeenHand | None = None
    #: each seat's computer player level ("easy", ...), None for a person (or not recorded)
    levels: tuple[str | None, ...] | None = None
    #: a game begun from a chosen deal (the first hand's), and the scores it began from
    start: Start | None = None
    #: the practice marks (such as "hint") beyond what the game shows by itself
    marks: tuple[str, ...] = ()


# ---------------------------------------------------------------------------- reading

def rules_from_json(data: Any) -> Rules:
    if not isinstance(data, Mapping):
        raise RecordError('"rules" must be an object such as {"preset": "partnership"}')
    options = dict(data)
    preset = options.pop("preset", "partnership")
    if not isinstance(preset, str):
        raise RecordError('"rules.preset" must be a preset name')
    try:
        base = find_preset(preset)
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(unknown)}")
        return base.with_options(**options)
    except (RulesError, TypeError) as error:
        raise RecordError(f"rules: {error}") from None


def rules_to_json(rules: Rules) -> dict[str, Any]:
    return {"preset": rules.name, **preset_overrides(rules)}


def parse_bid(value: Any, rules: Rules) -> Bid:
    if value == "nil" or (value == 0 and not isinstance(value, bool) and rules.nil):
        return NIL
    if value == "blind-nil":
        return BLIND_NIL
    if isinstance(value, int) and not isinstance(value, bool):
        return Bid(value)
    raise ValueError(f'a bid is a whole number, "nil" or "blind-nil", not {value!r}')


def parse_action(data: Any, rules: Rules, version: int = 2) -> tuple[int, Action]:
    """One record action (``version`` of the record format); raises ValueError with a
    plain reason."""
    if not isinstance(data, Mapping):
        raise ValueError(f"an action is an object such as {{\"seat\": 0, \"play\": \"AS\"}}, "
                         f"not {data!r}")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise ValueError(f'"seat" must be a seat from 0 to {rules.players - 1}, not {seat!r}')
    names = ("bid", "play", "pass", "draw", "exchange", "look")[:6 if version >= 2 else 5]
    kinds = [k for k in names if k in data]
    extra = sorted(set(data) - {"seat", *kinds})
    if len(kinds) != 1 or extra:
        listed = ", ".join(f'"{k}"' for k in names)
        raise ValueError(f'an action has "seat" and exactly one of {listed}; '
                         f'got {sorted(data)}')
    kind = kinds[0]
    value = data[kind]
    action: Action
    if kind == "look":
        if value is not True:
            raise ValueError(f"a look is true, not {value!r}")
        action = Look(seat)
    elif kind == "bid":
        action = parse_bid(value, rules)
    elif kind == "play":
        if not isinstance(value, str):
            raise ValueError(f"a play is a card such as \"AS\", not {value!r}")
        action = Play(parse_card(value))
    elif kind == "pass":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValueError(f'a pass is a list of cards such as ["2C", "3D"], not {value!r}')
        action = PassCards(tuple(parse_card(v) for v in value))
    elif kind == "draw":
        if value not in ("keep", "discard"):
            raise ValueError(f'a draw is "keep" or "discard", not {value!r}')
        action = Draw(value == "keep")
    else:
        if not isinstance(value, bool):
            raise ValueError(f"an exchange is true or false, not {value!r}")
        action = Exchange(value)
    return seat, action


def action_to_json(seat: int, action: Action) -> dict[str, Any]:
    if isinstance(action, Play):
        return {"seat": seat, "play": CODE_OF[action.card]}
    if isinstance(action, Bid):
        return {"seat": seat, "bid": action.code}
    if isinstance(action, Draw):
        return {"seat": seat, "draw": "keep" if action.keep else "discard"}
    if isinstance(action, PassCards):
        return {"seat": seat, "pass": [CODE_OF[c] for c in action.cards]}
    if isinstance(action, Look):
        return {"seat": seat, "look": True}
    return {"seat": seat, "exchange": action.take}


def parse_record(data: Any, *, shuffles: bool = True) -> Record:
    """Check the shape of a record (not yet its legality: see ``replay``), and with
    ``shuffles`` that each revealed hand seed matches its commitment and deck (``spades
    verify`` reads without, to report every mismatch rather than stop at the first)."""
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    if data.get("format") not in FORMATS:
        raise RecordError(f'"format" must be "{FORMAT}" (or "{FORMATS[0]}"), '
                          f'not {data.get("format")!r}')
    version = FORMATS.index(data["format"]) + 1
    known = {"format", "rules", "players", "levels", "first_dealer", "hands", "seed", "result"}
    if version >= 3:
        known |= {"start", "practice"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise RecordError(f"unknown field(s): {', '.join(unknown)}")
    rules = rules_from_json(data.get("rules", {"preset": "partnership"}))
    players = data.get("players")
    if players is not None:
        if (not isinstance(players, list) or len(players) != rules.players
                or not all(isinstance(p, str) for p in players)):
            raise RecordError(f'"players" must be a list of {rules.players} names')
        players = tuple(players)
    levels = _parse_levels(data.get("levels"), rules.players)
    dealer = data.get("first_dealer")
    if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool)
                               or not 0 <= dealer < rules.players):
        raise RecordError(f'"first_dealer" must be a seat from 0 to {rules.players - 1}')
    hands, seen = _parse_hands(data.get("hands"), rules, version, shuffles)
    return Record(rules=rules, players=players, first_dealer=dealer, hands=hands,
                  seen=seen, levels=levels, start=_parse_start(data.get("start"), rules),
                  marks=_parse_marks(data.get("practice")))


def _parse_hands(hands_data: Any, rules: Rules, version: int,
                 shuffles: bool) -> tuple[Hands, SeenHand | None]:
    """A record's ``hands``: each hand's deck and entries, and the hand in play as one seat
    saw it (a download), if the last hand is one."""
    if not isinstance(hands_data, list):
        raise RecordError('"hands" must be a list')
    hands = []
    seen: SeenHand | None = None
    keys = {"deck", "actions", "seen"} | (set(SHUFFLE_FIELDS) if version >= 2 else set())
    for h, hand in enumerate(hands_data, start=1):
        if not isinstance(hand, Mapping) or set(hand) - keys:
            more = (" (and " + ", ".join(f'"{k}"' for k in SHUFFLE_FIELDS) + ")"
                    if version >= 2 else "")
            raise RecordError(f'a hand is an object with "deck" and "actions"{more}', hand=h)
        actions = _parse_actions(hand.get("actions", []), rules, h, version)
        if "seen" in hand:
            if "deck" in hand or "seed" in hand or h != len(hands_data):
                raise RecordError('only the last hand may be "seen" (a hand in play as one '
                                  'seat saw it), and it has no "deck" nor "seed"', hand=h)
            seen = _parse_seen(hand["seen"], rules, h, actions)
            continue
        deck_data = hand.get("deck")
        if not isinstance(deck_data, list) or not all(isinstance(c, str) for c in deck_data):
            raise RecordError('"deck" must be a list of cards', hand=h)
        try:
            deck = tuple(parse_card(c) for c in deck_data)
        except CardError as error:
            raise RecordError(f"deck: {error}", hand=h) from None
        revealed = revealed_of(hand, h)
        if shuffles:
            problems = check_shuffle(rules.deck, deck, revealed)
            if problems:
                raise RecordError(problems[0].message, hand=h)
        hands.append((deck, actions))
    return tuple(hands), seen


def _parse_start(data: Any, rules: Rules) -> Start | None:
    """The optional ``start`` of a game from a chosen deal: each side's scores and bags."""
    if data is None:
        return None
    sides = len(rules.sides)

    def numbers(value: Any) -> bool:
        return (isinstance(value, list) and len(value) == sides
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value))

    if (not isinstance(data, Mapping) or set(data) != {"scores", "bags"}
            or not numbers(data["scores"]) or not numbers(data["bags"])
            or any(b < 0 for b in data["bags"])):
        raise RecordError(f'"start" is {{"scores": [...], "bags": [...]}}, {sides} whole '
                          "numbers each (bags not negative)")
    return Start(scores=tuple(data["scores"]), bags=tuple(data["bags"]))


def _parse_marks(data: Any) -> tuple[str, ...]:
    """The optional ``practice``: why the game is practice (some of ``PRACTICE_REASONS``)."""
    if data is None:
        return ()
    if not isinstance(data, list) or not all(v in PRACTICE_REASONS for v in data):
        raise RecordError(f'"practice" is a list of reasons from {", ".join(PRACTICE_REASONS)}')
    return tuple(sorted(set(data)))


#: The longest level name a record may hold.
MAX_LEVEL = 32


def _parse_levels(data: Any, players: int) -> tuple[str | None, ...] | None:
    """The optional ``levels``: one entry per seat, a computer player's level or null."""
    if data is None:
        return None
    if (not isinstance(data, list) or len(data) != players
            or not all(v is None or (isinstance(v, str) and 0 < len(v) <= MAX_LEVEL)
                       for v in data)):
        raise RecordError(f'"levels" must be a list of {players} entries, each a computer '
                          "player's level (such as \"normal\") or null for a person")
    return tuple(data)


#: A hand's optional shuffle fields in ``/2`` (docs/record-format.md, docs/shuffle.md).
SHUFFLE_FIELDS = ("seed", "salt", "commitment", "commitment_scheme", "entropy")


def revealed_of(hand: Mapping[str, Any], h: int) -> Revealed:
    """A record hand's shuffle fields, their types checked (``h``: the hand, from 1, for the
    message). A hand naming no ``commitment_scheme`` has the first, unsalted one."""
    for name in ("seed", "salt", "commitment", "commitment_scheme"):
        value = hand.get(name)
        if value is not None and not isinstance(value, str):
            raise RecordError(f'"{name}" must be a string', hand=h)
    entropy = hand.get("entropy", [])
    if not isinstance(entropy, list) or not all(isinstance(e, str) for e in entropy):
        raise RecordError('"entropy" must be a list of strings', hand=h)
    return Revealed(commitment=hand.get("commitment"), seed=hand.get("seed"),
                    salt=hand.get("salt"), entropy=tuple(entropy),
                    scheme=hand.get("commitment_scheme", COMMIT_PLAIN))


def _parse_actions(data: Any, rules: Rules, h: int,
                   version: int) -> tuple[tuple[int, Action | TakeBack], ...]:
    if not isinstance(data, list):
        raise RecordError('"actions" must be a list', hand=h)
    actions: list[tuple[int, Action | TakeBack]] = []
    for a, item in enumerate(data, start=1):
        try:
            if version >= 3 and isinstance(item, Mapping) and "undo" in item:
                actions.append(_parse_undo(item, rules))
                continue
            actions.append(parse_action(item, rules, version))
        except ValueError as error:
            raise RecordError(str(error), hand=h, action=a) from None
    return tuple(actions)


def _parse_undo(data: Mapping[str, Any], rules: Rules) -> tuple[int, TakeBack]:
    """An undo entry, ``{"seat": 0, "undo": 5}``; raises ValueError with a plain reason."""
    seat, count = data.get("seat"), data["undo"]
    if set(data) != {"seat", "undo"}:
        raise ValueError(f'an undo has "seat" and "undo" only; got {sorted(data)}')
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise ValueError(f'"seat" must be a seat from 0 to {rules.players - 1}, not {seat!r}')
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise ValueError(f"an undo takes back a number of actions (1 or more), not {count!r}")
    return seat, TakeBack(count)


def _parse_seen(data: Any, rules: Rules, h: int,
                actions: tuple[tuple[int, Action | TakeBack], ...]) -> SeenHand:
    if not isinstance(data, Mapping) or set(data) != {"seat", "cards"}:
        raise RecordError('"seen" is {"seat": N, "cards": [...]}', hand=h)
    seat = data["seat"]
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise RecordError(f'"seen.seat" must be a seat from 0 to {rules.players - 1}', hand=h)
    cards_data = data["cards"]
    if not isinstance(cards_data, list) or not all(isinstance(c, str) for c in cards_data):
        raise RecordError('"seen.cards" must be a list of cards', hand=h)
    try:
        cards = tuple(parse_card(c) for c in cards_data)
    except CardError as error:
        raise RecordError(f"seen: {error}", hand=h) from None
    return SeenHand(seat=seat, cards=cards, actions=actions)


def replay(record: Record, seed: int | str = 0, shuffle: Shuffle | None = None, *,
           from_seed: bool = False) -> GameState:
    """Play a record through the engine; the state after its last action. Hands beyond the
    record's decks are shuffled from ``seed`` (keep it secret when the game goes on), by
    ``shuffle`` (default ``spades-shuffle/1``). With ``from_seed`` (a saved game resumed),
    the last decks that are the very ones ``spades-shuffle/1`` gives from ``seed`` count as
    dealt from it, as they were: their commitments are shown and their seeds revealed."""
    decks = [deck for deck, _ in record.hands]
    for h, deck in enumerate(decks, start=1):
        try:
            check_deck(record.rules, deck, h - 1)
        except DeckError as error:
            raise RecordError(str(error), hand=h) from None
    shuffle = Shuffle() if shuffle is None else shuffle
    given = len(decks)
    if from_seed and shuffle.version == CURRENT:
        while given and tuple(decks[given - 1]) == deck_of_hand(record.rules.deck, seed,
                                                                given - 1, shuffle):
            given -= 1
    if record.start is not None:  # the first deal was chosen, never dealt from the seed
        given = max(given, 1)
    try:
        state = new_game(record.rules, seed, decks=decks[:given],
                         first_dealer=record.first_dealer, shuffle=shuffle,
                         start=record.start)
    except ValueError as error:
        raise RecordError(str(error)) from None
    state = state._replace(marks=record.marks)
    for h, (_, actions) in enumerate(record.hands, start=1):
        if state.over and h > len(state.results):
            raise RecordError("the game is over: no hand follows it", hand=h,
                              action=1 if actions else None)
        if state.hand.number != h - 1 and actions:
            raise RecordError(
                "the game is over" if state.over else
                f"hand {state.hand.number + 1} is still in play: its actions must come first",
                hand=h, action=1)
        for a, (seat, action) in enumerate(actions, start=1):
            state = _replay_one(state, seat, action, h, a)
        if h < len(record.hands) and not state.over and state.hand.number == h - 1:
            raise RecordError("the hand is not finished but another hand follows it", hand=h)
    return state


def _replay_one(state: GameState, seat: int, action: Action | TakeBack, h: int,
                a: int) -> GameState:
    """The state after one record entry (hand ``h``, entry ``a``, both from 1)."""
    if state.over:
        raise RecordError("the game is over", hand=h, action=a)
    if isinstance(action, TakeBack):  # an undo may be asked for out of turn
        try:
            after = undo(state, seat)
        except IllegalActionError as error:
            raise RecordError(str(error), hand=h, action=a) from None
        taken = len(after.undos[-1].taken)
        if taken != action.count:
            raise RecordError(f"seat {seat}'s undo takes back {taken} action(s), the "
                              f"record says {action.count}", hand=h, action=a)
        return after
    if is_idle_look(state, action):  # an older save's look that changes nothing
        return state
    if seat != state.hand.turn and not isinstance(action, Look):
        raise RecordError(f"it is seat {state.hand.turn}'s turn, not seat {seat}'s",
                          hand=h, action=a)
    try:
        return apply(state, action)
    except IllegalActionError as error:
        raise RecordError(str(error), hand=h, action=a) from None


def load_record(data: Any, seed: int | str = 0, shuffle: Shuffle | None = None, *,
                from_seed: bool = False) -> GameState:
    """Check and replay a record (a parsed JSON object); ``from_seed`` as for ``replay``."""
    return replay(parse_record(data), seed, shuffle, from_seed=from_seed)


def loads(text: str, seed: int | str = 0) -> GameState:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}") from None
    return load_record(data, seed)


# ---------------------------------------------------------------------------- writing

def record_of(state: GameState, players: Sequence[str] | None = None, *,
              reveal: bool = False,
              levels: Sequence[str | None] | None = None) -> dict[str, Any]:
    """The whole record of a game so far (every deck: not for another seat's eyes). With
    ``reveal``, each finished hand dealt from the game's seed also gets its hand ``seed``,
    ``salt``, ``commitment`` (``spades-commit/1``) and ``entropy``, so that anyone can
    check its deck (docs/shuffle.md). ``levels``: each seat's computer player level, None
    for a person."""
    hands: list[dict[str, Any]] = []
    hand: dict[str, Any]
    for r in state.results:
        hand = {"deck": [CODE_OF[c] for c in r.deck],
                "actions": log_to_json(r.actions, state.undos, r.number)}
        if r.number == 0 and state.start is not None:
            hand["commitment_scheme"] = CHOSEN
        elif reveal and r.number >= len(state.decks) and state.shuffle.version == CURRENT:
            hand["seed"] = hand_seed(state.seed, r.number)
            hand["salt"] = hand_salt(state.seed, r.number)
            hand["commitment_scheme"] = COMMIT
            hand["commitment"] = hand_commitment(state.seed, r.number)
            entropy = state.shuffle.entropy_of(r.number)
            if entropy:
                hand["entropy"] = list(entropy)
        hands.append(hand)
    if not state.over:
        hand = {"deck": [CODE_OF[c] for c in state.hand.deck],
                "actions": log_to_json(state.hand.actions, state.undos, state.hand.number)}
        if state.hand.number == 0 and state.start is not None:
            hand["commitment_scheme"] = CHOSEN
        hands.append(hand)
    # a game with nothing of /3 is written as /2, which readers of /2 still read
    plain = not (state.undos or state.start or state.marks or state.rules.undo)
    out: dict[str, Any] = {"format": FORMATS[1] if plain else FORMAT,
                           "rules": rules_to_json(state.rules)}
    if players is not None:
        out["players"] = list(players)
    if levels is not None:
        out["levels"] = list(levels)
    out["first_dealer"] = state.first_dealer
    if state.start is not None:
        out["start"] = {"scores": list(state.start.scores), "bags": list(state.start.bags)}
    if state.marks:
        out["practice"] = list(state.marks)
    out["hands"] = hands
    return out


def log_to_json(actions: Sequence[tuple[int, Action]], undos: Sequence[Undo],
                number: int) -> list[dict[str, Any]]:
    """Hand ``number``'s record entries: its ``actions`` with the game's ``undos`` of that
    hand in their places (``{"seat": 0, "undo": 5}``), the actions taken back before each."""
    out = []
    for seat, entry in hand_log(actions, [u for u in undos if u.hand == number]):
        if isinstance(entry, Undo):
            out.append({"seat": seat, "undo": len(entry.taken)})
        else:
            out.append(action_to_json(seat, entry))
    return out


def practice_of(state: GameState) -> tuple[str, ...]:
    """Why a game is practice (sorted; empty for a game that counts): an undo, a chosen
    deal, or a mark such as a hint."""
    found = set(state.marks)
    if state.undos:
        found.add("undo")
    if state.start is not None:
        found.add("deal")
    return tuple(sorted(found))


def mark_practice(state: GameState, reason: str) -> GameState:
    """The game marked practice for ``reason`` (one of ``PRACTICE_REASONS``)."""
    if reason not in PRACTICE_REASONS:
        raise ValueError(f"a practice mark is one of {', '.join(PRACTICE_REASONS)}, "
                         f"not {reason!r}")
    return state._replace(marks=tuple(sorted({*state.marks, reason})))


def summary(state: GameState) -> dict[str, Any]:
    """What ``spades replay --json`` prints: complete hands and the result."""
    return {
        "sides": [list(side) for side in state.rules.sides],
        "hands": [{"dealer": r.dealer, "bids": [b.code for b in r.bids],
                   "tricks": list(r.tricks), "points": list(r.score.points),
                   "bags": list(r.score.bags), "scores": list(r.score.scores)}
                  for r in state.results],
        "final": {"scores": list(state.scores), "over": state.over, "winner": state.winner},
    }


__all__ = [
    "CHOSEN",
    "FORMAT",
    "FORMATS",
    "PRACTICE_REASONS",
    "SHUFFLE_FIELDS",
    "Record",
    "RecordError",
    "SeenHand",
    "TakeBack",
    "action_to_json",
    "load_record",
    "loads",
    "log_to_json",
    "mark_practice",
    "parse_action",
    "parse_bid",
    "parse_record",
    "practice_of",
    "record_of",
    "replay",
    "revealed_of",
    "rules_from_json",
    "rules_to_json",
    "summary",
]
