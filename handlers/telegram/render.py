"""Rendering: engine events and table state into the texts and buttons each audience sees."""

from __future__ import annotations

import html
from typing import Any

from engine.cards import OBSERVER, SPY, color, is_x
from engine.state import SPEAK, SPY_PHASE, TURN, TURNCOAT
from engine.turns import may_decapitate, waiting_for
from engine.views import events_for, known_cards
from handlers.session import events as ev
from handlers.session.settings import MAX_PLAYERS, MIN_PLAYERS, SETTING_KEYS
from handlers.session.table import Table
from handlers.telegram import buttondata as callbacks
from handlers.telegram.buttondata import BOARD, GAME, LOBBY
from handlers.telegram.texts import card_name, colour_name, t

Out = dict[str, Any]
Keyboard = list[list[list[str]]] | None

BOT_USERNAME = {"name": "decapitation_bot"}  # set once per process from configuration


def t_(table: Table, key: str, **kw: Any) -> str:
    """A text in the table's language."""
    return t(table.lang, key, **kw)


def esc(text: str) -> str:
    """User-supplied text made safe for HTML parse mode."""
    return html.escape(text, quote=False)


def seat_name(table: Table, seat: int) -> str:
    """'3. Ann' in the table's language, escaped."""
    return t_(table, "seat_label", seat=seat, name=esc(table.name_of(seat)))


def card(table: Table, code: str) -> str:
    """A card's name in the table's language."""
    return card_name(table.lang, code)


# -- message envelopes ---------------------------------------------------------------------


def send_group(table: Table, text: str, kb: Keyboard, remember: str | None = None) -> Out:
    """A new message in the group."""
    return {"op": "send", "chat": table.chat, "text": text, "kb": kb, "remember": remember}


def send_private(user: int, text: str, kb: Keyboard = None, quiet: bool = False) -> Out:
    """A new private message, protected from forwarding.

    `quiet`: part of a secret wait (the Turncoat's, the Spy's); if it cannot be delivered the
    group is not told, as naming its player would give the secret away.
    """
    out = {"op": "send", "chat": user, "text": text, "kb": kb, "protect": True, "private": True}
    if quiet:
        out["quiet"] = True
    return out


def edit_ref(table: Table, ref: str, text: str, kb: Keyboard) -> Out:
    """An edit of the group message the table remembers under `ref` (its id as of now)."""
    board = table.data.get("board") or {}
    msg = board.get("msg") if ref == "board" else table.data.get(ref)
    return {"op": "edit", "chat": table.chat, "ref": ref, "msg": msg, "text": text, "kb": kb}


# -- lobby and settings ----------------------------------------------------------------------


def _button(label: str, kind: str, table: Table, version: int, arg: str) -> list[str]:
    return [label, callbacks.encode(kind, table.chat, table.game, version, arg)]


def join_url(table: Table) -> str:
    """The deep link that opens the bot's private chat and joins this lobby."""
    payload = callbacks.join_payload(table.chat, table.game)
    return f"https://t.me/{BOT_USERNAME['name']}?start={payload}"


def variants_list(table: Table, settings: dict) -> str:
    """The variants switched on, named in the table's language."""
    on = []
    if settings["virtual_players"]:
        on.append(t_(table, "variant_virtual_players", n=settings["virtual_players"]))
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
    return ", ".join(on) or t_(table, "variants_none")


def lobby(table: Table) -> tuple[str, Keyboard]:
    """The lobby message: players, settings, suggestions and buttons."""
    players = table.players
    lines = [
        t_(table, "lobby_title"),
        "",
        t_(table, "lobby_players", n=len(players), max=MAX_PLAYERS),
    ]
    lines += [f"• {esc(name)}" for _, name in players] or [t_(table, "lobby_nobody")]
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
    ready = MIN_PLAYERS <= len(players) <= MAX_PLAYERS
    lines += [
        "",
        t_(table, "lobby_ready" if ready else "lobby_need", min=MIN_PLAYERS, max=MAX_PLAYERS),
    ]
    kb = [
        [
            [t_(table, "btn_join"), join_url(table)],
            _button(t_(table, "btn_leave"), LOBBY, table, 0, "leave"),
        ],
        [
            _button(t_(table, "btn_settings"), LOBBY, table, 0, "set"),
            _button(t_(table, "btn_start"), LOBBY, table, 0, "start"),
        ],
    ]
    return "\n".join(lines), kb


