"""Mini Apps: the bot's apps as BotFather's /newapp makes them (by hand: no Bot API method does),
and a user opening one from a button, with the initData Telegram signs for the page."""

from __future__ import annotations

import time
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlsplit

from handlers.table.auth import sign_init_data
from testing.fake_telegram.callbacks import Callbacks
from testing.fake_telegram.core import ChatLike, UserLike


class MiniAppOpening(NamedTuple):
    """A Mini App as a user's Telegram opens it: the page's URL (Telegram adds the start
    parameter as `tgWebAppStartParam`), the signed initData it hands the page, and the start
    parameter the initData carries (None for a web_app button)."""

    url: str
    init_data: str
    start_param: str | None


class MiniApps(Callbacks):
    """The bot's Mini Apps and their opening."""

    def register_mini_app(self, short_name: str, url: str) -> None:
        """The bot's owner makes a Mini App with @BotFather's /newapp: its short name (the
        direct link's path) opens `url`."""
        self.mini_apps[short_name.lower()] = url

    def open_mini_app(
        self,
        user: UserLike,
        chat: ChatLike,
        message_id: int,
        button_text: str,
        *,
        auth_date: float | None = None,
    ) -> MiniAppOpening:
        """The user taps a web_app button, or a url button with a direct link
        (https://t.me/<bot>/<app>?startapp=...), as shown now; AssertionError when it is
        neither, or names no Mini App of the bot. `auth_date`: the moment (default: now)."""
        with self._cond:
            u, c = self._user_obj(user), self._chat_obj(chat)
            self._assert_can_see(u, c)
            msg = c.find(message_id)
            if msg is None or msg.deleted:
                raise AssertionError(f"no message {message_id} in chat {c.id} to press on")
            button = self._find_button(msg, button_text)
            when = int(time.time() if auth_date is None else auth_date)
            fields: dict[str, Any] = {}
            if "web_app" in button:
                url, start = button["web_app"]["url"], None
                fields["query_id"] = f"AAF{u.id}{message_id:06d}"
            elif "url" in button:
                url, start = self._direct_link(button["url"])
                fields["chat_type"] = c.type if c.type != "private" else "sender"
                fields["chat_instance"] = str(abs(c.id) * 7919 % 10**18 + 10**17)
            else:
                raise AssertionError(f"button {button_text!r} opens no Mini App")
            init_data = sign_init_data(self.token, u.to_api(), start, when, **fields)
        return MiniAppOpening(url, init_data, start)

    def _direct_link(self, link: str) -> tuple[str, str | None]:
        """The page a direct link opens and its start parameter."""
        parts = urlsplit(link)
        path = parts.path.strip("/").split("/")
        if parts.hostname not in ("t.me", "telegram.me") or len(path) != 2:
            raise AssertionError(f"{link!r} is not a Mini App's direct link")
        bot, app = path
        if bot.lower() != self.bot_username.lower():
            raise AssertionError(f"{link!r} leads to @{bot}, not to @{self.bot_username}")
        url = self.mini_apps.get(app.lower())
        if url is None:
            raise AssertionError(f"@{bot} has no Mini App {app!r} (BotFather's /newapp)")
        start = parse_qs(parts.query).get("startapp", [None])[0]
        if start is None:
            return url, None
        return f"{url}{'&' if '?' in url else '?'}tgWebAppStartParam={start}", start
