"""Telegram's faults, injected by the fake: every one ends with the game consistent and the
players told what to do."""

from __future__ import annotations

import pytest
from telegram.request import HTTPXRequest

from engine.codec import state_from_dict, state_to_dict
from handlers.display.render import isolate
from handlers.telegram import outbox
from testing.drivers import LambdaBot
from testing.fake_telegram import NOT_MODIFIED
from testing.players import Table

SEED = 71


@pytest.fixture(autouse=True)
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Calls that failed are tried again after 50 ms, not half a second (the order is the same)."""
    monkeypatch.setattr(outbox, "BACKOFF", 0.05)


def dealt(bot: LambdaBot, count: int = 4) -> Table:
    table = Table.of(bot, count)
    table.open()
    table.start(seed=SEED)
    return table


def consistent(table: Table, status: str = "playing") -> None:
    """The stored game replays exactly and owes no message."""
    data = table.data()
    assert state_to_dict(state_from_dict(data["engine"])) == data["engine"]
    assert data["status"] == status
    assert data.get("owed", []) == []
    assert (data["deadline"] is not None) == (status == "playing")


def turn_message_for(table: Table, seat: int) -> bool:
    """The group's current turn message names `seat`."""
    if table.ids().board is None:
        return False
    return table.board().text.startswith(f"▶️ {table.seat_label(seat)}'s turn")


def finish(table: Table) -> None:
    """Play on to the end from wherever the game is."""
    seat = table.state.turn
    table.decapitate(seat, seat % table.state.seats + 1)
    assert table.ending() is not None
    consistent(table, "over")


def test_a_long_429_keeps_the_message_owed_until_a_timer_sends_it(lambda_bot: LambdaBot) -> None:
    table = dealt(lambda_bot)
    seat = table.state.turn
    table.scout(seat, seat % 4 + 1)
    lambda_bot.fake.fail_next("sendMessage", status=429, retry_after=40, chat_id=table.group)
    table.done(seat)
    assert not turn_message_for(table, seat % 4 + 1)
    assert [batch["outs"][0]["op"] for batch in table.envelope()["owed"]] == ["send"]
    assert table.player_at(seat % 4 + 1).labels() == [
        table.t("btn_scout"),
        table.t("btn_decapitate"),
    ]
    lambda_bot.advance(40)  # the retry_after has passed: the timer set for it fires
    assert turn_message_for(table, seat % 4 + 1)
    consistent(table)
    finish(table)


def test_a_retry_later_than_sqs_can_delay_is_reached_in_hops(lambda_bot: LambdaBot) -> None:
    table = dealt(lambda_bot)
    seat = table.state.turn
    lambda_bot.fake.fail_next("sendMessage", status=429, retry_after=1200, chat_id=table.group)
    table.decapitate(seat, seat % 4 + 1)
    assert table.ending() is None
    lambda_bot.advance(900)  # SQS delays a message 15 minutes at most: one hop
    assert table.ending() is None
    lambda_bot.advance(300)  # the retry_after has passed: the next hop sends it
    assert table.ending() is not None
    consistent(table, "over")


def test_a_lobby_longer_than_sqs_can_delay_keeps_its_hops_when_one_meets_an_owed_message(
    lambda_bot: LambdaBot,
) -> None:
    """A lobby extended to an hour is woken in 15-minute hops. The first hop finds a message
    still owed (a joiner's welcome, refused by a long 429 just before): the hop is set again
    from the lobby's own next wake, so the lobby still reminds and then deals."""
    table = Table.of(lambda_bot, 4)
    table.open(table.players[1:3])
    for _ in range(30):
        table.players[1].say("/extend")
    opened = table.data()["opened"]
    assert table.data()["deadline"] == opened + 3600
    lambda_bot.advance(opened + 850 - lambda_bot.clock())
    late = table.players[3]
    lambda_bot.fake.fail_next("sendMessage", status=429, retry_after=120, chat_id=late.id)
    late.press(table.t("btn_join"), message=table.lobby_message(), chat=table.group)
    assert [batch["outs"][0]["op"] for batch in table.envelope()["owed"]] == ["send"]

    lambda_bot.advance(50)  # the first hop, with the welcome still owed
    lambda_bot.advance(120)  # the welcome's own timer sends it
    assert late.last_text() == table.t_for(late, "joined", group=isolate(table.title))
    while lambda_bot.clock() < opened + 3540:
        lambda_bot.advance(min(900, opened + 3540 - lambda_bot.clock()))
    # the hour is up: /extend can add nothing, so the reminder does not offer it
    assert table.group_texts()[-1] == table.t("lobby_remind_start_last", left=1, n=4)
    lambda_bot.seed = SEED
    lambda_bot.advance(60)
    assert table.data()["status"] == "playing"
    finish(table)


