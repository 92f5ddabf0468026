"""Absent players' messages: marked away, I'm back, back again, the /remove keyboard and what
a removal tells."""

from __future__ import annotations

from dataclasses import replace

from handlers.display.ids import Ids, away_ref, leave_ref
from handlers.display.messages import DropButtons, Edit, Send
from handlers.display.presses import (
    AWAY,
    LEAVING,
    REMOVAL,
    ImBack,
    LeaveGame,
    RemoveNobody,
    RemovePlayer,
    RemoveSeat,
    StayInGame,
)
from handlers.display.render.common import (
    Keyboard,
    Out,
    button,
    group_title,
    seat_name,
    send_group,
    send_private,
    shown_name,
    t_,
)
from handlers.session.table import LOBBY, Table


def plain_label(text: str) -> str:
    """A name as a button shows it (buttons take no HTML)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def away(table: Table, e: dict) -> list[Out]:
    """The group is told the seat is skipped; its player gets I'm back."""
    seat = e["seat"]
    told = send_group(table, t_(table, "away_marked", name=seat_name(table, seat)), None)
    user = table.user_at(seat)
    mine = table.speaking_to(user)
    kb = [[button(t_(mine, "btn_back_in"), AWAY, mine, 0, ImBack())]]
    text = t_(mine, "away_private", group=group_title(mine))
    return [told, replace(send_private(user, text, kb), remember=away_ref(seat))]


def _private_edit(user: int, msg: int | None, text: str) -> Out:
    """A private message changed in place (posted anew when it cannot be found)."""
    return Edit(user, text, None, msg=msg, private=True, protect=True)


def coming_back(table: Table, ids: Ids, e: dict) -> list[Out]:
    """The away message becomes the welcome back, its button gone."""
    user = table.user_at(e["seat"])
    mine = table.speaking_to(user)
    text = t_(mine, "back_private", group=group_title(mine))
    return [_private_edit(user, ids.taking_away(e["seat"]), text)]


def returned(table: Table, e: dict) -> list[Out]:
    """The group is told, as the seat's turn begins, that its player is back."""
    return [send_group(table, t_(table, "away_returned", name=seat_name(table, e["seat"])), None)]


def _group_edit(table: Table, msg: int | None, text: str) -> Out:
    """The /remove keyboard becomes what was done (a new message when it is not known)."""
    return Edit(table.chat, text, None, msg=msg)


def seat_removed(table: Table, ids: Ids, e: dict) -> list[Out]:
    """The group (on the /remove keyboard, if known) and the removed player are told; a live
    I'm back button goes. A player who left with /leave: see `seat_left`."""
    if e.get("left"):
        return seat_left(table, ids, e)
    seat, by = e["seat"], shown_name(e["by"])
    user = table.user_at(seat)
    mine = table.speaking_to(user)
    if e.get("themselves"):
        text = t_(table, "removed_self_seat", name=seat_name(table, seat))
        told = t_(mine, "removed_self_private", group=group_title(mine))
    else:
        text = t_(table, "removed_seat", name=seat_name(table, seat), by=by)
        told = t_(mine, "removed_private", by=by, group=group_title(mine))
    outs = [_group_edit(table, ids.taking_remove(), text), send_private(user, told)]
    away = ids.taking_away(seat)
    if away:
        outs.append(DropButtons(user, away))
    return outs


def _asked_in(table: Table, user: int, where: str) -> int:
    """The chat a /leave question sits in: the group's, or the player's own."""
    return table.chat if where == "group" else user


def leave_asked(table: Table, ids: Ids, e: dict) -> list[Out]:
    """The /leave question, where it was sent, in the asker's language: Leave or Stay."""
    user = e["user"]
    mine = table.speaking_to(user)
    kb = [
        [
            button(t_(mine, "btn_leave_game"), LEAVING, mine, 0, LeaveGame(user)),
            button(t_(mine, "btn_stay"), LEAVING, mine, 0, StayInGame(user)),
        ]
    ]
    text = t_(mine, "leave_ask", group=group_title(mine))
    private = e["where"] != "group"
    out = Send(_asked_in(table, user, e["where"]), text, kb, private=private, protect=private)
    return [replace(out, remember=leave_ref(user))]


