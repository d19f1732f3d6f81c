"""What every test run has: the toy game registered for one test (``toy_game``), or for the
whole run with ``YAMEN_TOY_GAME=1`` (tests/conformance.py), before any test is collected;
``--skipped-to FILE`` (tests/skip_list.py: what CI's second pass runs); and, since the suite
runs on several workers (pytest-xdist, pyproject.toml's addopts), the tests that use Redis on
one of them, one after the other."""

from __future__ import annotations

import pytest

from tests import conformance
from tests.skip_list import pytest_addoption, pytest_configure  # noqa: F401 (hooks)

conformance.register_for_the_run()


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> str:
    """The toy game (tests/toy_game.py) registered until the test ends: its name."""
    return conformance.register(monkeypatch, conformance.TOY, conformance.TOY_SPEC)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that use the one Redis server (the ``redis_url`` fixture) form one group,
    which ``--dist loadgroup`` runs on one worker: some pause all of Redis's clients (CLIENT
    PAUSE) or kill connections, which would stall another test's cluster meanwhile."""
    for item in items:
        if "redis_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("redis"))
