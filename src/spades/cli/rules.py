"""``spades rules``: the presets and options, with what each does."""

from __future__ import annotations

import argparse
import json
from typing import Any

from spades.engine import OPTION_HELP, PRESET_HELP, PRESETS


def register(sub: Any) -> None:
    parser = sub.add_parser("rules", help="list the presets and rule options",
                            description="The presets (variants) and every rule option.")
    parser.add_argument("preset", nargs="?", help="show one preset's options in full")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def _show(value: Any) -> str:
    return json.dumps(value)


def run(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps({"presets": {name: {"about": PRESET_HELP[name],
                                             "options": rules.options()}
                                      for name, rules in PRESETS.items()},
                          "options": OPTION_HELP}, indent=1))
        return 0
    if args.preset:
        name = args.preset
        if name not in PRESETS:
            print(f"spades rules: unknown preset {name!r}; presets: {', '.join(PRESETS)}")
            return 2
        rules = PRESETS[name]
        print(f"{name}: {PRESET_HELP[name]}")
        print(f"  {rules.players} players, {len(rules.deck)} cards, {rules.hand_size} each; "
              f"sides {[list(s) for s in rules.sides]}")
        for option, value in rules.options().items():
            print(f"  {option:18} {_show(value):16} {OPTION_HELP[option]}")
        return 0
    print("Presets (choose with --preset NAME; `spades rules NAME` shows all its options):")
    for name, rules in PRESETS.items():
        print(f"  {name:19} {PRESET_HELP[name]}")
        base = PRESETS["partnership"].options()
        changed = {k: v for k, v in rules.options().items() if base[k] != v}
        if changed:
            print(f"  {'':19} differs from partnership: "
                  + ", ".join(f"{k}={_show(v)}" for k, v in changed.items()))
    print("\nOptions (change with --set OPTION=VALUE, or in a record's \"rules\"):")
    for option, text in OPTION_HELP.items():
        print(f"  {option:18} {text}")
    return 0
