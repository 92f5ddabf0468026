"""Retry on a lost race: run an attempt again, after a short jittered wait, while it conflicts."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from infra.store import Conflict

T = TypeVar("T")

ATTEMPTS = 30  # twenty writers racing for one table all get through well within this


def backoff(attempt: int) -> float:
    """A random wait after conflict number `attempt` (from 0), longer each time, so that writers
    racing for one item spread out instead of colliding again."""
    return random.uniform(0, min(0.25, 0.005 * 2**attempt))


def retry_on_conflict(
    attempt_fn: Callable[[int], T],
    attempts: int = ATTEMPTS,
    sleep: Callable[[float], None] | None = None,
) -> T:
    """`attempt_fn(attempt)` for attempt 0, 1, … until it returns without raising `Conflict`,
    waiting `backoff` (with `sleep`, default `time.sleep`) between attempts; the last `Conflict`
    is raised when all `attempts` conflicted. Any other error passes through at once."""
    for attempt in range(attempts):
        try:
            return attempt_fn(attempt)
        except Conflict:
            if attempt == attempts - 1:
                raise
            (sleep or time.sleep)(backoff(attempt))
    raise ValueError(f"attempts must be at least 1, not {attempts}")
