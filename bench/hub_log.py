"""The memory a table's hub keeps for sockets that come back (docs/protocol.md,
"Reconnecting"): the last ``KEEP_CHANGES`` changes of a random partnership game, measured
with tracemalloc as what is freed when the log is dropped (the states share most of their
parts, so this is far less than 64 whole states)."""

from __future__ import annotations

import argparse
import random
import tracemalloc

from spades.engine import PRESETS, GameState, apply, legal_actions, new_game
from spades.server.hub import KEEP_CHANGES
from spades.session import Change, Snapshot


def traced() -> int:
    return sum(s.size for s in tracemalloc.take_snapshot().statistics("filename"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--preset", default="partnership")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tracemalloc.start()
    state: GameState = new_game(PRESETS[args.preset], f"seed-{args.seed}")
    rng = random.Random(args.seed)
    log: list[Change] = []
    for step in range(1, 2000):
        if state.over:
            break
        after = apply(state, rng.choice(legal_actions(state)))
        log = [*log, Change(state, Snapshot(after, step, step), 0, None)][-KEEP_CHANGES:]
        state = after
    held = traced()
    log.clear()
    print(f"{args.preset}: the last {KEEP_CHANGES} changes hold {(held - traced()) / 1024:.0f} KiB "
          "(tracemalloc)")


if __name__ == "__main__":
    main()
