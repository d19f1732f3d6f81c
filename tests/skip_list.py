"""``--skipped-to FILE``: write the node ids of the tests a run skipped, one a line.

CI runs the README's test command first as a newcomer would, with only ``'.[test]'``
installed, and what needs PyTorch, Ray, Chromium or Node.js skips; it then installs those and
runs exactly the tests the first pass skipped (``pytest @FILE``), asking that none skips again
(.ci/run). A module skipped whole at collection (``pytest.importorskip``) is listed by its path.
Its hooks are tests/conftest.py's; this module imports nothing of the project's.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--skipped-to",
        metavar="FILE",
        help="write the node ids of the skipped tests to FILE, one a line (for `pytest @FILE`)",
    )


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("--skipped-to")
    # under pytest-xdist the controller gets every worker's reports: it alone writes the list
    if path and not hasattr(config, "workerinput"):
        config.pluginmanager.register(SkipList(Path(path)), "skipped-to")


class SkipList:
    def __init__(self, path: Path):
        self.path, self.nodes = path, list[str]()

    def note(self, report: pytest.CollectReport | pytest.TestReport) -> None:
        # an expected failure is reported as skipped too, but it waits for nothing
        if report.skipped and not hasattr(report, "wasxfail"):
            self.nodes.append(report.nodeid)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        self.note(report)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.note(report)

    def pytest_sessionfinish(self) -> None:
        self.path.write_text("".join(f"{node}\n" for node in self.nodes))
