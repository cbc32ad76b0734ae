"""The double-dummy solver in use: ``tricks.py`` compiled by mypyc when this installation has
a build made from exactly the ``tricks.py`` (and ``kernel.py``) beside it, else ``tricks.py``
itself, the reference.

Both are one source, so they answer alike (tests/ai/test_compiled_solver.py holds them to
it); the compiled one is two to three times faster. The build is ``setup.py``'s; it is skipped
with ``SPADES_PURE_PYTHON=1`` at install, and the same variable at run time makes every solve
pure. ``SOLVER`` says which is in use (``spades --version`` and the benchmarks print it) and
``REASON`` why the pure one is, when it is.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
from types import ModuleType
from typing import TYPE_CHECKING

from . import solver_source
from . import tricks as pure


def choose() -> tuple[ModuleType, str]:
    """The solver module to use and, when it is the pure one, why (else "")."""
    if solver_source.wants_pure():
        return pure, f"{solver_source.PURE_ENV} is set"
    try:
        source_digest = solver_source.digest()
    except OSError as error:
        return pure, f"its source could not be read ({error})"
    name = f"{__package__}.{solver_source.module_name(source_digest)}"
    spec = importlib.util.find_spec(name)
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    if spec is None or not (spec.origin or "").endswith(suffixes):
        built = solver_source.HERE.glob(solver_source.PREFIX + "*")
        if any(path.name.endswith(suffixes) for path in built):
            return pure, ("the compiled solver here was built from another tricks.py or "
                          "kernel.py: reinstall to rebuild it")
        return pure, "no compiled solver was built: it needs a C compiler at install"
    try:
        module = importlib.import_module(name)
    except ImportError as error:
        return pure, f"the compiled solver did not load ({error})"
    if getattr(module, "SOURCE_DIGEST", None) != source_digest:
        return pure, "the compiled solver's digest does not match its name"
    return module, ""


MODULE, REASON = choose()
#: True when the compiled solver is in use.
COMPILED = MODULE is not pure
#: Which solver is in use, as the benchmarks and ``spades --version`` print it.
SOLVER = "compiled (mypyc)" if COMPILED else f"pure Python ({REASON})"

if TYPE_CHECKING:  # one source: the compiled module has exactly the pure one's types
    from .tricks import TrickSolver, best_moves, solve_tricks
else:
    TrickSolver = MODULE.TrickSolver
    best_moves = MODULE.best_moves
    solve_tricks = MODULE.solve_tricks

__all__ = ["COMPILED", "MODULE", "REASON", "SOLVER", "TrickSolver", "best_moves",
           "solve_tricks"]
