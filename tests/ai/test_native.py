"""The compiled search (the modules of ``native_source.GROUP`` built by mypyc, see setup.py)
answers exactly as the pure-Python modules, the reference: the kernel's playouts and
values, the trick solver's counts on many random positions, a hand review, and Hard's every
decision over whole hands. A build made from other sources is never used; a failed build
leaves the pure search and says so.

Where no compiled search is built (no C compiler at install, or SPADES_PURE_PYTHON=1) the
tests that need one skip and say why; in CI (``CI=true``) they fail: CI must test the
search that users with a compiler get.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import inspect
import json
import os
import random
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
from test_tricks import RULES as ENDING_RULES
from test_tricks import _ending

from spades.ai import kernel, native, native_source, review, sampler, tricks
from spades.engine import PRESETS, GameState, Rules, apply, legal_actions, new_game

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)

#: test_tricks' rule sets but five-player and two-player with the lowest-club lead (the slowest
#: to compare, and their code paths are the ones of the others).
RULES: dict[str, Rules] = {name: rules for name, rules in ENDING_RULES.items()
                           if name not in ("five-player", "two-player+lowest-club")}


def _ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def _compiled() -> None:
    """Nothing where the compiled search is in use; else a skip (a failure in CI)."""
    if not native.COMPILED:
        message = f"no compiled search in use: {native.REASON}"
        if _ci():
            pytest.fail(f"CI must test the compiled search, but {message}")
        pytest.skip(message)


def test_the_compiled_search_is_in_use() -> None:
    """In CI (and wherever a build made it) each module of the group holds the names of the
    compiled package built from the current sources: native code, not Python functions."""
    _compiled()
    package = f"spades.ai.{native_source.package_name(native_source.digest())}"
    assert package == native.PACKAGE
    assert native_source.digest() == sys.modules[package].SOURCE_DIGEST
    assert native.SEARCH == "compiled (mypyc)"
    for name in native_source.GROUP:
        importlib.import_module(f"spades.ai.{name}")  # adopts its compiled twin
        assert str(sys.modules[f"{package}.{name}"].__file__).endswith(SUFFIXES)
    assert kernel.Position.__module__ == f"{package}.kernel"
    assert sampler.DealSampler.__module__ == f"{package}.sampler"
    assert not inspect.isfunction(kernel.guided_playout)
    assert not inspect.isfunction(tricks.TrickSolver._lead)
    reference = native.pure("tricks")
    assert inspect.isfunction(reference.TrickSolver._lead)
    assert reference.TrickSolver is not tricks.TrickSolver


def test_pure_loads_only_modules_of_the_group() -> None:
    with pytest.raises(ValueError, match="not one of the compiled modules"):
        native.pure("hard")


@pytest.mark.parametrize("preset", ["partnership", "jokers", "three-player", "two-player"])
def test_the_kernel_plays_and_scores_as_pure(preset: str) -> None:
    """The same deals and random streams give the same guided and random playouts, trick
    for trick, and the same values, in the compiled kernel and the pure one."""
    _compiled()
    pure = native.pure("kernel")
    rules = PRESETS[preset]
    n = rules.players
    results = []
    for module in (pure, kernel):
        book = module.rulebook_of(rules)
        rng = random.Random(f"native/{preset}")
        out = []
        for round_ in range(60):
            hands = module.deal(book, rng)
            nils = [module.NIL if (round_ + s) % 5 == 0 else module.PLAIN for s in range(n)]
            bids = [0 if nils[s] else 1 + (round_ + s) % 4 for s in range(n)]
            pos = module.Position(hands=hands, leader=round_ % n, tricks=[0] * n, bids=bids,
                                  nils=nils, players=n)
            # the habits' options too: a half-hearted attack on a nil, second seat mixing
            guide = module.Guide(book, bids, nils,
                                 attack=[0.3] * n if round_ % 4 == 0 else None,
                                 ruff=0.5 if round_ % 2 else 1.0,
                                 second=0.5 if round_ % 3 == 0 else -1.0,
                                 trump=0.3 if round_ % 5 < 2 else 0.0)
            guided = module.guided_playout(book, pos.copy(), guide, rng.random)
            plain = module.random_playout(book, pos, rng.random)
            value = module.Evaluator(book, 0, bids=bids, nils=nils, scores=[0] * len(book.sides),
                                     bags=[round_ % 10] * len(book.sides))(guided)
            out.append((list(guided), list(plain), value))
        results.append(out)
    assert results[0] == results[1]
    assert len({str(guided) for guided, _, _ in results[0]}) > 5


#: Plays whole hands with Hard at every seat and prints its decisions (run in a fresh
#: interpreter, compiled or pure).
_HARD_HANDS = """
import json, random, sys
from spades.ai import native
from spades.ai.hard import HardPlayer
from spades.engine import apply, new_game, player_view
decisions = []
for preset, seed in json.loads(sys.argv[1]):
    state = new_game(preset, seed=seed)
    players = [HardPlayer(iterations=40) for _ in range(state.rules.players)]
    rngs = [random.Random(f"{seed}/{s}") for s in range(state.rules.players)]
    while not state.over and not state.results:
        seat = state.hand.turn
        action = players[seat].choose(player_view(state, seat), rngs[seat])
        decisions.append(str(action))
        state = apply(state, action)
