"""``spades replay RECORD.json [--json]``: the score sheet of a game record."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from spades.engine import RecordError, parse_record, replay, summary


def register(sub: Any) -> None:
    parser = sub.add_parser("replay", help="score a game record hand by hand",
                            description="Replay a spades-record/1 file through the rules and "
                                        "print bids, tricks, points, bags and running score.")
    parser.add_argument("record", help="a game record (JSON); - reads standard input")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def _side_name(side: list[int], players: list[str] | None) -> str:
    if players:
        return " & ".join(players[s] for s in side)
    return " & ".join(f"seat {s}" for s in side)


def run(args: argparse.Namespace) -> int:
    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            with open(args.record, encoding="utf-8") as file:
                text = file.read()
    except OSError as error:
        print(f"spades replay: cannot read {args.record}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        print(f"spades replay: {args.record} is not JSON: {error}", file=sys.stderr)
        return 2
    try:
        record = parse_record(data)
        state = replay(record)
    except RecordError as error:
        print(f"spades replay: {args.record}: {error}", file=sys.stderr)
        return 2
    result = summary(state)
    if args.json:
        print(json.dumps(result))
        return 0
    players = list(record.players) if record.players else None
    sides = result["sides"]
    names = [_side_name(side, players) for side in sides]
    print(f"Rules: {state.rules.name}"
          + "".join(f", {k}={json.dumps(v)}" for k, v in state.rules.overrides().items()))
    print("Sides: " + "; ".join(f"{i}: {name}" for i, name in enumerate(names)))
    for number, hand in enumerate(result["hands"], start=1):
        dealer = players[hand["dealer"]] if players else f"seat {hand['dealer']}"
        print(f"\nHand {number} (dealer {dealer})")
        for i, side in enumerate(sides):
            bids = "+".join(str(hand["bids"][s]) for s in side)
            tricks = "+".join(str(hand["tricks"][s]) for s in side)
            print(f"  {names[i]:24} bid {bids:10} took {tricks:8} points {hand['points'][i]:5}"
                  f"  bags {hand['bags'][i]:2}  score {hand['scores'][i]:5}")
    if record.seen is not None or (not state.over and state.hand.actions):
        print(f"\nHand {len(result['hands']) + 1} is in play.")
    final = result["final"]
    print()
    if final["over"]:
        print(f"Game over: {names[final['winner']]} win(s), "
              + ", ".join(f"{names[i]} {s}" for i, s in enumerate(final["scores"])))
    else:
        print("Game not finished: " + ", ".join(f"{names[i]} {s}"
                                                 for i, s in enumerate(final["scores"])))
    return 0
