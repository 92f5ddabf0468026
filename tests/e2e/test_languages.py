"""Who may switch the group's language, and each player's own language in private."""

from __future__ import annotations

from handlers.playtest.drivers import Bot, LambdaBot, LocalBot
from handlers.playtest.players import Table

ONLY_HOST = "Only the host or a group admin may do that."


def test_only_the_host_or_an_admin_may_switch_the_language(bot: Bot) -> None:
    table = Table.of(bot, 6)
    admin = table.players[5]
    bot.fake.set_admin(table.group, admin.user)
    table.open(table.players[1:4])
    guest = table.players[1]
    before = bot.item(table.chat)
    guest.say("/language")
    assert table.group_texts()[-1] == ONLY_HOST
    assert bot.item(table.chat) == before
    assert table.lobby_message().text.startswith("🎯 Decapitation")

    admin.say("/language")  # an admin who does not play
    assert table.group_texts()[-1] == "语言：中文。"
    assert table.data()["lang"] == "zh"
    table.host.say("/language")
    assert table.group_texts()[-1] == "Language: English."

    table.start(seed=51)
    before = bot.item(table.chat)
    guest.say("/language")
    assert table.group_texts()[-1] == ONLY_HOST
    assert bot.item(table.chat) == before
    table.host.say("/language")  # mid-game, the host may
    assert table.group_texts()[-1] == "语言：中文。"
    guest.say("/language")
    assert table.group_texts()[-1] == "只有发起人或群管理员可以这样做。"
    assert table.data()["lang"] == "zh"


def test_without_a_game_only_an_admin_may_switch_the_language(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4)
    member, owner = table.players[2], table.players[0]
    member.say("/language")
    assert table.group_texts()[-1] == ONLY_HOST
    member.say("/help")
    assert table.group_texts()[-1].startswith("🎯 Decapitation")
    owner.say("/language")  # the group's owner administers it
    assert table.group_texts()[-1] == "语言：中文。"
    member.say("/newgame")
    assert table.lobby_message().text.startswith("🎯 斩首行动")


def test_the_settings_language_switch_is_for_the_host_or_an_admin(local_bot: LocalBot) -> None:
    table = Table.of(local_bot, 4)
    table.open()
    assert table.host.press(table.t("btn_settings"), table.lobby_message()) is None
    menu = table.lobby_message()
    assert table.players[2].press(table.t("set_lang"), menu) == ONLY_HOST
    assert table.data()["lang"] == "en"
    assert table.host.press(table.t("set_lang"), menu) is None
    assert table.data()["lang"] == "zh"