print(json.dumps({"compiled": native.COMPILED, "decisions": decisions}))
"""


def _hard_decisions(hands: list[tuple[str, str]], *, pure: bool) -> tuple[bool, list[str]]:
    env = {k: v for k, v in os.environ.items() if k != native_source.PURE_ENV}
    if pure:
        env[native_source.PURE_ENV] = "1"
    done = subprocess.run([sys.executable, "-c", _HARD_HANDS, json.dumps(hands)], env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    return out["compiled"], out["decisions"]


def test_hard_decides_as_pure_over_whole_hands() -> None:
    """Hard, whose search is the group (the sampler, the kernel's playouts, the value
    solver), makes the same bids and plays, card for card, compiled and pure."""
    _compiled()
    hands = [("partnership", "native/1"), ("partnership", "native/2"),
             ("jokers", "native/3"), ("cutthroat", "native/4")]
    fast = _hard_decisions(hands, pure=False)
    slow = _hard_decisions(hands, pure=True)
    assert fast[0] and not slow[0]
    assert fast[1] == slow[1]
    assert len(fast[1]) == 4 * (4 + 52)  # the four hands' bids and plays


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
    _compiled()
    pure = native.pure("tricks")
    rules = RULES[name]
    book = kernel.rulebook_of(rules)
    rng = random.Random(f"compiled/{name}")
    reused = {module: [module.TrickSolver(book, side) for side in range(len(book.sides))]
              for module in (pure, tricks)}
    compared = 0
    for left in range(1, 9):
        for _ in range(3):
            pos = _position(rules, rng, min(left, book.hand_size))
            for side in range(len(book.sides)):
                pure_solver = pure.TrickSolver(book, side)
                fast_solver = tricks.TrickSolver(book, side)
                value = pure_solver.tricks(pos)
                assert fast_solver.tricks(pos) == value, (name, left, side)
                assert fast_solver.nodes == pure_solver.nodes
                low = rng.randint(-1, value)
                high = rng.randint(value, pos.left + 1)
                guess = rng.choice([None, *range(-1, pos.left + 2)])
                for module in (pure, tricks):
                    solver = module.TrickSolver(book, side)
                    assert solver.tricks(pos, guess, at_least=low, at_most=high) == value
                    assert reused[module][side].tricks(pos, guess) == value
                assert (tricks.best_moves(book, pos, side)
                        == pure.best_moves(book, pos, side)), (name, left, side)
                assert (tricks.TrickSolver(book, side).best_moves(pos)
                        == pure.TrickSolver(book, side).best_moves(pos))
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
    _compiled()
    state = _finished_hand(preset, seed)
    # the budgets are in search nodes, the same for both; the wall-clock limit is not
    monkeypatch.setattr(review, "REVIEW_SECONDS", float("inf"))
    reviews = []
    for module in (native.pure("tricks"), tricks):
        monkeypatch.setattr(review, "TrickSolver", module.TrickSolver)
        reviews.append(asdict(review.review_hand(state, 1)))
    pure, fast = reviews
    assert fast["plays"] == pure["plays"] and fast["sides"] == pure["sides"]
    assert pure["plays"]


# ------------------------------------------------------------------ staleness and the build


def _copy_package(to: Path, *, compiled: bool) -> Path:
    """A copy of src/spades under ``to`` (with the compiled search's files or without)."""
    skip = ["__pycache__", "*.egg-info"] + ([] if compiled else [native_source.PREFIX + "*"])
    shutil.copytree(ROOT / "src" / "spades", to / "src" / "spades",
                    ignore=shutil.ignore_patterns(*skip))
    return to / "src" / "spades" / "ai"


def _which(src: Path, *, pure: bool = False) -> str:
    """``COMPILED|REASON|the count of a worked ending`` as a fresh interpreter on ``src``
    sees them."""
    env = {k: v for k, v in os.environ.items() if k != native_source.PURE_ENV}
    env["PYTHONPATH"] = str(src)
    if pure:
        env[native_source.PURE_ENV] = "1"
    code = ("from spades.ai import native, kernel as k, tricks\n"
            "from spades.engine import PRESETS\n"
            "book = k.rulebook_of(PRESETS['partnership'])\n"
            "pos = k.Position(hands=[1 << 51, 1 << 38, 1 << 50, 1 << 28], leader=0,\n"
            "                 tricks=[0] * 4, bids=[1] * 4, nils=[k.PLAIN] * 4, players=4,\n"
            "                 broken=True, first=False)\n"
            f"assert native.__file__.startswith({str(src)!r}), native.__file__\n"
            "assert (k.Position.__module__ != 'spades.ai.kernel') == native.COMPILED\n"
            "print(native.COMPILED, native.REASON, tricks.solve_tricks(book, pos, 0), sep='|')\n")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_build_of_other_sources_is_never_imported(tmp_path: Path) -> None:
    """A compiled package under the name of other sources is ignored (the pure search
    serves and says why); one under the current name that lacks a module, or does not
    load, is refused too."""
    ai = _copy_package(tmp_path, compiled=False)
    src = tmp_path / "src"
    assert _which(src).startswith("False|no compiled search was built")
    stale = ai / native_source.package_name("0" * 64)
    stale.mkdir()
    (stale / ("__init__" + SUFFIXES[0])).write_bytes(b"not a shared library")
    assert _which(src).startswith("False|the compiled search here was built from other")
    broken = ai / native_source.package_name(native_source.digest(ai))
    broken.mkdir()
    (broken / ("__init__" + SUFFIXES[0])).write_bytes(b"not a shared library either")
    assert _which(src).startswith("False|the compiled search lacks its kernel module")
    for name in native_source.GROUP:
        (broken / (name + SUFFIXES[0])).write_bytes(b"nor this")
    assert _which(src).startswith("False|the compiled search did not load")
    assert _which(src, pure=True) == "False|SPADES_PURE_PYTHON is set|1"


def test_the_copies_compiled_import_each_other_and_the_rest_one_level_up() -> None:
    """The generated copies leave out the adoption, keep the imports within the group and
    point the others to spades.ai; a module without its adoption line is refused."""
    files = native_source.generated_files()
    assert sorted(files) == sorted([*(f"{name}.py" for name in native_source.GROUP),
                                    "__init__.py"])
    assert f'SOURCE_DIGEST = "{native_source.digest()}"' in files["__init__.py"]
    sampler_copy = files["sampler.py"]
    assert "from ..knowledge import voids_shown" in sampler_copy
    assert "from .kernel import (" in sampler_copy and "from .clues import" in sampler_copy
    assert "from . import kernel as k" in files["solver.py"]
    for text in files.values():
        assert native_source.ADOPT_CALL not in text
        assert native_source.ADOPT_IMPORT not in text
    with pytest.raises(ValueError, match="adopt"):
        native_source._copy("kernel", "x = 1\n")


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
            "command = setup.BuildNative(dist)\n"
            "command.inplace = True\n"
            "command.ensure_finalized()\n"
            "command.run()\n")
    env = {k: v for k, v in os.environ.items() if k != native_source.PURE_ENV}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", code], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def _built(ai: Path) -> list[Path]:
    """The compiled package and shared library (and any generated copy) under ``ai``."""
    return sorted(ai.glob(native_source.PREFIX + "*"))


