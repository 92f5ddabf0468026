"""/leave: a seated player leaves a running game themselves, in the group or in the private chat,
after a confirmation; the seat plays on as after /remove, a virtual seat."""

from __future__ import annotations

import pytest

from engine import Variants, captains
from engine.cards import color
from handlers.display.render import isolate
from testing.deals import find_seed
from testing.drivers import Bot
from testing.games import after, end_now, remove, scout_the_next
from testing.players import NAMES, Player, Table


def with_player_in(bot: Bot, lang: str, own: str) -> Table:
    """Five players in a group reading `lang`; the third's Telegram app is set to `own`."""
    table = Table.of(bot, 5, lang=lang)
    table.players[2].user.language_code = "zh-hans" if own == "zh" else "en"
    return table


def left_line(table: Table, seat: int) -> str:
    name = isolate(table.state.names[seat - 1])
    return table.t("left_seat", name=name, seat=seat)


def live(player: Player, table: Table) -> list:
    """Every message with buttons in the player's private chat and the group they may see."""
    board = table.board().message_id
    groups = [m for m in table.group_messages() if m.message_id != board]
    return [m for m in [*player.messages(), *groups] if m.buttons]


@pytest.mark.parametrize(("lang", "own"), [("en", "zh"), ("zh", "en")])
def test_a_player_leaves_from_the_group_after_confirming_and_the_seat_plays_on_virtual(
    memory_bot: Bot, lang: str, own: str
) -> None:
    table = with_player_in(memory_bot, lang, own)
    table.open()
    state = table.start(seed=32)
    leaver = table.players[2]
    seat = table.seat_of(leaver)
    leaver.say("/leave")
    asked = table.group_messages()[-1]
    # The question is the presser's: in their language, its buttons theirs alone.
    assert asked.text == table.t_in(own, "leave_ask", group=isolate(table.title))
    assert asked.button_labels == [
        table.t_in(own, "btn_leave_game"),
        table.t_in(own, "btn_stay"),
    ]
    other = table.players[3]
    refused = other.press(table.t_in(own, "btn_leave_game"), asked)
    assert refused == table.t_for(other, "leave_not_yours")
    assert seat not in (table.data().get("removed") or [])
    assert leaver.press(table.t_in(own, "btn_leave_game"), asked) in (None, "")
    told = table.fake.message(table.group, asked.message_id)
    assert told.text == left_line(table, seat) and told.buttons == []
    assert table.data()["removed"] == [seat]
    assert table.state.removed == frozenset({seat})
    # Its turns pass at once, as a removed seat's.
    turn = state.first
    while after(table, turn) != seat:
        scout_the_next(table, turn)
        turn = table.state.turn
    scout_the_next(table, turn)
    assert table.state.turn == after(table, seat)
    # The turn message tells that the seat's player left, not that they were removed.
    passed = table.t("passed_left_line", name=table.seat_label(seat))
    assert any(passed in text for text in table.group_texts())
    removed = table.t("passed_removed_line", name=table.seat_label(seat))
    assert not any(removed in text for text in table.group_texts())
    assert leaver.prompt() is None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_player_whose_turn_it_is_leaves_from_the_private_chat_and_the_turn_moves_on(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    state = table.start(seed=33)
    first = state.first
    leaver = table.player_at(first)
    turn_prompt = leaver.prompt()
    groups_before = len(table.group_messages())
    leaver.private("/leave")
    asked = leaver.messages()[-1]
    assert asked.text == table.t_for(leaver, "leave_ask", group=isolate(table.title))
    assert len(table.group_messages()) == groups_before  # the group hears nothing of a question
    assert leaver.press(table.t_for(leaver, "btn_leave_game"), asked) in (None, "")
    done = table.fake.message(leaver.id, asked.message_id)
    assert done.text == table.t_for(leaver, "left_private", group=isolate(table.title))
    assert done.buttons == []
    assert left_line(table, first) in table.group_texts()
    assert table.state.turn == after(table, first) and table.data()["removed"] == [first]
    closed = table.fake.message(leaver.id, turn_prompt.message_id)
    # Their first turn's prompt keeps the card dealt with it, above the news.
    assert closed.text == f"{table.dealt(leaver)}\n{table.t_for(leaver, 'closed_left')}"
    assert closed.buttons == []
    assert live(leaver, table) == []
    # Asked again, they are told they left.
    leaver.private("/leave")
    assert leaver.last_text() == table.t_for(leaver, "you_left")


def test_stay_keeps_the_seat_and_closes_the_question(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5, lang="zh")
    table.open()
    table.start(seed=34)
    player = table.players[1]
    player.private("/leave")
    asked = player.messages()[-1]
    assert player.press(table.t_for(player, "btn_stay"), asked) in (None, "")
    kept = table.fake.message(player.id, asked.message_id)
    assert kept.text == table.t_for(player, "leave_stayed") and kept.buttons == []
    assert not table.data().get("removed")
    assert player.press_data(asked.buttons[0][0].callback_data, asked) == table.t_for(
        player, "too_late"
    )


def test_the_question_expires_when_the_turn_moves_on_or_the_game_ends(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5)
    table.open()
    state = table.start(seed=35)
    first = state.first
    asker = table.player_at(after(table, after(table, first)))
    asker.say("/leave")
    in_group = table.group_messages()[-1]
    leave = in_group.buttons[0][0].callback_data
    scout_the_next(table, first)  # the turn moves on
    expired = table.fake.message(table.group, in_group.message_id)
    assert expired.text == table.t_for(asker, "leave_expired") and expired.buttons == []
    assert asker.press_data(leave, in_group) == table.t_for(asker, "too_late")
    assert not table.data().get("removed")
    asker.private("/leave")
    private = asker.messages()[-1]
    table.decapitate(table.state.turn, first)
    assert table.ending() is not None
    over = table.fake.message(asker.id, private.message_id)
    assert over.text == table.t_for(asker, "closed_over") and over.buttons == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_leave_outside_a_game_gets_a_clear_answer(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 6, lang=lang)
    table.open(table.players[1:5])
    joined = table.players[1]
    joined.say("/leave")  # a lobby has its own Leave
    refusal = table.group_messages()[-1]  # the group's one refusal message, rewritten
    assert refusal.text == table.t("leave_lobby")
    joined.private("/leave")
    assert joined.last_text() == table.t_for(joined, "leave_lobby")
    table.start(seed=36)
    outsider = table.players[5]
    outsider.say("/leave")
    assert table.fake.message(table.group, refusal.message_id).text == table.t("leave_none")
    outsider.private("/leave")
    assert outsider.last_text() == table.t_for(outsider, "mycard_none")
    assert not table.data().get("removed")


def test_the_last_player_left_leaving_cancels_the_game(memory_bot: Bot) -> None:
    """As after /remove: with nobody left to play, the game is cancelled."""
    table = Table.of(memory_bot, 4)
    table.open()
    table.start(seed=37)
    for player in table.players:
        player.private("/leave")
        player.press(table.t_for(player, "btn_leave_game"), player.messages()[-1])
    assert table.data()["status"] != "playing"
    assert all(not m.buttons for p in table.players for m in p.messages())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_end_and_status_tell_a_player_who_left_from_one_removed(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 6, lang=lang)
    table.open()
    state = table.start(seed=33)
    leaver = table.player_at(after(table, state.first))
    seat = table.seat_of(leaver)
    leaver.say("/leave")
    leaver.press(table.t_for(leaver, "btn_leave_game"), table.group_messages()[-1])
    removed = after(table, seat)
    remove(table, table.host, removed)
    table.host.say("/status")
    status = table.group_texts()[-1]
    name = isolate(table.state.names[seat - 1])
    assert f"{table.t('seat_label', seat=seat, name=name)}{table.t('left_tag')}" in status
    ending = end_now(table).text
    assert table.t("replay_left", name=table.seat_label(seat)) in ending
    assert table.t("replay_removed", name=table.seat_label(removed)) in ending
    assert table.t("replay_removed", name=table.seat_label(seat)) not in ending


def two_winners_besides_the_host(state) -> tuple[int, int] | None:
    """Two seats, neither the host's nor the first player's nor the next (whom the first player
    strikes), holding the colour that wins that decapitation; None if there are not two."""
    attacker, target = state.first, state.first % 6 + 1
    caps, side = captains(state.cards), color(state.cards[attacker - 1])
    other = "blue" if side == "red" else "red"
    winner = side if caps[side] == attacker and caps[other] == target else other
    seats = [
        s
        for s in range(1, 7)
        if s not in (attacker, target)
        and state.names[s - 1] != NAMES[0]
        and color(state.cards[s - 1]) == winner
    ]
    return (seats[0], seats[1]) if len(seats) >= 2 else None


def record_lines(table: Table, ending) -> str:
    """The text of the Record as an onlooker pressing 📄 on the end message gets it."""
    onlooker = table.member()
    seen = len(onlooker.messages())
    onlooker.press(table.t("btn_record"), ending)
    return "\n".join(m.text or "" for m in onlooker.messages()[seen:] if m.document is None)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_record_tells_a_player_who_left_from_one_removed_winners_included(
    bot: Bot, lang: str
) -> None:
    seed, state = find_seed(6, Variants(), two_winners_besides_the_host)
    left, removed = two_winners_besides_the_host(state)
    table = Table.of(bot, 6, lang=lang)
    table.open()
    table.start(seed=seed)
    leaver = table.player_at(left)
    leaver.say("/leave")
    leaver.press(table.t_for(leaver, "btn_leave_game"), table.group_messages()[-1])
    remove(table, table.host, removed)
    table.decapitate(state.first, state.first % 6 + 1)
    ending = table.ending()
    record = record_lines(table, ending)
    for told in (ending.text, record):
        winners = next(line for line in told.splitlines() if line.startswith("🏆"))
        assert f"{table.seat_label(left)}{table.t('left_tag')}" in winners
        assert f"{table.seat_label(removed)}{table.t('removed_tag')}" in winners
        assert table.t("replay_left", name=table.seat_label(left)) in told
        assert table.t("replay_removed", name=table.seat_label(removed)) in told
        assert table.t("replay_removed", name=table.seat_label(left)) not in told
