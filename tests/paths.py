"""Where the repository's files are, for tests that read them."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "yamen" / "web"
