"""The retry helper: runs an attempt again after a lost race, and only then."""

from __future__ import annotations

import pytest

from handlers.storage.retry import ATTEMPTS, backoff, retry_on_conflict
from infra.store import Conflict


def test_gives_up_after_attempts_raising_the_last_conflict() -> None:
    calls: list[int] = []
    waits: list[float] = []

    def attempt(number: int) -> None:
        calls.append(number)
        raise Conflict("k", number)

    with pytest.raises(Conflict) as raised:
        retry_on_conflict(attempt, sleep=waits.append)
    assert calls == list(range(ATTEMPTS))
    assert raised.value.version == ATTEMPTS - 1
    assert len(waits) == ATTEMPTS - 1  # between attempts, none after the last


def test_runs_again_until_an_attempt_does_not_conflict() -> None:
    calls: list[int] = []

    def attempt(number: int) -> str:
        calls.append(number)
        if number < 2:
            raise Conflict("k")
        return "saved"

    assert retry_on_conflict(attempt, sleep=lambda _: None) == "saved"
    assert calls == [0, 1, 2]


def test_a_first_attempt_that_wins_waits_for_nothing() -> None:
    waits: list[float] = []
    assert retry_on_conflict(lambda number: number, sleep=waits.append) == 0
    assert waits == []


def test_retries_only_on_conflict() -> None:
    calls: list[int] = []

    def attempt(number: int) -> None:
        calls.append(number)
        raise ValueError("not a race")

    with pytest.raises(ValueError):
        retry_on_conflict(attempt, sleep=lambda _: None)
    assert calls == [0]


def test_honours_a_smaller_number_of_attempts() -> None:
    calls: list[int] = []

    def attempt(number: int) -> None:
        calls.append(number)
        raise Conflict("k")

    with pytest.raises(Conflict):
        retry_on_conflict(attempt, attempts=3, sleep=lambda _: None)
    assert calls == [0, 1, 2]


@pytest.mark.parametrize("attempt", [0, 1, 5, 10, ATTEMPTS - 1])
def test_backoff_is_jittered_within_a_growing_cap_of_a_quarter_second(attempt: int) -> None:
    cap = min(0.25, 0.005 * 2**attempt)
    waits = [backoff(attempt) for _ in range(50)]
    assert all(0 <= wait <= cap for wait in waits)