def edit_lobby(table: Table) -> Out:
    """Redraw the lobby message in place."""
    return edit_ref(table, "lobby_msg", *lobby(table))


def settings_menu(table: Table) -> tuple[str, Keyboard]:
    """The settings menu: one button per setting, each showing its value."""
    s = table.settings
    rows = []
    for key in SETTING_KEYS:
        value = s[key]
        if isinstance(value, bool):
            value = t_(table, "on" if value else "off")
        rows.append([_button(t_(table, f"set_{key}", v=value), LOBBY, table, 0, f"t:{key}")])
    rows.append([_button(t_(table, "set_lang"), LOBBY, table, 0, "t:lang")])
    rows.append([_button(t_(table, "btn_back"), LOBBY, table, 0, "back")])
    return t_(table, "settings_title"), rows


# -- the deal --------------------------------------------------------------------------------


def seating(table: Table, silence: bool) -> Out:
    """The lobby message turned into the seating circle, the variants and the silence rule.

    It is an edit of a message already in the chat, so it goes out alongside the first turn
    message rather than before it (`side`); should the lobby message be gone, it is posted anew.
    """
    state = table.state
    lines = [t_(table, "seating_title")]
    for seat in range(1, state.seats + 1):
        tag = f" {t_(table, 'virtual_tag')}" if state.virtual[seat - 1] else ""
        lines.append(f"{seat_name(table, seat)}{tag}")
    lines.append(t_(table, "in_play", list=variants_list(table, table.settings)))
    lines.append(t_(table, "starts", name=seat_name(table, state.first)))
    lines.append(t_(table, "silence_enforced" if silence else "silence_trust"))
    return {**edit_ref(table, "lobby_msg", "\n".join(lines), None), "side": True}


def card_hint(table: Table, code: str) -> str:
    """One line on what a card means."""
    if code == OBSERVER:
        return t_(table, "hint_observer")
    if code == SPY:
        return t_(table, "hint_spy")
    text = t_(table, "hint_colour", colour=colour_name(table.lang, color(code)))
    if is_x(code) and table.settings["turncoat"]:
        text += "\n" + t_(table, "hint_x_turncoat")
    return text


def private_event(table: Table, event: dict, version: int) -> list[Out]:
    """A private engine event as a message to its seat's player (none for virtual seats)."""
    seat = event["to"]
    user = table.user_at(seat)
    if not user:
        return []
    kind = event["type"]
    title = esc(table.title)
    if kind == "your_card":
        code = event["card"]
        text = "\n".join(
            [
                t_(table, "your_seat", seat=seat, group=title),
                t_(table, "your_card", card=card(table, code)),
                card_hint(table, code),
            ]
        )
        return [send_private(user, text)]
    if kind == "scout_result":
        target = seat_name(table, event["target"])
        return [
            send_private(
                user, t_(table, "scout_result", target=target, card=card(table, event["card"]))
            )
        ]
    if kind == "turncoat_offer":
        scout = seat_name(table, event["scout"])
        kb = [
            [
                game_button(table, "btn_swap", "w", version),
                game_button(table, "btn_keep", "k", version),
            ]
        ]
        return [send_private(user, t_(table, "prompt_turncoat", scout=scout), kb, quiet=True)]
    if kind == "new_card":
        other = seat_name(table, event["source"])
        text = t_(table, "new_card", other=other, card=card(table, event["card"]))
        return [send_private(user, text, quiet=True)]
    if kind == "kept":
        return []
    if kind == "spy_turn":
        kb = seat_keyboard(table, "r", None, version)
        return [send_private(user, t_(table, "prompt_spy_red"), kb, quiet=True)]
    return []


