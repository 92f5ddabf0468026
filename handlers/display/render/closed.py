"""A private prompt closed when its wait ends: its buttons gone, its text saying what happened,
in its player's own language."""

from __future__ import annotations

from dataclasses import replace

from engine.actions import DECAPITATE, PREDICT, SCOUT, SPY_GUESS, SWAP, TIMEOUT
from handlers.display.ids import Ids, prompt_ref
from handlers.display.messages import Edit
from handlers.display.render.common import Out, seat_name, t_
from handlers.display.render.prompts import kept_buttons, scout_result, told_above
from handlers.display.texts import colour_name
from handlers.session.table import Table


def closed_text(table: Table, outcome: dict) -> str:
    """What a closed prompt says: what its player decided, or how the wait ended (`table`
    speaking the player's language)."""
    act = outcome["act"]
    if act == SCOUT:
        return t_(table, "closed_scout", target=seat_name(table, outcome["target"]))
    if act == DECAPITATE:
        return t_(
            table,
            "closed_decapitate",
            target=seat_name(table, outcome["target"]),
            decl=declarations(table, outcome.get("proxy"), outcome.get("bodyguard")),
        )
    if act == SWAP:
        return t_(table, "closed_swap", scout=seat_name(table, outcome["scout"]))
    if act == PREDICT:
        return t_(table, "closed_predict", colour=colour_name(table.lang, outcome["color"]))
    if act == SPY_GUESS:  # the whole sealed guess: its two questions were one prompt
        red, blue = seat_name(table, outcome["red"]), seat_name(table, outcome["blue"])
        return t_(table, "spy_sealed", red=red, blue=blue)
    if act == TIMEOUT:
        return t_(table, f"closed_timeout_{outcome.get('phase') or 'turn'}")
    return t_(table, f"closed_{act}")  # keep, end_turn, cancelled, over


def declarations(table: Table, proxy: bool | None, guard: bool | None) -> str:
    """A decapitation's declarations, as its confirmation asked them."""
    yes_no = {True: t_(table, "btn_yes"), False: t_(table, "btn_no")}
    decl = ""
    if proxy is not None:
        decl += t_(table, "decl_proxy", v=yes_no[proxy])
    if guard is not None:
        decl += t_(table, "decl_bodyguard", v=yes_no[guard])
    return decl


def closed_prompt(table: Table, ids: Ids, e: dict) -> list[Out]:
    """A `prompt_closed` session event: the prompt edited in place, with no buttons (but the
    table's, under a card it tells). Should it not be known or be gone, a wait that ran out is
    told in a message of its own (`tell`); anything else is left as it is."""
    user = e["user"]
    speaking = table.speaking_to(user)
    result = e.get("result")  # a scout's, shown where they scouted from
    text = scout_result(speaking, result) if result else closed_text(speaking, e["outcome"])
    shows = e.get("shows")  # what it told above its question: the card, what the scout saw
    if shows:
        text = told_above(speaking, shows) + "\n" + text
    msg = ids.closing_prompt(prompt_ref(user, e["tag"]))
    ref = prompt_ref(user, e["tag"]) if e["tag"] is not None else None
    kb = kept_buttons(speaking, shows)
    closed = Edit(user, text, kb, msg=msg, ref=ref, private=True, protect=True)
    # In place, it needs no turn in the chat's order.
    return [replace(closed, side=True, close=True, tell=e["tell"], quiet=e["quiet"])]
