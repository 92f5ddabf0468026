"""The lobby's Join link seats members of the group only: someone outside it (a forwarded lobby,
a guessed game number) is told privately, in their own language, and the lobby stays as it was;
when Telegram cannot say who is in the group, nobody is seated and the joiner is asked to try
again."""

from __future__ import annotations

import pytest

from testing.drivers import Bot, LambdaBot
from testing.players import Player, Table

LANGS = ["en", "zh"]


def stranger(table: Table, name: str = "Rex", code: str = "en") -> Player:
    """Someone who has opened the bot's chat but is not in the group."""
    user = table.fake.add_user(name, language_code=code, started=True)
    return Player(table.bot, user, table.group)


def join_link(table: Table) -> str:
    return table.lobby_message().button(table.t("btn_join")).url


def seated(table: Table) -> list[int]:
    return [uid for uid, _ in table.data()["players"]]


@pytest.mark.parametrize("lang", LANGS)
def test_a_stranger_opening_the_join_link_is_told_privately_and_not_seated(
    bot: Bot, lang: str
) -> None:
    table = Table.of(bot, 4)
    table.open(table.players[1:3])
    rex = stranger(table, code="zh-hans" if lang == "zh" else "en")
    before = (seated(table), table.lobby_message().text)
    rex.open_link(join_link(table))
    assert rex.texts() == [table.t_in(lang, "join_members_only")]
    assert (seated(table), table.lobby_message().text) == before
    assert bot.store.load(f"user#{rex.id}") is None  # nothing kept about him


def test_strangers_cannot_fill_a_lobby_for_its_countdown(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 1)
    table.open([])
    link = join_link(table)
    for name in ("Rex", "Sue", "Tom"):
        stranger(table, name).open_link(link)
    assert seated(table) == [table.host.id]
    memory_bot.advance(5 * 60 + 1)  # the countdown ends with one player: no deal
    assert table.data()["engine"] is None


@pytest.mark.parametrize(
    ("standing", "joins"),
    [
        ("member", True),
        ("administrator", True),
        ("restricted member", True),
        ("left", False),
        ("kicked", False),
        ("restricted, out of the group", False),
    ],
)
def test_who_counts_as_in_the_group(memory_bot: Bot, standing: str, joins: bool) -> None:
    table = Table.of(memory_bot, 4)
    table.open(table.players[1:3])
    dan, fake, group = table.players[3], memory_bot.fake, table.group
    if standing == "administrator":
        fake.set_admin(group, dan.user)
    elif standing == "restricted member":
        fake.restrict(dan.user, group, is_member=True)
    elif standing == "left":
        memory_bot.act(lambda: fake.leave(dan.user, group))
    elif standing == "kicked":
        memory_bot.act(lambda: fake.ban(dan.user, group, by=table.host.user))
    elif standing == "restricted, out of the group":
        fake.restrict(dan.user, group, is_member=False)
    dan.open_link(join_link(table))
    if joins:
        assert dan.last_text() == table.t("joined", group=f"\u2068{table.title}\u2069")
        assert dan.id in seated(table)
    else:
        assert dan.last_text() == table.t("join_members_only")
        assert dan.id not in seated(table)


def test_the_groups_owner_joins_through_the_link_too(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.players[1].say("/newgame")  # Ben hosts; Ann owns the group
    ann = table.host
    ann.open_link(join_link(table))
    assert ann.id in seated(table)


@pytest.mark.parametrize("lang", LANGS)
def test_join_fails_closed_when_telegram_cannot_say_who_is_in_the_group(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open(table.players[1:3])
    dan = table.players[3]
    before = (seated(table), table.lobby_message().text)
    memory_bot.fake.fail_next("getChatMember", status=502)
    dan.open_link(join_link(table))
    assert dan.last_text() == table.t_for(dan, "member_check_failed")
    assert (seated(table), table.lobby_message().text) == before
    dan.open_link(join_link(table))  # trying again
    assert dan.id in seated(table)


def test_the_old_link_of_a_group_upgraded_to_a_supergroup_still_seats_its_members(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open(table.players[1:3])
    link = join_link(table)
    table.upgrade_to_supergroup()
    dan = table.players[3]
    dan.open_link(link)
    assert dan.id in seated(table)
