"""Which update a log line is about: its update id and chat id, on every record made while it
is handled (Lambda's JSON log format prints them as fields of the line)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_about: ContextVar[dict[str, int]] = ContextVar("about", default={})  # noqa: B039 - never mutated


class UpdateFields(logging.Filter):
    """Adds `update_id` and `chat_id` of the update being handled to each record."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, value in _about.get().items():
            setattr(record, name, value)
        return True


FIELDS = UpdateFields()


def install() -> None:
    """Put the filter on every handler of the root logger (again for handlers added since)."""
    for handler in logging.getLogger().handlers:
        if FIELDS not in handler.filters:
            handler.addFilter(FIELDS)


@contextmanager
def about(**ids: int | None) -> Iterator[None]:
    """Records made inside carry these ids (those that are not None)."""
    token = _about.set({name: value for name, value in ids.items() if value is not None})
    try:
        yield
    finally:
        _about.reset(token)
