"""A player at the table page: a phone-sized browser context with Telegram's side played by a
bridge script, recording what the page posts to Telegram, what it logs and what it receives."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from urllib.parse import quote

from handlers.table.auth import sign_init_data
from handlers.table.selector import table_selector
from tests.support.table_game import CHAT, GAME, TOKEN, TableGame

TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
# What Telegram's webview offers the page: postEvent, recorded here.
RECORDER = """
window.__posted = [];
window.TelegramWebviewProxy = {postEvent: function (type, data) {
  window.__posted.push([type, data ? JSON.parse(data) : null]);
}};
"""


@dataclass
class Player:
    """One person's phone showing the table."""

    page: object
    name: str
    lang: str
    errors: list[str] = field(default_factory=list)
    responses: list = field(default_factory=list)

    def posted(self, kind: str | None = None) -> list:
        """What the page posted to Telegram (of one kind), in order."""
        events = self.page.evaluate("window.__posted")
        return [data for k, data in events if k == kind] if kind else events

    def press(self, event: str, data: dict | None = None) -> None:
        """Telegram delivers an event, as when the person presses its MainButton."""
        self.page.evaluate("([e, d]) => Telegram.WebView.receiveEvent(e, d)", [event, data])

    def wait_out_the_pause(self) -> None:
        """Let the MainButton's pause pass (it ignores taps for 800 ms after a move's answer)."""
        self.page.wait_for_timeout(850)

    def seat(self, number: int):
        """The seat's button on the circle (its label starts '3. ' or '3号位 ')."""
        label = f"{number}. " if self.lang == "en" else f"{number}号位 "
        return self.page.locator(f'button.seat[aria-label^="{label}"]')

    def status(self):
        return self.page.locator("#status")

    def main_button(self) -> dict:
        """The MainButton as last set up."""
        return (self.posted("web_app_setup_main_button") or [{}])[-1]

    def received(self) -> list[str]:
        """Every body the page received from the table's API."""
        bodies = []
        for response in self.responses:
            try:
                bodies.append(response.text())
            except Exception:  # a 304 has no body to read
                bodies.append("")
        return bodies


def theme(dark: bool) -> str:
    """Telegram's theme parameters, as the URL carries them."""
    colours = (
        {
            "bg_color": "#17212b",
            "text_color": "#f5f5f5",
            "hint_color": "#8b9aa7",
            "secondary_bg_color": "#232e3c",
            "button_color": "#5288c1",
            "button_text_color": "#ffffff",
        }
        if dark
        else {
            "bg_color": "#ffffff",
            "text_color": "#000000",
            "hint_color": "#707579",
            "secondary_bg_color": "#f1f2f6",
            "button_color": "#3390ec",
            "button_text_color": "#ffffff",
        }
    )
    return json.dumps(colours)


def table_url(base: str, user: dict, dark: bool, *, start_param: str | None = None) -> str:
    """The page as Telegram opens it: the selector in the query, initData in the fragment."""
    selector = start_param or table_selector(CHAT, GAME)
    init = sign_init_data(TOKEN, user, selector, int(time.time()), chat_type="supergroup")
    fragment = (
        f"tgWebAppData={quote(init, safe='')}&tgWebAppVersion=8.0&tgWebAppPlatform=android"
        f"&tgWebAppThemeParams={quote(theme(dark), safe='')}"
    )
    return f"{base}/table?tgWebAppStartParam={selector}#{fragment}"


def open_player(
    browser,
    opened: list,
    base: str,
    bridge: str,
    game: TableGame,
    *,
    seat: int,
    dark: bool = False,
    url: str | None = None,
    height: int = 760,
) -> Player:
    """A 390-pixel-wide touch phone opening the table from Telegram (`url`: another way in)."""
    lang = game.langs[seat - 1]
    context = browser.new_context(
        viewport={"width": 390, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="zh-CN" if lang == "zh" else "en-US",
        color_scheme="dark" if dark else "light",
    )
    opened.append(context)
    context.add_init_script(RECORDER)

    def route(r) -> None:
        url = r.request.url
        if url.startswith(TELEGRAM_JS):
            r.fulfill(status=200, content_type="application/javascript", body=bridge)
        elif url.startswith(base):
            r.continue_()
        else:
            r.abort()  # nothing leaves the machine

    context.route("**/*", route)
    page = context.new_page()
    player = Player(page, game.state.names[seat - 1], lang)
    page.on("console", lambda m: m.type == "error" and player.errors.append(m.text))
    page.on("pageerror", lambda e: player.errors.append(str(e)))
    page.on("response", lambda r: "/api/" in r.url and player.responses.append(r))
    page.goto(url or table_url(base, game.user(seat), dark))
    return player


def view_json(body: str) -> dict | None:
    try:
        return json.loads(body)
    except ValueError:
        return None
