"""The buttons that open the table view: a `web_app` button in a player's private chat (where
Telegram allows one), and in the group a `url` button with the Mini App's direct link, the
same whatever the cards (it names the game, never a seat).

A web_app button is written in a keyboard as [label, "webapp:" + its URL] (`outbox.markup`
makes it a WebAppInfo button); a url button as [label, URL], as elsewhere.
"""

from __future__ import annotations

from handlers.display.render.common import Keyboard, t_
from handlers.display.texts import t
from handlers.session.table import OVER_STATUS, Table
from handlers.table.passes import seat_pass
from handlers.table.selector import replay_selector, table_selector

WEB_APP = "webapp:"  # a keyboard entry's data that opens a Mini App from a private chat
# The page's HTTPS URL (TABLE_URL: private web_app buttons), the Mini App's short name from
# BotFather (TABLE_APP: direct links in groups) and the bot's @name the links carry; empty: no
# such buttons. Set once per process, by its entry point.
TABLE_LINKS = {"url": "", "app": "", "bot": ""}


def configure(url: str | None, app: str | None, bot: str) -> None:
    """Take the table's page URL and Mini App short name (either may be absent), and the bot's
    name."""
    TABLE_LINKS["url"] = (url or "").strip()
    TABLE_LINKS["app"] = (app or "").strip().strip("/")
    TABLE_LINKS["bot"] = bot


def page_url(selector: str, given: str = "") -> str:
    """The page opened straight from a web_app button, told its game in the query (the way a
    direct link tells it: `tgWebAppStartParam`) and, for a player's own button, their pass."""
    url = TABLE_LINKS["url"]
    pass_ = f"&pass={given}" if given else ""
    return f"{url}{'&' if '?' in url else '?'}tgWebAppStartParam={selector}{pass_}"


def direct_link(selector: str) -> str:
    """The Mini App's direct link opening `selector`, at half height, in the chat it is
    pressed in."""
    bot, app = TABLE_LINKS["bot"], TABLE_LINKS["app"]
    return f"https://t.me/{bot}/{app}?startapp={selector}&mode=compact"


def private_keyboard(table: Table, user: int) -> Keyboard:
    """Under a player's card (and /mycard), in their language (`table` speaking it): the
    button that opens the game's table with `user`'s pass; None without a page URL."""
    if not TABLE_LINKS["url"]:
        return None
    url = page_url(table_selector(table.chat, table.game), seat_pass(user, table.chat, table.game))
    return [[[t_(table, "btn_table"), WEB_APP + url]]]


def group_rows(table: Table) -> list[list[list[str]]]:
    """The row that opens the game's table from a group message; none without a Mini App, nor
    in practice (its player's own button is under their card)."""
    if not TABLE_LINKS["app"] or table.practice:
        return []
    return [[[t_(table, "btn_table"), direct_link(table_selector(table.chat, table.game))]]]


def replay_button(lang: str, chat: int, game: int, label: str | None = None) -> list[str]:
    """The button that opens a finished game's replay from a group message."""
    return [label or t(lang, "btn_replay"), direct_link(replay_selector(chat, game))]


def replay_buttons(table: Table) -> list[list[str]]:
    """Under a finished game's end message: its replay, when the Mini App is configured."""
    if not TABLE_LINKS["app"] or table.status != OVER_STATUS or table.practice:
        return []
    return [replay_button(table.lang, table.chat, table.game)]
