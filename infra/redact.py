"""Keeping secrets out of the logs: the bot token, the webhook secret and the table view's
initData (an `Authorization: tma …` value) redacted in every record and exception, and the
libraries that log call parameters kept at INFO or above."""

from __future__ import annotations

import contextlib
import logging
import re
import threading

REDACTED = "[redacted]"
LIBRARIES = ("telegram", "telegram.ext", "httpx", "httpcore")

_secrets: set[str] = set()
_lock = threading.Lock()
# Credentials recognised by their shape: an Authorization header's value (as a header line, a
# dict's repr or JSON), and the table's `tma <initData>` wherever it stands.
CREDENTIALS = (
    re.compile(r"""(?i)(\bauthorization["']?\s*[:=]\s*["']?)[^"'\r\n,}]+"""),
    re.compile(r"(?i)(\btma\s+)[^\s\"',}]+"),
)
# What a LogRecord has of its own; anything else on it is a field a JSON formatter prints.
_RECORD_ATTRIBUTES = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


def scrub(text: str) -> str:
    """`text` with every hidden string, and every credential value, replaced."""
    for secret in tuple(_secrets):
        text = text.replace(secret, REDACTED)
    for credential in CREDENTIALS:
        text = credential.sub(rf"\g<1>{REDACTED}", text)
    return text


def _leaks(text: str) -> bool:
    if any(secret in text for secret in tuple(_secrets)):
        return True
    return any(credential.search(text) for credential in CREDENTIALS) and scrub(text) != text


def _message(error: BaseException) -> str:
    try:
        return str(error)
    except Exception:  # a broken __str__ prints as nothing
        return ""


def _text_attributes(error: BaseException) -> list[str]:
    """The names of an exception's attributes, in its __dict__ and its classes' __slots__."""
    names = list(vars(error))
    for kind in type(error).__mro__:
        slots = kind.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return names


def _scrub_one(error: BaseException) -> None:
    """Rewrite one exception's args and text attributes without the hidden strings."""
    args = tuple(scrub(a) if isinstance(a, str) else a for a in error.args)
    if args != error.args:
        error.args = args
    for name in _text_attributes(error):  # e.g. TelegramError.message, a slot
        value = getattr(error, name, None)
        if isinstance(value, str) and _leaks(value):
            with contextlib.suppress(AttributeError, TypeError):  # a read-only attribute
                setattr(error, name, scrub(value))


class RedactedError(Exception):
    """Stands for an exception whose message could not be rewritten without a secret."""


def scrub_error(error: BaseException) -> BaseException:
    """`error`, and the exceptions it was raised from, rewritten in place without the hidden
    strings (their args and text attributes). Returns `error`, or a `RedactedError` with its
    type and scrubbed message when its message still quotes one (made of something else)."""
    seen: set[int] = set()
    each: BaseException | None = error
    while each is not None and id(each) not in seen:
        seen.add(id(each))
        _scrub_one(each)
        each = each.__cause__ or each.__context__
    if _leaks(_message(error)):
        return RedactedError(f"{type(error).__name__}: {scrub(_message(error))}")
    return error


class Redactor(logging.Filter):
    """Rewrites a record's message, fields, traceback and exception without the hidden
    strings; drops nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot be formatted is logging's to report
            return True
        if _leaks(message):
            record.msg, record.args = scrub(message), None
        for name, value in list(vars(record).items()):
            if name not in _RECORD_ATTRIBUTES and isinstance(value, str) and _leaks(value):
                setattr(record, name, scrub(value))
        if record.exc_info and record.exc_info[1] is not None:
            kind, error, trace = record.exc_info
            clean = scrub_error(error)  # what a formatter prints as the error's message
            if clean is not error:
                record.exc_info = (kind, clean, trace)
            text = record.exc_text or logging.Formatter().formatException(record.exc_info)
            if _leaks(text):
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


def quiet_libraries() -> None:
    """Give python-telegram-bot's and the HTTP libraries' loggers a level of their own, INFO (or
    the higher one they have), so that a DEBUG root level, set before or after, does not print
    the calls' contents."""
    for name in LIBRARIES:
        logger = logging.getLogger(name)
        logger.setLevel(max(logging.INFO, logger.level))
