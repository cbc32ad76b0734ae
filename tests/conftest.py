"""Project-wide test settings.

Tests that need an optional service (PostgreSQL, Chromium, OpenSpiel) skip with a reason on a
user's machine. In CI (``CI=true``) every such service is installed, so a skip there means
something is broken: it is reported as a failure instead.

No test reads files outside the repository (a clone has no ``../shared`` beside it): an
audit hook notes every file opened beside the project but not in it, and the test that
opened it fails.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator

import pytest

from readguard import OPENED_OUTSIDE, note_open

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
sys.addaudithook(note_open)


@pytest.fixture(autouse=True)
def _reads_inside_the_project() -> Generator[None, None, None]:
    OPENED_OUTSIDE.clear()
    yield
    assert not OPENED_OUTSIDE, f"a test read files outside the repository: {OPENED_OUTSIDE}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where every service must be present: {reason}"
