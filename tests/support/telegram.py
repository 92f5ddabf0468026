"""Plugin: the fake Telegram Bot API server, started for a test."""

from collections.abc import Iterator

import pytest

from testing.fake_telegram import TEST_TOKEN, FakeTelegram

__all__ = ["fake_telegram"]


@pytest.fixture
def fake_telegram() -> Iterator[FakeTelegram]:
    """A started FakeTelegram with the token TEST_TOKEN; fails the test if the fake crashed."""
    with FakeTelegram(TEST_TOKEN) as fake:
        yield fake
    if fake.crashes:
        pytest.fail("the fake Telegram server crashed:\n" + "\n".join(fake.crashes))
