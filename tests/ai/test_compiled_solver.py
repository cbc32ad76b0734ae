"""The compiled double-dummy solver (tricks.py built by mypyc, see setup.py) answers exactly
as the pure-Python one, the reference, on many random positions; a build made from other
sources is never used; a failed build leaves the pure solver and says so.

Where no compiled solver is built (no C compiler at install, or SPADES_PURE_PYTHON=1) the
tests that need one skip and say why; in CI (``CI=true``) they fail: CI must test the
solver that users with a compiler get.
"""

from __future__ import annotations

import importlib.machinery
import inspect
import os
import random
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from types import ModuleType

import pytest
from test_tricks import RULES as ENDING_RULES
from test_tricks import _ending

from spades.ai import double_dummy, kernel, review, solver_source, tricks
from spades.engine import PRESETS, GameState, Rules, apply, legal_actions, new_game

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)

#: test_tricks' rule sets but five-player and two-player with the lowest-club lead (the slowest
#: to compare, and their code paths are the ones of the others).
RULES: dict[str, Rules] = {name: rules for name, rules in ENDING_RULES.items()
                           if name not in ("five-player", "two-player+lowest-club")}


def _ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def _compiled() -> ModuleType:
    """The compiled solver in use; where there is none, a skip (a failure in CI)."""
    if not double_dummy.COMPILED:
        message = f"no compiled double-dummy solver in use: {double_dummy.REASON}"
        if _ci():
            pytest.fail(f"CI must test the compiled solver, but {message}")
        pytest.skip(message)
    return double_dummy.MODULE


def test_the_compiled_solver_is_in_use() -> None:
    """In CI (and wherever a build made it) the solver in use is the compiled module built
    from the current sources, native code rather than Python functions."""
    compiled = _compiled()
    assert compiled is not tricks
    assert str(compiled.__file__).endswith(SUFFIXES)
    assert compiled.__name__ == f"spades.ai.{solver_source.module_name(solver_source.digest())}"
    assert solver_source.digest() == compiled.SOURCE_DIGEST
    assert double_dummy.TrickSolver is compiled.TrickSolver
    assert inspect.isfunction(tricks.TrickSolver._lead)
    assert not inspect.isfunction(compiled.TrickSolver._lead)
    assert double_dummy.SOLVER == "compiled (mypyc)"


def _position(rules: Rules, rng: random.Random, left: int) -> kernel.Position:
    """A random position of ``rules`` with ``left`` tricks to go (``test_tricks._ending``):
    three times in ten dealt straight into the ending, the hand's first trick to play (the
    lowest-club lead, spades unbroken); otherwise reached by random play, often mid-trick."""
    return _ending(rules, rng, left, first=rng.random() < 0.3)


@pytest.mark.parametrize("name", sorted(RULES))
def test_compiled_answers_as_pure_on_random_positions(name: str) -> None:
    """Every count, every bounded count (a guess, at_least, at_most as a hand review gives
    them), every "which cards keep the value" and even the number of positions searched
    are the same, with 1 to 8 tricks left, from fresh solvers and from one reused."""
    compiled = _compiled()
    rules = RULES[name]
    t = kernel.table_of(rules)
    rng = random.Random(f"compiled/{name}")
    reused = {module: [module.TrickSolver(t, side) for side in range(len(t.sides))]
              for module in (tricks, compiled)}
    compared = 0
    for left in range(1, 9):
        for _ in range(3):
            pos = _position(rules, rng, min(left, t.hand_size))
            for side in range(len(t.sides)):
                pure_solver = tricks.TrickSolver(t, side)
                fast_solver = compiled.TrickSolver(t, side)
                value = pure_solver.tricks(pos)
                assert fast_solver.tricks(pos) == value, (name, left, side)
                assert fast_solver.nodes == pure_solver.nodes
                low = rng.randint(-1, value)
                high = rng.randint(value, pos.left + 1)
                guess = rng.choice([None, *range(-1, pos.left + 2)])
                for module in (tricks, compiled):
                    solver = module.TrickSolver(t, side)
                    assert solver.tricks(pos, guess, at_least=low, at_most=high) == value
                    assert reused[module][side].tricks(pos, guess) == value
                assert (compiled.best_moves(t, pos, side)
                        == tricks.best_moves(t, pos, side)), (name, left, side)
                assert (compiled.TrickSolver(t, side).best_moves(pos)
                        == tricks.TrickSolver(t, side).best_moves(pos))
                compared += 1
    assert compared >= 8 * 3 * 2


def _finished_hand(preset: str, seed: int) -> GameState:
    rng = random.Random(f"compiled-review/{seed}")
    state = new_game(PRESETS[preset], seed)
    while not state.over and not state.results:
        state = apply(state, rng.choice(list(legal_actions(state))))
    return state


