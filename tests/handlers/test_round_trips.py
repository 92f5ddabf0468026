"""What an update costs in round trips: DynamoDB calls, and Telegram calls on a cold start."""

from __future__ import annotations

import json
import re

import pytest

from handlers.entry import lambda_webhook as lambda_entry
from testing.drivers import LambdaBot
from testing.fake_telegram import BOT_USERNAME
from testing.players import Table


def test_a_move_reads_its_table_once(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=51)
    player = table.player_at(state.first)
    target = table.seat_label(state.first % 4 + 1)
    store = lambda_bot.store
    reads, writes = store.reads, store.writes
    player.press(table.t("btn_scout"))  # opens a menu: changes no game
    assert (store.reads - reads, store.writes - writes) == (1, 0)
    reads, writes = store.reads, store.writes
    player.press(target)  # the change, then the new message ids and delivery marked
    assert (store.reads - reads, store.writes - writes) == (1, 2)


def test_a_press_is_answered_before_the_change_is_marked_delivered(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=51)
    player = table.player_at(state.first)
    player.press(table.t("btn_scout"))
    target = table.seat_label(state.first % 4 + 1)
    mark = len(lambda_bot.fake.calls)
    player.press(target)
    methods = [call.method for call in lambda_bot.fake.calls[mark:]]
    # The answer goes out with the change's first messages, not after all of them.
    assert methods.index("answerCallbackQuery") < len(methods) - 1