def test_without_a_c_compiler_the_build_goes_on_pure(tmp_path: Path) -> None:
    """No C compiler: the build says so once, succeeds, and leaves no compiled file and no
    generated copy; with SPADES_PURE_PYTHON=1 it compiles nothing and says that."""
    pytest.importorskip("mypyc.build", reason="the build needs mypy (a test dependency)")
    ai = _copy_package(tmp_path, compiled=False)
    done = _build(ai, {"CC": str(tmp_path / "no-such-cc")})
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("WARNING: the search was not compiled") == 1
    assert not _built(ai)
    assert _which(tmp_path / "src").startswith("False|no compiled search was built")
    done = _build(ai, {native_source.PURE_ENV: "1"})
    assert done.returncode == 0, done.stderr
    assert "SPADES_PURE_PYTHON is set: the search is not compiled" in done.stderr
    assert not _built(ai)


def test_an_edit_of_the_search_turns_its_build_off(tmp_path: Path) -> None:
    """A fresh build is used; after an edit of tricks.py (or of kernel.py) that build is no
    longer imported and the edited source is what answers, until the next build."""
    if shutil.which(os.environ.get("CC", "cc")) is None:
        if _ci():
            pytest.fail("CI must build the compiled search, but there is no C compiler")
        pytest.skip("no C compiler here to build the compiled search")
    pytest.importorskip("mypyc.build", reason="the build needs mypy (a test dependency)")
    ai = _copy_package(tmp_path, compiled=False)
    src = tmp_path / "src"
    done = _build(ai, {})
    assert done.returncode == 0, done.stderr
    assert "compiled the search with mypyc" in done.stderr, done.stderr
    name = native_source.package_name(native_source.digest(ai))
    assert [path.name.split(".")[0] for path in _built(ai)] == [name, name + "__mypyc"]
    assert not list((ai / name).glob("*.py"))  # the copies never stay
    assert _which(src) == "True||1"
    assert _which(src, pure=True) == "False|SPADES_PURE_PYTHON is set|1"
    solver = ai / "tricks.py"
    text = solver.read_text(encoding="utf-8")
    solver.write_text(text.replace(
        "    return TrickSolver(book, side).tricks(pos)\n",
        "    return 99  # an edit the compiled build does not have\n"), encoding="utf-8")
    assert _which(src).startswith("False|the compiled search here was built from other")
    assert _which(src).endswith("|99")
    solver.write_text(text, encoding="utf-8")
    assert _which(src) == "True||1"
    kernel_py = ai / "kernel.py"
    kernel_py.write_text(kernel_py.read_text(encoding="utf-8") + "\n# edited\n",
                         encoding="utf-8")
    assert _which(src).startswith("False|the compiled search here was built from other")


def test_the_package_search_leaves_compiled_builds_out(tmp_path: Path) -> None:
    """pyproject.toml's package search lists no compiled package: an editable install after
    an edit of the search removes the build of the older sources, and setuptools then failed
    on the package it had listed ("package directory ... does not exist")."""
    import tomllib

    from setuptools import find_namespace_packages

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    search = config["tool"]["setuptools"]["packages"]["find"]
    build = tmp_path / "src" / "spades" / "ai" / (native_source.PREFIX + "0123456789abcdef")
    build.mkdir(parents=True)
    (build / ("kernel" + SUFFIXES[0])).write_bytes(b"")
    for package in (build.parent, build.parent.parent):
        (package / "__init__.py").write_text("", encoding="utf-8")
    where = str(tmp_path / search["where"][0])
    name = f"spades.ai.{build.name}"
    assert name in find_namespace_packages(where=where)  # (what the exclusion is for)
    found = find_namespace_packages(where=where, exclude=search.get("exclude", ()))
    assert "spades.ai" in found
    assert name not in found
