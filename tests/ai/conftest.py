"""Fixtures for the AI tests: the screening tools, loaded from ``bench/experiments/``."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

EXPERIMENTS = Path(__file__).resolve().parents[2] / "bench" / "experiments"


def load_bench(name: str) -> ModuleType:
    """``bench/experiments/<name>.py`` as the module ``name`` (the tools import each other by
    name)."""
    spec = importlib.util.spec_from_file_location(name, EXPERIMENTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def bench_tool() -> Callable[[str], ModuleType]:
    """Loads a tool of ``bench/experiments/`` by name."""
    return load_bench
