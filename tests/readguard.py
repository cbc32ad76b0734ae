"""The guard behind tests/conftest.py's rule that no test reads outside the repository (a
clone has no ``../shared`` beside it): which paths count as beside the project, and the
audit hook that notes every such file opened."""

from __future__ import annotations

import os
import tempfile
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: Files opened beside the project (in its parent folder, not in it nor in a temporary
#: folder) since the running test began.
OPENED_OUTSIDE: list[str] = []


def is_outside(path: str, root: str = ROOT, temp: str = tempfile.gettempdir()) -> bool:
    """Whether ``path`` is beside the project ``root`` rather than in it: in its parent
    folder, outside the project and the temporary folder."""
    path = os.path.abspath(path)
    parent = os.path.dirname(root)
    inside = (root, os.path.abspath(temp))
    return (parent != os.sep and path.startswith(parent + os.sep)
            and not any(path == top or path.startswith(top + os.sep) for top in inside))


def note_open(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and isinstance(args[0], str) and is_outside(args[0]):
        OPENED_OUTSIDE.append(args[0])


