"""Button presses: a user taps a button (or opens a deep link), the bot answers the press."""

from __future__ import annotations

import re
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

from testing.fake_telegram import bot_api
from testing.fake_telegram.core import ChatLike, Core, UserLike
from testing.fake_telegram.validation import ApiError, bad_request
from testing.fake_telegram.world import (
    CallbackAnswer,
    CallbackQuery,
    FakeChat,
    FakeMessage,
    FakeUser,
)

QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
_PAYLOAD_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Callbacks(Core):
    """Presses on inline buttons and their answers."""

    def press(
        self,
        user: UserLike,
        chat: ChatLike,
        message_id: int,
        button_text: str | None = None,
        *,
        callback_data: str | None = None,
    ) -> dict[str, Any]:
        """The user taps the button labelled button_text as shown now (AssertionError if absent),
        or sends raw callback_data (a forged press); returns the Update (deep links: /start)."""
        deep_link = None
        with self._cond:
            u, c = self._user_obj(user), self._chat_obj(chat)
            self._assert_can_see(u, c)
            msg = c.find(message_id)
            visible = msg is not None and not msg.deleted
            if button_text is not None:
                if not visible or msg is None:
                    raise AssertionError(f"no message {message_id} in chat {c.id} to press on")
                button = self._find_button(msg, button_text)
                if "callback_data" in button:
                    data = button["callback_data"]
                    if callback_data is not None and callback_data != data:
                        raise AssertionError(
                            f"button {button_text!r} carries {data!r}, not {callback_data!r}"
                        )
                elif "url" in button:
                    deep_link = button["url"]
                else:
                    kind = next(k for k in bot_api.INLINE_BUTTON_ACTIONS if k in button)
                    raise AssertionError(f"button {button_text!r} is a {kind} button")
            elif callback_data is None:
                raise TypeError("press() needs button_text or callback_data")
            else:
                data = callback_data
            if deep_link is None:
                update = self._callback_query(u, c, message_id, msg if visible else None, data)
        if deep_link is not None:
            return self.open_deep_link(user, deep_link)
        self._flush_hook()
        return update

    def open_deep_link(self, user: UserLike, url: str) -> dict[str, Any]:
        """The user opens https://t.me/<bot>?start=PAYLOAD and taps Start; returns the Update."""
        parts = urlsplit(url)
        query = parse_qs(parts.query, keep_blank_values=True)
        if parts.scheme in ("http", "https") and parts.hostname in ("t.me", "telegram.me"):
            name = parts.path.strip("/").split("/")[0]
        elif parts.scheme == "tg" and parts.netloc == "resolve":
            name = query.get("domain", [""])[0]
        else:
            raise AssertionError(f"{url!r} is not a t.me link; the bot would not see it opened")
        if name.lower() != self.bot_username.lower():
            raise AssertionError(f"{url!r} leads to @{name}, not to @{self.bot_username}")
        if "startgroup" in query or "startchannel" in query:
            raise AssertionError(f"{url!r} adds the bot to a group; use invite_bot()")
        payload = query.get("start", [""])[0]
        if "start" in query and not _PAYLOAD_RE.fullmatch(payload):
            raise AssertionError(
                f"start payload {payload!r} is not 1-64 characters of A-Z, a-z, 0-9, _ and -;"
                " Telegram clients drop it"
            )
        u = self._user_obj(user)
        update = self.send_text(u, u, f"/start {payload}" if payload else "/start")
        if update is None:
            raise AssertionError("the /start message did not reach the bot")
        return update

    def expire_callback_queries(self) -> None:
        """Make every unanswered button press too old to answer."""
        with self._cond:
            for query in self._queries.values():
                query.expired = True

    def _api_answerCallbackQuery(self, p: dict[str, Any]) -> bool:
        with self._cond:
            query = self._queries.get(p["callback_query_id"])
            too_old = query is None or query.answered or query.expired
            if query is not None and time.monotonic() - query.created > self.callback_timeout:
                too_old = True
            if too_old or query is None:
                raise ApiError(400, QUERY_TOO_OLD)
            text = p.get("text")
            if text is not None and len(text) > bot_api.MAX_CALLBACK_ANSWER_LENGTH:
                raise bad_request("MESSAGE_TOO_LONG")
            url = p.get("url")
            deep_link = f"https://t.me/{self.bot_username.lower()}?"
            if url is not None and not url.lower().startswith(deep_link):
                raise bad_request("URL_INVALID")
            query.answered = True
            self.callback_answers.append(
                CallbackAnswer(
                    query.id,
                    text,
                    bool(p.get("show_alert")),
                    url,
                    p.get("cache_time"),
                    query.user_id,
                    query.chat_id,
                    query.message_id,
                    time.time(),
                )
            )
            return True

    def _find_button(self, msg: FakeMessage, text: str) -> dict[str, Any]:
        rows = (msg.reply_markup or {}).get("inline_keyboard", [])
        for row in rows:
            for button in row:
                if button["text"] == text:
                    return button
        labels = [b["text"] for row in rows for b in row]
        raise AssertionError(
            f"no button {text!r} on message {msg.message_id} in chat {msg.chat_id}; "
            f"it shows {labels}"
        )

    def _callback_query(
        self,
        user: FakeUser,
        chat: FakeChat,
        message_id: int,
        msg: FakeMessage | None,
        data: str | None,
    ) -> dict[str, Any]:
        query_id = str(next(self._query_ids))
        self._queries[query_id] = CallbackQuery(
            query_id, user.id, chat.id, message_id, data, time.monotonic()
        )
        payload: dict[str, Any] = {
            "id": query_id,
            "from": user.to_api(),
            "message": (
                self._message_api(msg)
                if msg is not None
                else {"chat": chat.to_api(), "message_id": message_id, "date": 0}
            ),
            "chat_instance": str(abs(chat.id) * 7919 % 10**18 + 10**17),
        }
        if data is not None:
            payload["data"] = data
        return self._emit("callback_query", payload)
