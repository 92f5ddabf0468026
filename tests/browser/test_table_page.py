"""The table page in headless Chromium, as two players see it on their phones."""

from __future__ import annotations

import math
import re
import time

import pytest

from engine import Action
from engine.variants import Variants
from tests.browser.fake_api import serving
from tests.browser.player import open_player, table_url
from tests.support.table_game import OUTSIDER, TableGame

pytestmark = [pytest.mark.slow, pytest.mark.browser]
WAIT = 15_000  # ms: a poll comes every 1.5-4 s


def test_a_scout_shows_the_card_to_the_scout_only(browser, pages, fake_bridge, shots):
    """Ann taps seat 3 and confirms with Telegram's MainButton: she sees Cai's card; Bo's page,
    polling in Chinese and dark, reads that Ann scouted Cai and never receives Cai's card."""
    game = TableGame.deal(time.time())
    with serving(game) as server:
        ann = open_player(browser, pages, server.base, fake_bridge, game, seat=1)
        bo = open_player(browser, pages, server.base, fake_bridge, game, seat=2, dark=True)
        ann.status().filter(has_text="Your turn").wait_for()
        bo.status().filter(has_text="轮到1号位 Ann").wait_for()
        assert bo.seat(3).get_attribute("aria-disabled") == "true"
        assert {"type": "selection_change"} not in ann.posted("web_app_trigger_haptic_feedback")
        ann.page.screenshot(path=shots / "en-light-your-turn.png")

        ann.seat(2).click()
        assert ann.main_button()["text"] == "🔍 Scout 2. Bo"
        ann.press("back_button_pressed")  # Telegram's BackButton drops the pick
        assert ann.main_button()["is_visible"] is False
        assert ann.posted("web_app_setup_back_button")[-1]["is_visible"] is False
        ann.seat(3).click()
        assert ann.main_button()["text"] == "🔍 Scout 3. Cai"
        assert ann.main_button()["is_visible"] is True
        assert ann.posted("web_app_setup_back_button")[-1]["is_visible"] is True
        assert {"type": "selection_change"} in ann.posted("web_app_trigger_haptic_feedback")
        assert "3. Cai" in ann.seat(3).get_attribute("aria-label")
        ann.press("main_button_pressed")

        ann.seat(3).locator(".cd", has_text="Red 4").wait_for()
        assert "Red 4" in ann.seat(3).get_attribute("aria-label")
        assert ann.page.locator("#facts").inner_text() == "3. Cai holds Red 4"
        success = {"type": "notification", "notification_type": "success"}
        assert success in ann.posted("web_app_trigger_haptic_feedback")
        assert ann.main_button()["text"] == "✅ Done"
        ann.page.screenshot(path=shots / "en-light-scouted.png")

        bo.page.locator("#timeline li", has_text="1号位 Ann 查看了 3号位 Cai 的人物牌").wait_for(
            timeout=WAIT
        )
        ann.wait_out_the_pause()
        ann.press("main_button_pressed")
        bo.status().filter(has_text="轮到你").wait_for(timeout=WAIT)
        assert bo.seat(1).get_attribute("aria-disabled") == "false"
        bo.page.screenshot(path=shots / "zh-dark-your-turn.png")
        bo.seat(1).click()
        assert bo.main_button()["text"] == "🔍 侦查 1号位 Ann"
        bo.press("main_button_pressed")
        bo.seat(1).locator(".cd", has_text="红1").wait_for()
        bo.page.screenshot(path=shots / "zh-dark-scouted.png")

        assert "红4" not in bo.page.content() and "Red 4" not in bo.page.content()
        bodies = bo.received()
        assert bodies and all('"R4"' not in body for body in bodies)
        assert any('"R1"' in body for body in bodies)  # what Bo scouted did reach Bo
        assert ann.errors == [] and bo.errors == []


