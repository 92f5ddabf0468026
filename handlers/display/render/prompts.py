"""The private messages of a game: cards, the Turncoat's and the Spy's choices, prompts. Each
speaks its player's own language (`Table.speaking_to`)."""

from __future__ import annotations

from dataclasses import replace

from engine import events as kinds
from engine.cards import OBSERVER, SPY, color, is_x
from engine.state import SPEAK, SPY_PHASE, TURN, TURNCOAT
from engine.turns import may_decapitate, waiting_for
from handlers.display.ids import prompt_ref
from handlers.display.messages import Send
from handlers.display.presses import (
    Decapitate,
    Declaring,
    Done,
    Keep,
    Predict,
    ScoutMenu,
    SpyRed,
    StrikeMenu,
    Swap,
)
from handlers.display.render.common import (
    Keyboard,
    Out,
    card,
    game_button,
    group_title,
    seat_name,
    send_private,
    spy_keyboard,
    t_,
)
from handlers.display.render.table_links import private_keyboard
from handlers.display.texts import colour_name
from handlers.session.table import Table


def card_hint(table: Table, code: str) -> str:
    """One line on what a card means (a face-up X, revealed in a swap, has no power left)."""
    if code == OBSERVER:
        return t_(table, "hint_observer")
    if code == SPY:
        return t_(table, "hint_spy")
    text = t_(table, "hint_colour", colour=colour_name(table.lang, color(code)))
    if is_x(code) and table.settings["turncoat"]:
        spent = code in table.state.face_up
        text += "\n" + t_(table, "x_spent_scout" if spent else "hint_x_turncoat")
    return text


def new_card_lines(table: Table, event: dict, other: str) -> list[str]:
    """After a swap: the new card, the new team, and that the revealed X has no power now (an
    X received face down, from a scout who held the other colour's hidden X, keeps its power)."""
    code = event["card"]
    lines = [t_(table, "new_card", other=other, card=card(table, code))]
    side = color(code)
    if side is None:
        lines.append(card_hint(table, code))
    else:
        lines.append(t_(table, "new_team", colour=colour_name(table.lang, side)))
    scout = event["to"] == table.state.turn
    if scout:
        lines.append(t_(table, "x_spent_scout"))
    else:
        lines.append(t_(table, "x_spent_holder", other=other))
        if is_x(code) and code not in table.state.face_up:
            lines.append(t_(table, "hint_x_turncoat"))
    return lines


def remembered(table: Table, out: Send, tag: int | None = None) -> Send:
    """A prompt sent to a player, its message id to be remembered (for the open prompt `tag`,
    by default the player's open one), so that it can be closed when its wait ends."""
    if tag is None:
        open_ = table.open_prompt_of(out.chat)
        tag = open_.tag if open_ else None
    return replace(out, remember=prompt_ref(out.chat, tag)) if tag is not None else out


def scout_result(table: Table, event: dict) -> str:
    """What the scout saw (and, with the Turncoat's window, that they speak after it), in the
    language of the `table` given."""
    target = seat_name(table, event["target"])
    lines = [t_(table, "scout_result", target=target, card=card(table, event["card"]))]
    if table.turncoat_pauses():  # the speaking moment waits for the Turncoat's window
        key = "scout_wait_deleted" if table.silent else "scout_wait"
        lines.append(t_(table, key, s=table.settings["turncoat_seconds"]))
    return "\n".join(lines)


def dealt_card(table: Table, event: dict) -> str:
    """The deal's card event as its player reads it (`table` speaking their language): their
    seat, their card and what it means."""
    code = event["card"]
    return "\n".join(
        [
            t_(table, "your_seat", seat=event["to"], group=group_title(table)),
            t_(table, "your_card", card=card(table, code)),
            card_hint(table, code),
        ]
    )


def told_above(table: Table, event: dict) -> str:
    """A private event told above a prompt's question, and kept when it closes: the deal's
    card above the first turn, a scout's result above the speaking moment (`table` speaking
    its player's language)."""
    if event["type"] == kinds.YOUR_CARD:
        return dealt_card(table, event)
    return scout_result(table, event)


def kept_buttons(table: Table, event: dict | None) -> Keyboard:
    """The buttons a prompt keeps under what it tells, open or closed: the table's under the
    deal's card, as under any card (`table` speaking its player's language)."""
    if event is None or event["type"] != kinds.YOUR_CARD:
        return None
    return private_keyboard(table, table.user_at(event["to"]))


def private_event(table: Table, event: dict, version: int, tag: int | None = None) -> list[Out]:
    """A private engine event as a message to its seat's player (none for virtual seats); a
    prompt's `tag` names the prompt it opens."""
    seat = event["to"]
    user = table.user_at(seat)
    if not user:
        return []
    table = table.speaking_to(user)
    kind = event["type"]
    if kind == kinds.YOUR_CARD:
        return [send_private(user, dealt_card(table, event), private_keyboard(table, user))]
    if kind == kinds.SCOUT_RESULT:
        return [send_private(user, scout_result(table, event))]
    if kind == kinds.TURNCOAT_OFFER:
        scout = seat_name(table, event["scout"])
        kb = [
            [
                game_button(table, "btn_swap", Swap(), version),
                game_button(table, "btn_keep", Keep(), version),
            ]
        ]
        text = "\n".join(
            [
                t_(table, "prompt_turncoat", scout=scout),
                t_(table, "turncoat_time", s=table.settings["turncoat_seconds"]),
            ]
        )
        return [remembered(table, send_private(user, text, kb, quiet=True), tag)]
    if kind == kinds.NEW_CARD:
        other = seat_name(table, event["source"])
        text = "\n".join(new_card_lines(table, event, other))
        return [send_private(user, text, quiet=True)]
    if kind == kinds.KEPT:
        return []
    if kind == kinds.SPY_TURN:
        kb = spy_keyboard(table, SpyRed, event["to"], version)
        text = (
            t_(table, "prompt_spy_red")
            + "\n"
            + t_(table, "spy_time", s=table.settings["spy_seconds"])
        )
        out = send_private(user, text, kb, quiet=True)
        return [remembered(table, out, tag)]
    return []


