"""Telegram delivers an update again (its webhook call timed out, or failed): the game changes
once, and every player gets every message once."""

from __future__ import annotations

import pytest

from testing.drivers import LambdaBot
from testing.instances import PoolBot, webhook_event
from tests.robustness.scenes import SCENES, answers, game_of, readable, transcript

AGAIN = [(scene, 2) for scene in SCENES] + [(s, 10) for s in ("join", "start", "done", "cancel")]


@pytest.mark.parametrize("scene, times", AGAIN)
def test_update_delivered_again_and_again_changes_the_game_once_and_sends_once(
    lambda_bot: LambdaBot, scene: str, times: int
) -> None:
    table, deed = SCENES[scene](lambda_bot)
    update = deed()
    lambda_bot.fake.next_updates()
    lambda_bot.post(update)
    item, calls = lambda_bot.item(table.chat), len(lambda_bot.fake.calls)
    store = lambda_bot.store
    writes = store.writes
    for _ in range(times - 1):
        lambda_bot.post(update)
    assert lambda_bot.item(table.chat) == item
    assert lambda_bot.fake.calls[calls:] == []
    assert store.writes == writes
    assert table.envelope()["applied"].count(update["update_id"]) == 1


AT_ONCE = ["newgame", "join", "start", "done", "decapitate", "cancel", "language"]


@pytest.mark.parametrize("scene", AT_ONCE)
def test_update_delivered_ten_times_at_once_changes_the_game_once_and_sends_once(
    pool_bot: PoolBot, scene: str
) -> None:
    # The same moment twice: once delivered once (the reference), once ten times at once.
    reference, deed = SCENES[scene](pool_bot)
    update = deed()
    mark = len(pool_bot.fake.calls)
    pool_bot.post(update)
    expected = readable(transcript(reference, mark))
    expected_game = game_of(pool_bot, reference)

    table, deed = SCENES[scene](pool_bot)
    update = deed()
    mark = len(pool_bot.fake.calls)
    event = webhook_event(update)
    results = pool_bot.instances.webhooks_at_once([event] * 10)
    codes = sorted(r["statusCode"] for r in results)
    assert set(codes) <= {200, 503}, results
    for result in results:  # Telegram delivers again what was not accepted
        if result["statusCode"] != 200:
            pool_bot.post(update)

    assert readable(transcript(table, mark)) == expected
    assert game_of(pool_bot, table) == expected_game
    assert table.envelope()["applied"].count(update["update_id"]) == 1
    assert table.envelope().get("owed", []) == []
    assert len(answers(table, update)) == len(answers(reference, update)) <= 1
