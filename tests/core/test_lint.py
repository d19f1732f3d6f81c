"""The code stays ruff-clean (lint and format) and type-checks clean under mypy (settings in
pyproject.toml), so CI catches what a pre-commit hook would."""

import shutil
import subprocess
import sys

import pytest

from tests.paths import ROOT


@pytest.mark.parametrize("args", [["check"], ["format", "--check"]])
def test_ruff(args):
    ruff = shutil.which("ruff")
    command = [ruff] if ruff else [sys.executable, "-m", "ruff"]
    done = subprocess.run(
        [*command, *args, "yamen", "tests", "benchmarks", "examples"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy():
    """The whole package type-checks: a view read through a key its game does not declare, a
    None not ruled out, a signature that drifted from its protocol, fail here."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "yamen"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
