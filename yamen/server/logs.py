"""The server's log: plain lines by default, or one JSON object a line (``yamen serve
--log-format json``) for a log collector. Either way a record's ``extra`` fields (``room``,
``node``, ...) are kept: ``log.warning("lease lost", extra={"room": room_id})``. uvicorn's
loggers write through the same handler: its access log (``uvicorn.access``, one line a
request) from ``--log-level info`` on."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

FORMATS = ("text", "json")
LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}
# what every LogRecord has: anything else on a record came from ``extra``; uvicorn's
# ``color_message`` repeats the message with terminal colours
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "color_message",
}


def extras(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: at (UTC, ISO 8601), level, logger, message, the ``extra``
    fields, and the exception's traceback as ``error`` when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        at = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line: dict[str, Any] = {
            "at": f"{at}.{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in extras(record).items():
            line.setdefault(
                key, value if isinstance(value, str | int | float | bool) else str(value)
            )
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``time level logger: message [key=value ...]``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = extras(record)
        if fields:
            head, _, rest = text.partition("\n")
            tail = " ".join(f"{k}={v}" for k, v in fields.items())
            text = f"{head} [{tail}]" + (f"\n{rest}" if rest else "")
        return text


def configure(kind: str = "text", level: int = logging.WARNING) -> None:
    """The root logger writes to stderr in ``kind`` (text or json) from ``level`` on."""
    if kind not in FORMATS:
        raise ValueError(f"log format {kind!r}: one of {', '.join(FORMATS)}")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if kind == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # alembic names each of its plugins at info on every start: noise below debug
    logging.getLogger("alembic.runtime.plugins").setLevel(max(level, logging.WARNING))