def test_a_move_made_on_an_old_view_is_too_late(browser, pages, fake_bridge):
    """Ann picks a seat, switches away (the page stops polling), her turn runs out meanwhile;
    her confirmation is refused as too late, with an error haptic, and the page catches up."""
    game = TableGame.deal(time.time())
    with serving(game) as server:
        ann = open_player(browser, pages, server.base, fake_bridge, game, seat=1)
        ann.status().filter(has_text="Your turn").wait_for()
        ann.seat(2).click()
        ann.press("visibility_changed", {"is_visible": False})
        game.act(Action("timeout"), time.time())
        ann.press("main_button_pressed")
        ann.status().filter(has_text="Too late").wait_for()
        error = {"type": "notification", "notification_type": "error"}
        assert error in ann.posted("web_app_trigger_haptic_feedback")
        assert "2. Bo" in ann.page.locator("#who").inner_text()
        assert all("409 (Conflict)" in error for error in ann.errors), ann.errors  # the refusal


def test_a_decapitation_asks_its_declarations_and_the_end_replays(
    browser, pages, fake_bridge, shots
):
    """With Bodyguards, Ann's decapitation asks in Telegram's popups whether a bodyguard sits
    beside the target, then for confirmation; the game ends, and its replay shows every card."""
    game = TableGame.deal(time.time(), Variants(bodyguards=True))
    with serving(game) as server:
        ann = open_player(browser, pages, server.base, fake_bridge, game, seat=1)
        ann.status().filter(has_text="Your turn").wait_for()
        ann.seat(2).click()
        ann.page.get_by_role("button", name="🗡 Decapitate 2. Bo…").click()
        asked = ann.posted("web_app_open_popup")[-1]
        assert "bodyguard" in asked["message"] and "2. Bo" in asked["message"]
        assert ann.posted("web_app_setup_closing_behavior")[-1] == {"need_confirmation": True}
        ann.press("popup_closed", {"button_id": "n"})
        confirm = "Decapitate 2. Bo, bodyguard beside: No? This ends the game."
        assert ann.posted("web_app_open_popup")[-1]["message"] == confirm
        ann.press("popup_closed", {"button_id": "go"})

        ann.status().filter(has_text="wins").wait_for()
        assert game.state.over and game.state.decapitation.bodyguard is False
        ann.page.screenshot(path=shots / "en-light-over.png")
        ann.page.get_by_role("button", name="▶ Replay the game").click()
        ann.page.locator("#who", has_text="Step 0 of 1").wait_for()
        for seat, card in ((2, "Blue 7"), (3, "Red 4"), (4, "Blue 3")):
            assert card in ann.seat(seat).get_attribute("aria-label")
        ann.page.get_by_role("button", name="Next ▶").click()
        ann.page.locator("#who", has_text="Step 1 of 1").wait_for()
        assert re.search("wins", ann.status().inner_text())
        ann.page.screenshot(path=shots / "en-light-replay.png")
        assert ann.errors == []


@pytest.mark.parametrize(("seat", "dark"), [(1, True), (2, False)])
def test_the_circle_and_the_status_fit_a_compact_opening(
    browser, pages, fake_bridge, shots, seat, dark
):
    """Opened half height (about 380 px), the seat circle and the status line are in view:
    Ann in English and dark, Bo in Chinese and light."""
    game = TableGame.deal(time.time())
    with serving(game) as server:
        bo = open_player(
            browser, pages, server.base, fake_bridge, game, seat=seat, dark=dark, height=380
        )
        lang = bo.lang
        bo.page.locator("button.seat").first.wait_for()
        bo.page.locator("#status:not(:empty)").wait_for()
        for box in (
            bo.page.locator("#ring").bounding_box(),
            bo.page.locator("#status").bounding_box(),
        ):
            assert box["y"] >= 0 and box["y"] + box["height"] <= 380
        for button in bo.page.locator("button.seat").all():
            box = button.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44
        bo.page.screenshot(path=shots / f"{lang}-{'dark' if dark else 'light'}-compact.png")
        assert bo.errors == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_full_table_of_fourteen_seats_keeps_every_seat_apart(
    browser, pages, fake_bridge, shots, lang
):
    """Twelve players and two virtual seats, long and Chinese names: every seat a target of
    44 px or more, none overlapping another, the virtual ones marked in words."""
    game = TableGame.full(time.time())
    seat = next(s for s, u in enumerate(game.users, 1) if u and game.langs[s - 1] == lang)
    with serving(game) as server:
        player = open_player(browser, pages, server.base, fake_bridge, game, seat=seat)
        player.page.locator("#status:not(:empty)").wait_for()
        seats = player.page.locator("button.seat")
        assert seats.count() == 14
        boxes = [b.bounding_box() for b in seats.all()]
        assert all(b["width"] >= 44 and b["height"] >= 44 for b in boxes)
        centres = [(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, b["width"]) for b in boxes]
        for i, (x, y, d) in enumerate(centres):  # round buttons: apart when their centres are
            for x2, y2, d2 in centres[i + 1 :]:
                assert math.dist((x, y), (x2, y2)) >= (d + d2) / 2
        virtual = [s for s, v in enumerate(game.state.virtual, 1) if v]
        word = "virtual" if player.lang == "en" else "虚拟"
        for number in virtual:
            assert word in player.seat(number).get_attribute("aria-label")
        player.page.screenshot(path=shots / f"{player.lang}-light-fourteen-seats.png")
        assert player.errors == []


