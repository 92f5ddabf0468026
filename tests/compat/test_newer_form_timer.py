"""A timer on AWS that meets a group's item in a form newer than its release knows (a rollback
past the rule) leaves the item as it is and comes back to it: once a release that reads it runs
again, the game's deadline is kept and its turn runs out as it should."""

from __future__ import annotations

import pytest

from engine.codec import NewerForm
from handlers.storage.keeper import NEWER_RETRY
from handlers.storage.keys import game_key, unreadable_key
from infra.store import Item
from testing.drivers import LambdaBot
from testing.players import Table

pytestmark = pytest.mark.slow


def test_a_timer_leaves_a_newer_forms_game_as_it_is_and_comes_back_to_it(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=11)
    store = getattr(lambda_bot.store, "backend", lambda_bot.store)
    key = game_key(table.chat)
    held = store.load(key)
    ahead = store.save(Item(key, held.version, {**held.data, "form": held.data["form"] + 1}))
    lambda_bot.advance(91)  # the turn's deadline passes while the item is a form ahead
    assert [type(error) for error in lambda_bot.errors] == [NewerForm]
    lambda_bot.errors.clear()
    assert store.load(key) == ahead  # neither overwritten nor set aside
    assert store.load(unreadable_key(key, ahead.version)) is None
    store.save(Item(key, ahead.version, held.data))  # a release that reads it runs again
    assert table.state.turn == state.first  # nothing was played over the item left
    lambda_bot.advance(NEWER_RETRY)
    assert table.state.turn == state.first % 4 + 1  # the turn ran out and was skipped
