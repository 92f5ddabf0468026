"""The `bot` fixture: a test plays on the bot answered in memory unless it is one of the smoke
set, marked `over_http`, which plays through the Lambda entries and the local poller in turn."""

from __future__ import annotations

import pytest

from testing.drivers import Bot, LambdaBot, LocalBot, MemoryBot


def test_a_test_on_the_bot_plays_it_in_memory(bot: Bot, request: pytest.FixtureRequest) -> None:
    assert isinstance(bot, MemoryBot)
    assert request.node.get_closest_marker("slow") is None, "it stays in make test-fast"


@pytest.mark.over_http
def test_a_smoke_test_plays_through_the_lambda_entries_and_the_local_poller(
    bot: Bot, request: pytest.FixtureRequest
) -> None:
    way = request.node.callspec.params["bot"]
    assert isinstance(bot, {"lambda": LambdaBot, "local": LocalBot}[way])
    assert request.node.get_closest_marker("slow") is not None, "make test-fast leaves it out"