@pytest.mark.parametrize(("preset", "seed"), [("partnership", 1), ("cutthroat", 3)])
def test_a_hand_review_is_the_same_with_either_solver(preset: str, seed: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The review of a whole hand (every play's count before and after, the cards that kept
    the value, the marks and sentences) does not depend on the solver."""
    compiled = _compiled()
    state = _finished_hand(preset, seed)
    reviews = []
    for module in (tricks, compiled):
        monkeypatch.setattr(review, "TrickSolver", module.TrickSolver)
        reviews.append(asdict(review.review_hand(state, 1)))
    fast, pure = reviews[1], reviews[0]
    assert fast["plays"] == pure["plays"] and fast["sides"] == pure["sides"]
    assert pure["plays"]


# ------------------------------------------------------------------ staleness and the build


def _copy_package(to: Path, *, compiled: bool) -> Path:
    """A copy of src/spades under ``to`` (with the compiled solver's files or without)."""
    skip = ["__pycache__", "*.egg-info"] + ([] if compiled else [solver_source.PREFIX + "*"])
    shutil.copytree(ROOT / "src" / "spades", to / "src" / "spades",
                    ignore=shutil.ignore_patterns(*skip))
    return to / "src" / "spades" / "ai"


def _which(src: Path, *, pure: bool = False) -> str:
    """``COMPILED|REASON|the count of a worked ending`` as a fresh interpreter on ``src``
    sees them."""
    env = {k: v for k, v in os.environ.items() if k != solver_source.PURE_ENV}
    env["PYTHONPATH"] = str(src)
    if pure:
        env[solver_source.PURE_ENV] = "1"
    code = ("from spades.ai import double_dummy as d, kernel as k\n"
            "from spades.engine import PRESETS\n"
            "t = k.table_of(PRESETS['partnership'])\n"
            "pos = k.Position(hands=[1 << 51, 1 << 38, 1 << 50, 1 << 28], leader=0,\n"
            "                 tricks=[0] * 4, bids=[1] * 4, nils=[k.PLAIN] * 4, players=4,\n"
            "                 broken=True, first=False)\n"
            f"assert d.MODULE.__file__.startswith({str(src)!r}), d.MODULE.__file__\n"
            "print(d.COMPILED, d.REASON, d.solve_tricks(t, pos, 0), sep='|')\n")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_build_of_other_sources_is_never_imported(tmp_path: Path) -> None:
    """A compiled file under the name of other sources is ignored (the pure solver serves
    and says why); one under the current name that does not load is refused too."""
    ai = _copy_package(tmp_path, compiled=False)
    src = tmp_path / "src"
    assert _which(src).startswith("False|no compiled solver was built")
    stale = ai / (solver_source.module_name("0" * 64) + SUFFIXES[0])
    stale.write_bytes(b"not a shared library: importing it would fail")
    assert _which(src).startswith("False|the compiled solver here was built from another")
    broken = ai / (solver_source.module_name(solver_source.digest(ai)) + SUFFIXES[0])
    broken.write_bytes(b"not a shared library either")
    assert _which(src).startswith("False|the compiled solver did not load")
    assert _which(src, pure=True) == "False|SPADES_PURE_PYTHON is set|1"


def _build(ai: Path, env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """setup.py's build_ext, alone (pip runs it the same way), on a copy of the tree."""
    root = ai.parents[2]
    shutil.copy(ROOT / "setup.py", root / "setup.py")
    code = ("import importlib.util\n"
            "spec = importlib.util.spec_from_file_location('spades_setup', 'setup.py')\n"
            "setup = importlib.util.module_from_spec(spec)\n"
            "spec.loader.exec_module(setup)\n"
            "from setuptools import Distribution\n"
            "dist = Distribution({'name': 'spades', 'ext_modules': setup._placeholder(),\n"
            "                     'package_dir': {'': 'src'}})\n"
            "command = setup.BuildSolver(dist)\n"
            "command.inplace = True\n"
            "command.ensure_finalized()\n"
            "command.run()\n")
    env = {k: v for k, v in os.environ.items() if k != solver_source.PURE_ENV}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", code], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def test_without_a_c_compiler_the_build_goes_on_pure(tmp_path: Path) -> None:
    """No C compiler: the build says so once, succeeds, and leaves no compiled file and no
    generated copy; with SPADES_PURE_PYTHON=1 it compiles nothing and says that."""
    pytest.importorskip("mypyc.build", reason="the build needs mypy (a test dependency)")
    ai = _copy_package(tmp_path, compiled=False)
    done = _build(ai, {"CC": str(tmp_path / "no-such-cc")})
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("WARNING: the double-dummy solver was not compiled") == 1
    assert not list(ai.glob(solver_source.PREFIX + "*"))
    assert _which(tmp_path / "src").startswith("False|no compiled solver was built")
    done = _build(ai, {solver_source.PURE_ENV: "1"})
    assert done.returncode == 0, done.stderr
    assert "SPADES_PURE_PYTHON is set: the double-dummy solver is not compiled" in done.stderr
    assert not list(ai.glob(solver_source.PREFIX + "*"))


def test_an_edit_of_the_solver_turns_its_build_off(tmp_path: Path) -> None:
    """A fresh build is used; after an edit of tricks.py (or of kernel.py) that build is no
    longer imported and the edited source is what answers, until the next build."""
    if shutil.which(os.environ.get("CC", "cc")) is None:
        if _ci():
            pytest.fail("CI must build the compiled solver, but there is no C compiler")
        pytest.skip("no C compiler here to build the compiled solver")
    pytest.importorskip("mypyc.build", reason="the build needs mypy (a test dependency)")
    ai = _copy_package(tmp_path, compiled=False)
    src = tmp_path / "src"
    done = _build(ai, {})
    assert done.returncode == 0, done.stderr
    assert "compiled the double-dummy solver with mypyc" in done.stderr, done.stderr
    assert _which(src) == "True||1"
    assert _which(src, pure=True) == "False|SPADES_PURE_PYTHON is set|1"
    solver = ai / "tricks.py"
    text = solver.read_text(encoding="utf-8")
    solver.write_text(text.replace(
        "    return TrickSolver(t, side).tricks(pos)\n",
        "    return 99  # an edit the compiled build does not have\n"), encoding="utf-8")
    assert _which(src).startswith("False|the compiled solver here was built from another")
    assert _which(src).endswith("|99")
    solver.write_text(text, encoding="utf-8")
    assert _which(src) == "True||1"
    kernel_py = ai / "kernel.py"
    kernel_py.write_text(kernel_py.read_text(encoding="utf-8") + "\n# edited\n",
                         encoding="utf-8")
    assert _which(src).startswith("False|the compiled solver here was built from another")
