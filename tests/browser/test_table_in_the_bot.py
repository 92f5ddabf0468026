"""The table page on the bot itself: two players, each on a phone of their own, open it from
their card's button and play by tapping, against the bot's real source (the local poller's
loopback server over its SQLite store), while the group reads every move in the chat."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

from handlers.display.render import table_links
from handlers.display.texts import card_name
from testing.drivers import FakeClock, LocalBot
from testing.fake_telegram import FakeTelegram
from testing.players import Table
from tests.browser.player import RECORDER, TELEGRAM_JS, Player, theme
from tests.support.bots import _finish

pytestmark = [pytest.mark.slow, pytest.mark.browser]
PAGE = "https://table.example.org/table"
WAIT = 15_000  # ms: a poll comes every 1.5-4 s


def phone(browser, opened: list, base: str, bridge: str, url: str, name: str) -> Player:
    """A 390-pixel touch phone showing `url` (the page as Telegram opens it)."""
    context = browser.new_context(
        viewport={"width": 390, "height": 760}, is_mobile=True, has_touch=True
    )
    opened.append(context)
    context.add_init_script(RECORDER)

    def route(r) -> None:
        if r.request.url.startswith(TELEGRAM_JS):
            r.fulfill(status=200, content_type="application/javascript", body=bridge)
        elif r.request.url.startswith(base):
            r.continue_()
        else:
            r.abort()  # nothing leaves the machine

    context.route("**/*", route)
    page = context.new_page()
    player = Player(page, name, "en")
    page.on("pageerror", lambda e: player.errors.append(str(e)))
    page.on("response", lambda r: "/api/" in r.url and player.responses.append(r))
    page.goto(url)
    return player


def opened_from_card(table: Table, seat: int, base: str) -> str:
    """The page as the seat's Telegram opens it from the card's button: the page's own query
    (its game), initData signed for the bot in the fragment."""
    player = table.player_at(seat)
    label = table.t_for(player, "btn_table")
    card = next(m for m in player.messages() if label in m.button_labels)
    opening = table.fake.open_mini_app(
        player.user, player.user, card.message_id, label, auth_date=table.bot.clock()
    )
    fragment = (
        f"tgWebAppData={quote(opening.init_data, safe='')}&tgWebAppVersion=8.0"
        f"&tgWebAppPlatform=android&tgWebAppThemeParams={quote(theme(False), safe='')}"
    )
    return f"{base}/table?{urlsplit(opening.url).query}#{fragment}"


@pytest.fixture
def table_bot(fake_telegram: FakeTelegram, clock: FakeClock, tmp_path: Path):
    env = {"TABLE_URL": PAGE, "TABLE_APP": "table", "TABLE_PORT": "0"}
    bot = LocalBot(fake_telegram, clock, tmp_path / "games.sqlite3", env).start()
    try:
        yield bot
        _finish(bot)
    finally:
        bot.close()
        table_links.configure(None, None, "")


def test_two_players_tap_their_moves_and_the_group_reads_them_in_the_chat(
    browser, pages, fake_bridge, table_bot: LocalBot, shots
) -> None:
    table = Table.of(table_bot, 4)
    table.open()
    state = table.start(seed=31)
    first, second = state.first, state.first % 4 + 1
    names = state.names
    base = f"http://127.0.0.1:{table_bot.application.bot_data['table'].port}"
    one = phone(browser, pages, base, fake_bridge, opened_from_card(table, first, base), "one")
    two = phone(browser, pages, base, fake_bridge, opened_from_card(table, second, base), "two")
    one.status().filter(has_text="Your turn").wait_for(timeout=WAIT)
    two.status().filter(has_text=f"{first}. {names[first - 1]}").wait_for(timeout=WAIT)

    one.seat(second).click()
    assert one.main_button()["text"] == f"🔍 Scout {second}. {names[second - 1]}"
    one.press("main_button_pressed")
    one.page.locator("#facts li", has_text=f"{second}. {names[second - 1]}").wait_for(timeout=WAIT)
    scouted = table.t(
        "scouted_line", name=table.seat_label(first), target=table.seat_label(second)
    )
    assert scouted in table.board().text  # the group's turn message says it, as for a press
    player = table.player_at(first)
    card = card_name("en", table.state.cards[second - 1])
    closed = table.t_for(player, "scout_result", target=table.seat_label(second), card=card)
    # the private prompt closed, showing what they saw below the card dealt with it
    assert f"{table.dealt(player, state)}\n{closed}" in player.texts()
    one.page.screenshot(path=shots / "bot-one-scouted.png")

    assert one.main_button()["text"] == "✅ Done"
    one.wait_out_the_pause()
    one.press("main_button_pressed")
    two.status().filter(has_text="Your turn").wait_for(timeout=WAIT)
    assert table.state.turn == second
    two.seat(first).click()
    two.press("main_button_pressed")
    two.page.locator("#facts li", has_text=f"{first}. {names[first - 1]}").wait_for(timeout=WAIT)
    again = table.t("scouted_line", name=table.seat_label(second), target=table.seat_label(first))
    assert again in table.board().text
    two.page.screenshot(path=shots / "bot-two-scouted.png")

    # Neither page ever received a card its player was not told.
    for watcher, told in ((one, {first, second}), (two, {first, second})):
        for body in watcher.received():
            if body.startswith("{"):
                view = json.loads(body)
                view = view.get("view", view)
                shown = {s["seat"] for s in view["seats"] if s["card"]}
                assert shown <= told
    assert one.errors == [] and two.errors == []


def test_a_card_from_an_older_game_opens_a_page_that_says_so_and_offers_its_replay(
    browser, pages, fake_bridge, table_bot: LocalBot, shots
) -> None:
    table = Table.of(table_bot, 4)
    table.open()
    state = table.start(seed=31)
    first = state.first
    base = f"http://127.0.0.1:{table_bot.application.bot_data['table'].port}"
    old_card = opened_from_card(table, first, base)
    table.decapitate(first, first % 4 + 1)
    assert table.ending() is not None
    table.open()  # the group's next game replaces the finished one
    table.start(seed=32)

    one = phone(browser, pages, base, fake_bridge, old_card, "one")
    one.status().filter(has_text="This game is over").wait_for(timeout=WAIT)
    one.page.screenshot(path=shots / "bot-older-game.png")
    one.page.get_by_role("button", name="▶ Replay the game").click()
    one.page.locator("#phase", has_text="Replay").wait_for(timeout=WAIT)
    one.page.locator("#who", has_text="Step 0 of 1").wait_for(timeout=WAIT)
    assert [r.status for r in one.responses] == [410, 200]
    assert one.errors == []
