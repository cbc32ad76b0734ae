"""The guard of tests/conftest.py (tests/readguard.py): a file beside the project
(``../shared``) counts as read outside the repository; the project's own files and
temporary files do not."""

from __future__ import annotations

import os

from readguard import ROOT, is_outside


def test_a_file_beside_the_project_is_outside() -> None:
    parent = os.path.dirname(ROOT)
    assert is_outside(os.path.join(parent, "shared", "records", "expected.json"))
    assert is_outside(os.path.join(ROOT + "-copy", "README.md"))


def test_the_project_and_temporary_files_are_inside(tmp_path: object) -> None:
    assert not is_outside(os.path.join(ROOT, "tests", "golden", "records", "expected.json"))
    assert not is_outside(str(tmp_path))
    assert not is_outside("/usr/lib/python3/os.py", root="/work/main", temp="/tmp")
    assert not is_outside("/work/main/x", root="/work/main", temp="/tmp")
    assert is_outside("/work/shared/x", root="/work/main", temp="/tmp")
    assert not is_outside("/tmp/shared/x", root="/tmp/main", temp="/tmp")
