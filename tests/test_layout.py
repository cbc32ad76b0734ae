"""No circles, no shims (issue 36, item 3).

Circles: no two modules of one package import each other, directly or through others, and an
import inside a function counts. The ``acyclic_siblings`` contract in pyproject.toml holds it
(``test_quality.py`` runs every contract); the tests here check that the contract is there and
that it sees a circle made inside a function.

Shims: every name is imported from the module that defines it. Only a package's
``__init__`` passes on names of its modules, those it lists in ``__all__`` (its public API);
any other module lists in ``__all__`` only what it defines, defines something, and gives an
imported name no second name (``Brain = Thinker``).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"

# the function behind ``lint-imports`` (see test_quality.py), on a given configuration file
LINT_IMPORTS = ("import sys; from importlinter.cli import lint_imports; "
                "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, "
                "no_logo=True))")


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    is_package: bool  # an ``__init__.py``
    defines: frozenset[str]  # the names its own top level binds, imports aside
    exports: tuple[str, ...]  # its ``__all__``
    imported: frozenset[str]  # the names its top-level imports bind
    only_imports: bool  # nothing but imports (a docstring and ``__all__`` aside)


def _targets(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def _top_level(tree: ast.Module) -> list[ast.stmt]:
    """The module's statements, those under a top-level ``if`` or ``try`` included."""
    out: list[ast.stmt] = []
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        out.append(node)
        if isinstance(node, ast.If | ast.Try):
            todo += node.body + node.orelse + getattr(node, "finalbody", [])
            todo += [s for h in getattr(node, "handlers", []) for s in h.body]
    return out


def _exports(tree: ast.Module) -> tuple[str, ...]:
    for node in tree.body:
        if (isinstance(node, ast.Assign) and "__all__" in _targets(node)
                and isinstance(node.value, ast.List | ast.Tuple)):
            return tuple(e.value for e in node.value.elts
                         if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return ()


def _imported(statements: list[ast.stmt]) -> frozenset[str]:
    names = set()
    for node in statements:
        if isinstance(node, ast.ImportFrom):
            names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return frozenset(names)


def _only_imports(tree: ast.Module) -> bool:
    for node in tree.body:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        if not (docstring or isinstance(node, ast.Import | ast.ImportFrom)
                or "__all__" in _targets(node)):
            return False
    return True


def module_name(path: Path, base: Path) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: Path) -> dict[str, Module]:
    """Every module of ``package`` (a folder) by dotted name."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        statements = _top_level(tree)
        defines = {name for node in statements for name in _targets(node)} - {"__all__"}
        name = module_name(path, package.parent)
        out[name] = Module(name, path, path.name == "__init__.py", frozenset(defines),
                           _exports(tree), _imported(statements), _only_imports(tree))
    return out


def _aliases(module: Module) -> list[str]:
    """``NEW = imported``: a public second name for an imported name."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
    return [f"{module.name}:{node.lineno} {ast.unparse(node)}" for node in tree.body
            if isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and not node.targets[0].id.startswith("_")
            and isinstance(node.value, ast.Name) and node.value.id in module.imported]


def shims(found: dict[str, Module]) -> list[str]:
    """What passes on names defined elsewhere, outside packages' ``__init__``."""
    out = []
    for module in found.values():
        if module.is_package:
            continue
        out += [f"{module.name}: __all__ lists {n}, defined elsewhere"
                for n in module.exports if n not in module.defines]
        if module.only_imports:
            out.append(f"{module.name}: only imports (a module that passes names on)")
        out += _aliases(module)
    return out


def _source(importer: str | None, node: ast.ImportFrom, is_package: bool) -> str | None:
    """The dotted name a ``from ... import`` reads from (None: relative, outside src)."""
    if not node.level:
        return node.module
    if importer is None:
        return None
    parts = importer.split(".") if is_package else importer.split(".")[:-1]
    parts = parts[:len(parts) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


def misplaced(path: Path, importer: str | None, found: dict[str, Module]) -> list[str]:
    """``where:line name from module`` for each name ``path`` imports from a module of
    ``found`` that does not define it (a package's ``__all__`` and submodules aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    where = importer or str(path.relative_to(ROOT))  # tests and bench: by their path
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        source = _source(importer, node, path.name == "__init__.py")
        module = found.get(source or "")
        if module is None:
            continue
        out += [f"{where}:{node.lineno} {a.name} from {source}" for a in node.names
                if a.name not in module.defines and f"{source}.{a.name}" not in found
                and not (module.is_package and a.name in module.exports)]
    return out


def _python_files() -> list[tuple[Path, str | None]]:
    """Every file of ours: src (with its module name), tests and bench."""
    files = [(p, module_name(p, SRC)) for p in sorted((SRC / "spades").rglob("*.py"))]
    return files + [(p, None) for folder in ("tests", "bench")
                    for p in sorted((ROOT / folder).rglob("*.py"))]


def test_no_module_passes_on_names_it_does_not_define() -> None:
    found = shims(modules(SRC / "spades"))
    assert not found, "import these names from where they live: " + "; ".join(found)


def test_every_name_is_imported_from_where_it_lives() -> None:
    found = modules(SRC / "spades")
    wrong = [hit for path, name in _python_files() for hit in misplaced(path, name, found)]
    assert not wrong, "import these from the module that defines them: " + "; ".join(wrong)


def test_the_checks_see_shims_and_names_imported_through_them(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from .home import Thing\n\n__all__ = ['Thing']\n", encoding="utf-8")
    (package / "home.py").write_text("class Thing:\n    pass\n", encoding="utf-8")
    (package / "shim.py").write_text(
        "from .home import Thing\n\nOther = Thing\n__all__ = ['Thing', 'Other']\n",
        encoding="utf-8")
    (package / "relay.py").write_text("from .home import Thing\n", encoding="utf-8")
    (package / "user.py").write_text(
        "from pkg import Thing\nfrom pkg.home import Thing as T\nfrom .shim import Other\n"
        "from .relay import Thing as R\n\nUSED = (Thing, T, Other, R)\n", encoding="utf-8")
    found = modules(package)
    assert sorted(shims(found)) == [
        "pkg.relay: only imports (a module that passes names on)",
        "pkg.shim: __all__ lists Thing, defined elsewhere",
        "pkg.shim:3 Other = Thing",
    ]
    assert misplaced(package / "user.py", "pkg.user", found) == [
        "pkg.user:4 Thing from pkg.relay"]


def test_circles_inside_a_package_are_refused_by_a_contract() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = pyproject["tool"]["importlinter"]["contracts"]
    assert any(c["type"] == "acyclic_siblings" and c["ancestors"] == ["spades"]
               for c in contracts), "the acyclic_siblings contract on spades is missing"


def test_the_contract_sees_a_circle_closed_inside_a_function(tmp_path: Path) -> None:
    package = tmp_path / "circle"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "inner" / "__init__.py").write_text("", encoding="utf-8")
    (package / "inner" / "low.py").write_text(
        "def f():\n    from .high import g\n    return g\n", encoding="utf-8")
    (package / "inner" / "high.py").write_text("from .low import f\n\ng = f\n",
                                               encoding="utf-8")
    config = tmp_path / "contracts.toml"
    config.write_text('[tool.importlinter]\nroot_package = "circle"\n\n'
                      '[[tool.importlinter.contracts]]\nname = "no circles"\n'
                      'type = "acyclic_siblings"\nancestors = ["circle"]\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", LINT_IMPORTS, str(config)], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(tmp_path)})
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "No cycles are allowed in circle.inner" in output, output