def secret_prompt(table: Table, seat: int) -> list[Out]:
    """The Turncoat's or the Spy's prompt again, when the game waits on `seat` for it."""
    state = table.state
    if waiting_for(state) != seat:
        return []
    version = table.public_version
    if state.phase == TURNCOAT:
        offer = {"type": "turncoat_offer", "to": seat, "scout": state.turn}
        return private_event(table, offer, version)
    if state.phase == SPY_PHASE:
        return private_event(table, {"type": "spy_turn", "to": seat}, version)
    return []


# -- the group's turn message ----------------------------------------------------------------


def turn_line(table: Table, seat: int) -> str:
    """The header of a turn message."""
    return t_(table, "turn_line", name=seat_name(table, seat))


def public_line(table: Table, event: dict) -> str | None:
    """One line of the turn message for a public event."""
    kind = event["type"]
    if kind == "scouted":
        return t_(
            table,
            "scouted_line",
            name=seat_name(table, event["seat"]),
            target=seat_name(table, event["target"]),
        )
    if kind == "speak":
        return t_(table, "speak_line", name=seat_name(table, event["seat"]))
    if kind == "swapped":
        holder, scout = seat_name(table, event["seat"]), seat_name(table, event["scout"])
        code = card(table, event["card"])
        return t_(table, "swapped_line", holder=holder, scout=scout, card=code)
    if kind == "turn_ended":
        if event.get("say"):
            return t_(
                table, "said_line", name=seat_name(table, event["seat"]), say=esc(event["say"])
            )
        return t_(table, "done_line", name=seat_name(table, event["seat"]))
    if kind == "predicted":
        return t_(
            table,
            "predicted_line",
            name=seat_name(table, event["seat"]),
            colour=colour_name(table.lang, event["color"]),
        )
    if kind == "timed_out":
        key = "skipped_line" if event["phase"] == TURN else "speak_over_line"
        return t_(table, key, name=seat_name(table, event["seat"]))
    if kind == "decapitation_announced":
        return t_(table, "announced_line", name=seat_name(table, event["seat"]))
    return None


def board_line(table: Table, spec: list | dict) -> str:
    """One stored line of the turn message in the table's language as of now: a public event,
    ["turn", seat] or ["sealed", seconds]."""
    if isinstance(spec, dict):
        return public_line(table, spec) or ""
    if spec[0] == "turn":
        return turn_line(table, spec[1])
    return t_(table, "sealed_line", s=spec[1])


def board(
    table: Table, shown: dict, seconds: float | None, final: bool = False
) -> tuple[str, Keyboard]:
    """The turn message `shown` (the board as it stood), its text and its buttons."""
    lines = [board_line(table, spec) for spec in shown["lines"]]
    if seconds is not None and not final:
        lines.append(t_(table, "time_left", s=max(int(seconds), 0)))
    me = callbacks.encode(BOARD, table.chat, table.game, 0, "me")
    kb = None if final else [[[t_(table, "btn_my_card"), me]]]
    return "\n".join(lines), kb


def edit_board(table: Table, shown: dict, seconds: float | None, final: bool = False) -> Out:
    """An edit of the turn message `shown` (tagged with it, so that a message posted again in
    its place, when it was deleted, is remembered as the turn message)."""
    text, kb = board(table, shown, seconds, final)
    out = {"op": "edit", "chat": table.chat, "ref": "board", "msg": shown["msg"]}
    return {**out, "text": text, "kb": kb, "tag": shown["tag"]}


# -- private prompts -------------------------------------------------------------------------


def game_button(table: Table, key: str, arg: str, version: int | None = None) -> list[str]:
    """A private game button for `version` of the game (None: as it is now)."""
    version = table.public_version if version is None else version
    return _button(t_(table, key), GAME, table, version, arg)


