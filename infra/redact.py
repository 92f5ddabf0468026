"""Keeping secrets out of the logs.

The bot token is part of every Bot API URL, and the libraries the bot uses log those URLs
(httpx at INFO, python-telegram-bot at DEBUG). `hide` makes every log record created from then
on, by any logger, carry "[redacted]" instead of the strings it is given.
"""

from __future__ import annotations

import logging
import threading

REDACTED = "[redacted]"

_secrets: set[str] = set()
_lock = threading.Lock()
_installed = [False]


def hide(*secrets: str) -> None:
    """Redact these strings (empty ones are ignored) from every log record from now on."""
    with _lock:
        _secrets.update(secret for secret in secrets if secret)
        if _installed[0]:
            return
        make = logging.getLogRecordFactory()

        def factory(*args, **kwargs) -> logging.LogRecord:
            record = make(*args, **kwargs)
            if _secrets:
                _scrub(record)
            return record

        logging.setLogRecordFactory(factory)
        _installed[0] = True


def scrub(text: str) -> str:
    """`text` with every hidden string replaced."""
    for secret in tuple(_secrets):
        text = text.replace(secret, REDACTED)
    return text


def _scrub(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception:  # a record that cannot be formatted is logging's to report
        return
    if any(secret in message for secret in tuple(_secrets)):
        record.msg, record.args = scrub(message), None
    if record.exc_info and record.exc_info[0] is not None:
        text = logging.Formatter().formatException(record.exc_info)
        if any(secret in text for secret in tuple(_secrets)):
            record.exc_text = scrub(text)  # what handlers print instead of formatting anew
