"""Moments of a game, each ending in one update a test can deliver as often as it likes, and a
transcript of what the bot told whom that two games can be compared by."""

from __future__ import annotations

from collections.abc import Callable

from testing.drivers import Bot
from testing.players import Table

SEED = 61


def _press(table: Table, player, label: str, message=None, chat=None) -> dict:
    message = message or player.prompt()
    where = chat if chat is not None else message.chat_id
    return table.fake.press(player.user, where, message.message_id, label)


def newgame(bot: Bot) -> tuple[Table, Callable[[], dict]]:
    table = Table.of(bot, 4)
    return table, lambda: table.fake.send_text(table.host.user, table.group, "/newgame")


def join(bot: Bot) -> tuple[Table, Callable[[], dict]]:
    table = Table.of(bot, 4)
    table.open(table.players[1:3])
    url = table.lobby_message().button(table.t("btn_join")).url
    return table, lambda: table.fake.open_deep_link(table.players[3].user, url)


def setting(bot: Bot) -> tuple[Table, Callable[[], dict]]:
    table = Table.of(bot, 4)
    table.open()
    table.host.press(table.t("btn_settings"), table.lobby_message())
    label = table.t("set_spy", v=table.t("off"))
    return table, lambda: _press(table, table.host, label, table.lobby_message(), table.group)


def start(bot: Bot) -> tuple[Table, Callable[[], dict]]:
    table = Table.of(bot, 4)
    table.open()
    bot.seed = SEED
    label = table.t("btn_start")
    return table, lambda: _press(table, table.host, label, table.lobby_message(), table.group)


def _dealt(bot: Bot) -> Table:
    table = Table.of(bot, 4)
    table.open()
    table.start(seed=SEED)
    return table


def scout(bot: Bot) -> tuple[Table, Callable[[], dict]]:
    table = _dealt(bot)
    seat = table.state.turn
    player = table.player_at(seat)
    player.press(table.t("btn_scout"))
    label = table.seat_label(seat % 4 + 1)
    return table, lambda: _press(table, player, label)


def done(bot: Bot) -> tuple[Table, Callable[[], dict]]:
    table = _dealt(bot)
    seat = table.state.turn
    table.scout(seat, seat % 4 + 1)
    player = table.player_at(seat)
    return table, lambda: _press(table, player, table.t("btn_done"))


def decapitate(bot: Bot) -> tuple[Table, Callable[[], dict]]:
    table = _dealt(bot)
    seat = table.state.turn
    player = table.player_at(seat)
    player.press(table.t("btn_decapitate"))
    player.press(table.seat_label(seat % 4 + 1))
    return table, lambda: _press(table, player, table.t("btn_confirm"))


def cancel(bot: Bot) -> tuple[Table, Callable[[], dict]]:
    table = _dealt(bot)
    return table, lambda: table.fake.send_text(table.host.user, table.group, "/cancel")


def leave(bot: Bot) -> tuple[Table, Callable[[], dict]]:
    """The player whose turn it is confirms /leave, asked privately: their turn passes."""
    table = _dealt(bot)
    player = table.player_at(table.state.turn)
    player.private("/leave")
    asked = player.messages()[-1]
    return table, lambda: _press(table, player, table.t("btn_leave_game"), asked)


def language(bot: Bot) -> tuple[Table, Callable[[], dict]]:
    table = Table.of(bot, 4)
    table.open()
    return table, lambda: table.fake.send_text(table.host.user, table.group, "/language")


SCENES: dict[str, Callable[[Bot], tuple[Table, Callable[[], dict]]]] = {
    "newgame": newgame,
    "join": join,
    "setting": setting,
    "start": start,
    "scout": scout,
    "done": done,
    "decapitate": decapitate,
    "cancel": cancel,
    "language": language,
    "leave": leave,
}

SENT = ("sendMessage", "editMessageText", "deleteMessage")


def transcript(table: Table, since: int) -> dict[str, list[tuple]]:
    """What the bot sent (new messages, edits, deletions) after call `since`, chat by chat in
    order, with chats named by role ("group", or the player's name) so games compare."""
    roles = {group.id: "group" for group in table.groups}
    roles.update({player.id: player.name for player in table.players})
    seen: dict[str, list[tuple]] = {}
    for call in table.fake.calls[since:]:
        if call.method not in SENT or call.kind != "ok":
            continue
        chat = int(call.params["chat_id"])
        rows = (call.params.get("reply_markup") or {}).get("inline_keyboard", [])
        labels = tuple(button["text"] for row in rows for button in row)
        if chat in roles:
            text = call.params.get("text")
            for uid, role in roles.items():  # a turn line's mention names its user by id
                text = (
                    text.replace(f"tg://user?id={uid}", f"tg://user?id={role}") if text else text
                )
            entry = (call.method, text, labels)
            seen.setdefault(roles[chat], []).append(entry)
    return seen


def readable(seen: dict[str, list[tuple]], once: bool = False) -> dict[str, tuple[list, list]]:
    """A transcript as its readers see it: each chat's new messages in order, and the edits and
    deletions made there in any order (an edit of an earlier message goes out alongside the
    rest). With `once`, each entry counts once (a message sent again reads the same)."""
    shown = {}
    for role, entries in seen.items():
        sent = [e for e in entries if e[0] == "sendMessage"]
        edited = sorted(e for e in entries if e[0] != "sendMessage")
        if once:
            sent, edited = list(dict.fromkeys(sent)), sorted(set(edited))
        shown[role] = (sent, edited)
    return shown


def once(seen: dict[str, list[tuple]]) -> dict[str, tuple[list, list]]:
    """`readable`, each entry counted once."""
    return readable(seen, once=True)


def answers(table: Table, update: dict) -> list:
    """The successful answers to the press `update` carried (none for other updates)."""
    if "callback_query" not in update:
        return []
    query = update["callback_query"]["id"]
    return [a for a in table.fake.callback_answers if a.query_id == query]


def game_of(bot: Bot, table: Table, t0: float = 0.0) -> dict:
    """The stored game as the players know it (ids of chats and users left out), its times
    counted from `t0`."""
    data = table.data()
    names = {uid: name for uid, name in data.get("players", [])}
    hold = data.get("hold")
    return {
        "game": data["game"] - int(t0),  # numbered by the time its lobby opened
        "status": data["status"],
        "lang": data["lang"],
        "settings": data["settings"],
        "players": sorted(names.values()),
        "engine": data.get("engine"),
        "deadline": data["deadline"] - t0 if data.get("deadline") else None,
        "hold": {**hold, "until": hold["until"] - t0} if hold else None,
    }
