"""The lobby's countdown news and the players the bot cannot reach: the host's hello, the
reminder, /extend, a lobby closed unstarted, a player back in touch, the game's one warning
naming who the bot cannot reach, and a player who opens the private chat again in the middle of
their game."""

from __future__ import annotations

from dataclasses import replace

from handlers.display.ids import EXTEND, REACH, Ids, reached_ref
from handlers.display.ids import LOBBY as LOBBY_MSG
from handlers.display.render.board import mention
from handlers.display.render.common import (
    Out,
    edit_ref,
    group_title,
    isolate,
    joined,
    seat_name,
    send_group,
    send_private,
    shown_name,
    start_url,
    t_,
    time_of_day,
)
from handlers.display.render.reveal import my_card
from handlers.display.render.status import now_doing
from handlers.display.texts import t
from handlers.session.reach import PROMPT_LOST_LEFT
from handlers.session.settings import MIN_PLAYERS
from handlers.session.table import LOBBY, Table


def hello(table: Table) -> Out:
    """The host's first private message: where their card will come (a failure says the bot
    cannot reach them)."""
    host = table.creator
    text = t_(table.speaking_to(host), "lobby_hello", group=group_title(table))
    return replace(send_private(host, text), remember=reached_ref(host))  # Start asks no more


def reminder(table: Table, e: dict) -> Out:
    """The group told, once, that the lobby is about to start or close; the players the bot
    cannot reach are mentioned, so their phones ring."""
    n, left, m = len(table.players), e["minutes"], e["extend"]
    away = table.unreachable()
    without = table.starts_itself() and n >= MIN_PLAYERS and table.deals_without(away)
    if without:
        n -= len(away)  # those the bot cannot reach are not dealt: counted as not playing
    last = "" if m else "_last"  # the hour is over: /extend can add nothing, so it is not offered
    if not table.starts_itself():
        text = t_(table, f"lobby_remind_host{last}", left=left, m=m)
    elif n < MIN_PLAYERS:
        text = t_(table, f"lobby_remind_few{last}", left=left, n=n, min=MIN_PLAYERS, m=m)
    else:
        text = t_(table, f"lobby_remind_start{last}", left=left, n=n, m=m)
    names, shut = table.lobby_names(), set(table.blocked())
    button = t_(table, "btn_open_chat")
    key = "lobby_remind_left_out" if without else "lobby_remind_away"
    for blocked in ("", "_blocked"):
        mentions = [
            f'<a href="tg://user?id={int(user)}">{shown_name(names.get(user, "?"))}</a>'
            for user in away
            if (user in shut) == bool(blocked)
        ]
        if mentions:  # Start for who never opened the chat, Restart for who blocked it
            text += "\n" + t_(table, key + blocked, names=joined(table, mentions), button=button)
    return send_group(table, text, None)


def left_out(table: Table, e: dict) -> Out:
    """The group told that the game starts without the players the bot cannot reach, and who
    hosts it when the host was one of them."""
    names = joined(table, [shown_name(name) for name in e["names"]])
    lines = [t_(table, "left_out", names=names)]
    if e["host"]:
        lines.append(t_(table, "host_now", name=shown_name(e["host"])))
    return send_group(table, "\n".join(lines), None)


def closed(table: Table, ids: Ids, e: dict) -> Out:
    """The lobby message, once the countdown closed it unstarted: why, and no buttons."""
    reason = e.get("reason")
    if reason == "few":
        text = t_(table, "lobby_closed_few", n=e["n"], min=MIN_PLAYERS)
    elif reason == "unreachable":
        names = table.lobby_names()
        shown = joined(table, [shown_name(names.get(user, "?")) for user in e["users"]])
        text = t_(table, "lobby_closed_away", names=shown)
    else:
        text = t_(table, "lobby_expired")
    return edit_ref(table, ids, LOBBY_MSG, text, None)


