"""After the reveal: the silence rule the bot kept during the game is lifted, and the reveal
says so."""

from __future__ import annotations

import pytest

from testing.drivers import Bot
from testing.games import end_now
from testing.players import Table


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_reveal_opens_the_floor_where_the_bot_kept_silence(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 5, lang=lang, bot_admin=True)
    table.open()
    table.start(seed=71)
    ending = end_now(table)
    assert ending.text.splitlines()[-1] == table.t("floor_open")
    said = table.players[2].say("gg")
    assert said is not None
    assert not table.fake.chat(table.group)[-1].deleted, "nobody's words are deleted now"


def test_the_reveal_says_nothing_of_the_floor_where_silence_was_left_to_trust(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    table.start(seed=72)
    assert table.t("floor_open") not in end_now(table).text