def test_a_table_that_answers_503_at_first_is_shown_once_it_recovers(browser, pages, fake_bridge):
    """The first poll meets a failing server: the page backs off and tries again until the
    table comes."""
    game = TableGame.deal(time.time())
    with serving(game) as server:
        server.unavailable = 1
        ann = open_player(browser, pages, server.base, fake_bridge, game, seat=1)
        ann.status().filter(has_text="Your turn").wait_for(timeout=WAIT)
        assert server.hits["/api/table"] >= 2
        assert all("503" in error for error in ann.errors), ann.errors


def test_someone_without_a_seat_is_told_so_and_shown_no_table(browser, pages, fake_bridge):
    """A Telegram user with no seat at the game (a forwarded link) gets the API's refusal in
    words, and no seat circle."""
    game = TableGame.deal(time.time())
    with serving(game) as server:
        stranger = {"id": OUTSIDER, "first_name": "Zed", "language_code": "en"}
        url = table_url(server.base, stranger, dark=False)
        zed = open_player(browser, pages, server.base, fake_bridge, game, seat=1, url=url)
        zed.status().filter(has_text="You have no seat at this game.").wait_for()
        assert zed.page.locator("button.seat").count() == 0
        assert all("403" in error for error in zed.errors), zed.errors


def test_opened_outside_telegram_it_says_how_to_open_it(browser, pages, fake_bridge):
    """Without initData (a link opened in a browser) the page says, in both languages, to open
    it from the game in Telegram, and asks the API nothing."""
    game = TableGame.deal(time.time())
    with serving(game) as server:
        visitor = open_player(
            browser, pages, server.base, fake_bridge, game, seat=1, url=f"{server.base}/table"
        )
        visitor.page.locator("#outside", has_text="Open this table from the game").wait_for()
        assert "请在 Telegram 里从游戏中打开" in visitor.page.locator("#outside").inner_text()
        assert not visitor.page.locator("#app").is_visible()
        assert server.hits.get("/api/table", 0) == 0
        assert visitor.errors == []


def test_telegrams_own_script_carries_the_scout(browser, pages, telegram_js):
    """With telegram-web-app.js as Telegram ships it, the page tells Telegram it is ready, sets
    up the MainButton for the picked seat and reacts to Telegram's press."""
    game = TableGame.deal(time.time())
    with serving(game) as server:
        ann = open_player(browser, pages, server.base, telegram_js, game, seat=1)
        ann.status().filter(has_text="Your turn").wait_for()
        assert "web_app_ready" in [kind for kind, _ in ann.posted()]
        ann.seat(3).click()
        assert ann.main_button()["text"] == "🔍 Scout 3. Cai"
        assert ann.main_button()["is_visible"] is True
        ann.press("main_button_pressed")
        ann.seat(3).locator(".cd", has_text="Red 4").wait_for()
        kinds = [d.get("type") for d in ann.posted("web_app_trigger_haptic_feedback")]
        assert kinds == ["selection_change", "notification"]
        assert ann.errors == []


