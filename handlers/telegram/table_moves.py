"""A move made at the table, run as a press in the chat is run: the host's change (saved with
the messages it owes) through `changes.run_change`, then delivered to Telegram by the same path,
so the group receives exactly the messages the same press in the chat would have sent."""

from __future__ import annotations

from telegram.ext import Application, CallbackContext

from handlers.storage.host import Change, Changer
from handlers.telegram.changes import run_change


async def run_move(application: Application, chat: int, changer: Changer) -> Change:
    """Run a table move's `changer` on the group's table and deliver what it owes. A move is
    keyed by its own id inside the table (see `table_source`), not by a Telegram update."""
    return await run_change(CallbackContext(application), chat, None, changer)
