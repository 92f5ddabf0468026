"""A player the bot cannot reach in the middle of a game: one warning a game, which mentions them
once (so their phone rings) and says how to open the chat again, edited as players are lost and
back; the turn whose prompt could not reach them is cut short, and they may still act in it."""

from __future__ import annotations

import pytest

from engine import Variants
from testing.deals import find_seed, lone_x, x_apart
from testing.drivers import Bot
from testing.fake_telegram.world import FakeMessage
from testing.games import end_now, remove
from testing.players import Player, Table

LANGS = pytest.mark.parametrize("lang", ["en", "zh"])
CUT = 30  # what is left of a turn once its prompt could not reach its player


def lose_at_their_turn(table: Table, player: Player) -> int:
    """`player` blocks the bot after the deal; the others play until the player's turn, whose
    prompt then cannot reach them. Returns their seat."""
    seat = table.seat_of(player)
    table.fake.block(player.user)
    while table.state.turn != seat:
        table.scout_and_done(table.state.turn, seat)
    return seat


def warned(bot: Bot, lang: str = "en") -> tuple[Table, Player, int, FakeMessage]:
    """Four players; the second blocks the bot after the deal and is warned of at their turn:
    the table, the player, their seat and the one warning."""
    table = Table.of(bot, 4, lang=lang)
    table.open()
    table.start(seed=3)
    guest = table.players[1]
    seat = lose_at_their_turn(table, guest)
    (warning,) = warnings(table)
    return table, guest, seat, warning


def warnings(table: Table) -> list[FakeMessage]:
    """The group messages that tell of players the bot cannot reach."""
    return [m for m in table.group_messages() if (m.text or "").startswith("⚠️")]


def mentioned(message: FakeMessage) -> list[int]:
    """The users a message mentions by link (Telegram notifies them)."""
    found = []
    for entity in message.entities:
        url = entity.get("url") or ""
        if url.startswith("tg://user?id="):
            found.append(int(url.removeprefix("tg://user?id=")))
        elif entity.get("type") == "text_mention":
            found.append(entity["user"]["id"])
    return found


def blocked_line(table: Table, *seats: int) -> str:
    names = table.t("sep_list").join(table.seat_label(seat) for seat in seats)
    return table.t("cannot_reach_blocked", names=names, button=table.t("btn_open_chat"), s=CUT)


@LANGS
def test_a_player_who_blocked_the_bot_is_warned_once_told_to_restart_and_their_turn_cut(
    memory_bot: Bot, lang: str
) -> None:
    table, guest, seat, warning = warned(memory_bot, lang)
    assert warning.text == blocked_line(table, seat)
    assert mentioned(warning) == [guest.id]  # once, as a mention
    (button,) = warning.buttons[0]
    assert button.text == table.t("btn_open_chat") and button.url.startswith("https://t.me/")

    # The bot knows the prompt never came: the turn is cut, and the turn message says so.
    assert table.t("time_left", s=CUT) in table.board().text.splitlines()
    memory_bot.advance(CUT - 1)
    assert table.state.turn == seat
    memory_bot.advance(1)
    assert table.state.turn != seat
    skipped = table.t("skipped_line", name=table.seat_label(seat))
    assert any(skipped in text for text in table.group_texts())
    # Its timeout (the prompt's close, which cannot reach them either) warns nobody again.
    assert [m.message_id for m in warnings(table)] == [warning.message_id]

    # Back in touch: the same warning says so, and loses its button; nothing new is posted.
    said = len(table.group_messages())
    guest.private("/start")
    assert len(table.group_messages()) == said
    back = table.fake.message(table.group, warning.message_id)
    assert back.text == table.t("back_game", name=table.seat_label(seat))
    assert back.buttons == []
    assert table.data()["unreachable"] == []


def test_a_second_player_lost_and_one_back_edit_the_one_warning(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5)
    table.open()
    state = table.start(seed=32)
    first = table.player_at(state.first % 5 + 1)
    second = table.player_at(state.first % 5 + 2)
    memory_bot.fake.block(second.user)
    one = lose_at_their_turn(table, first)
    (warning,) = warnings(table)
    assert warning.text == blocked_line(table, one)

    # The first one's turn runs out: the next seat's prompt cannot reach its player either.
    memory_bot.advance(CUT)
    two = table.seat_of(second)
    assert table.state.turn == two
    assert [m.message_id for m in warnings(table)] == [warning.message_id]
    edited = table.fake.message(table.group, warning.message_id)
    assert edited.text == blocked_line(table, one, two)
    assert sorted(mentioned(edited)) == sorted([first.id, second.id])
    assert table.t("time_left", s=CUT) in table.board().text.splitlines()

    # The first one opens the chat again: the warning names who is back, and who is not.
    said = len(table.group_messages())
    first.private("/start")
    assert len(table.group_messages()) == said
    edited = table.fake.message(table.group, warning.message_id)
    back = table.t("back_game", name=table.seat_label(one))
    assert edited.text == blocked_line(table, two) + "\n" + back
    assert mentioned(edited) == [second.id]
    assert edited.button_labels == [table.t("btn_open_chat")]


