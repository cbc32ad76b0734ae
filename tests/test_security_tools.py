"""Security gates: bandit finds nothing in src/spades (each skipped finding is explained in
pyproject.toml's [tool.bandit] or on its line), and pip-audit finds no known vulnerability
in the installed packages, where its vulnerability service can be reached."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
#: Known vulnerabilities judged not to apply, each with the reason (none so far).
IGNORED: dict[str, str] = {}


def tool(name: str) -> list[str]:
    """The command of a tool installed with the test interpreter (a gate never skips for a
    missing tool: `pip install -e '.[test]'` installs it)."""
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    assert found, f"{name} is not installed: pip install -e '.[test]'"
    return [found]


@pytest.mark.timeout(300)
def test_bandit_finds_nothing_in_the_source() -> None:
    done = subprocess.run([*tool("bandit"), "-c", "pyproject.toml", "-r", "src/spades", "-q",
                           "-f", "json"], cwd=ROOT, capture_output=True, text=True, timeout=280)
    report = json.loads(done.stdout)
    found = [f"{r['filename']}:{r['line_number']} {r['test_id']} {r['issue_text']}"
             for r in report["results"]]
    assert not found, "bandit: " + "\n".join(found)
    assert not report["errors"], report["errors"]
    assert done.returncode == 0, done.stderr
    assert report["metrics"]["_totals"]["loc"] > 5000  # it read the source


@pytest.mark.timeout(120)
def test_the_bandit_gate_can_fail(tmp_path: Path) -> None:
    """With the same configuration, a real finding is reported (nothing is skipped wholesale)."""
    bad = tmp_path / "bad.py"
    bad.write_text("import subprocess\n\n\ndef run(name: str) -> None:\n"
                   "    subprocess.call('ls ' + name, shell=True)\n"
                   "    password = 'hunter2'\n    print(password)\n")
    done = subprocess.run([*tool("bandit"), "-c", str(ROOT / "pyproject.toml"), "-q", "-f",
                           "json", str(bad)], capture_output=True, text=True, timeout=110)
    found = {r["test_id"] for r in json.loads(done.stdout)["results"]}
    assert {"B602", "B105"} <= found
    assert done.returncode == 1


def audit() -> dict[str, Any]:
    done = subprocess.run([*tool("pip-audit"), "--format", "json", "--progress-spinner", "off",
                           "--skip-editable", "--timeout", "20"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    try:
        report: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        pytest.fail(f"pip-audit gave no report: {done.stderr[-2000:]}")
    return report


@pytest.mark.timeout(660)
def test_pip_audit_finds_no_known_vulnerability() -> None:
    report = audit()
    dependencies = report["dependencies"]
    audited = [d for d in dependencies if "skip_reason" not in d]
    if not audited:
        reason = ("pip-audit could not reach its vulnerability service (PyPI's JSON API per "
                  "release) from here, so no package was audited: "
                  + (dependencies[0]["skip_reason"] if dependencies else "no packages"))
        if IN_CI:  # CI's network reaches the package index, not that API: not a failure
            pytest.xfail(reason)
        pytest.skip(reason)
    found = [f"{d['name']} {d['version']}: {v['id']} (fixed in {', '.join(v['fix_versions'])})"
             for d in audited for v in d["vulns"] if v["id"] not in IGNORED]
    assert not found, "known vulnerabilities:\n" + "\n".join(found)
