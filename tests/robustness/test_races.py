"""Up to twenty presses for one game at the same moment, each handled by its own Lambda instance
against one DynamoDB: the game ends as if the accepted presses had come one after another,
every press is answered once, and no write is lost or overwritten (the group's message too
shows the final state)."""

from __future__ import annotations

import json

from engine.codec import state_from_dict
from handlers.entry import lambda_webhook as lambda_entry
from handlers.session.settings import CHOICES, DEFAULT_SETTINGS, SETTING_KEYS
from testing.instances import PoolBot, timer_event, webhook_event
from testing.players import NAMES, Table


def raw_data(where: str, chat: int, game: int, version: int, arg: str) -> str:
    """Callback data as any client may send it, whatever the bot's buttons say."""
    return f"{where}|{chat}|{game}|{version}|{arg}"


FULL = "The game is full (12 players)."
TOO_LATE = "Too late: the game has moved on."
MORE_NAMES = (*NAMES, "Mia", "Ned", "Oli", "Pat", "Quinn", "Rae", "Sam", "Tia")


def answered_once(bot: PoolBot, updates: list[dict]) -> list[str | None]:
    """The one answer each press got (AssertionError if a press got none, or several)."""
    texts = []
    for update in updates:
        query = update["callback_query"]["id"]
        answers = [a for a in bot.fake.callback_answers if a.query_id == query]
        assert len(answers) == 1, (update["callback_query"]["data"], answers)
        texts.append(answers[0].text)
    return texts


def all_at_once(bot: PoolBot, events: list[dict], timer: dict | None = None) -> None:
    """Each event to its own instance at the same moment; a 503 (another instance is still
    sending what the update owes) is delivered again, as Telegram would."""
    calls = [lambda e=e: lambda_entry.webhook(e) for e in events]
    if timer is not None:
        calls.append(lambda: lambda_entry.timer(timer))
    results = bot.instances.at_once(calls)
    for event, result in zip(events, results, strict=False):
        assert isinstance(result, dict), result
        assert result["statusCode"] in (200, 503), result
        if result["statusCode"] != 200:
            bot.post(json.loads(event["body"]))
    if timer is not None:
        assert results[-1] == {"batchItemFailures": []}


def test_twenty_join_at_once_twelve_are_seated_and_the_rest_are_told_it_is_full(
    pool_bot: PoolBot,
) -> None:
    table = Table.of(pool_bot, 20, names=MORE_NAMES)
    table.host.say("/newgame")
    url = table.lobby_message().button(table.t("btn_join")).url
    joiners = table.players[1:]
    updates = [pool_bot.fake.open_deep_link(p.user, url) for p in joiners]
    pool_bot.fake.next_updates()
    all_at_once(pool_bot, [webhook_event(u) for u in updates])

    seated = [
        p for p in joiners if p.last_text() == table.t("joined", group="\u2068Friday club\u2069")
    ]
    full = [p for p in joiners if p.last_text() == FULL]
    assert len(seated) == 11 and len(full) == 8
    assert all(len(p.texts()) == 1 for p in joiners)  # one answer each
    players = table.data()["players"]
    assert sorted(uid for uid, _ in players) == sorted(p.id for p in [table.host, *seated])
    lobby = table.lobby_message().text
    assert "Players (12/12):" in lobby
    assert all(f"• \u2068{p.name}\u2069" in lobby for p in [table.host, *seated])
    assert table.envelope().get("owed", []) == []


def test_twenty_setting_presses_at_once_all_apply_and_the_menu_shows_them_all(
    pool_bot: PoolBot,
) -> None:
    table = Table.of(pool_bot, 4)
    table.open()
    table.host.press(table.t("btn_settings"), table.lobby_message())
    menu = table.lobby_message()
    toggles = [f"t:{key}" for key in SETTING_KEYS if key not in CHOICES]
    presses = [*toggles, "v:virtual_players:2", "v:speak_seconds:45", "v:spy_seconds:30"]
    presses += ["v:turn_seconds:120"] * (20 - len(presses))
    updates = [
        pool_bot.fake.press(
            table.host.user,
            table.group,
            menu.message_id,
            callback_data=raw_data("l", table.chat, table.data()["game"], 0, arg),
        )
        for arg in presses
    ]
    pool_bot.fake.next_updates()
    all_at_once(pool_bot, [webhook_event(u) for u in updates])

    assert answered_once(pool_bot, updates) == [None] * len(updates)
    settings = table.data()["settings"]
    for key in SETTING_KEYS:
        if isinstance(DEFAULT_SETTINGS[key], bool):
            assert settings[key] is not DEFAULT_SETTINGS[key], key
    assert settings["virtual_players"] == 2 and settings["turn_seconds"] == 120
    assert settings["speak_seconds"] == 45 and settings["spy_seconds"] == 30
    defaults = pool_bot.store.load(f"prefs#{table.chat}").data  # saved for the next game
    assert defaults["settings"] == settings
    shown = table.lobby_message()
    assert shown.button_labels[:4] == [table.t("head_virtual_players"), "0", "1", "✓ 2"]
    assert table.t("set_spy", v=table.t("on")) in shown.button_labels
    assert "✓ 120 s" in shown.button_labels and "✓ 45 s" in shown.button_labels


def test_twenty_presses_in_a_game_at_once_one_move_is_made_and_each_is_answered(
    pool_bot: PoolBot,
) -> None:
    table = Table.of(pool_bot, 12, names=MORE_NAMES)
    table.open()
    state = table.start(seed=97)
    seat = state.turn
    player = table.player_at(seat)
    player.press(table.t("btn_scout"))
    keyboard = player.prompt()
    before = table.data()
    board = table.board()
    targets = [s for s in range(1, 13) if s != seat][:8]
    updates = [
        pool_bot.fake.press(player.user, player.user, keyboard.message_id, table.seat_label(s))
        for s in targets
    ]
    others = [p for p in table.players if p is not player][:10]
    updates += [
        pool_bot.fake.press(p.user, table.group, board.message_id, table.t("btn_my_card"))
        for p in others
    ]
    forged = raw_data("g", table.chat, table.data()["game"], state.version, "e")
    updates += [
        pool_bot.fake.press(p.user, p.user, p.messages()[-1].message_id, callback_data=forged)
        for p in others[:1]
    ]
    pool_bot.fake.next_updates()
    assert len(updates) == 19  # and the timer makes twenty
    pool_bot.clock.advance(90)  # the turn's time runs out as they press
    timer = timer_event(table.chat, before["deadline"])
    all_at_once(pool_bot, [webhook_event(u) for u in updates], timer)

    answers = answered_once(pool_bot, updates)
    scouts = answers[: len(targets)]
    after = state_from_dict(table.data()["engine"])
    moves = after.log[len(state_from_dict(before["engine"]).log) :]
    assert len(moves) == 1  # one move: a scout, or the turn running out
    move = moves[0]
    if move.act == "scout":
        assert sorted(scouts, key=str) == sorted([None] + [TOO_LATE] * (len(targets) - 1), key=str)
        scouted = table.t(
            "scouted_line", name=table.seat_label(seat), target=table.seat_label(move.target)
        )
        assert scouted in table.board().text
    else:
        assert move.act == "timeout" and scouts == [TOO_LATE] * len(targets)
        assert after.turn == seat % 12 + 1 or after.turn != seat
    assert all(a and a.startswith("🃏") for a in answers[len(targets) : len(targets) + 10])
    assert all(a for a in answers[-1:])
    assert table.envelope().get("owed", []) == []