_LEAVE_CLOSED = {"stay": "leave_stayed", "moved": "leave_expired", "over": "closed_over"}


def leave_closed(table: Table, ids: Ids, e: dict) -> list[Out]:
    """A /leave question closes: it says why, in the asker's language (replaced by a newer one,
    or its player removed, it only loses its buttons)."""
    user, why = e["user"], e["why"]
    chat, msg = _asked_in(table, user, e["where"]), ids.taking_leave(user)
    if why not in _LEAVE_CLOSED:
        return [DropButtons(chat, msg)] if msg else []
    text = t_(table.speaking_to(user), _LEAVE_CLOSED[why])
    private = e["where"] != "group"
    return [Edit(chat, text, None, msg=msg, ref=leave_ref(user), private=private, close=True)]


def seat_left(table: Table, ids: Ids, e: dict) -> list[Out]:
    """A player left with /leave: the group is told (on the question, when it was asked
    there), and so are they, on it when it was private; a live I'm back button goes."""
    seat = e["seat"]
    user = table.user_at(seat)
    name = shown_name(table.name_of(seat))
    told = t_(table, "left_seat", name=name, seat=seat)
    asked = ids.taking_leave(user)
    if e["left"] == "group":
        outs: list[Out] = [Edit(table.chat, told, None, msg=asked)]
    else:
        mine = table.speaking_to(user)
        text = t_(mine, "left_private", group=group_title(mine))
        own = Edit(user, text, None, msg=asked, private=True)
        outs = [own, send_group(table, told, None)]
    away = ids.taking_away(seat)
    if away:
        outs.append(DropButtons(user, away))
    return outs


def lobby_removed(table: Table, ids: Ids, e: dict) -> list[Out]:
    """The group (on the /remove keyboard, if known) and the player taken out of the lobby are
    told."""
    by, name, mine = shown_name(e["by"]), shown_name(e["name"]), table.speaking(e["lang"])
    if e.get("themselves"):
        text = t_(table, "removed_self_lobby", name=name)
        told = t_(mine, "removed_self_private_lobby", group=group_title(mine))
    else:
        text = t_(table, "removed_lobby", name=name, by=by)
        told = t_(mine, "removed_private_lobby", by=by, group=group_title(mine))
    return [_group_edit(table, ids.taking_remove(), text), send_private(e["user"], told)]


def remove_keyboard(table: Table) -> tuple[str, Keyboard]:
    """What /remove shows the group: whom to remove (seats, or a lobby's players), or
    nobody."""
    rows = []
    if table.status == LOBBY:
        names = table.lobby_names()
        for user in table.removable():
            label = plain_label(shown_name(names[user]))
            rows.append(button(label, REMOVAL, table, 0, RemovePlayer(user)))
        text = t_(table, "remove_pick_lobby")
    else:
        for seat in table.removable():
            label = plain_label(seat_name(table, seat))
            rows.append(button(label, REMOVAL, table, 0, RemoveSeat(seat)))
        text = t_(table, "remove_pick")
    nobody = button(t_(table, "btn_remove_none"), REMOVAL, table, 0, RemoveNobody())
    return text, [*[rows[i : i + 2] for i in range(0, len(rows), 2)], [nobody]]


def buttons_gone(table: Table, ids: Ids, e: dict) -> list[Out]:
    """The buttons left live when a game starts or ends go: the /remove keyboard's (only
    forgotten when the group can no longer be written to), the away seats' I'm back, and at
    the end the warning's button to open the chat."""
    gone = [(table.chat, ids.taking_remove())] if e["group"] else []
    gone += [(table.chat, ids.reach)] if e.get("reach") else []
    gone += [(table.user_at(seat), ids.taking_away(seat)) for seat in e["away"]]
    return [DropButtons(chat, msg) for chat, msg in gone if msg]
