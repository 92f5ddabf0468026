"""The stored form of a game state: a compact JSON dict, read back by replaying its log."""

from __future__ import annotations

from engine.actions import Action
from engine.state import GameState, start_state
from engine.turns import replay
from engine.variants import Variants

SCHEMA = 1


class NewerForm(ValueError):
    """A stored form newer than this code writes: left as it is for the release that wrote it
    (never read as an older form, never set aside, never overwritten)."""


def newer_form(form: object, known: int, what: str) -> None:
    """Raise `NewerForm` when `form`, a stored part's version, is newer than `known`."""
    if isinstance(form, int) and form > known:
        raise NewerForm(f"{what} in form {form}; this release reads up to {known}")


def state_to_dict(state: GameState) -> dict:
    """A compact JSON-serializable form of `state` (see `state_from_dict`)."""
    # Everything else is derived by replaying the log; storing it would only cost bytes.
    return {
        "schema": SCHEMA,
        "version": state.version,
        "variants": {k: v for k, v in state.variants.to_dict().items() if v},
        "names": list(state.names),
        "virtual": [i for i, v in enumerate(state.virtual, 1) if v],
        "deal": list(state.deal),
        "set_aside": list(state.set_aside),
        "first": state.first,
        "seed": state.seed,
        "log": ";".join(a.pack() for a in state.log),
        "say": {str(i): a.say for i, a in enumerate(state.log) if a.say},
    }


def state_from_dict(data: dict) -> GameState:
    """Rebuild a state from `state_to_dict` output by replaying its log."""
    newer_form(data.get("schema"), SCHEMA, "a game state's schema")
    if data.get("schema") != SCHEMA:
        raise ValueError(f"unsupported schema {data.get('schema')!r}")
    virtual_seats = set(data["virtual"])
    start = start_state(
        variants=Variants.from_dict(data["variants"]),
        names=tuple(data["names"]),
        virtual=tuple(i in virtual_seats for i in range(1, len(data["names"]) + 1)),
        deal=tuple(data["deal"]),
        set_aside=tuple(data["set_aside"]),
        first=data["first"],
        seed=data.get("seed"),
    )
    says = data.get("say") or {}
    packed = data["log"].split(";") if data["log"] else []
    state = replay(start, [Action.unpack(p, says.get(str(i))) for i, p in enumerate(packed)])
    if state.version != data["version"]:
        raise ValueError("stored version does not match the replayed log")
    return state