def seat_keyboard(
    table: Table, prefix: str, exclude: int | None, version: int | None = None
) -> Keyboard:
    """Buttons for the seats, two a row, with `prefix` before the seat number."""
    state = table.state
    version = table.public_version if version is None else version
    buttons = [
        [
            seat_name(table, s).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"),
            callbacks.encode(GAME, table.chat, table.game, version, f"{prefix}{s}"),
        ]
        for s in range(1, state.seats + 1)
        if s != exclude
    ]
    return [buttons[i : i + 2] for i in range(0, len(buttons), 2)]


def turn_prompt(table: Table, seat: int, version: int | None = None) -> tuple[str, Keyboard]:
    """The private 'your turn' message with only the legal choices."""
    title = esc(table.title)
    state = table.state
    row = [game_button(table, "btn_scout", "S", version)]
    why = may_decapitate(state, seat)
    if why is None:
        row.append(game_button(table, "btn_decapitate", "D", version))
        return t_(table, "prompt_turn", group=title), [row]
    if color(state.cards[seat - 1]) is not None:
        return t_(table, "prompt_turn_first", group=title), [row]
    return t_(table, "prompt_turn", group=title), [row]


def speak_prompt(table: Table, seat: int, version: int | None = None) -> tuple[str, Keyboard]:
    """The private 'speak now' message: Done, and for the Observer the predictions."""
    state = table.state
    kb = [[game_button(table, "btn_done", "e", version)]]
    if state.cards[seat - 1] == OBSERVER and state.prediction is None:
        kb.append(
            [
                game_button(table, "btn_predict_red", "pr", version),
                game_button(table, "btn_predict_blue", "pb", version),
            ]
        )
    return t_(table, "prompt_speak"), kb


def prompt(table: Table, version: int | None = None) -> list[Out]:
    """The private prompt for whoever the game now waits on (turn or speaking moment)."""
    state = table.state
    seat = waiting_for(state)
    if seat is None or not table.user_at(seat):
        return []
    if state.phase == TURN:
        text, kb = turn_prompt(table, seat, version)
    elif state.phase == SPEAK:
        text, kb = speak_prompt(table, seat, version)
    else:
        return []
    return [send_private(table.user_at(seat), text, kb)]


def decapitation_menu(table: Table, seat: int, arg: str) -> tuple[str, Keyboard]:
    """The step of the decapitation menu that `arg` (d<target>[p0|1][b0|1]) has reached."""
    target, proxy, guard = parse_decapitation(arg)
    name = seat_name(table, target)
    v = table.state.variants
    base = f"d{target}"
    if v.virtual_players and proxy is None:
        kb = [
            [
                game_button(table, "btn_yes", f"{base}p1"),
                game_button(table, "btn_no", f"{base}p0"),
            ],
            [game_button(table, "btn_back", "D")],
        ]
        return t_(table, "ask_proxy"), kb
    if proxy is not None:
        base += f"p{int(proxy)}"
    if v.bodyguards and guard is None:
        kb = [
            [
                game_button(table, "btn_yes", f"{base}b1"),
                game_button(table, "btn_no", f"{base}b0"),
            ],
            [game_button(table, "btn_back", "D")],
        ]
        return t_(table, "ask_bodyguard", target=name), kb
    if guard is not None:
        base += f"b{int(guard)}"
    decl = ""
    yes_no = {True: t_(table, "btn_yes"), False: t_(table, "btn_no")}
    if proxy is not None:
        decl += t_(table, "decl_proxy", v=yes_no[proxy])
    if guard is not None:
        decl += t_(table, "decl_bodyguard", v=yes_no[guard])
    kb = [
        [game_button(table, "btn_confirm", "x" + base[1:])],
        [game_button(table, "btn_back", "D")],
    ]
    return t_(table, "confirm_decapitation", target=name, decl=decl), kb


