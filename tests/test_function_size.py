"""No function over about 60 lines anywhere in spades (issue 36, item 5): a long function is
a tangle waiting to happen; split it into named pieces. Alembic's revision scripts
(``store/migrations/versions``) are written once and never changed, and stay as they are."""

from __future__ import annotations

import ast
from pathlib import Path

import spades

LIMIT = 60
BASE = Path(spades.__file__).resolve().parent
#: every subpackage of spades (its top-level modules are checked too)
PACKAGES = tuple(sorted(p.name for p in BASE.iterdir() if (p / "__init__.py").is_file()))
SPARED = (BASE / "store" / "migrations" / "versions",)


def long_functions(root: Path, spared: tuple[Path, ...] = ()) -> list[str]:
    """``folder/file:line name (n lines)`` for each function of ``root``'s files over
    ``LIMIT`` lines; ``root`` is a folder (searched through) or one file."""
    paths = [root] if root.is_file() else sorted(root.rglob("*.py"))
    out = []
    for path in paths:
        if any(folder in path.parents for folder in spared):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > LIMIT:
                    where = path.relative_to(root.parent).as_posix()
                    out.append(f"{where}:{node.lineno} {node.name} ({lines} lines)")
    return out


def test_every_package_is_checked() -> None:
    for expected in ("accounts", "ai", "cli", "engine", "server", "session", "stats", "store"):
        assert expected in PACKAGES


def test_no_function_is_over_60_lines() -> None:
    found = [f for package in PACKAGES for f in long_functions(BASE / package, SPARED)]
    found += [f for module in sorted(BASE.glob("*.py")) for f in long_functions(module)]
    assert not found, "split these: " + ", ".join(found)


def test_the_check_sees_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT + 1))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n", encoding="utf-8")
    (tmp_path / "short.py").write_text("def short():\n    return 1\n", encoding="utf-8")
    spared = tmp_path / "versions"
    spared.mkdir()
    (spared / "0001.py").write_text(f"def upgrade():\n{body}\n", encoding="utf-8")
    found = f"long.py:1 long ({LIMIT + 2} lines)"
    assert long_functions(tmp_path, (spared,)) == [f"{tmp_path.name}/{found}"]
    assert long_functions(tmp_path / "long.py") == [found]
