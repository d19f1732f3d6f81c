"""Fixtures shared by the browser tests (tests/web/): a server on a SQLite file and
Debian's Chromium driven by Playwright, one of each per test module."""

from __future__ import annotations

import pytest

from tests.server.helpers import ServerThread
from tests.web.helpers import CHROMIUM


@pytest.fixture(scope="module")
def web_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "web.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


@pytest.fixture(scope="module")
def browser():
    playwright = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    if CHROMIUM is None:
        pytest.skip("no Chromium: apt-get install chromium (.ci/run does)")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()
