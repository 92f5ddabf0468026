"""The lobby message, the settings menu and the seating it turns into."""

from __future__ import annotations

from dataclasses import replace

from engine.cards import deals_x
from handlers.display.ids import LOBBY as LOBBY_MSG
from handlers.display.ids import Ids
from handlers.display.messages import Edit
from handlers.display.presses import LOBBY, Choose, Leave, Settings, Start, Toggle
from handlers.display.render.common import (
    Keyboard,
    Out,
    button,
    edit_ref,
    join_url,
    joined,
    seat_name,
    shown_name,
    start_url,
    t_,
    time_of_day,
)
from handlers.display.render.rematch import rematch_countdown, rematch_lines, with_im_in
from handlers.display.render.table_links import group_rows
from handlers.session.bot_seats import bot_level
from handlers.session.lobby import EXTEND_SECONDS
from handlers.session.settings import (
    CHOICES,
    GROUP_ONLY_SETTINGS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRACTICE_LEAST_BOTS,
    SETTING_KEYS,
    bot_room,
)
from handlers.session.table import Table

CHOICES_A_ROW = 6  # a row of choices longer than this goes on in the next


def variants_list(table: Table, settings: dict) -> str:
    """The variants switched on, named in the table's language."""
    on = []
    if settings["virtual_players"]:
        on.append(t_(table, "variant_virtual_players", n=settings["virtual_players"]))
    if settings["bot_seats"]:
        level = t_(table, f"bot_level_{bot_level(settings)}")
        on.append(t_(table, "variant_bot_seats", n=settings["bot_seats"], level=level))
    for key in (
        "no_first_round_decapitation",
        "uncertain_sides",
        "turncoat",
        "bodyguards",
        "observer",
        "spy",
    ):
        if settings[key]:
            on.append(t_(table, f"variant_{key}"))
    return joined(table, on) or t_(table, "variants_none")


def lobby(table: Table, bot: str) -> tuple[str, Keyboard]:
    """The lobby message: players, settings, suggestions and buttons (its links open the
    private chat of the bot named `bot`)."""
    players = table.players
    lines = [t_(table, "lobby_title"), ""]
    lines += [t_(table, "practice_lobby"), ""] if table.practice else []
    lines.append(t_(table, "lobby_players", n=len(players), max=MAX_PLAYERS))
    names = table.lobby_names()
    lines += [f"• {shown_name(name)}" for name in names.values()] or [t_(table, "lobby_nobody")]
    if table.host_left and table.creator in names:
        old, new = table.host_left, names[table.creator]
        lines.append(t_(table, "host_passed", old=shown_name(old), new=shown_name(new)))
    settings = table.settings
    lines += ["", t_(table, "in_play", list=variants_list(table, settings))]
    vp = settings["virtual_players"]
    if len(players) == 4 and vp < 2:
        lines.append(t_(table, "lobby_hint_4"))
    if len(players) == 5 and vp < 1:
        lines.append(t_(table, "lobby_hint_5"))
    if not settings["no_first_round_decapitation"]:
        lines.append(t_(table, "lobby_hint_calm"))
    if settings["uncertain_sides"] and vp:
        lines.append(t_(table, "lobby_warn_uneven"))
    seats = len(players) + vp + settings["bot_seats"]
    if settings["turncoat"] and players and not deals_x(seats):
        lines.append(t_(table, "lobby_turncoat_idle", n=seats))
    lines += ["", *rematch_lines(table), readiness(table)]
    lines += [line for line in (countdown(table), unreachable_line(table)) if line]
    kb = [
        [
            [t_(table, "btn_join"), join_url(table, bot)],
            button(t_(table, "btn_leave"), LOBBY, table, 0, Leave()),
        ],
        [
            button(t_(table, "btn_settings"), LOBBY, table, 0, Settings(True)),
            button(t_(table, "btn_start"), LOBBY, table, 0, Start()),
        ],
    ]
    if table.practice:  # its one player, in their own chat: nobody joins or leaves
        kb = kb[1:]
    if table.unreachable():
        kb.append([[t_(table, "btn_open_chat"), start_url(bot)]])
    return "\n".join(lines), with_im_in(table, kb)


def readiness(table: Table) -> str:
    """Whether Start may deal: the people needed (fewer beside bot seats), or ready."""
    settings = table.settings
    if table.enough_players():
        return t_(table, "lobby_ready")
    if settings["bot_seats"]:
        most = MAX_PLAYERS - settings["bot_seats"]
        least = max(table.least_people(), MIN_PLAYERS - settings["bot_seats"])
        return t_(table, "lobby_need_bots", min=least, max=most, bots=settings["bot_seats"])
    return t_(table, "lobby_need", min=MIN_PLAYERS, max=MAX_PLAYERS)


def away_names(table: Table, users: list[int]) -> str:
    """The lobby's players `users`, by name."""
    names = table.lobby_names()
    return joined(table, [shown_name(names.get(user, "?")) for user in users])


