"""Process logging (design §7, operations): plain text, or one JSON object a line.

``CARDROOM_LOG_FORMAT=json`` makes every process (``serve``, ``project``, ``rebuild``,
``status``) log one JSON object a line on stderr — ``time`` (ISO 8601, UTC), ``level``,
``logger``, ``message``, ``process`` (pid) and, when there is one, ``exception`` (the
traceback) — so a log shipper needs no parsing rules. uvicorn's own loggers go to the same
handler.
"""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from typing import TextIO

import msgspec

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_encode = msgspec.json.Encoder().encode


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return _encode(line).decode()


class _Stderr(logging.StreamHandler[TextIO]):
    """A handler writing to whatever ``sys.stderr`` is when a record is emitted."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def configure_logging(log_format: str, level: int = logging.INFO) -> None:
    """One stderr handler on the root logger, text or JSON (replacing the one a previous call
    installed; other handlers stay), and uvicorn's loggers sent to it."""
    handler = _Stderr()
    formatter = JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _Stderr)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        uvicorn_logger = logging.getLogger(name)
        uvicorn_logger.handlers.clear()
        uvicorn_logger.propagate = True
