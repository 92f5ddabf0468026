"""The table page says what the chat says: the Turncoat's pause, a server in trouble, what the
whole table knows apart from what only you were told, and the end in full."""

from __future__ import annotations

import time

import pytest

from engine import Action
from engine.variants import Variants
from tests.browser.fake_api import serving
from tests.browser.player import open_player
from tests.support.table_game import TableGame

pytestmark = [pytest.mark.slow, pytest.mark.browser]
WAIT = 15_000  # ms: a poll comes every 1.5-4 s
TURNCOAT_DEAL = ("R1", "BX", "R4", "B3", "R7", "B1", "R3", "B5")


def test_the_turncoats_pause_reads_as_the_chat_says_it(browser, pages, fake_bridge):
    """Ann scouts Bo's X and the bot pauses: Cai reads that Ann speaks after the pause (never
    that she may speak now), Dee reads it in Chinese, Ann that she speaks once it is over."""
    game = TableGame.deal(time.time(), Variants(turncoat=True), TURNCOAT_DEAL)
    with serving(game) as server:
        ann = open_player(browser, pages, server.base, fake_bridge, game, seat=1)
        cai = open_player(browser, pages, server.base, fake_bridge, game, seat=3)
        dee = open_player(browser, pages, server.base, fake_bridge, game, seat=4)
        cai.status().filter(has_text="1. Ann's turn").wait_for()
        game.act(Action("scout", 1, target=2), time.time())
        game.pause = True
        cai.status().filter(has_text="⏸ 1. Ann speaks after the pause.").wait_for(timeout=WAIT)
        assert "may speak" not in cai.status().inner_text()
        assert cai.page.locator("#phase").inner_text() == "pause"
        dee.status().filter(has_text="⏸ 1号位 Ann 在暂停结束后发言。").wait_for(timeout=WAIT)
        ann.status().filter(has_text="⏳ You speak once the pause is over.").wait_for(timeout=WAIT)
        game.act(Action("keep", 2), time.time())
        game.pause = False
        cai.status().filter(has_text="1. Ann may speak now.").wait_for(timeout=WAIT)
        assert ann.errors == [] and cai.errors == [] and dee.errors == []


def test_a_failing_server_shows_connection_trouble_and_never_a_stale_turn(
    browser, pages, fake_bridge, shots
):
    """Bo is next when the server starts answering 503: his page says, in Chinese, that it has
    trouble and retries, and no longer that he is next, until the server answers again; the
    same when the network drops."""
    game = TableGame.deal(time.time())
    with serving(game) as server:
        bo = open_player(browser, pages, server.base, fake_bridge, game, seat=2)
        bo.status().filter(has_text="下一个是你").wait_for()
        server.unavailable = 2
        bo.status().filter(has_text="连接出现问题，正在重试…").wait_for(timeout=WAIT)
        assert "下一个是你" not in bo.status().inner_text()
        bo.page.screenshot(path=shots / "zh-light-connection-trouble.png")
        assert bo.page.locator("main.stale").count() == 1
        bo.status().filter(has_text="下一个是你").wait_for(timeout=2 * WAIT)
        assert bo.page.locator("main.stale").count() == 0
        assert all("503" in error for error in bo.errors), bo.errors
        bo.page.route("**/api/table*", lambda route: route.abort())  # the network drops
        bo.status().filter(has_text="连接出现问题，正在重试…").wait_for(timeout=WAIT)
        bo.page.unroute("**/api/table*")
        bo.status().filter(has_text="下一个是你").wait_for(timeout=2 * WAIT)


def test_public_and_private_cards_are_marked_apart_and_a_scout_goes_stale_on_a_swap(
    browser, pages, fake_bridge, shots
):
    """Ann scouted Cai (Red 4, 🔒 known to her); then Cai scouts Bo's X and Bo swaps: Cai's
    Blue X is face up for all (👁), and Ann's Red 4 reads as changed by the swap."""
    game = TableGame.deal(time.time(), Variants(turncoat=True), TURNCOAT_DEAL)
    with serving(game) as server:
        game.act(Action("scout", 1, target=3), time.time())
        ann = open_player(browser, pages, server.base, fake_bridge, game, seat=1)
        ann.seat(3).locator(".cd", has_text="🔒 Red 4").wait_for()
        assert "known to you, not to the table" in ann.seat(3).get_attribute("aria-label")
        legend = ann.page.locator("#legend").inner_text()
        assert "👁 seen by the whole table" in legend and "🔒 known to you" in legend
        game.act(Action("end_turn", 1), time.time())
        game.act(Action("scout", 2, target=4), time.time())
        game.act(Action("end_turn", 2), time.time())
        game.act(Action("scout", 3, target=2), time.time())
        game.act(Action("swap", 2), time.time())
        ann.seat(3).locator(".cd", has_text="👁 Blue X").wait_for(timeout=WAIT)
        assert "seen by the whole table" in ann.seat(3).get_attribute("aria-label")
        fact = ann.page.locator("#facts li.stale")
        assert fact.inner_text() == "3. Cai held Red 4 before a swap: no longer current"
        ann.page.screenshot(path=shots / "en-light-public-and-private.png", full_page=True)
        assert ann.errors == []


def test_the_end_says_the_strike_why_it_failed_who_won_alone_and_whether_you_won(
    browser, pages, fake_bridge, shots
):
    """Ann strikes Bo, captain on captain, and Dee, the Spy, names both captains: Ann reads she
    won, with the strike and both neutrals' fates; Cai, the Observer who never predicted, that
    he lost. In another game Ann strikes Cai and Bo reads why it failed."""
    deal = ("R1", "B7", "OBS", "SPY")
    game = TableGame.deal(time.time(), Variants(observer=True, spy=True), deal)
    with serving(game) as server:
        ann = open_player(browser, pages, server.base, fake_bridge, game, seat=1)
        cai = open_player(browser, pages, server.base, fake_bridge, game, seat=3)
        ann.status().filter(has_text="Your turn").wait_for()
        game.act(Action("decapitate", 1, target=2), time.time())
        game.act(Action("spy_guess", 4, red=1, blue=2), time.time())
        ann.status().filter(has_text="🏆 You won. Red wins.").wait_for(timeout=WAIT)
        end = ann.page.locator("#end").inner_text()
        for line in (
            "1. Ann (Red 1) decapitated 2. Bo (Blue 7).",
            "Captain on captain: it worked.",
            "👁 The Observer 3. Cai never predicted and loses.",
            "🕵 The Spy 4. Dee named both captains and wins.",
        ):
            assert line in end
        cai.status().filter(has_text="You lost. Red wins.").wait_for(timeout=WAIT)
        assert ann.errors == [] and cai.errors == []
    game = TableGame.deal(time.time(), Variants(), ("R1", "B7", "R4", "B3"))
    with serving(game) as server:
        bo = open_player(browser, pages, server.base, fake_bridge, game, seat=2)
        bo.status().filter(has_text="轮到1号位 Ann").wait_for()
        game.act(Action("decapitate", 1, target=3), time.time())
        bo.status().filter(has_text="你赢了").wait_for(timeout=WAIT)
        end = bo.page.locator("#end").inner_text()
        assert "1号位 Ann（红1）斩首了 3号位 Cai（红4）。" in end
        assert "行动失败：发起者不是队长；目标不是对方队长。" in end
        bo.page.screenshot(path=shots / "zh-light-the-end.png", full_page=True)
        assert bo.errors == []
