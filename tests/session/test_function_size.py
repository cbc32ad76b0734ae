"""No function over about 60 lines in the server and the session (issue 9): a long function
is a tangle waiting to happen; split it into named pieces."""

from __future__ import annotations

import ast
from pathlib import Path

import spades

LIMIT = 60
PACKAGES = ("server", "session")


def long_functions(root: Path) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > LIMIT:
                    out.append(f"{path.name}:{node.lineno} {node.name} ({lines} lines)")
    return out


def test_no_function_is_over_60_lines() -> None:
    base = Path(spades.__file__).resolve().parent
    found = [f for package in PACKAGES for f in long_functions(base / package)]
    assert not found, "split these: " + ", ".join(found)


def test_the_check_sees_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT + 1))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n", encoding="utf-8")
    (tmp_path / "short.py").write_text("def short():\n    return 1\n", encoding="utf-8")
    assert long_functions(tmp_path) == [f"long.py:1 long ({LIMIT + 2} lines)"]