def secret_prompt(table: Table, seat: int) -> list[Out]:
    """The Turncoat's or the Spy's prompt again, when the game waits on `seat` for it."""
    state = table.state
    if waiting_for(state) != seat:
        return []
    version = table.public_version
    if state.phase == TURNCOAT:
        offer = {"type": kinds.TURNCOAT_OFFER, "to": seat, "scout": state.turn}
        return private_event(table, offer, version)
    if state.phase == SPY_PHASE:
        return private_event(table, {"type": kinds.SPY_TURN, "to": seat}, version)
    return []


def turn_prompt(table: Table, seat: int, version: int | None = None) -> tuple[str, Keyboard]:
    """The private 'your turn' message with only the legal choices."""
    table = table.speaking_to(table.user_at(seat))
    title = group_title(table)
    state = table.state
    row = [game_button(table, "btn_scout", ScoutMenu(), version)]
    why = may_decapitate(state, seat)
    if why is None:
        row.append(game_button(table, "btn_decapitate", StrikeMenu(), version))
        return t_(table, "prompt_turn", group=title), [row]
    if color(state.cards[seat - 1]) is None:  # the Observer or the Spy (said only privately)
        return t_(table, "prompt_turn_neutral", group=title), [row]
    return t_(table, "prompt_turn_first", group=title), [row]


def speak_prompt(
    table: Table, seat: int, version: int | None = None, group: bool = False
) -> tuple[str, Keyboard]:
    """The private 'speak now' message: Done, and for the Observer the predictions. After a
    scout from the group (`group`) Done is on the turn message, and only predictions are here."""
    table = table.speaking_to(table.user_at(seat))
    state = table.state
    kb = [] if group else [[game_button(table, "btn_done", Done(), version)]]
    if state.cards[seat - 1] == OBSERVER and state.prediction is None:
        kb.append(
            [
                game_button(table, "btn_predict_red", Predict("red"), version),
                game_button(table, "btn_predict_blue", Predict("blue"), version),
            ]
        )
    return t_(table, "prompt_speak_group" if group else "prompt_speak"), kb or None


def prompt(
    table: Table,
    version: int | None = None,
    tag: int | None = None,
    group: bool | None = None,
    shows: dict | None = None,
) -> list[Out]:
    """The private prompt for whoever the game now waits on (turn or speaking moment); `tag`
    names the prompt it opens (by default, the player's open one). A speaking moment after a
    scout from the group (`group`, by default as the table says) says to speak there. `shows`:
    the private event told above the question when it comes with it (the deal's card, with
    the table's button below; the scout's result)."""
    state = table.state
    seat = waiting_for(state)
    if seat is None or not table.user_at(seat):
        return []
    if group is None:
        group = table.speaks_in_group()
    if state.phase == TURN:
        text, kb = turn_prompt(table, seat, version)
    elif state.phase == SPEAK:
        text, kb = speak_prompt(table, seat, version, group)
    else:
        return []
    user = table.user_at(seat)
    if shows is not None:
        view = table.speaking_to(user)
        text = told_above(view, shows) + "\n" + text
        kb = [*(kb or []), *(kept_buttons(view, shows) or [])] or None
    return [remembered(table, send_private(user, text, kb), tag)]


def decapitation_menu(table: Table, seat: int, step: Declaring) -> tuple[str, Keyboard]:
    """The step of the decapitation menu that `step` (the target, the declarations answered
    so far) has reached."""
    table = table.speaking_to(table.user_at(seat))
    target, proxy, guard = step.target, step.proxy, step.bodyguard
    name = seat_name(table, target)
    v = table.state.variants
    back = [game_button(table, "btn_back", StrikeMenu())]
    if table.state.asks_proxy and proxy is None:
        kb = [
            [
                game_button(table, "btn_yes", step.replace(proxy=True)),
                game_button(table, "btn_no", step.replace(proxy=False)),
            ],
            back,
        ]
        return t_(table, "ask_proxy"), kb
    if v.bodyguards and guard is None:
        kb = [
            [
                game_button(table, "btn_yes", step.replace(bodyguard=True)),
                game_button(table, "btn_no", step.replace(bodyguard=False)),
            ],
            back,
        ]
        return t_(table, "ask_bodyguard", target=name), kb
    decl = ""
    yes_no = {True: t_(table, "btn_yes"), False: t_(table, "btn_no")}
    if proxy is not None:
        decl += t_(table, "decl_proxy", v=yes_no[proxy])
    if guard is not None:
        decl += t_(table, "decl_bodyguard", v=yes_no[guard])
    kb = [[game_button(table, "btn_confirm", Decapitate(target, proxy, guard))], back]
    return t_(table, "confirm_decapitation", target=name, decl=decl), kb
