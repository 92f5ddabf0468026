"""What a test reads: the calls the bot made, and the chats as their members see them now."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from testing.fake_telegram.core import ChatLike, Core
from testing.fake_telegram.world import Button, Call, FakeMessage


class Records(Core):
    """Reading what happened."""

    @property
    def refused(self) -> list[Call]:
        """Calls Telegram would refuse as the bot's mistake (bad parameters, rules, stale ids)."""
        with self._cond:
            return [c for c in self.calls if c.kind in ("refused", "crashed")]

    @property
    def errors(self) -> list[Call]:
        """Calls answered with an error due to the world (blocked, kicked, migrated, flood)."""
        with self._cond:
            return [c for c in self.calls if c.kind == "error"]

    def assert_no_refused(self) -> None:
        """Fail, listing them, if the bot made any call Telegram would refuse."""
        refused = self.refused
        if refused:
            lines = "\n".join(f"  {call}" for call in refused)
            raise AssertionError(f"{len(refused)} call(s) refused by Telegram:\n{lines}")

    def calls_to(self, method: str) -> list[Call]:
        """The calls of one method, in order."""
        name = self._method_name(method)
        with self._cond:
            return [c for c in self.calls if c.method == name]

    def chat(self, chat: ChatLike) -> list[FakeMessage]:
        """Every message of a chat in order (deleted ones flagged), as users see them now."""
        with self._cond:
            return [m.snapshot() for m in self._chat_obj(chat).messages]

    def message(self, chat: ChatLike, message_id: int) -> FakeMessage:
        """One message of a chat; AssertionError if there is none."""
        with self._cond:
            msg = self._chat_obj(chat).find(message_id)
            if msg is None:
                raise AssertionError(f"no message {message_id} in chat {self._cid(chat)}")
            return msg.snapshot()

    def last_message(self, chat: ChatLike, *, from_bot: bool | None = True) -> FakeMessage | None:
        """The newest message not deleted (by default, the newest from the bot)."""
        with self._cond:
            for msg in reversed(self._chat_obj(chat).messages):
                if not msg.deleted and (from_bot is None or msg.from_bot == from_bot):
                    return msg.snapshot()
            return None

    def texts(self, chat: ChatLike, *, from_bot: bool | None = True) -> list[str]:
        """The current texts of the messages not deleted (by default, the bot's)."""
        with self._cond:
            return [
                m.text
                for m in self._chat_obj(chat).messages
                if not m.deleted
                and m.text is not None
                and (from_bot is None or m.from_bot == from_bot)
            ]

    def buttons(self, chat: ChatLike, message_id: int) -> list[list[Button]]:
        """The inline keyboard of a message as shown now, rows of (text, callback_data, url)."""
        return self.message(chat, message_id).buttons

    def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 3.0, what: str = "condition"
    ) -> Any:
        """Wait until predicate() is truthy (re-checked on every call the bot makes)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = predicate()
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
                self._cond.wait(min(remaining, 0.05))