def unreachable_line(table: Table) -> str | None:
    """The warning naming the players who would get no card, and what to press: Start for
    those who never opened the private chat, Restart (to unblock) for those who blocked it."""
    shut = set(table.blocked())
    button = t_(table, "btn_open_chat")
    lines = []
    for key, users in (
        ("lobby_unreachable", [user for user in table.unreachable() if user not in shut]),
        ("lobby_unreachable_blocked", [user for user in table.unreachable() if user in shut]),
    ):
        if users:
            lines.append(t_(table, key, names=away_names(table, users), button=button))
    return "\n".join(lines) or None


def countdown(table: Table) -> str | None:
    """When the lobby starts by itself, or closes."""
    deadline = table.deadline()
    if deadline is None or table.rematch.is_on():
        return rematch_countdown(table) if deadline is not None else None
    key = "lobby_countdown_auto" if table.starts_itself() else "lobby_countdown_close"
    m = EXTEND_SECONDS // 60
    return t_(table, key, time=time_of_day(table, deadline), min=MIN_PLAYERS, m=m)


def edit_lobby(table: Table, ids: Ids, bot: str) -> Out:
    """Redraw the lobby message in place."""
    return edit_ref(table, ids, LOBBY_MSG, *lobby(table, bot))


def choice_label(table: Table, key: str, value: int) -> str:
    """A choice as its button reads: a number of players, of minutes or of seconds."""
    if key in ("virtual_players", "bot_seats"):
        return str(value)
    return t_(table, "choice_minutes" if key == "lobby_minutes" else "choice_seconds", v=value)


def choice_row(table: Table, key: str) -> list[list[str]]:
    """A setting's choices side by side, the one in play marked."""
    row = []
    offered = CHOICES[key]
    if key == "bot_seats":  # as many as the table has room for beside its people
        room = bot_room(len(table.players), table.least_people())
        least = PRACTICE_LEAST_BOTS if table.practice else 0
        offered = tuple(v for v in offered if least <= v <= room)
    for value in offered:
        label = choice_label(table, key, value)
        if value == table.settings[key]:
            label = t_(table, "choice_chosen", v=label)
        row.append(button(label, LOBBY, table, 0, Choose(key, value)))
    return row


def settings_menu(table: Table) -> tuple[str, Keyboard]:
    """The settings menu: a switch is a button showing its state; a setting with choices is a
    button naming it over a row of its choices."""
    s = table.settings
    rows = []
    for key in SETTING_KEYS:
        if table.practice and key in GROUP_ONLY_SETTINGS:
            continue
        if key in CHOICES:
            rows.append([button(t_(table, f"head_{key}"), LOBBY, table, 0, Choose(key))])
            row = choice_row(table, key)
            rows += [row[i : i + CHOICES_A_ROW] for i in range(0, len(row), CHOICES_A_ROW)]
            continue
        value = t_(table, "on" if s[key] else "off")
        rows.append([button(t_(table, f"set_{key}", v=value), LOBBY, table, 0, Toggle(key))])
    rows.append([button(t_(table, "set_lang"), LOBBY, table, 0, Toggle("lang"))])
    rows.append([button(t_(table, "btn_back"), LOBBY, table, 0, Settings(False))])
    return t_(table, "settings_title"), rows


def lobby_message(table: Table, ids: Ids, bot: str) -> Edit:
    """The edit that makes the lobby message read as it should now: the lobby, or the
    settings menu."""
    if table.menu_open:
        return edit_ref(table, ids, LOBBY_MSG, *settings_menu(table))
    return edit_lobby(table, ids, bot)


def seating(table: Table, ids: Ids, silence: bool) -> Out:
    """The lobby message turned into the seating circle, the variants and the silence rule.

    It is an edit of a message already in the chat, so it goes out alongside the first turn
    message rather than before it (`side`); should the lobby message be gone, it is posted anew.
    """
    state = table.state
    lines = [t_(table, "seating_title")]
    for seat in range(1, state.seats + 1):
        tag = t_(table, "virtual_tag") if state.virtual[seat - 1] else ""
        lines.append(f"{seat_name(table, seat)}{tag}")
    lines.append(t_(table, "in_play", list=variants_list(table, table.settings)))
    if table.turncoat_pauses():
        lines.append(t_(table, "turncoat_pause", s=table.settings["turncoat_seconds"]))
    elif table.settings["turncoat"]:
        lines.append(t_(table, "turncoat_none", n=state.seats))
    lines.append(t_(table, "starts", name=seat_name(table, state.first)))
    if not table.practice:  # nobody else to keep quiet
        lines.append(t_(table, "silence_enforced" if silence else "silence_trust"))
    kb = group_rows(table) or None
    return replace(edit_ref(table, ids, LOBBY_MSG, "\n".join(lines), kb), side=True)
