"""``spades verify RECORD.json [--json]``: check every hand's shuffle (docs/shuffle.md).

Exit 0 when every revealed hand is verified (hands not revealed are shown, not failed), 1 when
anything did not match, 2 when the record cannot be read.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from spades.engine import VERIFIED, RecordError, verify_record

from .replay import MAX_MESSAGE, MAX_RECORD_BYTES, Unreadable, open_record, refuse, shown


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "verify", help="check that each hand's deck is the one its revealed seed gives",
        description="Check every hand of a spades-record/2 file: the commitment shown before "
                    "the deal against the revealed seed and salt, the deck against the one "
                    "the seed and the players' entropy give (spades-shuffle/1), and the deck "
                    "against the cards dealt and played. Exit 0: every revealed hand verified; "
                    "1: something did not match; 2: the record cannot be read (UTF-8 JSON of "
                    f"at most {MAX_RECORD_BYTES // 2**20} MB).")
    parser.add_argument("record", help="a game record (JSON); - reads standard input")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        checks = verify_record(open_record(args.record))
    except (Unreadable, RecordError) as error:
        return refuse("verify", args.record, str(error))
    ok = all(check.ok for check in checks)
    if args.json:
        print(json.dumps({"verified": ok, "hands": [check.to_json() for check in checks]}))
        return 0 if ok else 1
    for check in checks:
        if check.problems:
            for problem in check.problems:
                print(f"hand {check.number}: {shown(problem.message, MAX_MESSAGE)}")
        else:
            print(shown(check.message(), MAX_MESSAGE))
    counts = {status: sum(c.status == status for c in checks)
              for status in dict.fromkeys(c.status for c in checks)}
    tally = ", ".join(f"{n} {status}" for status, n in counts.items()) or "no hands"
    if not ok:
        verdict = "MISMATCH"
    elif any(c.status == VERIFIED for c in checks):
        verdict = "Every revealed shuffle verified"
    else:
        verdict = "No shuffle is revealed: nothing to check"
    print(f"\n{verdict} ({tally}).")
    return 0 if ok else 1
