"""Killing a Lambda instance at a chosen step of handling an update.

A `Crash` is a BaseException: it passes every `except Exception` of the bot and of
python-telegram-bot and ends the invocation, as the death of the process would. What the dead
process had started (sends on their way) dies with it: `cold_start` cancels it and starts the
next invocation on a fresh instance.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from handlers.entry import lambda_webhook as lambda_entry
from handlers.storage.keeper import Keeper, game_key
from handlers.telegram import outbox
from testing.drivers import LambdaBot

STEPS = ("after_load", "after_save", "between_messages", "before_remember")


class Crash(BaseException):
    """The instance dies here."""


def cold_start(bot: LambdaBot) -> None:
    """Throw away the dead instance (and whatever it had in flight); the next call starts cold."""
    loop = lambda_entry._state.get("loop")
    if loop is not None and not loop.is_closed():
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    app = lambda_entry._state.get("app")
    if app is not None and loop is not None:
        app.bot_data["runtime"].failed = []
    lambda_entry.reset(clock=bot.clock, seed=lambda: bot.seed)


@contextmanager
def crash_at(bot: LambdaBot, step: str, chat: int) -> Iterator[None]:
    """The next handling of the group `chat` dies at `step` (once)."""
    assert step in STEPS
    monkey = pytest.MonkeyPatch()
    armed = [True]

    def fire() -> None:
        if armed[0]:
            armed[0] = False
            raise Crash(step)

    store = bot.store
    save = store.save

    def saving(item):
        if item.key == game_key(chat) and step == "after_load":
            fire()
        saved = save(item)
        if item.key == game_key(chat) and step == "after_save":
            fire()
        return saved

    one = outbox._one

    async def sending(*args, **kwargs):
        await one(*args, **kwargs)
        if step == "between_messages":
            fire()  # the first message went out; the next never will

    remember: Callable = Keeper.acknowledge

    def remembering(self, *args, **kwargs):
        if step == "before_remember":
            fire()
        return remember(self, *args, **kwargs)

    save_all = store.save_all

    def saving_all(items):  # a game's end, saved with its statistics
        if items[0].key == game_key(chat) and step == "after_load":
            fire()
        saved = save_all(items)
        if items[0].key == game_key(chat) and step == "after_save":
            fire()
        return saved

    monkey.setattr(store, "save", saving)
    monkey.setattr(store, "save_all", saving_all)
    monkey.setattr(outbox, "_one", sending)
    monkey.setattr(Keeper, "acknowledge", remembering)
    try:
        yield
    finally:
        monkey.undo()
    assert not armed[0], f"the handling never reached {step}"
