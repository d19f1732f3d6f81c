"""CI's second pass runs exactly what its first skipped (tests/skip_list.py, .ci/run): the list
names skipped tests and modules skipped whole, and not passes, failures or expected failures."""

import subprocess
import sys

import pytest

from tests.paths import ROOT

TESTS = """
import pytest

def test_passes():
    pass

def test_skips():
    pytest.skip("waits for an extra")

@pytest.mark.xfail(reason="known")
def test_fails_as_expected():
    assert False

@pytest.mark.parametrize("n", [1, 2])
def test_one_of_two_skips(n):
    if n == 2:
        pytest.skip("waits for an extra")
"""

WHOLE = 'import pytest\n\npytest.importorskip("no_such_extra_module")\n\ndef test_a():\n    pass\n'


def pytest_run(folder, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=folder,
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one-process", "xdist-workers"])
def test_the_skip_list_names_what_skipped_and_a_second_pass_runs_only_that(tmp_path, workers):
    """Also on pytest-xdist's workers (the suite's addopts): the controller writes the list."""
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "skip_list.py").read_text())
    (tmp_path / "test_some.py").write_text(TESTS)
    (tmp_path / "test_whole.py").write_text(WHOLE)
    listed = tmp_path / "skipped"

    first = pytest_run(tmp_path, f"--skipped-to={listed}", *workers)
    assert first.returncode == 0, first.stdout + first.stderr
    assert sorted(listed.read_text().splitlines()) == [
        "test_some.py::test_one_of_two_skips[2]",
        "test_some.py::test_skips",
        "test_whole.py",
    ]

    again = tmp_path / "again"
    second = pytest_run(tmp_path, f"@{listed}", f"--skipped-to={again}", *workers)
    assert second.stdout.splitlines()[-1].split(" in ")[0].strip("= ") == "3 skipped"
    assert sorted(again.read_text().splitlines()) == sorted(listed.read_text().splitlines())


def test_without_the_option_nothing_is_written(tmp_path):
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "skip_list.py").read_text())
    (tmp_path / "test_some.py").write_text(TESTS)
    done = pytest_run(tmp_path)
    assert done.returncode == 0, done.stdout
    assert {p.name for p in tmp_path.iterdir()} - {"__pycache__"} == {"conftest.py", "test_some.py"}
