"""Answering a button press: once, and where it can, alongside the change's messages; and a
refusal worded for its reader."""

from __future__ import annotations

import logging

from telegram import CallbackQuery
from telegram.error import TelegramError

from handlers.display import render
from handlers.display.texts import t
from handlers.session.table import Refused, Table

log = logging.getLogger(__name__)

POPUP_MAX = 200  # characters Telegram shows in a callback answer


async def answer_press(query: CallbackQuery, answer: str, alert: bool = False) -> None:
    """Answer a button press (a popup when `answer` is not empty; an alert to dismiss when
    `alert`)."""
    try:
        await query.answer(answer[:POPUP_MAX] or None, show_alert=alert and bool(answer))
    except TelegramError as err:
        log.info("callback answer failed: %s", type(err).__name__)


class PressAnswer:
    """A button press's answer, sent once. A handler that knows what it will answer if its
    change is saved says so in `ready` before changing; the answer then goes out alongside the
    change's messages instead of a round trip after them. `table` is the group's table as the
    press read it (a refusal is worded from it)."""

    def __init__(self, query: CallbackQuery) -> None:
        self.query = query
        self.ready: str | None = None
        self.sent = False
        self.table: Table | None = None

    async def send(self) -> None:
        """Answer with `ready` (once)."""
        if not self.sent and self.ready is not None:
            self.sent = True
            await answer_press(self.query, self.ready)


def worded(refused: Refused, lang: str, table: Table | None) -> str:
    """What a refusal says, in `lang`: the session names the facts (a seat), the words and the
    names are the Telegram side's."""
    kw = dict(refused.kw)
    if refused.key == "turn_of" and table is not None:
        kw["name"] = render.isolate(table.name_of(kw["seat"]))
    if refused.key == "unreachable_start" and table is not None:
        return render.start_refused(table, lang)
    return t(lang, refused.key, **kw)
