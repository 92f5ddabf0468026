"""Faults the robustness and deploy tests put into the bot's own parts."""

from __future__ import annotations

from collections.abc import Callable, Collection

import pytest

from handlers.storage.keeper import Keeper, Loaded
from infra.aws import factory

# Seconds the bot's DynamoDB clients wait for an answer in a test that stalls one (2 s on AWS):
# long enough for moto's answers, short enough that a stalled one costs the test little time.
STALLED_AFTER = 0.5


def break_reading(monkeypatch: pytest.MonkeyPatch, chat: int) -> Callable[[], None]:
    """Make every read of the group's item fail, as a store that keeps failing would; hands
    back what mends it."""
    broken = {chat}
    load = Keeper.load

    def failing(host: Keeper, asked: int, also: Collection[str] = ()) -> Loaded:
        if asked in broken:
            raise RuntimeError("the store keeps failing")
        return load(host, asked, also)

    monkeypatch.setattr(Keeper, "load", failing)
    return broken.clear


def give_up_on_stalls_soon(monkeypatch: pytest.MonkeyPatch) -> float:
    """Make the DynamoDB clients built from now on (the bot's own and boto3's) give up on an
    answer after STALLED_AFTER, not after 2 s; hands back that wait."""
    monkeypatch.setitem(factory.READ_TIMEOUTS, "dynamodb", STALLED_AFTER)
    return STALLED_AFTER