def test_a_scouted_turncoat_swaps_from_the_page(browser, pages, fake_bridge):
    """Ann scouts Bo's X; Bo's page offers the swap in Chinese, and after it Bo holds Red 1."""
    deal = ("R1", "BX", "R4", "B3", "R7", "B1", "R3", "B5")
    game = TableGame.deal(time.time(), Variants(turncoat=True), deal)
    with serving(game) as server:
        bo = open_player(browser, pages, server.base, fake_bridge, game, seat=2)
        bo.status().filter(has_text="轮到1号位 Ann").wait_for()
        game.act(Action("scout", 1, target=2), time.time())
        bo.status().filter(has_text="是否与 1号位 Ann 交换人物牌").wait_for(timeout=WAIT)
        bo.page.get_by_role("button", name="🔄 交换").click()
        bo.page.locator("#card", has_text="红1").wait_for()
        assert bo.page.locator("#facts").inner_text() == "你与 1号位 Ann 交换了人物牌：现在是 红1"
        assert game.state.cards[:2] == ("BX", "R1")
        assert bo.errors == []


def test_the_observer_predicts_after_a_scout(browser, pages, fake_bridge):
    """Ann, the Observer, scouts Cai, then reveals and predicts Blue after a confirmation."""
    game = TableGame.deal(
        time.time(), Variants(observer=True), ("OBS", "B7", "R4", "B3"), set_aside=("R1",)
    )
    with serving(game) as server:
        ann = open_player(browser, pages, server.base, fake_bridge, game, seat=1)
        ann.status().filter(has_text="Your turn").wait_for()
        ann.seat(3).click()
        ann.press("main_button_pressed")
        ann.page.get_by_role("button", name="👁 Reveal: Blue wins").click()
        ann.press("popup_closed", {"button_id": "go"})
        ann.page.locator("#timeline li", has_text="predicts: Blue wins").wait_for()
        assert game.state.prediction == (1, "blue")
        assert "2. Bo" in ann.page.locator("#who").inner_text()
        assert ann.errors == []


def test_the_spy_guesses_both_captains_by_tapping_two_seats(browser, pages, fake_bridge, shots):
    """Ann announces a decapitation; Dee, the Spy, taps Red's captain then Blue's, and confirms
    with the MainButton; the game ends."""
    game = TableGame.deal(
        time.time(), Variants(spy=True), ("R1", "B7", "R4", "SPY"), set_aside=("B3",)
    )
    with serving(game) as server:
        dee = open_player(browser, pages, server.base, fake_bridge, game, seat=4)
        dee.status().filter(has_text="轮到1号位 Ann").wait_for()
        game.act(Action("decapitate", 1, target=2), time.time())
        dee.status().filter(has_text="红方队长").wait_for(timeout=WAIT)
        dee.seat(3).click()
        dee.status().filter(has_text="蓝方队长").wait_for()
        dee.seat(2).click()
        assert dee.main_button()["text"] == "猜测：红方 3号位 Cai，蓝方 2号位 Bo"
        assert "红方" in dee.seat(3).get_attribute("aria-label")
        assert "蓝方" in dee.seat(2).get_attribute("aria-label")
        dee.page.screenshot(path=shots / "zh-light-spy.png")
        dee.press("main_button_pressed")
        dee.status().filter(has_text="获胜").wait_for()
        assert game.state.spy_guess == (4, 3, 2)
        assert dee.errors == []


def test_a_second_tap_on_the_main_button_after_a_scout_does_not_end_the_turn(
    browser, pages, fake_bridge
):
    """Ann confirms her scout and taps again 250 ms later, as a double tap does: the MainButton,
    now ✅ Done, ignores it and she keeps her speaking moment; a tap after the pause ends it."""
    game = TableGame.deal(time.time())
    with serving(game) as server:
        ann = open_player(browser, pages, server.base, fake_bridge, game, seat=1)
        ann.status().filter(has_text="Your turn").wait_for()
        ann.seat(3).click()
        ann.press("main_button_pressed")
        ann.page.wait_for_timeout(250)
        assert ann.main_button()["text"] == "✅ Done"
        ann.press("main_button_pressed")
        ann.page.wait_for_timeout(300)  # time for a done move to come back, had one been sent
        assert game.state.turn == 1
        assert "2. Bo" not in ann.page.locator("#who").inner_text()
        ann.wait_out_the_pause()
        ann.press("main_button_pressed")
        ann.page.locator("#who", has_text="2. Bo").wait_for()
        assert game.state.turn == 2
        assert ann.errors == []