def extended(table: Table, ids: Ids, e: dict) -> Out:
    """The group told who pushed the countdown back, by how much and when it now ends: one
    line, rewritten by each /extend after the first."""
    when = time_of_day(table, table.deadline() or 0)
    text = t_(table, "extended", name=shown_name(e["name"]), m=e["minutes"], time=when)
    return edit_ref(table, ids, EXTEND, text, None)


def back(table: Table, ids: Ids, e: dict, bot: str) -> list[Out]:
    """The group told that a player the bot could not reach opened its chat: in a lobby in a
    message (and the player told privately which game their card will come from), in a game
    on its warning."""
    user = e["user"]
    if table.status != LOBBY:
        return warning(table, ids, bot)
    names = table.lobby_names()
    text = t_(table, "back_lobby", name=shown_name(names.get(user, "?")))
    joined_text = t_(table.speaking_to(user), "joined", group=group_title(table))
    return [send_group(table, text, None), send_private(user, joined_text)]


def warning(
    table: Table, ids: Ids, bot: str, removed: int | None = None, left: bool = False
) -> list[Out]:
    """The game's one warning, as it reads now: each player the bot cannot reach mentioned
    once (their phone rings), told to open the chat and press Start, or Restart when they
    blocked the bot, with the button that opens it; then who is back, and the seat `removed`
    from the game (or whose player `left` it), if one was. Once nobody is left to reach, it
    says who is back, with no button (nothing at all to say: it stays as it is)."""
    lost, shut = table.out_of_touch(), set(table.blocked())
    lines = []
    for key, users in (
        ("cannot_reach", [user for user in lost if user not in shut]),
        ("cannot_reach_blocked", [user for user in lost if user in shut]),
    ):
        if users:
            names = joined(table, [_named(table, user) for user in users])
            button = t_(table, "btn_open_chat")
            lines.append(t_(table, key, names=names, button=button, s=PROMPT_LOST_LEFT))
    back_again = [seat_name(table, table.seat_of(user)) for user in table.reached_again()]
    if back_again:
        lines.append(t_(table, "back_game", name=joined(table, back_again)))
    if removed is not None and ids.reach is not None:  # no warning to mend: nothing to say
        key = "reach_left" if left else "reach_removed"
        lines.append(t_(table, key, name=seat_name(table, removed)))
    if not lines:
        return []
    kb = [[[t_(table, "btn_open_chat"), start_url(bot)]]] if lost else None
    return [edit_ref(table, ids, REACH, "\n".join(lines), kb)]


def _named(table: Table, user: int) -> str:
    """A seated player mentioned by their seat and name."""
    seat = table.seat_of(user)
    return mention(table, seat) if seat else shown_name("?")


def start_refused(table: Table, lang: str) -> str:
    """Start's popup (plain text) while players cannot be reached: who, and what to press (Start
    for who never opened the private chat, Restart to unblock for who blocked it)."""
    names, shut = table.lobby_names(), set(table.blocked())
    button = t(lang, "btn_open_chat")
    lines = []
    for key, blocked in (("unreachable_start", False), ("unreachable_start_blocked", True)):
        users = [u for u in table.unreachable() if (u in shut) == blocked]
        if users:
            shown = t(lang, "sep_list").join(isolate(names.get(user, "?")) for user in users)
            lines.append(t(lang, key, names=shown, button=button))
    return "\n".join(lines)


def rejoined(table: Table, seat: int, now: float) -> str:
    """What a seated player reads on opening the private chat again during the game: their seat,
    card and what they know (as /mycard), and the turn's state as the group knows it (their own
    turn addressed to them)."""
    view = table.speaking_to(table.user_at(seat))
    turn = seat_name(view, view.state.turn)
    own = "_you" if view.state.turn == seat else ""  # their own turn: told to them as "you"
    doing = t_(view, f"status_{now_doing(view)}{own}", name=turn)
    lines = [my_card(table, seat, False), "", doing]
    deadline = table.deadline()
    if deadline is not None:
        lines.append(t_(view, "status_left", s=max(int(deadline - now), 0)))
    return "\n".join(lines)
