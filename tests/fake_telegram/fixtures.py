"""Pytest fixtures for the fake Telegram server."""

from collections.abc import Iterator

import pytest

from tests.fake_telegram.server import TEST_TOKEN, FakeTelegram

__all__ = ["fake_telegram"]


@pytest.fixture
def fake_telegram() -> Iterator[FakeTelegram]:
    """A started FakeTelegram with the token TEST_TOKEN; fails the test if the fake crashed."""
    with FakeTelegram(TEST_TOKEN) as fake:
        yield fake
    if fake.crashes:
        pytest.fail("the fake Telegram server crashed:\n" + "\n".join(fake.crashes))
