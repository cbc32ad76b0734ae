"""The browser's pure modules (cards.js, verify.js, shuffle.js, sheet.js, state.js and
tableview.js) under Node's own test runner: tests/web/*.test.mjs, with node:test and
node:assert only (no npm package), each file a test here, fed the fixtures the Python engine
makes for this run (jskit.py). A failing file fails with Node's report; without Node 18 or
later the tests skip, saying so (.ci/run installs Debian's nodejs)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from jskit import write_fixtures

HERE = Path(__file__).resolve().parent
NODE = shutil.which("node")
FILES = sorted(HERE.glob("*.test.mjs"))

#: Files that fail today for a known reason, run as strict expected failures: when one
#: passes, the gap is closed and it belongs with the others.
KNOWN_GAPS: dict[str, str] = {}


def node_version() -> tuple[int, int] | None:
    if NODE is None:
        return None
    out = subprocess.run([NODE, "--version"], capture_output=True, text=True, timeout=30).stdout
    match = re.match(r"v(\d+)\.(\d+)", out.strip())
    return (int(match.group(1)), int(match.group(2))) if match else None


VERSION = node_version()
FOUND = "no node" if VERSION is None else f"node {VERSION[0]}.{VERSION[1]}"

pytestmark = pytest.mark.skipif(
    VERSION is None or VERSION < (18, 15),
    reason=f"the JavaScript unit tests need Node.js 18.15 or later (node:test with its TAP "
           f"reporter); found {FOUND}")


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("js-fixtures")
    write_fixtures(folder)
    return folder


def run_node(path: Path, fixtures: Path) -> tuple[int, dict[str, int], str]:
    """Run one test file: Node's exit code, its summary counts (tests, pass, fail, ...) and
    its whole report."""
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--test", "--test-reporter=tap", str(path)], cwd=HERE, capture_output=True,
        text=True, timeout=120, env={**os.environ, "SPADES_JS_FIXTURES": str(fixtures)})
    report = done.stdout + done.stderr
    counts = {name: int(n) for name, n in re.findall(r"^# (\w+) (\d+)$", report, re.M)}
    return done.returncode, counts, report


@pytest.mark.parametrize("path", [p for p in FILES if p.name not in KNOWN_GAPS],
                         ids=lambda p: p.name)
def test_javascript_units_pass(path: Path, fixtures: Path) -> None:
    code, counts, report = run_node(path, fixtures)
    assert code == 0, report
    assert counts.get("pass", 0) > 0, report
    not_run = {k: counts.get(k, 0) for k in ("fail", "cancelled", "skipped", "todo")}
    assert not_run == {"fail": 0, "cancelled": 0, "skipped": 0, "todo": 0}, report


def test_known_gaps_still_fail(fixtures: Path) -> None:
    """Each known gap fails by its assertions only (a file that does not run fails for real);
    when one passes, the gap is closed and its file belongs with the others. (One test over
    them all: with no gap left it passes, rather than skip as an empty parametrisation.)"""
    for name, reason in sorted(KNOWN_GAPS.items()):
        code, counts, report = run_node(HERE / name, fixtures)
        ran = counts.get("pass", 0) + counts.get("fail", 0)
        if not ran or ran != counts.get("tests") or (code and "ERR_ASSERTION" not in report):
            pytest.fail(f"{name} did not run as a test file:\n{report}")
        assert code != 0 and counts.get("fail"), f"{name} passes now ({reason}): not a gap"


def test_the_test_files_are_found() -> None:
    assert {p.name for p in FILES} >= {"cards.test.mjs", "verify.test.mjs", "copies.test.mjs",
                                       "shuffle.test.mjs", "sheet.test.mjs", "state.test.mjs",
                                       *KNOWN_GAPS}