def test_a_player_back_in_touch_during_their_cut_turn_still_plays_it(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4, lang="zh")
    table.open()
    table.start(seed=3)
    guest = table.players[1]
    seat = lose_at_their_turn(table, guest)
    assert table.t("time_left", s=CUT) in table.board().text.splitlines()
    memory_bot.advance(CUT - 10)
    guest.private("/start")  # opens the chat again: the prompt comes
    assert guest.labels() == [table.t("btn_scout"), table.t("btn_decapitate")]
    target = seat % 4 + 1
    table.scout(seat, target)
    assert table.state.turn == seat  # their speaking moment, in full
    assert guest.labels() == [table.t("btn_done")]
    memory_bot.advance(CUT)
    assert table.state.turn == seat
    table.done(seat)
    assert table.state.turn == target


def test_a_player_who_never_opened_the_chat_is_told_to_press_start(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    table.start(seed=3)
    guest = table.players[1]
    seat = table.seat_of(guest)
    never = "Forbidden: bot can't initiate conversation with a user"
    memory_bot.fake.fail_next("sendMessage", status=403, description=never, chat_id=guest.user)
    while table.state.turn != seat:
        table.scout_and_done(table.state.turn, seat)
    (warning,) = warnings(table)
    button = table.t("btn_open_chat")
    assert warning.text == table.t(
        "cannot_reach", names=table.seat_label(seat), button=button, s=CUT
    )
    assert mentioned(warning) == [guest.id]
    assert table.t("time_left", s=CUT) in table.board().text.splitlines()


@LANGS
def test_a_player_removed_while_out_of_reach_leaves_the_warning(
    memory_bot: Bot, lang: str
) -> None:
    table, _, seat, warning = warned(memory_bot, lang)
    remove(table, table.host, seat)
    # The warning no longer asks them to open the chat: it says they were removed.
    edited = table.fake.message(table.group, warning.message_id)
    assert edited.text == table.t("reach_removed", name=table.seat_label(seat))
    assert mentioned(edited) == [] and edited.buttons == []
    assert warnings(table) == []  # nothing posted again


def test_a_player_out_of_reach_who_leaves_leaves_the_warning(memory_bot: Bot) -> None:
    table, guest, seat, warning = warned(memory_bot)
    guest.say("/leave")  # in the group: the bot still cannot message them privately
    asked = table.group_messages()[-1]
    guest.press(table.t_for(guest, "btn_leave_game"), asked)
    edited = table.fake.message(table.group, warning.message_id)
    assert edited.text == table.t("reach_left", name=table.seat_label(seat))
    assert mentioned(edited) == [] and edited.buttons == []


@pytest.mark.parametrize("x_scouted", [True, False])
def test_a_secret_offer_that_cannot_reach_its_player_tells_the_group_nothing(
    memory_bot: Bot, x_scouted: bool
) -> None:
    # Whether the Turncoat's offer went out is secret: the group must read the same whether the
    # blocked player scouted holds the X card (an offer fails) or not (nothing is sent).
    seed, state = find_seed(7, Variants(turncoat=True), lambda s: x_apart(s, s.first))
    table = Table.of(memory_bot, 7)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=10)
    table.start(seed=seed)
    holder = lone_x(state)
    target = (
        holder if x_scouted else next(s for s in range(1, 8) if s not in (state.first, holder))
    )
    memory_bot.fake.block(table.player_at(target).user)
    said = len(table.group_messages())
    table.scout(state.first, target)
    memory_bot.advance(10)  # the window ends
    assert warnings(table) == []
    assert table.data()["unreachable"] == []
    assert len(table.group_messages()) == said  # nothing new: the turn message is edited


@pytest.mark.parametrize("ending", ["decapitation", "cancel"])
def test_the_warning_loses_its_button_when_the_game_ends(memory_bot: Bot, ending: str) -> None:
    table, _, _, warning = warned(memory_bot)
    if ending == "cancel":
        table.host.say("/cancel")
    else:
        memory_bot.advance(CUT)  # their cut turn runs out; the next player ends the game
        end_now(table)
    ended = table.fake.message(table.group, warning.message_id)
    assert ended.buttons == []  # nothing to open the chat for: the game is over
    assert ended.text == warning.text


@LANGS
def test_a_speaker_back_in_their_private_chat_is_told_it_is_their_own_speaking_moment(
    bot: Bot, lang: str
) -> None:
    table = Table.of(bot, 4, lang=lang)
    table.open()
    first = table.start(seed=3).first
    table.scout(first, first % 4 + 1)
    speaker = table.player_at(first)
    speaker.private("/start")
    told = next(text for text in reversed(speaker.texts()) if "🗣" in text)
    assert table.t_for(speaker, "status_speak_you") in told
    assert table.t_for(speaker, "status_speak", name=table.seat_label(first)) not in told
