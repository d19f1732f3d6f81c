"""``python -m yamen``: the same as the ``yamen`` command."""

from yamen.cli import app

app()
