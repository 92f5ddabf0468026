"""Rendering: session events and table state into the texts and buttons each audience sees."""

from handlers.display.render.board import board, board_line, edit_board, public_line
from handlers.display.render.common import (
    Keyboard,
    Out,
    bot_link,
    card,
    esc,
    game_button,
    group_title,
    isolate,
    join_url,
    seat_keyboard,
    seat_name,
    send_group,
    send_private,
    shown_name,
    spy_choices,
    spy_keyboard,
    start_url,
    t_,
)
from handlers.display.render.lobby import lobby, lobby_message, settings_menu
from handlers.display.render.prompts import (
    decapitation_menu,
    private_event,
    prompt,
    secret_prompt,
    speak_prompt,
    turn_prompt,
)
from handlers.display.render.reach import rejoined, start_refused
from handlers.display.render.reveal import drop_play_again, ending, kept_game, my_card
from handlers.display.render.show import show
from handlers.display.render.status import status
from handlers.display.render.view import View

__all__ = [
    "Keyboard",
    "Out",
    "View",
    "board",
    "board_line",
    "bot_link",
    "card",
    "decapitation_menu",
    "drop_play_again",
    "edit_board",
    "ending",
    "esc",
    "game_button",
    "group_title",
    "isolate",
    "join_url",
    "kept_game",
    "lobby",
    "lobby_message",
    "my_card",
    "private_event",
    "prompt",
    "public_line",
    "rejoined",
    "seat_keyboard",
    "seat_name",
    "secret_prompt",
    "send_group",
    "send_private",
    "settings_menu",
    "show",
    "shown_name",
    "speak_prompt",
    "spy_choices",
    "spy_keyboard",
    "start_refused",
    "start_url",
    "status",
    "t_",
    "turn_prompt",
]
