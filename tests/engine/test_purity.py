"""The engine is pure: standard library only, no global random, no I/O."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "src" / "spades" / "engine"
FILES = sorted(ENGINE.glob("*.py"))


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def test_the_engine_files_are_there() -> None:
    names = {p.name for p in FILES}
    assert {"__init__.py", "game.py", "rules.py", "scoring.py", "view.py", "record.py"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_imports_only_the_standard_library(path: Path) -> None:
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: the engine's own modules
                continue
            modules = [node.module or ""]
        else:
            continue
        for module in modules:
            top = module.split(".")[0]
            assert top in sys.stdlib_module_names or top == "__future__", (
                f"{path.name}:{node.lineno} imports {module}")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_global_random_and_no_io(path: Path) -> None:
    tree = _tree(path)
    random_names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            bad = [a.name for a in node.names if a.name != "Random"]
            assert not bad, f"{path.name}:{node.lineno} imports random.{bad[0]}"
        if isinstance(node, ast.Import):
            random_names |= {a.asname or a.name for a in node.names if a.name == "random"}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in random_names):
            assert node.attr == "Random", (
                f"{path.name}:{node.lineno} uses random.{node.attr}: use a random.Random(seed)")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"open", "print", "input", "breakpoint", "exec",
                                        "eval"}, f"{path.name}:{node.lineno} calls {node.func.id}"
        if isinstance(node, ast.Attribute) and node.attr in {"stdout", "stderr", "stdin"}:
            raise AssertionError(f"{path.name}:{node.lineno} touches sys.{node.attr}")


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    """The checks above can fail: run them on a file that breaks each rule."""
    bad = tmp_path / "bad.py"
    samples = ["import numpy\n", "from random import shuffle\n",
               "import random\nrandom.shuffle([])\n", "print('hi')\n",
               "with open('x') as f: pass\n", "import random as r\nr.choice([1])\n"]
    for sample in samples:
        bad.write_text(sample)
        failed = 0
        for check in (test_imports_only_the_standard_library, test_no_global_random_and_no_io):
            try:
                check(bad)
            except AssertionError:
                failed += 1
        assert failed, sample
    bad.write_text("import random\nrng = random.Random(3)\nfrom .cards import Card\n")
    test_imports_only_the_standard_library(bad)
    test_no_global_random_and_no_io(bad)
