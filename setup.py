"""The build: pyproject.toml holds everything but the one compiled module made here.

The double-dummy solver (src/spades/ai/tricks.py) is compiled with mypyc, the compiler of
typed Python that comes with mypy: the same source, two to three times faster (hand
reviews). It compiles a generated copy named after the SHA-256 of its sources
(src/spades/ai/solver_source.py), never tricks.py in place, so a stale build is never
imported; spades.ai.double_dummy picks the compiled module when its name matches the
sources beside it, else the pure tricks.py, which stays the reference and the fallback.

With no C compiler, or any other failure of the compile, the installation goes on with the
pure solver and says so once. SPADES_PURE_PYTHON=1 skips the compile.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
AI = ROOT / "src" / "spades" / "ai"


def _solver_source() -> ModuleType:
    """src/spades/ai/solver_source.py, loaded by its path (nothing is installed yet)."""
    spec = importlib.util.spec_from_file_location("_spades_solver_source",
                                                  AI / "solver_source.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _say(message: str) -> None:
    print(f"spades: {message}", file=sys.stderr, flush=True)


class BuildSolver(build_ext):
    """Compiles the solver with mypyc; on any failure, builds nothing and says why once."""

    def finalize_options(self) -> None:
        # setuptools readies the extensions as the command is finalized: make them first
        self.distribution.ext_modules = self._prepare()
        super().finalize_options()

    def _prepare(self) -> list[Extension]:
        """mypyc's translation of the solver to C, as extensions to build (or none)."""
        source = _solver_source()
        self.solver_name = ""
        if source.wants_pure():
            _say(f"{source.PURE_ENV} is set: the double-dummy solver is not compiled "
                 "(the pure-Python one serves).")
            return []
        self.solver_name = source.module_name(source.digest(AI))
        self.started = time.monotonic()
        try:
            return self._mypycify(source, self.solver_name)
        except (Exception, SystemExit) as error:  # never fail the installation for it
            self._failed(error)
            return []

    def run(self) -> None:
        prefix = _solver_source().PREFIX
        self._clear_builds(prefix, keep=self.solver_name or None)
        if not self.extensions:
            return
        try:
            super().run()
        except (Exception, SystemExit) as error:  # never fail the installation for it
            self.extensions = self.distribution.ext_modules = []
            self._clear_builds(prefix, keep=None)
            self._failed(error)
            return
        _say(f"compiled the double-dummy solver with mypyc as spades.ai.{self.solver_name} "
             f"({time.monotonic() - self.started:.0f} s).")

    def _failed(self, error: BaseException) -> None:
        self.solver_name = ""
        _say("WARNING: the double-dummy solver was not compiled "
             f"({type(error).__name__}: {str(error).strip()[:300]}). Spades works the "
             "same with the pure-Python solver, only its hand reviews are slower. To "
             "compile it, install a C compiler and Python's headers (Debian: apt-get "
             "install gcc python3-dev) and install again.")

    def _mypycify(self, source: ModuleType, name: str) -> list[Extension]:
        from mypyc.build import mypycify  # a build requirement (pyproject.toml)

        generated = AI / f"{name}.py"
        generated.write_text(source.generated_text(AI), encoding="utf-8")
        try:
            extensions: list[Extension] = mypycify(
                [str(generated)], opt_level="3",
                target_dir=str(ROOT / "build" / "mypyc"))
        finally:  # the copy is only the compiler's input: it never stays in the tree
            generated.unlink()
        return extensions

    def _clear_builds(self, prefix: str, keep: str | None) -> None:
        """Remove compiled solvers of other sources (and a copy left by a crash) from where
        this build puts its own (the source tree in place, else the build folder), so they
        neither pile up nor end up in a wheel."""
        folder = AI if self.inplace else Path(self.build_lib) / "spades" / "ai"
        paths = [*AI.glob(prefix + "*.py")]  # a generated copy is never kept
        if folder.is_dir():
            paths += [path for path in folder.glob(prefix + "*")
                      if keep is None
                      or path.name.split(".")[0] not in (keep, keep + "__mypyc")]
        for path in set(paths):
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)


def _placeholder() -> list[Extension]:
    """One extension, so that setuptools runs build_ext (which builds the real ones)."""
    return [Extension("spades.ai._compiled_solver", sources=[])]


cmdclass: dict[str, Any] = {"build_ext": BuildSolver}
if __name__ == "__main__":  # as pip's build runs it (tests import BuildSolver alone)
    setup(ext_modules=_placeholder(), cmdclass=cmdclass)
