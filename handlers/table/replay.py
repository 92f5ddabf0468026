"""A finished game step by step, every card shown: the replay the table offers after the end,
built from the game's record (which the bot gives anyone who asks once the game is over). A
step may be a seat's removal (the engine's `remove`): from it on, that seat plays as a virtual
one, and each step lists the seats removed so far."""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action
from engine.records import deal_from_record
from engine.state import GameState
from engine.turns import apply, waiting_for
from handlers.table.view import SCHEMA, view_version

# How a step is put into words: (the game before it, the decision) -> one line.
Describe = Callable[[GameState, Action], str]


def replay_view(record: dict, *, lang: str, selector: str, title: str, describe: Describe) -> dict:
    """The replay of a finished game's `record`; raises engine.BadRecord (a ValueError) for a
    record that is not a finished game."""
    state = deal_from_record(record)
    steps = []
    for data in record.get("actions", []):
        action = Action.from_dict(data)
        text = describe(state, action)
        state, _ = apply(state, action)
        steps.append(
            {
                "action": action.to_dict(),
                "text": text,
                "cards": list(state.cards),
                "waiting": waiting_for(state),
                "removed": sorted(state.removed),  # seats played as virtual ones from then on
            }
        )
    if state.outcome is None:
        raise ValueError("the game is not over")
    replay = {
        "schema": SCHEMA,
        "lang": lang,
        "game": {"g": selector, "title": title},
        "variants": list(state.variants.names_on()),
        "seats": [
            {"seat": s, "name": n, "virtual": v, "card": c}
            for s, (n, v, c) in enumerate(
                zip(state.names, state.virtual, state.deal, strict=True), 1
            )
        ],
        "set_aside": list(state.set_aside),
        "first": state.first,
        "steps": steps,
        "result": {
            "winner": state.outcome.winner,
            "captains": state.outcome.captains,
            "reasons": list(state.outcome.reasons),
        },
    }
    return {**replay, "version": view_version(replay)}
