"""Choosing rules on the command line: ``--preset house --set target_score=300 --set nil=false``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from spades.engine import PRESETS, Rules, RulesError, find_preset


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", default="partnership", choices=sorted(PRESETS),
                        help="the variant (see `spades rules`); default partnership")
    parser.add_argument("--set", dest="options", action="append", default=[],
                        metavar="OPTION=VALUE",
                        help="change a rule option, e.g. --set target_score=300 --set nil=false "
                             "--set losing_score=null (repeatable; see `spades rules`)")


def parse_value(text: str) -> Any:
    """``300`` -> 300, ``true`` -> True, ``null`` -> None, anything else stays a string."""
    try:
        return json.loads(text)
    except RecursionError:
        raise RulesError("a rule option's value cannot be nested that deeply") from None
    except ValueError as error:  # JSONDecodeError, or more digits than Python reads
        if "digits" in str(error) and not isinstance(error, json.JSONDecodeError):
            raise RulesError("a rule option's value cannot be a number longer than "
                             f"{sys.get_int_max_str_digits()} digits") from None
        return text


def overrides_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The rule options ``--set`` changes, by name."""
    overrides: dict[str, Any] = {}
    for item in args.options:
        name, sep, value = item.partition("=")
        if not sep:
            raise RulesError(f"--set takes OPTION=VALUE, not {item!r}")
        overrides[name.strip().replace("-", "_")] = parse_value(value.strip())
    return overrides


def rules_from_args(args: argparse.Namespace) -> Rules:
    return find_preset(args.preset).with_options(**overrides_from_args(args))
