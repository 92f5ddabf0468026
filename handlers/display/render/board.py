"""The group's turn message: a line for each public event, a countdown, My card, and the
acting player's Scout (then the seats) or Done."""

from __future__ import annotations

from engine import events as kinds
from engine.state import SPEAK, TURN
from handlers.display.ids import BOARD as BOARD_MSG
from handlers.display.ids import Ids
from handlers.display.messages import Edit
from handlers.display.presses import BOARD, Done, ListSeats, MyCard, Press, Scout
from handlers.display.render.bot_seats import claim_line
from handlers.display.render.common import (
    Keyboard,
    button,
    card,
    esc,
    first_round,
    seat_keyboard,
    seat_name,
    shown_name,
    t_,
)
from handlers.display.render.table_links import group_rows
from handlers.display.texts import colour_name
from handlers.session.table import PLAYING, Table


def turn_line(table: Table, seat: int, first: bool | None = None) -> str:
    """The header of a turn message: the same for every seat, whatever its card (in the first
    round of variant 2 it says nobody may decapitate, as it did when the turn began: `first`,
    or as the game stands when the stored line does not say)."""
    first = first_round(table.state, seat) if first is None else first
    key = "turn_line_first" if first else "turn_line"
    return t_(table, key, name=mention(table, seat))


def mention(table: Table, seat: int) -> str:
    """A seat's name linked to its player, so Telegram notifies them; a virtual seat is plain."""
    user = table.user_at(seat)
    if not user:
        return seat_name(table, seat)
    name = f'<a href="tg://user?id={int(user)}">{shown_name(table.name_of(seat))}</a>'
    return t_(table, "seat_label", seat=seat, name=name)


def public_line(table: Table, event: dict) -> str | None:
    """One line of the turn message for a public event."""
    kind = event["type"]
    if kind == kinds.SCOUTED:
        return t_(
            table,
            "scouted_line",
            name=seat_name(table, event["seat"]),
            target=seat_name(table, event["target"]),
        )
    if kind == kinds.SPEAKS:
        return t_(table, "speak_line", name=seat_name(table, event["seat"]))
    if kind == kinds.SWAPPED:
        holder, scout = seat_name(table, event["seat"]), seat_name(table, event["scout"])
        code = card(table, event["card"])
        return t_(table, "swapped_line", holder=holder, scout=scout, card=code)
    if kind == kinds.TURN_ENDED:
        if "claim" in event:  # a bot seat's words
            return claim_line(table, event)
        if event.get("say"):
            return t_(
                table, "said_line", name=seat_name(table, event["seat"]), say=esc(event["say"])
            )
        return t_(table, "done_line", name=seat_name(table, event["seat"]))
    if kind == kinds.PREDICTED:
        return t_(
            table,
            "predicted_line",
            name=seat_name(table, event["seat"]),
            colour=colour_name(table.lang, event["color"]),
        )
    if kind == kinds.TIMED_OUT and event.get("passed"):  # an away or removed seat's turn
        return t_(table, f"passed_{event['passed']}_line", name=seat_name(table, event["seat"]))
    if kind == kinds.TIMED_OUT:
        key = "skipped_line" if event["phase"] == TURN else "speak_over_line"
        return t_(table, key, name=seat_name(table, event["seat"]))
    if kind == kinds.DECAPITATION_ANNOUNCED:
        return t_(table, "announced_line", name=seat_name(table, event["seat"]))
    return None


def board_line(table: Table, spec: list | dict) -> str:
    """One stored line of the turn message in the table's language as of now: a public event,
    ["turn", seat] (["turn", seat, "first"] in the first round of variant 2),
    ["pause", seat, seconds] (the scout speaks after the Turncoat's window),
    ["sealed", seconds] or ["cancelled"]."""
    if isinstance(spec, dict):
        return public_line(table, spec) or ""
    if spec[0] == "turn":
        return turn_line(table, spec[1], spec[2] == "first" if len(spec) > 2 else None)
    if spec[0] == "pause":
        return t_(table, "pause_line", name=seat_name(table, spec[1]), s=spec[2])
    if spec[0] == "cancelled":
        return t_(table, "closed_cancelled")
    return t_(table, "sealed_line", s=spec[1])


def board(
    table: Table, shown: dict, seconds: float | None, final: bool = False
) -> tuple[str, Keyboard]:
    """The turn message `shown` (the board as it stood), its text and its buttons; the sealed
    target's line only while the Spy's wait runs (a game that ended seals nothing)."""
    lines = [
        board_line(table, spec)
        for spec in shown["lines"]
        if not (isinstance(spec, list) and spec[0] == "sealed") or sealed_now(table, final)
    ]
    if seconds is not None and not final:
        lines.append(t_(table, "time_left", s=max(int(seconds), 0)))
    kb = None if final else acting_buttons(table, shown.get("acts"))
    return "\n".join(lines), kb


def sealed_now(table: Table, final: bool) -> bool:
    """Whether a decapitation's target is still sealed: the Spy's wait runs, the game goes on."""
    return not final and table.status == PLAYING and table.hold is not None


def acting_buttons(table: Table, acts: dict | None) -> Keyboard:
    """The turn message's buttons: what its acting player may press (`acts`, as the board
    stood), and My card for everyone."""
    return [*pressable(table, acts), *group_rows(table)]


def pressable(table: Table, acts: dict | None) -> list[list[list[str]]]:
    """What the acting player may press on the turn message, and My card."""
    me = button(t_(table, "btn_my_card"), BOARD, table, 0, MyCard())
    if acts is None:
        return [[me]]
    version = acts["version"]

    def press(key: str, pressed: Press) -> list[str]:
        return button(t_(table, key), BOARD, table, version, pressed)

    if acts["phase"] == SPEAK:
        return [[press("btn_done", Done()), me]]
    if acts["step"]:
        seats = seat_keyboard(table, Scout, acts["seat"], version, BOARD)
        return [*seats, [press("btn_back", ListSeats(False)), me]]
    return [[press("btn_scout", ListSeats(True)), me]]


def edit_board(
    table: Table, ids: Ids, shown: dict, seconds: float | None, final: bool = False
) -> Edit:
    """An edit of the turn message `shown` (tagged with it, so that a message posted again in
    its place, when it was deleted, is remembered as the turn message)."""
    text, kb = board(table, shown, seconds, final)
    msg = ids.board if ids.board_tag == shown["tag"] else None
    return Edit(table.chat, text, kb, msg=msg, ref=BOARD_MSG, tag=shown["tag"])
