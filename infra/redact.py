"""Keeping secrets out of the logs.

The bot token is part of every Bot API URL, and the libraries the bot uses log those URLs
(httpx at INFO, python-telegram-bot at DEBUG). `hide` puts a `Redactor` filter on every handler
of the root logger, which all records reach, so whatever a handler writes carries "[redacted]"
instead of the strings it is given.
"""

from __future__ import annotations

import logging
import threading

REDACTED = "[redacted]"

_secrets: set[str] = set()
_lock = threading.Lock()


def scrub(text: str) -> str:
    """`text` with every hidden string replaced."""
    for secret in tuple(_secrets):
        text = text.replace(secret, REDACTED)
    return text


class Redactor(logging.Filter):
    """Rewrites a record's message and traceback without the hidden strings; drops nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not _secrets:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot be formatted is logging's to report
            return True
        if any(secret in message for secret in tuple(_secrets)):
            record.msg, record.args = scrub(message), None
        if record.exc_info and record.exc_info[0] is not None:
            text = record.exc_text or logging.Formatter().formatException(record.exc_info)
            if any(secret in text for secret in tuple(_secrets)):
                record.exc_text = scrub(text)  # what handlers print instead of formatting anew
        return True


REDACTOR = Redactor()


def hide(*secrets: str) -> None:
    """Redact these strings (empty ones are ignored) from what every root handler writes from
    now on (handlers added later get the filter at the next call)."""
    with _lock:
        _secrets.update(secret for secret in secrets if secret)
        for handler in logging.getLogger().handlers:
            if REDACTOR not in handler.filters:
                handler.addFilter(REDACTOR)
