"""The flags of ``spades serve`` that hold back sign-ups, password guessing, the hashes
computed at once and new games (issue 37; docs/self-hosting.md, "Limits"), each with its
environment variable like every flag. A rate is written as the ``limits`` library writes
it: ``3/minute``, ``5/15minutes``, several separated by ``;``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def rate(value: str) -> str:
    from spades.accounts import parse_rate

    return parse_rate(value.strip())


def count(value: str) -> int:
    return int(value)


def seconds(value: str) -> float:
    return float(value)


@dataclass(frozen=True)
class LimitFlag:
    dest: str
    flag: str
    variable: str
    kind: Callable[[str], Any]
    meaning: str  # what a bad value should be, for the message
    help: str
    metavar: str


RATE = "a rate such as 3/minute or 3/minute;10/hour"
BEHIND = "per address: per client only with --trusted-proxy"
LIMIT_FLAGS = (
    LimitFlag("signup_limit", "--signup-limit", "SPADES_SIGNUP_LIMIT", rate, RATE,
              f"new accounts one client address may make (default 3/minute;10/hour; {BEHIND})",
              "RATE"),
    LimitFlag("signup_limit_all", "--signup-limit-all", "SPADES_SIGNUP_LIMIT_ALL", rate, RATE,
              "new accounts from every address together (default 30/minute)", "RATE"),
    LimitFlag("signin_limit", "--signin-limit", "SPADES_SIGNIN_LIMIT", rate, RATE,
              "failed sign-ins to one account from one address, and from one device cookie "
              "(default 5/15minutes)", "RATE"),
    LimitFlag("signin_limit_address", "--signin-limit-address", "SPADES_SIGNIN_LIMIT_ADDRESS",
              rate, RATE, f"failed sign-ins from one address (default 20/15minutes; {BEHIND})",
              "RATE"),
    LimitFlag("signin_slow_after", "--signin-slow-after", "SPADES_SIGNIN_SLOW_AFTER", rate,
              RATE, "failed sign-ins to one account from browsers it never signed in with, "
              "past which their tries are slowed down (default 10/15minutes)", "RATE"),
    LimitFlag("signin_delay", "--signin-delay", "SPADES_SIGNIN_DELAY", seconds,
              "a number of seconds", "the delay of each slowed sign-in, one at a time per "
              "account (default 2)", "SECONDS"),
    LimitFlag("reset_limit", "--reset-limit", "SPADES_RESET_LIMIT", rate, RATE,
              "password reset links asked for one email (default 3/hour)", "RATE"),
    LimitFlag("reset_limit_address", "--reset-limit-address", "SPADES_RESET_LIMIT_ADDRESS",
              rate, RATE, f"password reset links asked for from one address (default 10/hour; "
              f"{BEHIND})", "RATE"),
    LimitFlag("hash_workers", "--hash-workers", "SPADES_HASH_WORKERS", count, "a whole number",
              "password hashes computed at once (default 2)", "N"),
    LimitFlag("hash_queue", "--hash-queue", "SPADES_HASH_QUEUE", count, "a whole number",
              "password hashes that may wait for one of those; beyond, 429 (default 16)", "N"),
    LimitFlag("device_secret", "--device-secret", "SPADES_DEVICE_SECRET", str, "some text",
              "the key that signs device cookies (default: a new random one at each start, "
              "which forgets every device)", "TEXT"),
    LimitFlag("games_limit", "--games-limit", "SPADES_GAMES_LIMIT", rate, RATE,
              "new games one player may start (default 10/minute;60/hour)", "RATE"),
    LimitFlag("games_limit_address", "--games-limit-address", "SPADES_GAMES_LIMIT_ADDRESS",
              rate, RATE, f"new games from one address (default 20/minute;120/hour; {BEHIND})",
              "RATE"),
    LimitFlag("unfinished_games", "--unfinished-games", "SPADES_UNFINISHED_GAMES", count,
              "a whole number", "unfinished games one player may have (default 50)", "N"),
)


def add_limit_flags(parser: argparse.ArgumentParser) -> None:
    for f in LIMIT_FLAGS:
        parser.add_argument(f.flag, dest=f.dest, default=None, type=f.kind, metavar=f.metavar,
                            help=f"{f.help} [{f.variable}]")


def limit_settings(args: argparse.Namespace) -> dict[str, Any] | str:
    """The settings of the limits from the flags (a flag not given keeps its default), or
    why one is wrong."""
    from spades.accounts import AccountLimits
    from spades.server.quotas import GameLimits

    for dest in ("signin_delay", "hash_queue"):
        if getattr(args, dest) is not None and getattr(args, dest) < 0:
            return f"--{dest.replace('_', '-')} must not be negative"
    for dest in ("hash_workers", "unfinished_games"):
        if getattr(args, dest) is not None and getattr(args, dest) < 1:
            return f"--{dest.replace('_', '-')} must be at least 1"

    def given(**values: Any) -> dict[str, Any]:
        return {name: value for name, value in values.items() if value is not None}

    accounts = AccountLimits(**given(
        signups_per_address=args.signup_limit, signups_in_all=args.signup_limit_all,
        guesses_per_pair=args.signin_limit, guesses_per_address=args.signin_limit_address,
        slow_after=args.signin_slow_after, slow_delay=args.signin_delay,
        hash_workers=args.hash_workers, hash_queue=args.hash_queue,
        resets_per_email=args.reset_limit, resets_per_address=args.reset_limit_address))
    games = GameLimits(**given(per_player=args.games_limit,
                               per_address=args.games_limit_address,
                               unfinished=args.unfinished_games))
    return {"account_limits": accounts, "game_limits": games,
            "device_secret": args.device_secret or None}
