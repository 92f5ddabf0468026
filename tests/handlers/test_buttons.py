"""Button presses the bot must refuse: a short popup to the presser, and nothing changed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from handlers.display import presses
from testing.drivers import Bot
from testing.fake_telegram import FakeMessage
from testing.players import Player, Table
from tests.handlers.test_commands import changes_nothing


def raw_data(where: str, chat: int, game: int, version: int, arg: str) -> str:
    """Callback data as any client may send it, whatever the bot's buttons say."""
    return f"{where}|{chat}|{game}|{version}|{arg}"


BAD = "That button is not valid."
STALE = "That button is from an old game."
TOO_LATE = "Too late: the game has moved on."
NOT_YOURS = "It is not your decision now."
NOT_PLAYING = "You are not playing in this game."
ONLY_HOST = "Only the host or a group admin may do that."


def refused(bot: Bot, table: Table, who: Player, press: Callable[[], str | None]) -> str:
    """Press, check the answer is short and the table unchanged; return the answer."""
    group_before = len(table.fake.chat(table.group))
    with changes_nothing(bot, table):
        answer = press()
    assert answer and len(answer) <= 200
    assert len(table.fake.chat(table.group)) == group_before
    return answer


@pytest.fixture
def playing(bot: Bot) -> Table:
    """Five members, four of them in a game that has just been dealt."""
    table = Table.of(bot, 5)
    table.open(table.players[1:4])
    table.start(seed=41)
    return table


def game_data(table: Table, arg: str, *, game: int | None = None, version: int | None = None):
    state = table.state
    return raw_data(
        presses.PROMPT,
        table.chat,
        table.data()["game"] if game is None else game,
        state.version if version is None else version,
        arg,
    )


def first_prompt(table: Table) -> tuple[Player, FakeMessage]:
    player = table.player_at(table.state.turn)
    return player, player.prompt()


@pytest.mark.parametrize(
    "data",
    ["garbage", "g|1|2|3", "x|1|2|3|S", "g|chat|1|0|S", "g|-1|1|0|" + "S" * 60, ""],
    ids=["garbage", "too-few-parts", "unknown-kind", "not-a-number", "over-long", "empty"],
)
def test_garbage_data_is_refused(bot: Bot, playing: Table, data: str) -> None:
    player, prompt = first_prompt(playing)
    if data == "g|-1|1|0|" + "S" * 60:
        assert len(data.encode()) > presses.MAX_BYTES
    answer = refused(bot, playing, player, lambda: player.press_data(data, prompt))
    assert answer == BAD


def test_another_games_number_is_stale(bot: Bot, playing: Table) -> None:
    player, prompt = first_prompt(playing)
    for data in (
        game_data(playing, "S", game=7),
        raw_data(presses.PROMPT, -999, 1, 0, "S"),  # a chat without a game
        raw_data(presses.LOBBY, playing.chat, 7, 0, "start"),
    ):
        message = prompt if data[0] == "g" else playing.lobby_message()
        chat = None if data[0] == "g" else playing.group
        press = lambda d=data, m=message, c=chat: player.press_data(d, m, c)  # noqa: E731
        assert refused(bot, playing, player, press) == STALE


@pytest.mark.over_http
def test_old_version_is_too_late(bot: Bot, playing: Table) -> None:
    player, prompt = first_prompt(playing)
    seat = playing.state.turn
    playing.scout(seat, seat % 4 + 1)
    assert (
        refused(
            bot,
            playing,
            player,
            lambda: player.press_data(prompt.buttons[0][0].callback_data, prompt),
        )
        == TOO_LATE
    )
    old = game_data(playing, "e", version=playing.state.version - 1)
    assert refused(bot, playing, player, lambda: player.press_data(old, prompt)) == TOO_LATE


def test_someone_elses_keyboard_is_refused(bot: Bot, playing: Table) -> None:
    outsider = playing.players[4]
    player = playing.player_at(playing.state.turn % 4 + 1)
    board = playing.board()
    me = board.button(playing.t("btn_my_card")).callback_data
    assert refused(bot, playing, outsider, lambda: outsider.press_data(me, board)) == NOT_PLAYING
    # Lobby buttons belong on the group's lobby message, not in a private chat.
    start = raw_data(presses.LOBBY, playing.chat, playing.data()["game"], 0, "start")
    own = player.messages()[-1]
    assert refused(bot, playing, player, lambda: player.press_data(start, own)) == BAD
    # A game button pressed on a group message is not a private prompt.
    scout = game_data(playing, "S")
    assert refused(bot, playing, player, lambda: player.press_data(scout, board)) == BAD


def test_settings_by_a_player_who_is_not_the_host_are_refused(bot: Bot) -> None:
    table = Table.of(bot, 4)
    table.open()
    guest = table.players[2]
    lobby = table.lobby_message()
    for label in (table.t("btn_settings"), table.t("btn_start")):
        press = lambda text=label: guest.press(text, lobby)  # noqa: E731
        assert refused(bot, table, guest, press) == ONLY_HOST
    game = table.data()["game"]
    for arg in ("t:spy", "v:turn_seconds:30", "v:turn_seconds"):
        data = raw_data(presses.LOBBY, table.chat, game, 0, arg)
        press = lambda d=data: guest.press_data(d, lobby)  # noqa: E731
        assert refused(bot, table, guest, press) == ONLY_HOST
    bogus = raw_data(presses.LOBBY, table.chat, game, 0, "t:nonsense")
    assert refused(bot, table, table.host, lambda: table.host.press_data(bogus, lobby)) == BAD


def test_a_private_game_button_pressed_by_another_user_is_refused(
    bot: Bot, playing: Table
) -> None:
    seat = playing.state.turn
    other = playing.player_at(seat % 4 + 1)
    outsider = playing.players[4]
    mine = other.messages()[-1]  # the other player's own card message
    for arg in ("S", "D", f"s{seat % 4 + 1}", f"x{seat % 4 + 1}", "e", "w", "pr", "r1"):
        data = game_data(playing, arg)
        press = lambda d=data: other.press_data(d, mine)  # noqa: E731
        assert refused(bot, playing, other, press) == NOT_YOURS, arg
    outsider.private("/start")
    hello = outsider.messages()[-1]
    data = game_data(playing, "S")
    press = lambda: outsider.press_data(data, hello)  # noqa: E731
    assert refused(bot, playing, outsider, press) == NOT_PLAYING


def test_malformed_game_arguments_are_refused(bot: Bot, playing: Table) -> None:
    player, prompt = first_prompt(playing)
    seat = playing.state.turn
    for arg in ("zz", "d99", f"d{seat}", "dXp1", "d2p7", "y1.", "s", f"s{seat}x", "q"):
        data = game_data(playing, arg)
        answer = refused(bot, playing, player, lambda d=data: player.press_data(d, prompt))
        assert answer in (BAD, TOO_LATE), (arg, answer)
