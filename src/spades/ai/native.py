"""The search's modules in use: compiled by mypyc where this installation has a build made
from exactly the sources beside it, else the pure-Python modules themselves, the reference.

The group (``native_source.GROUP``: kernel, reading, clues, sampler, solver, tricks) is
compiled as one package, ``_native_<digest>``, by ``setup.py``. Each module of the group
ends with ``adopt(globals())``: where the compiled package serves, the module takes every
name of its compiled twin (functions, classes, tables), so that whoever imports
``spades.ai.kernel`` or ``spades.ai.sampler`` gets native code, and every object of the
search (a ``Rulebook``, a ``Position``, a ``DealSampler``) is of one kind. It is the standard
library's accelerator pattern (``heapq`` and ``_heapq``), with the build checked against
the sources: a build of other sources, a broken one, or ``SPADES_PURE_PYTHON=1`` at run
time leave the pure modules, and ``REASON`` says why.

Both are one source, so they answer alike (``tests/ai/test_native.py`` holds Hard's
decisions and the trick solver's counts to it); the compiled search is about twice as fast.
``SEARCH`` says which is in use (``spades --version`` and the benchmarks print it).
``pure(name)`` loads a module of the group from its source, never adopting: the reference
the tests compare the compiled modules with.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from . import native_source


def choose() -> tuple[str | None, str]:
    """The compiled package to use (its full name), or None and why not."""
    if native_source.wants_pure():
        return None, f"{native_source.PURE_ENV} is set"
    try:
        source_digest = native_source.digest()
    except OSError as error:
        return None, f"its sources could not be read ({error})"
    name = f"{__package__}.{native_source.package_name(source_digest)}"
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    try:
        spec = importlib.util.find_spec(name)
    except ImportError as error:  # a broken folder of that name
        return None, f"the compiled search did not load ({error})"
    if spec is None or not (spec.origin or "").endswith(suffixes):
        built = native_source.HERE.glob(native_source.PREFIX + "*")
        if any(path.is_dir() for path in built):
            return None, ("the compiled search here was built from other sources of "
                          f"{', '.join(native_source.GROUP)}: reinstall to rebuild it")
        return None, "no compiled search was built: it needs a C compiler at install"
    folder = Path(spec.origin or "").parent
    for module in native_source.GROUP:
        if not any((folder / (module + suffix)).is_file() for suffix in suffixes):
            return None, f"the compiled search lacks its {module} module: reinstall"
    try:
        package = importlib.import_module(name)
    except ImportError as error:
        return None, f"the compiled search did not load ({error})"
    if getattr(package, "SOURCE_DIGEST", None) != source_digest:
        return None, "the compiled search's digest does not match its name"
    return name, ""


PACKAGE, REASON = choose()
#: True when the compiled search is in use.
COMPILED = PACKAGE is not None
#: Which search is in use, as the benchmarks and ``spades --version`` print it.
SEARCH = "compiled (mypyc)" if COMPILED else f"pure Python ({REASON})"


def adopt(names: dict[str, Any]) -> None:
    """Give the module whose globals are ``names`` every name of its compiled twin (dunders
    aside), when the compiled search is in use; else leave it as it is. Called by each
    module of the group as its last line."""
    module = str(names["__name__"])
    package, _, short = module.rpartition(".")
    if PACKAGE is None or package != __package__ or short not in native_source.GROUP:
        return  # pure: no build, or a module loaded under another name (``pure``)
    twin = importlib.import_module(f"{PACKAGE}.{short}")
    names.update({key: value for key, value in vars(twin).items()
                  if not key.startswith("__")})


def pure(name: str) -> ModuleType:
    """A fresh module of the group run from its source, never adopting the compiled names
    (it imports the rest of ``spades.ai`` as usual): the reference for the tests."""
    if name not in native_source.GROUP:
        raise ValueError(f"{name} is not one of the compiled modules "
                         f"({', '.join(native_source.GROUP)})")
    full = f"{__package__}._pure_{name}"
    spec = importlib.util.spec_from_file_location(full, native_source.HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = __package__
    sys.modules[full] = module  # dataclasses look their module up while it runs
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[full]
    return module
