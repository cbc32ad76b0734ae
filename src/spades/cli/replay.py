"""``spades replay RECORD.json [--json]``: the score sheet of a game record."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from spades.engine import (
    GameState,
    RecordError,
    end_reason,
    parse_record,
    practice_of,
    preset_overrides,
    replay,
    summary,
)


def register(sub: Any) -> None:
    parser = sub.add_parser("replay", help="score a game record hand by hand",
                            description="Replay a spades-record/2 (or /1) file through the "
                                        "rules and print bids, tricks, points, bags and "
                                        "running score. A record is UTF-8 JSON of at most "
                                        f"{MAX_RECORD_BYTES // 2**20} MB; exit code 2 "
                                        "and a message when it cannot be read or replayed.")
    parser.add_argument("record", help="a game record (JSON); - reads standard input")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


#: The largest record we read. A long real game is under 100 KB (about 2 KB a hand); a
#: record this big would be thousands of hands, so anything larger is refused unread.
MAX_RECORD_BYTES = 8 * 1024 * 1024
#: Names are shown at most this long, so a huge name cannot flood the terminal hand after hand.
MAX_NAME = 40
#: Error messages quote the record; at most this much of them is shown.
MAX_MESSAGE = 400


class Unreadable(ValueError):
    """A record we cannot read as JSON text; the message says why, for a person."""


def shown(text: str, limit: int) -> str:
    """``text`` made safe for a terminal: every control or invisible formatting character
    (ESC, BEL, C1 codes, bidi overrides, newlines...) written as a visible escape such as
    ``\\x1b``, and at most ``limit`` characters."""
    safe = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text[:limit + 1])
    return safe if len(safe) <= limit else safe[:limit - 3] + "..."


def _refuse_constant(name: str) -> Any:
    raise Unreadable(f"{name} is not a JSON number")


def read_record(source: str) -> Any:
    """The parsed JSON of a record file (``-``: standard input), read safely: at most
    ``MAX_RECORD_BYTES``, strict UTF-8 and strict JSON. Raises ``OSError`` or ``Unreadable``."""
    if source == "-":
        raw = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
    else:
        with open(source, "rb") as file:
            raw = file.read(MAX_RECORD_BYTES + 1)
    if len(raw) > MAX_RECORD_BYTES:
        raise Unreadable(f"is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB, the most a "
                         "record may be (a long game is under 100 KB)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise Unreadable(f"is not UTF-8 text (byte 0x{raw[error.start]:02x} at offset "
                         f"{error.start}); a record is JSON in UTF-8") from None
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise Unreadable(f"is not JSON: {error}") from None
    except RecursionError:
        raise Unreadable("is not a record: its JSON is nested too deeply") from None
    except Unreadable:  # NaN or Infinity
        raise
    except ValueError as error:
        if "digits" in str(error):  # the interpreter's limit on digits in an integer
            raise Unreadable(f"is not a record: it has an integer longer than "
                             f"{sys.get_int_max_str_digits()} digits") from None
        raise Unreadable(f"is not JSON: {error}") from None


def _side_name(side: list[int], players: list[str] | None) -> str:
    if players:
        return " & ".join(players[s] for s in side)
    return " & ".join(f"seat {s}" for s in side)


#: Why the game ended, in words (``spades.engine.END_REASONS``).
REASONS = {"target": "{who} reached the target of {target}.",
           "mercy": "A side fell to {losing} or lower: the mercy rule ended the game.",
           "boston": "A Boston (every trick of a hand) ended the game.",
           "moon": "A shot at the moon ended the game."}


def _reason(state: GameState) -> str | None:
    """Why a finished game ended (one of ``END_REASONS``), from its last hand."""
    if not state.over or not state.results:
        return None
    last = state.results[-1]
    return end_reason(state.rules, last.bids, last.tricks, last.score)


def _verdict(side: list[int], players: list[str] | None) -> str:
    """"Bramble wins", "Bramble and Clover win" (and "You win"): one name or several."""
    names = [players[s] if players else f"seat {s}" for s in side]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{who} win{'s' if len(names) == 1 and who != 'You' else ''}"


def _undos(state: GameState, number: int, players: list[str] | None) -> list[str]:
    """Lines for the undos of hand ``number`` (from 0): who took back how many actions."""
    out = []
    for entry in state.undos:
        if entry.hand == number:
            who = players[entry.seat] if players else f"seat {entry.seat}"
            count = len(entry.taken)
            out.append(f"  Undo: {who} took back {count} action{'' if count == 1 else 's'}")
    return out


def refuse(command: str, source: str, message: str) -> int:
    """Say on standard error why ``spades COMMAND`` cannot use the record ``source``: exit 2."""
    print(f"spades {command}: {shown(source, MAX_NAME * 4)}: {shown(message, MAX_MESSAGE)}",
          file=sys.stderr)
    return 2


def open_record(source: str) -> Any:
    """``read_record`` with a file that cannot be opened refused as ``Unreadable`` too."""
    try:
        return read_record(source)
    except OSError as error:
        raise Unreadable(f"cannot read it: {error.strerror or error}") from None


def run(args: argparse.Namespace) -> int:
    try:
        record = parse_record(open_record(args.record))
        state = replay(record)
    except (Unreadable, RecordError) as error:
        return refuse("replay", args.record, str(error))
    result = summary(state)
    practice = practice_of(state)
    if practice:  # an undo, a hint or a chosen deal (issue 41)
        result["practice"] = list(practice)
    reason = _reason(state)
    if reason is not None:  # only a finished game says why it ended
        result["final"]["reason"] = reason
    if args.json:
        print(json.dumps(result))
        return 0
    players = [shown(p, MAX_NAME) for p in record.players] if record.players else None
    sides = result["sides"]
    names = [_side_name(side, players) for side in sides]
    print(f"Rules: {shown(state.rules.name, MAX_NAME)}"
          + "".join(f", {k}={json.dumps(v)}" for k, v in preset_overrides(state.rules).items()))
    print("Sides: " + "; ".join(f"{i}: {name}" for i, name in enumerate(names)))
    if practice:
        print(f"Practice game ({', '.join(practice)}): its statistics count apart.")
    for number, hand in enumerate(result["hands"], start=1):
        dealer = players[hand["dealer"]] if players else f"seat {hand['dealer']}"
        print(f"\nHand {number} (dealer {dealer})")
        for i, side in enumerate(sides):
            bids = "+".join(str(hand["bids"][s]) for s in side)
            tricks = "+".join(str(hand["tricks"][s]) for s in side)
            print(f"  {names[i]:24} bid {bids:10} took {tricks:8} points {hand['points'][i]:5}"
                  f"  bags {hand['bags'][i]:2}  score {hand['scores'][i]:5}")
        for line in _undos(state, number - 1, players):
            print(line)
    if record.seen is not None or (not state.over and state.hand.actions):
        print(f"\nHand {len(result['hands']) + 1} is in play.")
        for line in _undos(state, len(result["hands"]), players):
            print(line)
    final = result["final"]
    print()
    if final["over"]:
        winner = final["winner"]
        why = REASONS.get(reason or "", "").format(
            who=names[winner] if winner is not None else "a side",
            target=state.rules.target_score, losing=state.rules.losing_score)
        verdict = _verdict(sides[winner], players) if winner is not None else "nobody wins"
        print(f"Game over: {verdict}, "
              + ", ".join(f"{names[i]} {s}" for i, s in enumerate(final["scores"]))
              + "." + (f" {why}" if why else ""))
    else:
        print("Game not finished: " + ", ".join(f"{names[i]} {s}"
                                                 for i, s in enumerate(final["scores"])))
    return 0