def test_with_the_username_configured_a_cold_start_asks_telegram_nothing(
    lambda_bot: LambdaBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOT_USERNAME", BOT_USERNAME)
    table = Table.of(lambda_bot, 4)
    table.open()
    assert lambda_bot.fake.calls_to("getMe") == []
    join = table.lobby_message().button(table.t("btn_join")).url
    assert join.startswith(f"https://t.me/{BOT_USERNAME}?start=")
    assert len(table.data()["players"]) == 4


def test_start_posts_the_first_turn_and_the_cards_alongside_the_seating_edit(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 6)
    table.open()
    fake = lambda_bot.fake
    fake.delay_next("editMessageText", 1.0)  # the lobby message turning into the seating
    mark = len(fake.calls)
    table.start(seed=51)
    calls = fake.calls[mark:]
    edit = next(c for c in calls if c.method == "editMessageText")
    sent = [c for c in calls if c.method == "sendMessage"]
    to_group = [c for c in sent if int(c.params["chat_id"]) == table.chat]
    # One new group message (the first turn); it and the cards did not wait for the edit.
    assert len(to_group) == 1
    assert re.sub("<[^>]+>", "", to_group[0].params["text"]) == table.board().text
    assert all(c.time < edit.answered for c in sent)
    assert edit.params["message_id"] == table.ids().lobby
    assert table.lobby_message().text.startswith(table.t("seating_title")[:8])


def test_start_posts_the_seating_anew_when_the_lobby_message_is_gone(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    lobby = table.lobby_message()
    # Deleted by an admin as Start was pressed: Telegram cannot edit it any more.
    lambda_bot.fake.fail_next(
        "editMessageText", status=400, description="Bad Request: message to edit not found"
    )
    state = table.start(seed=51)
    seating = [m for m in table.group_messages() if m.text.startswith("🎲 The game begins.")]
    assert len(seating) == 1
    assert table.t("starts", name=table.seat_label(state.first)) in seating[0].text
    # The turn message is still the one the game edits; the seating is remembered by nobody.
    assert table.ids().board == table.board().message_id != seating[0].message_id
    assert table.ids().lobby == lobby.message_id


def test_start_reads_its_table_once_and_writes_no_pointers(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 6, bot_admin=True)
    lambda_bot.fake.set_bot_admin(table.group, True)
    lambda_bot.settle()
    table.open()
    store, lobby, start = lambda_bot.store, table.lobby_message(), table.t("btn_start")
    lambda_bot.seed = 51
    reads, writes, asked = store.reads, store.writes, len(lambda_bot.fake.calls)
    assert table.host.press(start, lobby) is None
    # The change, then the new message ids and the delivery marked; joiners were pointed at
    # the game when they joined, the host when the lobby opened.
    assert (store.reads - reads, store.writes - writes) == (1, 2)
    assert [c for c in lambda_bot.fake.calls[asked:] if c.method == "getChatMember"] == []


def test_a_join_reads_the_table_once_when_nobody_joins_at_the_same_moment(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open(table.players[1:3])
    store, lobby, player = lambda_bot.store, table.lobby_message(), table.players[3]
    reads, asked = store.reads, len(lambda_bot.fake.calls)
    player.press(table.t("btn_join"), message=lobby, chat=table.group)
    # The table and the player's pointer in one call; the lobby message needs no second look,
    # as the delivery mark found the table as the join had left it.
    assert store.reads - reads == 1
    # One question to Telegram: is the joiner in the group?
    methods = [c.method for c in lambda_bot.fake.calls[asked:]]
    assert methods.count("getChatMember") == 1
    assert player.name in table.lobby_message().text


def test_opening_a_lobby_reads_the_table_settings_and_pointer_in_one_call(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    store = lambda_bot.store
    reads = store.reads
    table.host.say("/newgame")
    assert store.reads - reads == 1
    assert table.data()["status"] == "lobby"
    assert lambda_bot.store.load(f"user#{table.host.id}").data["chats"] == [table.chat]


def test_a_settings_press_reads_the_table_and_the_groups_defaults_in_one_call(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    assert table.host.press(table.t("btn_settings"), table.lobby_message()) is None
    store, menu = lambda_bot.store, table.lobby_message()
    spy = next(b.text for row in menu.buttons for b in row if b.callback_data.endswith("t:spy"))
    reads, writes = store.reads, store.writes
    assert table.host.press(spy, menu) is None
    # The change, its delivery mark, and the group's saved defaults.
    assert (store.reads - reads, store.writes - writes) == (1, 3)
    assert store.load(f"prefs#{table.chat}").data["settings"]["spy"] is True


def test_news_of_the_bots_rights_reads_the_table_and_the_groups_record_in_one_call(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    store = lambda_bot.store
    reads = store.reads
    lambda_bot.fake.set_bot_admin(table.group, True)
    lambda_bot.settle()
    assert store.reads - reads == 1
    assert table.data()["bot_can_delete"] is True


def written_keys(bot: LambdaBot) -> list[list[str]]:
    """The keys of every write call the bot's store makes from now on (below its read cache),
    one list a call: a save's key, or a transaction's keys."""
    backend = bot.store.backend
    calls: list[list[str]] = []
    save, save_all, delete = backend.save, backend.save_all, backend.delete

    def saving(item):
        calls.append([item.key])
        return save(item)

    def saving_all(items):
        calls.append([item.key for item in items])
        return save_all(items)

    def deleting(key, version):
        calls.append([key])
        return delete(key, version)

    backend.save, backend.save_all, backend.delete = saving, saving_all, deleting
    return calls


def stats_written(calls: list[list[str]]) -> list[str]:
    return [key for call in calls for key in call if key.startswith("stats#")]


def test_no_update_but_the_end_writes_stats(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4)
    calls = written_keys(lambda_bot)
    table.open()
    state = table.start(seed=51)
    table.scout_and_done(state.first, state.first % 4 + 1)
    lambda_bot.advance(90)  # a turn runs out
    table.host.say("/status")
    table.host.say("/stats")
    seat = table.state.turn
    player = table.player_at(seat)
    player.press(table.t("btn_decapitate"))
    player.press(table.seat_label(seat % 4 + 1))
    assert stats_written(calls) == []
    store, mark = lambda_bot.store, len(calls)
    reads, writes = store.reads, store.writes

    player.press(table.t("btn_confirm"))  # the end

    # Reads: the table, then the statistics items and the group's history together. Writes: one
    # transaction (the table, the statistics of the group and of each player, the game kept in
    # the group's history), then the delivery marked.
    assert (store.reads - reads, store.writes - writes) == (2, 2)
    assert table.ending() is not None
    game, users = f"game#{table.chat}", [f"stats#user#{u}" for u in table.data()["seats"]]
    kept = f"history#{table.chat}"
    assert calls[mark:] == [[game, f"stats#group#{table.chat}", *users, kept], [game]]
    mark = len(calls)
    table.host.say("/stats")
    player.private("/stats")
    table.host.press(table.t("btn_play_again"), table.ending())
    lambda_bot.advance(3600)
    assert stats_written(calls[mark:]) == []


def test_stats_in_a_group_reads_the_table_and_the_statistics_in_one_call(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    store = lambda_bot.store
    reads, writes = store.reads, store.writes
    table.players[2].say("/stats")
    assert (store.reads - reads, store.writes - writes) == (1, 0)
    assert table.group_texts()[-1] == table.t("stats_none")


def keys_read(store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The keys `store` loads from now on, one entry a load (SQLite reads key by key)."""
    read: list[str] = []
    load = store.load

    def counted(key: str):
        read.append(key)
        return load(key)

    monkeypatch.setattr(store, "load", counted)
    return read


def test_without_a_read_cache_opening_a_lobby_reads_each_record_once(
    local_bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The group's settings, its waiting list and the host's pointer come with the table in the
    one read, and the pointer's write goes over it: nothing is read a second time."""
    table = Table.of(local_bot, 4)
    store = local_bot.store
    read = keys_read(store, monkeypatch)
    table.host.say("/newgame")
    read = list(read)
    assert sorted(read) == sorted(set(read)), read
    assert table.data()["status"] == "lobby"
    assert store.load(f"user#{table.host.id}").data["chats"] == [table.chat]


def test_without_a_read_cache_a_join_reads_each_record_once(
    local_bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.of(local_bot, 4)
    table.open(table.players[1:3])
    store, lobby, player = local_bot.store, table.lobby_message(), table.players[3]
    read = keys_read(store, monkeypatch)
    player.press(table.t("btn_join"), message=lobby, chat=table.group)
    read = list(read)
    assert sorted(read) == sorted([f"game#{table.chat}", f"user#{player.id}"]), read
    assert store.load(f"user#{player.id}").data["chats"] == [table.chat]


def timers_for(chat: int, *dues: float) -> dict:
    """An SQS batch carrying timers for one group, one a deadline."""
    bodies = [json.dumps({"chat": chat, "due": due}) for due in dues]
    return {"Records": [{"messageId": f"m{i}", "body": b} for i, b in enumerate(bodies)]}


def test_a_batch_of_timers_for_one_group_reads_its_table_once(lambda_bot: LambdaBot) -> None:
    """SQS cannot take a timer back: a group's turn set again and again leaves several timers,
    which may arrive together. The group is woken once for them all."""
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=51)
    deadline = table.data()["deadline"]
    lambda_bot.due_timers()  # the timers the bot set: this test delivers its own
    lambda_bot.clock.now = deadline
    store = lambda_bot.store
    reads = store.reads
    batch = timers_for(table.chat, deadline, deadline - 20, deadline, deadline - 20)
    assert lambda_entry.timer(batch) == {"batchItemFailures": []}
    assert store.reads - reads == 1
    assert table.state.turn != state.first, "the turn that ran out passed"


def test_a_hop_delivered_beside_a_stale_timer_hops_on(lambda_bot: LambdaBot) -> None:
    """A lobby an hour long is woken in hops; a hop that arrives in one batch with a timer for
    a time since replaced is set again all the same, and the lobby deals at its end."""
    table = Table.of(lambda_bot, 4)
    table.open()
    for _ in range(30):
        table.players[1].say("/extend")
    opened, deadline = table.data()["opened"], table.data()["deadline"]
    assert deadline == opened + 3600
    lambda_bot.clock.now = opened + 900
    # The timers SQS would deliver now (the hop among them), delivered by the test, after one
    # for a time since replaced.
    dues = [json.loads(body)["due"] for body in lambda_bot.due_timers()]
    assert dues and max(dues) > opened + 900
    batch = timers_for(table.chat, opened + 1, *dues)
    assert lambda_entry.timer(batch) == {"batchItemFailures": []}
    lambda_bot.seed = 51
    while lambda_bot.clock() < deadline:
        lambda_bot.advance(min(900, deadline - lambda_bot.clock()))
    assert table.data()["status"] == "playing"


def test_without_a_read_cache_a_settings_change_reads_each_record_once(
    local_bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A switch pressed in Settings saves the group's settings as its defaults: the saved ones
    come with the table in the press's one read, not in a second one."""
    table = Table.of(local_bot, 4)
    table.open()
    assert table.host.press(table.t("btn_settings"), table.lobby_message()) is None
    menu = table.lobby_message()
    switch = next(b.text for row in menu.buttons for b in row if "|t:" in b.callback_data)
    read = keys_read(local_bot.store, monkeypatch)
    assert table.host.press(switch, menu) is None
    read = list(read)
    assert sorted(read) == sorted(set(read)), read
    assert local_bot.store.load(f"prefs#{table.chat}").data["settings"] == table.data()["settings"]


def test_without_a_read_cache_stats_in_a_group_reads_each_record_once(
    local_bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.of(local_bot, 4)
    table.open()
    read = keys_read(local_bot.store, monkeypatch)
    table.players[2].say("/stats")
    read = list(read)
    assert sorted(read) == sorted(set(read)), read
    assert table.group_texts()[-1] == table.t("stats_none")


def test_without_a_read_cache_play_again_reads_each_record_once(
    local_bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play again opens the next lobby from what the press's one read brought: the group's
    saved settings and the presser's pointer are not read again."""
    table = Table.of(local_bot, 4)
    table.open()
    table.start(seed=51)
    table.host.say("/cancel")
    message = table.group_messages()[-1]
    read = keys_read(local_bot.store, monkeypatch)
    assert table.players[3].press(table.t("btn_play_again"), message) is None
    read = list(read)
    assert sorted(read) == sorted(set(read)), read
    assert table.data()["status"] == "lobby"
