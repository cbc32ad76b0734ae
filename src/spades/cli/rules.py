"""``spades rules``: the presets (the engine's registry) and options, with what each does."""

from __future__ import annotations

import argparse
import json
from typing import Any

from spades.engine import OPTION_HELP, REGISTRY, RulesError, find_entry


def register(sub: Any) -> None:
    parser = sub.add_parser("rules", help="list the presets and rule options",
                            description="The presets (variants) and every rule option.")
    parser.add_argument("preset", nargs="?", help="show one preset's options in full")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def _show(value: Any) -> str:
    return json.dumps(value)


def _house_json(name: str) -> list[dict[str, Any]]:
    return [{"name": h.name, "label": h.label, "choices": list(h.choices),
             "default": h.default, "help": h.help} for h in REGISTRY[name].house_rules]


def run(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps({"presets": {name: {"about": p.about, "label": p.label,
                                             "options": p.rules.options(),
                                             "hand_size": p.rules.hand_size,
                                             "sides": [list(s) for s in p.rules.sides],
                                             "house_rules": _house_json(name)}
                                      for name, p in REGISTRY.items()},
                          "options": OPTION_HELP}, indent=1))
        return 0
    if args.preset:
        try:
            preset = find_entry(args.preset)
        except RulesError as error:
            print(f"spades rules: {error}")
            return 2
        rules = preset.rules
        print(f"{preset.name}: {preset.about}")
        print(f"  {rules.players} players, {len(rules.deck)} cards, {rules.hand_size} each; "
              f"sides {[list(s) for s in rules.sides]}")
        for option, value in rules.options().items():
            print(f"  {option:18} {_show(value):16} {OPTION_HELP[option]}")
        return 0
    print("Presets (choose with --preset NAME; `spades rules NAME` shows all its options):")
    base = REGISTRY["partnership"].rules.options()
    for name, preset in REGISTRY.items():
        print(f"  {name:19} {preset.about}")
        changed = {k: v for k, v in preset.rules.options().items() if base[k] != v}
        if changed:
            print(f"  {'':19} differs from partnership: "
                  + ", ".join(f"{k}={_show(v)}" for k, v in changed.items()))
    print("\nOptions (change with --set OPTION=VALUE, or in a record's \"rules\"):")
    for option, text in OPTION_HELP.items():
        print(f"  {option:18} {text}")
    return 0
