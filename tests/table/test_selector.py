"""A table link names its game the way the bot's deep links do, and nothing else passes."""

from __future__ import annotations

import re

import pytest

from handlers.display.presses import join_payload
from handlers.table.selector import (
    MAX_LENGTH,
    REPLAY,
    TABLE,
    Selector,
    parse_selector,
    replay_selector,
    table_selector,
)

LARGEST = (-1009999999999999, 9999999999)  # a supergroup id and a game number far ahead


@pytest.mark.parametrize(("chat", "game"), [(-1001234567890, 1764547200), (42, 1), LARGEST])
def test_a_selector_names_its_game_back(chat, game):
    assert parse_selector(table_selector(chat, game)) == Selector(TABLE, chat, game)
    replay = parse_selector(replay_selector(chat, game))
    assert replay is not None and replay[:3] == (REPLAY, chat, game) and len(replay.key) == 16


def test_a_selector_is_written_like_the_join_link_of_the_same_game():
    chat, game = -1001234567890, 1764547200
    assert table_selector(chat, game)[1:] == join_payload(chat, game)[1:]


@pytest.mark.parametrize(("chat", "game"), [(-1001234567890, 1764547200), LARGEST])
def test_a_selector_fits_startapp(chat, game):
    for selector in (table_selector(chat, game), replay_selector(chat, game)):
        assert len(selector) <= MAX_LENGTH
        assert re.fullmatch(r"[A-Za-z0-9_-]+", selector)


@pytest.mark.parametrize(
    "text",
    [
        None,
        "",
        "g",
        "j100_1",  # a join link's payload is no table
        "g-100_1",  # the minus is written m
        "g0100_1",  # not as we write it
        "gm0_1",
        "g100_01",
        "g100_m1",
        "g100_",
        "g100_1_2",
        "r100_1",  # a replay named without its key
        "g100_1_0123456789abcdef",  # a table with a key
        "r100_1_0123456789ABCDEF",  # keys are written in lower case
        "g１００_1",  # full-width digits
        "g100_1\n",
        "g1_" + "1" * 70,
    ],
)
def test_anything_else_names_no_game(text):
    assert parse_selector(text) is None
