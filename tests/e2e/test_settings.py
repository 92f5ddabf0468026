"""The settings menu as the host sees it: every time limit a row of direct choices, the chosen
one marked; switches toggle."""

from __future__ import annotations

import pytest

from handlers.display import presses
from testing.drivers import Bot
from testing.fake_telegram import FakeMessage
from testing.players import Table


def raw_data(where: str, chat: int, game: int, version: int, arg: str) -> str:
    """Callback data as any client may send it, whatever the bot's buttons say."""
    return f"{where}|{chat}|{game}|{version}|{arg}"


ROWS = {
    "en": {
        "🤖 Virtual players": ["✓ 0", "1", "2"],
        "⏱ Turn time": ["30 s", "60 s", "✓ 90 s", "120 s", "180 s"],
        "🗣 Speaking time": ["30 s", "45 s", "✓ 60 s", "90 s", "120 s"],
        "🔄 Turncoat's choice": ["10 s", "15 s", "✓ 20 s", "30 s"],
        "🕵 Spy's guess": ["10 s", "✓ 15 s", "20 s", "30 s"],
    },
    "zh": {
        "🤖 虚拟玩家": ["✓ 0", "1", "2"],
        "⏱ 行动时限": ["30秒", "60秒", "✓ 90秒", "120秒", "180秒"],
        "🗣 发言时限": ["30秒", "45秒", "✓ 60秒", "90秒", "120秒"],
        "🔄 变节者决定时限": ["10秒", "15秒", "✓ 20秒", "30秒"],
        "🕵 密探猜测时限": ["10秒", "✓ 15秒", "20秒", "30秒"],
    },
}
TURN = {"en": "⏱ Turn time", "zh": "⏱ 行动时限"}
SPY_SWITCH = {"en": ("Spy: off", "Spy: on"), "zh": ("密探：关", "密探：开")}
TURN_POPUP = {"en": "Turn time: 30 s", "zh": "行动时限：30 秒"}
COUNTDOWN = {"en": "⏳ 30 s", "zh": "⏳ 30 秒"}


def rows(menu: FakeMessage) -> list[list[str]]:
    return [[button.text for button in row] for row in menu.buttons]


def row_after(menu: FakeMessage, header: str) -> list[str]:
    """The choices in the row under the row that names a setting."""
    labels = rows(menu)
    return labels[labels.index([header]) + 1]


def press_in_row(table: Table, header: str, label: str) -> str | None:
    """The host presses the choice `label` in the row under `header` (the same label may be in
    other rows too, so the button is picked by where it is)."""
    menu = table.lobby_message()
    row = menu.buttons[rows(menu).index([header]) + 1]
    button = next(b for b in row if b.text == label)
    return table.host.press_data(button.callback_data, menu)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_time_limit_is_a_row_of_direct_choices_with_the_chosen_one_marked(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    assert table.host.press(table.t("btn_settings"), table.lobby_message()) is None
    menu = table.lobby_message()
    for header, choices in ROWS[lang].items():
        assert row_after(menu, header) == choices
    assert all(len(b.callback_data.encode()) <= 64 for row in menu.buttons for b in row)

    # 90 s down to 30 s in one press, not round through 120 and 180.
    thirty = "30 s" if lang == "en" else "30秒"
    assert press_in_row(table, TURN[lang], thirty) is None
    menu = table.lobby_message()
    assert row_after(menu, TURN[lang])[0] == f"✓ {thirty}"
    assert sum(label.startswith("✓") for label in row_after(menu, TURN[lang])) == 1
    assert table.data()["settings"]["turn_seconds"] == 30
    saved = memory_bot.store.load(f"prefs#{table.chat}").data
    assert saved["settings"]["turn_seconds"] == 30

    # The row's name tells the value in a popup and changes nothing.
    before = memory_bot.item(table.chat)
    assert table.host.press(TURN[lang], menu) == TURN_POPUP[lang]
    assert memory_bot.item(table.chat) == before

    # A forged value that is not one of the choices is refused.
    forged = raw_data(presses.LOBBY, table.chat, table.data()["game"], 0, "v:turn_seconds:100")
    assert table.host.press_data(forged, menu) == table.t("bad_button")
    assert table.data()["settings"]["turn_seconds"] == 30

    # Switches stay toggles.
    off, on = SPY_SWITCH[lang]
    assert table.host.press(off, menu) is None
    assert on in table.lobby_message().button_labels

    assert table.host.press(table.t("btn_back"), table.lobby_message()) is None
    state = table.start(seed=5)
    assert table.state.variants.spy and state.turn
    assert table.board().text.endswith(COUNTDOWN[lang])
