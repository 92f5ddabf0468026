"""What the reveal says once the game is over, beyond its cards: who knew what and when, and
the floor open again."""

from __future__ import annotations

from engine.aftermath import (
    PREDICTION,
    SCOUTED,
    SPY_GUESS,
    TOOK_X,
    TURNCOAT_KEPT,
    TURNCOAT_SWAPPED,
    Fact,
    knowable_from,
    learned_by,
)
from engine.cards import number
from handlers.display.render.common import card, joined, labelled, seat_name, t_
from handlers.display.texts import colour_name
from handlers.session.table import Table

MOST_FACTS = 6  # a player's last facts told (a long game keeps the reveal in one message)


def floor_lines(table: Table) -> list[str]:
    """The silence the bot kept (deleting what was said out of turn) lifted, where it kept it."""
    return [t_(table, "floor_open")] if table.silent else []


def aftermath_lines(table: Table) -> list[str]:
    """One line per human player (the bot seats have their own lines): what each learned, turn
    by turn; then when the pooled scouts decided both captains, or "never"."""
    state = table.state
    facts = learned_by(state)
    lines = ["", t_(table, "aftermath_title")]
    for seat in state.humans():
        if table.bots.is_bot(seat):
            continue
        told = [fact_text(table, f) for f in facts[seat][-MOST_FACTS:]]
        said = joined(table, told, "clause") if told else t_(table, "am_nothing")
        lines.append(labelled(table, seat_name(table, seat), said))
    turn = knowable_from(state)
    lines.append(t_(table, "am_never") if turn is None else t_(table, "am_knowable", turn=turn))
    return lines


def fact_text(table: Table, fact: Fact) -> str:
    """One fact in a few words."""
    kind, turn = fact.kind, fact.turn
    if kind == SCOUTED:
        seen = card(table, fact.card)
        if table.state.variants.bodyguards and number(fact.card) == 3:
            seen += t_(table, "am_bodyguard")
        return t_(table, "am_scouted", turn=turn, seat=fact.seat, card=seen)
    if kind == TURNCOAT_SWAPPED:
        return t_(table, "am_swapped", turn=turn, seat=fact.seat, card=card(table, fact.card))
    if kind == TOOK_X:
        return t_(table, "am_took_x", turn=turn, seat=fact.seat)
    if kind == TURNCOAT_KEPT:
        return t_(table, "am_kept", turn=turn, seat=fact.seat)
    if kind == PREDICTION:
        return t_(table, "am_predicted", turn=turn, colour=colour_name(table.lang, fact.colour))
    assert kind == SPY_GUESS
    red, blue = fact.seats
    return t_(table, "am_guessed", turn=turn, red=red, blue=blue)
