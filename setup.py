"""The build: pyproject.toml holds everything but the compiled modules made here.

The search's hot modules (src/spades/ai: the playout kernel, the deal sampler and the
readings it weighs deals by, the value solver and the double-dummy trick solver; the list is
``native_source.GROUP``) are compiled together with mypyc, the compiler of typed Python that
comes with mypy: the same source, about twice as fast for the computer players and two to
three times for hand reviews. It compiles generated copies in a package named after the
SHA-256 of their sources (src/spades/ai/native_source.py), never the modules in place, so a
stale build is never imported; spades.ai.native hands the modules the compiled names when
the package's name matches the sources beside it, else the pure modules serve: they stay
the reference and the fallback.

With no C compiler, or any other failure of the compile, the installation goes on with the
pure search and says so once. SPADES_PURE_PYTHON=1 skips the compile.
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


def _native_source() -> ModuleType:
    """src/spades/ai/native_source.py, loaded by its path (nothing is installed yet)."""
    spec = importlib.util.spec_from_file_location("_spades_native_source",
                                                  AI / "native_source.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _say(message: str) -> None:
    print(f"spades: {message}", file=sys.stderr, flush=True)


class BuildNative(build_ext):
    """Compiles the search with mypyc; on any failure, builds nothing and says why once."""

    def finalize_options(self) -> None:
        # setuptools readies the extensions as the command is finalized: make them first
        self.distribution.ext_modules = self._prepare()
        super().finalize_options()

    def _prepare(self) -> list[Extension]:
        """mypyc's translation of the search to C, as extensions to build (or none)."""
        source = _native_source()
        self.native_name = ""
        if source.wants_pure():
            _say(f"{source.PURE_ENV} is set: the search is not compiled "
                 "(the pure-Python one serves).")
            return []
        self.native_name = source.package_name(source.digest(AI))
        self.started = time.monotonic()
        try:
            return self._mypycify(source, self.native_name)
        except (Exception, SystemExit) as error:  # never fail the installation for it
            self._failed(error)
            return []

    def run(self) -> None:
        prefix = _native_source().PREFIX
        self._clear_builds(prefix, keep=self.native_name or None)
        if not self.extensions:
            return
        package = AI / self.native_name
        inplace = self.inplace  # (setuptools turns it off while it builds)
        if inplace:  # it builds elsewhere, then copies the modules into this folder
            package.mkdir(exist_ok=True)
        try:
            super().run()
        except (Exception, SystemExit) as error:  # never fail the installation for it
            self.extensions = self.distribution.ext_modules = []
            self._clear_builds(prefix, keep=None)
            if inplace and not any(package.iterdir()):
                package.rmdir()
            self._failed(error)
            return
        _say(f"compiled the search with mypyc as spades.ai.{self.native_name} "
             f"({time.monotonic() - self.started:.0f} s).")

    def _failed(self, error: BaseException) -> None:
        self.native_name = ""
        _say("WARNING: the search was not compiled "
             f"({type(error).__name__}: {str(error).strip()[:300]}). Spades works the "
             "same with the pure-Python search, only its computer players think longer and "
             "its hand reviews are slower. To compile it, install a C compiler and "
             "Python's headers (Debian: apt-get install gcc python3-dev) and install again.")

    def _mypycify(self, source: ModuleType, name: str) -> list[Extension]:
        from mypyc.build import mypycify  # a build requirement (pyproject.toml)

        package = AI / name
        package.mkdir(exist_ok=True)
        paths = []
        for file, text in source.generated_files(AI).items():
            (package / file).write_text(text, encoding="utf-8")
            paths.append(str(package / file))
        try:
            # one group; its shared library, spades.ai.<name>__mypyc, sits beside the
            # package (inside it, the package's own __init__ would import it while the
            # package is not yet imported)
            extensions: list[Extension] = mypycify(
                paths, opt_level="3", separate=[(paths, f"spades.ai.{name}")],
                target_dir=str(ROOT / "build" / "mypyc"))
        finally:  # the copies are only the compiler's input: they never stay in the tree
            for path in paths:
                Path(path).unlink()
            if not any(package.iterdir()):  # (an earlier build of these sources stays)
                package.rmdir()
        return extensions

    def _clear_builds(self, prefix: str, keep: str | None) -> None:
        """Remove compiled packages of other sources (and copies left by a crash) from where
        this build puts its own (the source tree in place, else the build folder), so they
        neither pile up nor end up in a wheel."""
        folder = AI if self.inplace else Path(self.build_lib) / "spades" / "ai"
        paths = [*AI.glob(prefix + "*/*.py")]  # a generated copy is never kept
        paths += [*AI.glob("_tricks_*")]  # the solver compiled alone, before the group
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
    return [Extension("spades.ai._compiled_search", sources=[])]


cmdclass: dict[str, Any] = {"build_ext": BuildNative}
if __name__ == "__main__":  # as pip's build runs it (tests import BuildNative alone)
    setup(ext_modules=_placeholder(), cmdclass=cmdclass)