def test_a_5xx_is_tried_again_and_the_message_arrives(lambda_bot: LambdaBot) -> None:
    table = dealt(lambda_bot)
    seat = table.state.turn
    table.scout(seat, seat % 4 + 1)
    lambda_bot.fake.fail_next("sendMessage", status=502, chat_id=table.group)
    table.done(seat)
    assert turn_message_for(table, seat % 4 + 1)
    consistent(table)


def test_a_5xx_that_lasts_keeps_the_message_owed_until_a_timer_sends_it(
    lambda_bot: LambdaBot,
) -> None:
    table = dealt(lambda_bot)
    seat = table.state.turn
    table.scout(seat, seat % 4 + 1)
    lambda_bot.fake.fail_next("sendMessage", status=502, times=3, chat_id=table.group)
    table.done(seat)
    assert not turn_message_for(table, seat % 4 + 1)
    lambda_bot.advance(1)
    assert turn_message_for(table, seat % 4 + 1)
    consistent(table)
    finish(table)


def test_an_answer_slower_than_the_client_waits_is_tried_again(
    lambda_bot: LambdaBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    init = HTTPXRequest.__init__

    def quick(self, *args, **kwargs) -> None:  # the bot's client waits 0.5 s, not 5
        init(self, *args, **{**kwargs, "read_timeout": 0.5})

    monkeypatch.setattr(HTTPXRequest, "__init__", quick)
    table = dealt(lambda_bot)
    seat = table.state.turn
    table.scout(seat, seat % 4 + 1)
    lambda_bot.fake.delay_next("sendMessage", 0.8)
    table.done(seat)
    # The slow call went through after the client gave up; the one tried again did too. The
    # group may read the turn message twice, but reads it, and the game is where it should be.
    assert turn_message_for(table, seat % 4 + 1)
    assert table.state.turn == seat % 4 + 1
    consistent(table)
    finish(table)


def test_players_who_never_started_or_blocked_the_bot_are_named_and_skipped_in_time(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    # The host blocks the bot between Start's check and the deal: the card finds out.
    blocked = "Forbidden: bot was blocked by the user"
    lambda_bot.fake.fail_next(
        "sendMessage", status=403, description=blocked, times=5, chat_id=table.host.user
    )
    table.start(seed=SEED)
    lambda_bot.fake.block(table.host.user)
    host = table.seat_of(table.host)
    warning = f"⚠️ {table.seat_label(host)}: I can't send you private messages"
    assert any(text.startswith(warning) for text in table.group_texts())
    seat = table.state.turn
    nxt = next(s for s in (seat % 4 + 1, (seat + 1) % 4 + 1) if s != host)
    lambda_bot.fake.block(table.player_at(nxt).user)
    while table.state.turn != nxt:  # the seats before play on; the blocked one's turn comes
        turn = table.state.turn
        if turn == host:
            lambda_bot.advance(30)  # a turn whose prompt failed lasts 30 s
        else:
            table.scout_and_done(turn, nxt)
    (warning,) = [text for text in table.group_texts() if text.startswith("⚠️")]
    assert warning.startswith(f"⚠️ {table.seat_label(host)}") and table.seat_label(nxt) in warning
    lambda_bot.advance(30)
    assert table.state.turn == nxt % 4 + 1
    consistent(table)


def test_message_not_modified_counts_as_done(lambda_bot: LambdaBot) -> None:
    table = dealt(lambda_bot)
    seat = table.state.turn
    lambda_bot.fake.fail_next(
        "editMessageText", status=400, description=NOT_MODIFIED, chat_id=table.group
    )
    table.scout(seat, seat % 4 + 1)
    assert not lambda_bot.errors
    table.done(seat)
    assert turn_message_for(table, seat % 4 + 1)
    consistent(table)


def test_a_deleted_turn_message_is_posted_again_and_edited_from_then_on(
    lambda_bot: LambdaBot,
) -> None:
    table = dealt(lambda_bot)
    seat = table.state.turn
    board = table.board()
    with lambda_bot.fake._cond:  # an admin deletes the bot's turn message
        lambda_bot.fake.chats[table.chat].find(board.message_id).deleted = True
    table.scout(seat, seat % 4 + 1)
    again = table.board()
    assert again.message_id != board.message_id and not again.deleted
    assert (
        table.t("scouted_line", name=table.seat_label(seat), target=table.seat_label(seat % 4 + 1))
        in again.text
    )
    posts = len(table.group_messages())
    table.done(seat)  # edits the message posted again, then posts the next turn's
    assert len(table.group_messages()) == posts + 1
    assert "✅" in lambda_bot.fake.message(table.group, again.message_id).text
    for call in lambda_bot.fake.calls:  # the edit that found the message gone: not a mistake
        if call.params.get("message_id") == board.message_id and call.kind == "refused":
            call.kind = "error"
    assert turn_message_for(table, seat % 4 + 1)
    consistent(table)
    finish(table)


def test_bot_removed_from_the_group_mid_game_ends_it_and_tells_the_players(
    lambda_bot: LambdaBot,
) -> None:
    table = dealt(lambda_bot)
    lambda_bot.fake.kick_bot(table.group, by=table.host.user)
    lambda_bot.settle()
    data = table.data()
    assert data["status"] == "cancelled" and data["deadline"] is None
    for player in table.players:
        assert player.last_text().startswith("🛑 I was removed from \u2068Friday club\u2069")
    calls = len(lambda_bot.fake.calls)
    lambda_bot.advance(600)  # no timer is left to fire for it
    assert lambda_bot.fake.calls[calls:] == []


def test_bot_removed_without_word_ends_the_game_at_its_next_group_message(
    lambda_bot: LambdaBot,
) -> None:
    table = dealt(lambda_bot)
    lambda_bot.fake.kick_bot(table.group, by=table.host.user)
    lambda_bot.fake.next_updates()  # the news of it never reaches the bot
    lambda_bot.advance(90)  # the turn runs out; the group refuses the bot's message
    data = table.data()
    assert data["status"] == "cancelled" and data["deadline"] is None
    assert table.host.last_text().startswith("🛑 I was removed from \u2068Friday club\u2069")
    calls = len(lambda_bot.fake.calls)
    lambda_bot.advance(600)
    assert [c for c in lambda_bot.fake.calls[calls:] if c.method == "sendMessage"] == []


def test_group_upgraded_before_the_bot_hears_of_it_moves_the_game_and_its_message(
    lambda_bot: LambdaBot,
) -> None:
    table = dealt(lambda_bot)
    seat = table.state.turn
    old = table.chat
    new = lambda_bot.fake.migrate(table.group)
    lambda_bot.fake.next_updates()  # the service messages arrive late, or never
    lambda_bot.advance(90)  # the turn runs out: the old chat refuses, naming the new one
    table.group = lambda_bot.fake.chats[new]
    table.groups.append(table.group)
    for player in table.players:
        player.group = table.group
    assert table.data()["chat"] == new
    assert turn_message_for(table, seat % 4 + 1)
    assert table.t("skipped_line", name=table.seat_label(seat)) in "\n".join(table.group_texts())
    assert lambda_bot.store.load(f"game#{old}").data["moved_to"] == new
    consistent(table)
    finish(table)
    assert table.ending().chat_id == new
