"""The ``spades`` command: play, replay, review, rules, arena, serve, stats, verify, db.

Each sub-command lives in its own module of this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a callable taking the
parsed arguments and returning the exit code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

COMMANDS = ("play", "serve", "replay", "review", "rules", "arena", "stats", "verify", "db")


def version() -> str:
    """The version, and which search the computer players and hand reviews use (compiled
    or pure)."""
    from spades import __version__
    from spades.ai.native import SEARCH

    return f"spades {__version__}, search: {SEARCH}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spades",
        description="Spades: every variant, honest computer players, a table in the browser.")
    parser.add_argument("--version", action="version", version=version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:  # a command that fails to import is an error, never left out
        importlib.import_module(f"spades.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `spades rules | head`
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 0


if __name__ == "__main__":
    sys.exit(main())
