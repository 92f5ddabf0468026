"""Players who share a name: only they are marked, with something that is not a digit (their
username, else a letter), so that a number at the table is always a seat."""

from __future__ import annotations

import re

import pytest

from handlers.display.render import isolate
from testing.drivers import Bot
from testing.games import remove
from testing.players import Player, Table

LANGS = ["en", "zh"]


def two_anas(bot: Bot, lang: str, username: str | None = None) -> Table:
    """Ana, Ben, Ana, Cat (the second Ana with `username`, if given) in one group."""
    table = Table.of(bot, 4, lang=lang, names=("Ana", "Ben", "Ana", "Cat"))
    if username:
        table.players[2].user.username = username
    return table


def seated_names(table: Table) -> list[str]:
    """The names of the seating message's seats, in seat order."""
    lines = table.lobby_message().text.splitlines()[1 : 1 + len(table.state.names)]
    seats = [line for line in lines if re.match(r"^\d+(\. |号位 )", line)]
    return [re.sub(r"^\d+(\. |号位 )", "", line) for line in seats]


def shown(player_name: str) -> str:
    return isolate(player_name)


@pytest.mark.parametrize("lang", LANGS)
def test_only_the_players_sharing_a_name_are_marked_and_with_a_letter(
    memory_bot: Bot, lang: str
) -> None:
    table = two_anas(memory_bot, lang)
    table.open()
    lobby = table.lobby_message().text
    assert f"• {shown('Ana·A')}" in lobby and f"• {shown('Ana·B')}" in lobby
    assert f"• {shown('Ben')}" in lobby and f"• {shown('Cat')}" in lobby
    state = table.start(seed=5)
    assert sorted(state.names) == ["Ana·A", "Ana·B", "Ben", "Cat"]
    names = seated_names(table)
    assert sorted(names) == sorted(shown(n) for n in ("Ana·A", "Ana·B", "Ben", "Cat"))
    # A number at the table is a seat: no name carries a digit of its own.
    assert not any(re.search(r"\d", name) for name in names)
    # The first Ana to join is A, the second B: each gets their own card.
    for letter, player in (("A", table.players[0]), ("B", table.players[2])):
        seat = state.names.index(f"Ana·{letter}") + 1
        assert table.player_at(seat) is player
        told = table.t_for(player, "your_seat", seat=seat, group=isolate(table.title))
        assert told in "\n".join(player.texts())
    # The seat buttons read the same marks.
    first = table.player_at(state.first)
    first.press(table.t_for(first, "btn_scout"))
    labels = first.labels()
    for seat in range(1, 5):
        if seat != state.first:
            assert table.seat_label(seat) in labels
    assert not any(re.search(r"\d", label.split(" ", 1)[1]) for label in labels if "Ana" in label)


@pytest.mark.parametrize("lang", LANGS)
def test_a_player_sharing_a_name_is_marked_by_their_username_when_they_have_one(
    memory_bot: Bot, lang: str
) -> None:
    table = two_anas(memory_bot, lang, username="ana_k")
    table.open()
    lobby = table.lobby_message().text
    assert f"• {shown('Ana·A')}" in lobby and f"• {shown('Ana·ana_k')}" in lobby
    state = table.start(seed=5)
    assert sorted(state.names) == ["Ana·A", "Ana·ana_k", "Ben", "Cat"]
    seat = state.names.index("Ana·ana_k") + 1
    assert table.player_at(seat) is table.players[2]


@pytest.mark.parametrize("lang", LANGS)
def test_the_warnings_name_a_player_sharing_a_name_with_their_mark(
    memory_bot: Bot, lang: str
) -> None:
    table = two_anas(memory_bot, lang)
    table.host.user.started = False
    table.open()
    lobby = table.lobby_message().text
    warning = table.t("lobby_unreachable", names=shown("Ana·A"), button=table.t("btn_open_chat"))
    assert warning in lobby
    refused = table.host.press(table.t("btn_start"), table.lobby_message())
    assert refused == table.t(
        "unreachable_start", names=isolate("Ana·A"), button=table.t("btn_open_chat")
    )


def test_names_told_apart_stay_so_when_one_of_them_leaves(memory_bot: Bot) -> None:
    table = two_anas(memory_bot, "en")
    table.open()
    second: Player = table.players[2]
    second.press(table.t("btn_leave"), table.lobby_message(), chat=table.group)
    lobby = table.lobby_message().text
    assert f"• {shown('Ana')}" in lobby and "Ana·" not in lobby


@pytest.mark.parametrize("lang", LANGS)
def test_a_name_cut_to_fit_ends_with_an_ellipsis(memory_bot: Bot, lang: str) -> None:
    long = "Maximiliana Alexandrovna Konstantinopolskaya"
    table = Table.of(memory_bot, 4, lang=lang, names=(long, "Ben", "Cat", "Dan"))
    table.open()
    cut = long[:31] + "…"
    assert f"• {shown(cut)}" in table.lobby_message().text
    state = table.start(seed=5)
    assert cut in state.names and len(cut) == 32
    # A name that fits is kept whole, with no ellipsis.
    assert "Ben" in state.names


@pytest.mark.parametrize("lang", LANGS)
def test_a_removal_names_the_remover_as_the_table_shows_them(memory_bot: Bot, lang: str) -> None:
    table = two_anas(memory_bot, lang)
    table.open()
    state = table.start(seed=5)
    host = table.players[0]  # the first Ana: "Ana·A" at this table
    other = state.names.index("Ana·B") + 1
    remove(table, host, other)
    group = table.group_messages()[-1].text
    said = table.t("removed_seat", name=table.seat_label(other), by=shown("Ana·A"))
    assert said == group, group
    removed = table.players[2]
    told = table.t_for(removed, "removed_private", by=shown("Ana·A"), group=isolate(table.title))
    assert told in removed.texts()


@pytest.mark.parametrize("lang", LANGS)
def test_a_cancel_names_the_host_as_the_table_shows_them(memory_bot: Bot, lang: str) -> None:
    table = two_anas(memory_bot, lang)
    table.open()
    table.start(seed=5)
    table.players[0].say("/cancel")
    said = table.t("cancelled", name=shown("Ana·A"))
    assert any(said in message.text for message in table.group_messages())
