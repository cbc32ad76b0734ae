"""For developers: ``python -m spades.store.revision "add accounts"`` writes the next
migration from what the models have that the migrations do not make (docs/migrations.md)."""

from __future__ import annotations

import sys

from .migrate import new_revision


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0].strip():
        print('usage: python -m spades.store.revision "what it changes"', file=sys.stderr)
        return 2
    print(new_revision(argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
