"""A group's finished games: the Record button on the end message sends the game's
`decapitation/1` record privately to whoever presses it, and it replays to the result the group
saw; /history lists the last ten games with their records; nothing of a game in play shows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.__main__ import replay_command
from handlers.display import presses
from handlers.display.texts import colour_name
from handlers.storage.history import GAMES_KEPT
from handlers.storage.keys import history_key
from testing.drivers import Bot
from testing.fake_telegram import NOT_MODIFIED, FakeMessage
from testing.players import Player, Table

LANGS = ["en", "zh"]


def finish(table: Table, seed: int = 51) -> str:
    """A lobby opened (or taken as open), dealt, and ended by the first player's decapitation of
    the next seat; the winning colour."""
    state = table.start(seed)
    table.decapitate(state.first, state.first % len(table.players) + 1)
    return table.data()["engine"] and winner_of(table)


def winner_of(table: Table) -> str:
    """The colour the group's end message names."""
    text = table.ending().text
    for colour in ("red", "blue"):
        if text.startswith(table.t("end_title", colour=colour_name(table.lang, colour))):
            return colour
    raise AssertionError(f"no winner in {text!r}")


def documents(player: Player) -> list[FakeMessage]:
    return [m for m in player.fake.chat(player.user) if m.document is not None]


def replayed(document: FakeMessage, tmp_path: Path, capsys: pytest.CaptureFixture) -> dict:
    """What `python -m engine replay` prints for the downloaded file."""
    path = tmp_path / (document.document.file_name or "record.json")
    path.write_bytes(document.document.data)
    capsys.readouterr()
    assert replay_command(str(path)) == 0
    return json.loads(capsys.readouterr().out)


def group_documents(table: Table) -> list[FakeMessage]:
    return [m for m in table.fake.chat(table.group) if m.document is not None]


