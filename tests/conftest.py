"""What every test run has: the toy game registered for one test (``toy_game``), or for the
whole run with ``YAMEN_TOY_GAME=1`` (tests/conformance.py), before any test is collected; and
``--skipped-to FILE`` (tests/skip_list.py: what CI's second pass runs)."""

from __future__ import annotations

import pytest

from tests import conformance
from tests.skip_list import pytest_addoption, pytest_configure  # noqa: F401 (hooks)

conformance.register_for_the_run()


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> str:
    """The toy game (tests/toy_game.py) registered until the test ends: its name."""
    return conformance.register(monkeypatch, conformance.TOY, conformance.TOY_SPEC)
