"""The pieces every message is made of: texts, names, envelopes and buttons."""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from typing import Any

from engine.state import GameState
from handlers.display import presses
from handlers.display.ids import Ids
from handlers.display.messages import Edit, Keyboard, Out, Send
from handlers.display.presses import PROMPT, Button, Press
from handlers.display.texts import PRACTICE_WORDING, card_name, t
from handlers.session.table import Table

__all__ = ["Keyboard", "Out"]


def t_(table: Table, key: str, **kw: Any) -> str:
    """A text in the table's language (a practice game's wording where a group's would not
    fit its one chat)."""
    if table.practice:
        key = PRACTICE_WORDING.get(key, key)
    return t(table.lang, key, **kw)


def esc(text: str) -> str:
    """User-supplied text made safe for HTML parse mode."""
    return html.escape(text, quote=False)


def isolate(text: str) -> str:
    """Text set apart from what surrounds it (FIRST STRONG ISOLATE ... POP DIRECTIONAL
    ISOLATE): an Arabic or Hebrew name followed by digits cannot reorder the line."""
    return f"\u2068{text}\u2069"


def shown_name(name: str) -> str:
    """A name a user chose (a player's, a group's title), escaped and isolated."""
    return isolate(esc(name))


def group_title(table: Table) -> str:
    """The group's title as messages show it ("Practice" for a practice game's chat)."""
    return shown_name(t_(table, "practice_title") if table.practice else table.title)


def joined(table: Table, parts: list[str], kind: str = "list") -> str:
    """Parts joined as the table's language joins a list ("list": ", " or "、") or clauses
    ("clause": "; " or "；")."""
    return t_(table, f"sep_{kind}").join(parts)


def labelled(table: Table, label: str, value: str) -> str:
    """'label: value' punctuated in the table's language."""
    return t_(table, "labelled", label=label, value=value)


def first_round(state: GameState, seat: int) -> bool:
    """True while `seat` may not decapitate because of the first-round rule (public: whether a
    seat has acted is seen by all)."""
    return state.variants.no_first_round_decapitation and not state.acted[seat - 1]


def seat_name(table: Table, seat: int) -> str:
    """'3. Ann' in the table's language, the name escaped and isolated."""
    return t_(table, "seat_label", seat=seat, name=shown_name(table.name_of(seat)))


def card(table: Table, code: str) -> str:
    """A card's name in the table's language."""
    return card_name(table.lang, code)


def send_group(table: Table, text: str, kb: Keyboard, remember: str | None = None) -> Send:
    """A new message in the group."""
    return Send(table.chat, text, kb, remember=remember)


def send_private(user: int, text: str, kb: Keyboard = None, quiet: bool = False) -> Send:
    """A new private message, protected from forwarding.

    `quiet`: part of a secret wait (the Turncoat's, the Spy's); if it cannot be delivered the
    group is not told, as naming its player would give the secret away.
    """
    return Send(user, text, kb, private=True, protect=True, quiet=quiet)


def edit_ref(table: Table, ids: Ids, ref: str, text: str, kb: Keyboard) -> Edit:
    """An edit of the group message remembered by `ref` (its id, as far as `ids` know)."""
    return Edit(table.chat, text, kb, msg=ids.of(ref), ref=ref)


def button(label: str, where: str, table: Table, version: int, press: Press) -> list[str]:
    """A button labelled `label`, sitting `where`, pressing `press` in the table's game (made
    for its `version`)."""
    return [label, presses.encode(Button(where, table.chat, table.game, version, press))]


def bot_link(bot: str, payload: str) -> str:
    """The deep link that opens the private chat of the bot named `bot` and asks it for
    `payload` (when its Start is pressed)."""
    return f"https://t.me/{bot}?start={payload}"


def join_url(table: Table, bot: str) -> str:
    """The deep link that opens the bot's private chat and joins this lobby."""
    return bot_link(bot, presses.join_payload(table.chat, table.game))


def start_url(bot: str) -> str:
    """The link that opens the bot's private chat (pressing Start there lets it write)."""
    return bot_link(bot, "hi")


def time_of_day(table: Table, when: float) -> str:
    """A moment as the reader's app shows it, in their own time zone (in UTC, in the table's
    language, where it cannot)."""
    moment = time.gmtime(when)
    shown = t_(table, "clock_utc", h=f"{moment.tm_hour:02}", m=f"{moment.tm_min:02}")
    return f'<tg-time unix="{int(when)}" format="t">{shown}</tg-time>'


def game_button(table: Table, key: str, press: Press, version: int | None = None) -> list[str]:
    """A private game button for `version` of the game (None: as it is now)."""
    version = table.public_version if version is None else version
    return button(t_(table, key), PROMPT, table, version, press)


def seat_keyboard(
    table: Table,
    press: Callable[[int], Press],
    exclude: int | None,
    version: int | None = None,
    where: str = PROMPT,
    also: tuple[int, ...] = (),
) -> Keyboard:
    """Buttons for the seats but `exclude` (and `also`), two a row, each pressing `press(seat)`
    (on a private prompt by default; `where` BOARD: on the group's turn message)."""
    state = table.state
    version = table.public_version if version is None else version
    buttons = [
        button(
            seat_name(table, s).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"),
            where,
            table,
            version,
            press(s),
        )
        for s in range(1, state.seats + 1)
        if s != exclude and s not in also
    ]
    return [buttons[i : i + 2] for i in range(0, len(buttons), 2)]


def spy_keyboard(
    table: Table, press: Callable[[int], Press], spy: int, version: int | None = None
) -> Keyboard:
    """The seats the Spy may name as a captain (`spy_choices`), two a row."""
    named = spy_choices(table, spy)
    others = tuple(s for s in range(1, table.state.seats + 1) if s not in named)
    return seat_keyboard(table, press, spy, version, also=others)


def spy_choices(table: Table, spy: int) -> list[int]:
    """The seats the Spy may name as a captain, in the chat and on the table view: none is the
    Spy's own, nor an Observer who revealed themselves by predicting."""
    revealed = table.state.prediction
    unlike = {spy, revealed[0]} if revealed else {spy}
    return [s for s in range(1, table.state.seats + 1) if s not in unlike]