@pytest.mark.parametrize("lang", LANGS)
def test_the_end_offers_a_record_that_replays_to_the_same_result(
    memory_bot: Bot, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    winner = finish(table)
    ending = table.ending()
    assert table.t("btn_record") in ending.button_labels
    player = table.players[2]
    assert player.press(table.t("btn_record"), ending) == table.t_for(player, "record_sent")
    (document,) = documents(player)
    assert document.document.file_name.endswith(".json")
    assert "python" not in document.caption  # the command is in docs/records.md
    result = replayed(document, tmp_path, capsys)
    assert result["finished"] is True and result["winner"] == winner
    state = table.state
    assert result["cards"] == {str(s): c for s, c in enumerate(state.cards, 1)}


def record_texts(player: Player, seen: int) -> list[str]:
    """The presser's private text messages that came with the record (after `seen`)."""
    return [m.text or "" for m in player.messages()[seen:] if m.document is None]


@pytest.mark.parametrize("lang", LANGS)
def test_the_record_reads_as_the_reveal_and_the_whole_timeline(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    state = table.start(51)
    scouts = 18  # more than the end message's timeline shows
    for _ in range(scouts):
        turn = table.state.turn
        table.scout_and_done(turn, turn % 4 + 1)
    turn = table.state.turn
    table.decapitate(turn, turn % 4 + 1)
    ending = table.ending()
    onlooker = table.member()
    seen = len(onlooker.messages())
    onlooker.press(table.t("btn_record"), ending)
    texts = record_texts(onlooker, seen)
    assert texts and all(len(text) <= 4096 for text in texts)
    whole = "\n".join(texts)
    reveal = ending.text.split(table.t("timeline"))[0]
    for line in reveal.splitlines():
        if line and not line.startswith("⏱"):
            assert line in whole, line
    timeline = whole.split(table.t("timeline"))[1].splitlines()
    assert len([line for line in timeline if line.startswith("🔍")]) == scouts
    assert state.first  # the game was dealt as seeded
    (document,) = documents(onlooker)
    assert document.caption and "python" not in document.caption


@pytest.mark.parametrize("lang", LANGS)
def test_a_cancelled_game_offers_its_record_as_it_stood(
    memory_bot: Bot, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    state = table.start(51)
    table.scout(state.first, state.first % 4 + 1)
    table.host.say("/cancel")
    cancelled = table.group_messages()[-1]
    assert cancelled.button_labels[-2:] == [table.t("btn_record"), table.t("btn_next_game")]
    assert table.host.press(table.t("btn_record"), cancelled) == table.t("record_sent")
    result = replayed(documents(table.host)[-1], tmp_path, capsys)
    assert result["finished"] is False


@pytest.mark.parametrize("lang", LANGS)
def test_the_record_reaches_the_presser_privately_not_the_group(
    memory_bot: Bot, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    winner = finish(table)
    onlooker = table.member()
    stranger = table.member("Yan", started=False)
    ending = table.ending()
    assert onlooker.press(table.t("btn_record"), ending) == table.t("record_sent")
    assert len(documents(onlooker)) == 1
    assert group_documents(table) == []
    assert all(documents(p) == [] for p in table.players)
    # Someone who never opened the bot's chat is sent there, and gets the record on Start.
    update = stranger.bot.act(
        lambda: stranger.fake.press(
            stranger.user, table.group, ending.message_id, table.t("btn_record")
        )
    )
    answer = next(
        a for a in table.fake.callback_answers if a.query_id == update["callback_query"]["id"]
    )
    assert answer.text == table.t("open_chat_first")
    assert answer.url.startswith(f"https://t.me/{table.fake.bot_username}?start=r")
    stranger.open_link(answer.url)
    (document,) = documents(stranger)
    assert replayed(document, tmp_path, capsys)["winner"] == winner
    assert group_documents(table) == []


@pytest.mark.parametrize("lang", LANGS)
def test_there_is_no_record_button_before_the_end(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    assert table.t("btn_record") not in table.lobby_message().button_labels
    state = table.start(51)
    table.scout_and_done(state.first, state.first % 4 + 1)
    for message in [*table.group_messages(), *(m for p in table.players for m in p.messages())]:
        assert table.t("btn_record") not in message.button_labels
    # A forged press for the game in play finds no record.
    data = presses.encode(
        presses.Button(presses.RECORDS, table.chat, table.data()["game"], 0, presses.SendRecord())
    )
    answer = table.players[1].press_data(data, table.board())
    assert answer == table.t("record_gone")
    assert documents(table.players[1]) == []


@pytest.mark.parametrize("lang", LANGS)
def test_history_lists_the_last_ten_games_with_their_records(
    memory_bot: Bot, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    winners = [finish(table, seed=50)]
    for n in range(1, GAMES_KEPT + 1):
        memory_bot.advance(60)
        assert table.host.press(table.t("btn_play_again"), table.ending()) is None
        winners.append(finish(table, seed=50 + n))
    onlooker = table.member()
    onlooker.say("/history")
    listing = table.group_messages()[-1]
    lines = listing.text.splitlines()
    assert lines[0] == table.t("history_title")
    shown = lines[1 : 1 + GAMES_KEPT]
    assert [line.split(".")[0] for line in shown] == [str(n) for n in range(1, GAMES_KEPT + 1)]
    newest_first = list(reversed(winners))[:GAMES_KEPT]
    for line, winner in zip(shown, newest_first, strict=True):
        assert line.endswith(table.t("history_won", colour=colour_name(lang, winner)))
        assert "Ann" in line and "Dan" in line
    labels = [table.t("btn_record_n", n=n) for n in range(1, GAMES_KEPT + 1)]
    assert listing.button_labels == labels
    assert onlooker.press(labels[0], listing) == table.t("record_sent")
    assert replayed(documents(onlooker)[-1], tmp_path, capsys)["winner"] == winners[-1]
    assert onlooker.press(labels[-1], listing) == table.t("record_sent")
    assert replayed(documents(onlooker)[-1], tmp_path, capsys)["winner"] == winners[1]


@pytest.mark.parametrize("lang", LANGS)
def test_history_says_when_there_is_none(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.host.say("/history")
    assert table.group_texts()[-1] == table.t("history_none")


def test_a_redelivered_end_adds_the_game_to_history_once(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    state = table.start(51)
    seat, target = state.first, state.first % 4 + 1
    player = table.player_at(seat)
    player.press(table.t("btn_decapitate"))
    player.press(table.seat_label(target))
    update = memory_bot.act(
        lambda: memory_bot.fake.press(
            player.user, player.user, player.prompt().message_id, table.t("btn_confirm")
        )
    )
    ends = len([m for m in table.group_messages() if m.text.startswith("🏁")])
    memory_bot.redeliver(update)
    assert len([m for m in table.group_messages() if m.text.startswith("🏁")]) == ends == 1
    games = memory_bot.store.load(history_key(table.chat)).data["games"]
    assert [g["game"] for g in games] == [table.data()["game"]]


def test_a_redelivered_end_adds_the_game_to_history_once_when_its_end_is_sent_again(
    memory_bot: Bot,
) -> None:
    """The run that ended the game died before marking its end message delivered: the update
    comes again, its end message goes out again, and the game is still kept once."""
    from handlers.storage.keeper import LEASE, Keeper

    table = Table.of(memory_bot, 4)
    table.open()
    state = table.start(51)
    seat, target = state.first, state.first % 4 + 1
    player = table.player_at(seat)
    player.press(table.t("btn_decapitate"))
    player.press(table.seat_label(target))
    remember = Keeper.acknowledge
    died = []

    def dying(self, *args, **kwargs):
        if not died:
            died.append(True)
            return False  # as if the run died before marking its messages delivered
        return remember(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Keeper, "acknowledge", dying)
        update = memory_bot.act(
            lambda: memory_bot.fake.press(
                player.user, player.user, player.prompt().message_id, table.t("btn_confirm")
            )
        )
    assert table.envelope()["owed"]
    memory_bot.clock.advance(LEASE)
    mark = len(memory_bot.fake.calls)
    memory_bot.redeliver(update)
    for call in memory_bot.fake.calls[mark:]:  # edits sent again find their messages done
        if call.kind == "refused" and call.description == NOT_MODIFIED:
            call.kind = "error"
    assert not table.envelope().get("owed")
    ends = [m for m in table.group_messages() if m.text.startswith("🏁")]
    assert len(ends) == 2  # the end went out again, at least once as promised
    games = memory_bot.store.load(history_key(table.chat)).data["games"]
    assert [g["game"] for g in games] == [table.data()["game"]]


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_in_play_is_not_in_history(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    first = finish(table)
    memory_bot.advance(60)
    assert table.host.press(table.t("btn_play_again"), table.ending()) is None
    state = table.start(52)
    table.scout(state.first, state.first % 4 + 1)
    onlooker = table.member()
    onlooker.say("/history")
    listing = table.group_messages()[-1]
    lines = [line for line in listing.text.splitlines() if line[:2] in ("1.", "2.")]
    assert len(lines) == 1
    assert lines[0].endswith(table.t("history_won", colour=colour_name(lang, first)))
    assert listing.button_labels == [table.t("btn_record_n", n=1)]
    data = presses.encode(
        presses.Button(presses.RECORDS, table.chat, table.data()["game"], 0, presses.SendRecord())
    )
    assert onlooker.press_data(data, listing) == table.t("record_gone")
    assert documents(onlooker) == []


def test_forget_takes_a_player_s_name_out_of_the_kept_games(
    memory_bot: Bot, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    winner = finish(table)
    ben = table.players[1]
    ben.private("/forget")
    onlooker = table.member()
    onlooker.say("/history")
    listing = table.group_messages()[-1]
    assert "Ben" not in listing.text and "Ann" in listing.text
    onlooker.press(table.t("btn_record_n", n=1), listing)
    document = documents(onlooker)[-1]
    names = [seat["name"] for seat in json.loads(document.document.data)["seats"]]
    assert "Ben" not in names and "—" in names
    assert replayed(document, tmp_path, capsys)["winner"] == winner


def date_times(message: FakeMessage) -> list[int]:
    """The moments a message shows as date-time entities (each reader's app in their zone)."""
    return [e["unix_time"] for e in message.entities if e["type"] == "date_time"]


@pytest.mark.parametrize("lang", LANGS)
def test_history_and_the_record_show_when_a_game_was_dealt_in_each_readers_time_zone(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    finish(table)
    (entry,) = memory_bot.store.load(history_key(table.chat)).data["games"]
    onlooker = table.member()
    onlooker.say("/history")
    assert date_times(table.group_messages()[-1]) == [entry["at"]]
    seen = len(onlooker.messages())
    onlooker.press(table.t("btn_record"), table.ending())
    title, *_ = [m for m in onlooker.messages()[seen:] if m.document is None]
    assert date_times(title) == [entry["at"]]
    (document,) = documents(onlooker)
    assert date_times(document) == [entry["at"]]


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_shorter_than_a_minute_reads_its_length_in_seconds(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    state = table.start(51)
    memory_bot.advance(24)
    table.decapitate(state.first, state.first % 4 + 1)
    length = next(line for line in table.ending().text.splitlines() if line.startswith("⏱"))
    assert length == table.t("end_length", length=table.t("duration_s", s=24), turns=1)
    assert "0" not in length  # no "0 min"
