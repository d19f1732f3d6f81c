"""Fixtures for every test: the toy game registered for one test (``toy_game``), or for the
whole run with ``YAMEN_TOY_GAME=1`` (tests/conformance.py), before any test is collected."""

from __future__ import annotations

import pytest

from tests import conformance

conformance.register_for_the_run()


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> str:
    """The toy game (tests/toy_game.py) registered until the test ends: its name."""
    return conformance.register(monkeypatch, conformance.TOY, conformance.TOY_SPEC)
