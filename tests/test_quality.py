"""The code gates CI runs with the tests: ruff, mypy --strict on engine and AI, import-linter."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", "src", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_engine_and_ai() -> None:
    result = _run(sys.executable, "-m", "mypy", "--strict", "src/spades/engine", "src/spades/ai")
    assert result.returncode == 0, result.stdout + result.stderr


def test_layers_hold() -> None:
    """cli -> server -> (ai | store) -> engine, and the engine imports nothing of ours."""
    lint = shutil.which("lint-imports")
    if lint is None:
        pytest.skip("import-linter is not installed")
    result = _run(lint)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" not in result.stdout.lower().replace("0 broken", "")