def parse_decapitation(arg: str) -> tuple[int, bool | None, bool | None]:
    """(target, proxy, bodyguard) from 'd5', 'd5p1', 'd5p0b1', 'x5b0' ...; ValueError if bad."""
    body = arg[1:]
    proxy = guard = None
    if "b" in body:
        body, _, g = body.partition("b")
        if g not in ("0", "1"):
            raise ValueError(arg)
        guard = g == "1"
    if "p" in body:
        body, _, p = body.partition("p")
        if p not in ("0", "1"):
            raise ValueError(arg)
        proxy = p == "1"
    if not body.isdigit():
        raise ValueError(arg)
    return int(body), proxy, guard


# -- the end ---------------------------------------------------------------------------------


def ending(table: Table, r: dict) -> tuple[str, Keyboard]:
    """The final reveal: every card, captains, set-aside cards, why, neutrals, a timeline."""
    state = table.state
    caps = r["captains"]
    winner = colour_name(table.lang, r["winner"])
    lines = [t_(table, "end_title", colour=winner)]
    yes_no = {True: t_(table, "btn_yes"), False: t_(table, "btn_no")}
    decl = ""
    if r["proxy"] is not None:
        decl += t_(table, "decl_proxy", v=yes_no[r["proxy"]])
    if r["bodyguard"] is not None:
        decl += t_(table, "decl_bodyguard", v=yes_no[r["bodyguard"]])
    cards = r["cards"]
    lines.append(
        t_(
            table,
            "end_attack",
            attacker=seat_name(table, r["attacker"]),
            acard=card(table, cards[r["attacker"] - 1]),
            target=seat_name(table, r["target"]),
            tcard=card(table, cards[r["target"] - 1]),
            decl=decl,
        )
    )
    if r["reasons"]:
        why = "; ".join(t_(table, f"why_{reason}") for reason in r["reasons"])
        lines.append(t_(table, "end_fail", why=why))
    else:
        lines.append(t_(table, "end_success"))
    lines += ["", t_(table, "end_cards")]
    for seat in range(1, state.seats + 1):
        tag = f" {t_(table, 'virtual_tag')}" if state.virtual[seat - 1] else ""
        cap = f" {t_(table, 'captain_tag')}" if seat in caps.values() else ""
        lines.append(f"{seat_name(table, seat)}{tag}: <b>{card(table, cards[seat - 1])}</b>{cap}")
    for colour, seat in caps.items():
        if seat is None:
            lines.append(t_(table, "no_captain", colour=colour_name(table.lang, colour)))
    if r["set_aside"]:
        aside = ", ".join(card(table, c) for c in r["set_aside"])
        lines.append(t_(table, "set_aside_line", cards=aside))
    obs = r.get("observer")
    if obs:
        name = seat_name(table, obs["seat"])
        key = (
            "observer_silent"
            if obs["predicted"] is None
            else "observer_won"
            if obs["won"]
            else "observer_lost"
        )
        lines.append(t_(table, key, name=name))
    spy = r.get("spy")
    if spy:
        name = seat_name(table, spy["seat"])
        if spy["guess"] is None:
            lines.append(t_(table, "spy_silent", name=name))
        elif spy["won"]:
            lines.append(t_(table, "spy_won", name=name))
        else:
            lines.append(
                t_(
                    table,
                    "spy_lost",
                    name=name,
                    red=spy["guess"]["red"],
                    blue=spy["guess"]["blue"],
                )
            )
    lines += ["", t_(table, "timeline")]
    lines += timeline(table)
    kb = [[_button(t_(table, "btn_play_again"), LOBBY, table, 0, "again")]]
    return "\n".join(lines), kb


def timeline(table: Table) -> list[str]:
    """A short public timeline of the game's decisions."""
    lines = []
    for event in events_for(table.state, None):
        if event["type"] in (
            "scouted",
            "swapped",
            "predicted",
            "timed_out",
            "decapitation_announced",
        ):
            line = public_line(table, event)
            if line:
                lines.append(line)
    return lines[-15:]


def status(table: Table) -> str:
    """The /status answer for a running game."""
    state = table.state
    seat = state.turn
    phase = (
        "turn" if state.phase == TURN else "speak" if state.phase != SPY_PHASE else "decapitation"
    )
    if table.data.get("hold") and state.over:
        phase = "decapitation"
    return t_(
        table,
        "status_turn",
        seat=seat,
        name=esc(table.name_of(seat)),
        phase=t_(table, f"phase_{phase}"),
    )


