"""What every callback is handed besides the update: one runtime object, built by the entry
points, behind a typed context (python-telegram-bot's `ContextTypes`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from telegram.ext import CallbackContext, ContextTypes, ExtBot

from handlers.storage.keeper import Keeper
from handlers.telegram import item


@dataclass
class Runtime:
    """The bot's process-wide parts: its keeper (storage), its clock, how it deals, its name."""

    keeper: Keeper
    clock: Callable[[], float] = time.time
    seed: Callable[[], int | None] = lambda: None  # tests fix the deal; play leaves it random
    username: str = ""  # the bot's @name (for t.me links), known by the time updates come
    failed: list[BaseException] = field(default_factory=list)  # the errors of this update

    def __post_init__(self) -> None:
        # every item is read by its owners as it is loaded: one they cannot read is set aside
        self.keeper.reading(item.check, item.notice)


class BotContext(CallbackContext[ExtBot, dict, dict, dict]):
    """The context of every callback: python-telegram-bot's, with the bot's runtime."""

    @property
    def runtime(self) -> Runtime:
        """The bot's runtime (see `Runtime`)."""
        return self.bot_data["runtime"]


CONTEXT_TYPES = ContextTypes(context=BotContext)
