"""The code gates CI runs with the tests: ruff, mypy --strict on every package, import-linter.

None of them may skip: each runs with the test interpreter (``sys.executable``) and fails
when its tool is missing, because a gate that quietly skips is no gate.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

# import-linter has no ``python -m importlinter`` and ``python -m importlinter.cli`` checks
# nothing, so call its Python entry point (the function behind ``lint-imports``).
LINT_IMPORTS = ("import sys; from importlinter.cli import lint_imports; "
                "sys.exit(lint_imports(no_cache=True, no_logo=True))")


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    # this checkout's src first, whatever copy of spades is installed
    path = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": path, "COLUMNS": "200"})


def _require(module: str, package: str) -> None:
    assert importlib.util.find_spec(module) is not None, (
        f"{package} is not installed for {sys.executable}: pip install -e '.[test]'")


def test_ruff_finds_nothing() -> None:
    _require("ruff", "ruff")
    result = _run(sys.executable, "-m", "ruff", "check", "src", "tests", "bench", "setup.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_config_covers_every_package() -> None:
    """``mypy`` with no arguments (the gate below, and anyone's editor) checks all of src."""
    config = PYPROJECT["tool"]["mypy"]
    assert config.get("strict") is True
    files = [ROOT / f for f in config["files"]]
    modules = sorted(SRC.joinpath("spades").rglob("*.py"))
    assert modules, "no source found"
    uncovered = [str(m.relative_to(ROOT)) for m in modules
                 if not any(m == f or f in m.parents for f in files)]
    assert not uncovered, f"not under mypy --strict in pyproject's [tool.mypy] files: {uncovered}"


def test_mypy_strict_on_every_package() -> None:
    _require("mypy", "mypy")
    result = _run(sys.executable, "-m", "mypy")  # files and strict come from pyproject.toml
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout, result.stdout + result.stderr


def test_layers_hold() -> None:
    """cli -> server -> (ai | store) -> engine, the engine imports nothing of ours, and outside
    the engine only its public API is imported."""
    _require("importlinter", "import-linter")
    contracts = PYPROJECT["tool"]["importlinter"]["contracts"]
    assert any(c["type"] == "protected" and c["protected_modules"] == ["spades.engine.*"]
               for c in contracts), "the engine's public API contract is missing"
    result = _run(sys.executable, "-c", LINT_IMPORTS)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    # every contract was checked, not none of them
    assert f"Contracts: {len(contracts)} kept, 0 broken." in result.stdout, output
    for contract in contracts:
        assert f"{contract['name']} KEPT" in result.stdout, output


def _engine_internals(path: Path, root: Path = ROOT) -> list[str]:
    """``file:line module`` for each import of an engine submodule in one file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
            if node.module == "spades.engine":
                names += [f"spades.engine.{a.name}" for a in node.names
                          if (SRC / "spades" / "engine" / f"{a.name}.py").exists()]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        found += [f"{path.relative_to(root)}:{node.lineno} {name}" for name in names
                  if name.startswith("spades.engine.")]
    return found


def test_benchmarks_use_the_public_engine_api() -> None:
    """import-linter sees only the spades package; the benchmarks are held here."""
    bench = ROOT / "bench"
    scripts = sorted([*bench.glob("*.py"), *(bench / "experiments").glob("*.py")])
    assert scripts
    internals = [hit for path in scripts for hit in _engine_internals(path)]
    assert not internals, f"import these from spades.engine instead: {internals}"


def test_the_internals_check_can_fail(tmp_path: Path) -> None:
    script = tmp_path / "probe.py"
    script.write_text("from spades.engine.cards import SUIT_OF\nfrom spades.engine import cards\n"
                      "import spades.engine.record\nfrom spades.engine import apply\n")
    hits = [h.split(" ")[1] for h in _engine_internals(script, tmp_path)]
    assert hits == ["spades.engine.cards", "spades.engine.cards", "spades.engine.record"]