def my_card(table: Table, seat: int, popup: bool) -> str:
    """A player's card and what they know; short enough for a popup when `popup`."""
    state = table.state
    code = state.cards[seat - 1]
    known = known_cards(table.known_state(seat), seat)
    if popup:
        facts = ", ".join(f"{s}:{card(table, c)}" for s, c in known.items() if s != seat)
        text = f"{t_(table, 'your_card', card=card(table, code))} ({seat})"
        text = text.replace("<b>", "").replace("</b>", "")
        return (text + (f" | {facts}" if facts else ""))[:200]
    lines = [
        t_(table, "your_seat", seat=seat, group=esc(table.title)),
        t_(table, "your_card", card=card(table, code)),
        card_hint(table, code),
    ]
    others = {s: c for s, c in known.items() if s != seat}
    if others:
        lines += ["", t_(table, "mycard_learned")]
        lines += [f"{seat_name(table, s)}: {card(table, c)}" for s, c in others.items()]
    return "\n".join(lines)


# -- session events --------------------------------------------------------------------------


def lobby_message(table: Table) -> Out:
    """The edit that makes the lobby message read as it should now: the lobby, or the
    settings menu."""
    if table.data.get("menu"):
        return edit_ref(table, "lobby_msg", *settings_menu(table))
    return edit_lobby(table)


def _cancelled(table: Table, e: dict) -> list[Out]:
    by = e["by"]
    text = t_(table, "cancelled", name=esc(by)) if by else t_(table, "cancelled_idle")
    if e["was_lobby"]:
        return [edit_ref(table, "lobby_msg", text, None)]
    return [send_group(table, text, None)]


def _board_opened(table: Table, e: dict) -> list[Out]:
    out = send_group(table, *board(table, e["board"], e["seconds"]), remember="board")
    return [{**out, "tag": e["board"]["tag"]}]


def _board_shown(table: Table, e: dict) -> list[Out]:
    out = edit_board(table, e["board"], e["seconds"], e["final"])
    return [{**out, "side": True} if e["side"] else out]


def _timed_out(table: Table, e: dict) -> list[Out]:
    text = t_(table, "timed_out_private")
    return [send_private(table.user_at(e["seat"]), text, quiet=e["quiet"])]


def _hurry(table: Table, e: dict) -> list[Out]:
    text = t_(table, "hurry", s=e["seconds"])
    return [send_private(table.user_at(e["seat"]), text, quiet=True)]


def _removed(table: Table, e: dict) -> list[Out]:
    text = t_(table, "removed", group=esc(table.title))
    return [send_private(user, text) for user in e["users"]]


_SHOWN = {
    ev.LOBBY_OPENED: lambda table, e: [send_group(table, *lobby(table), remember="lobby_msg")],
    ev.LOBBY_SHOWN: lambda table, e: [lobby_message(table)],
    ev.LOBBY_EXPIRED: lambda table, e: [
        edit_ref(table, "lobby_msg", t_(table, "lobby_expired"), None)
    ],
    ev.SEATING: lambda table, e: [seating(table, e["silence"])],
    ev.PRIVATE: lambda table, e: private_event(table, e["event"], e["version"]),
    ev.PROMPT: lambda table, e: prompt(table, e["version"]),
    ev.TIMED_OUT: _timed_out,
    ev.HURRY: _hurry,
    ev.BOARD_OPENED: _board_opened,
    ev.BOARD_SHOWN: _board_shown,
    ev.FINISHED: lambda table, e: [send_group(table, *ending(table, e["resolved"]))],
    ev.CANCELLED: _cancelled,
    ev.REMOVED: _removed,
}


def show(table: Table, events: list[dict]) -> list[Out]:
    """The messages that show a change's session events, in order."""
    return [out for e in events for out in _SHOWN[e["type"]](table, e)]
