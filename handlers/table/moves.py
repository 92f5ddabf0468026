"""The table's moves: a POST body read strictly, a move turned into the engine's decision, and
the moves a seat may make now, as the view lists them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from engine.actions import (
    DECAPITATE,
    END_TURN,
    KEEP,
    PREDICT,
    SCOUT,
    SPY_GUESS,
    SWAP,
    Action,
)
from engine.cards import COLORS

MAX_BODY = 2048
DONE = "done"  # the table's word for ending one's turn (the engine's end_turn)
KINDS = (SCOUT, DONE, DECAPITATE, SWAP, KEEP, PREDICT, SPY_GUESS)
_FIELDS = {
    SCOUT: {"target"},
    DONE: set(),
    DECAPITATE: {"target", "proxy", "bodyguard"},
    SWAP: set(),
    KEEP: set(),
    PREDICT: {"color"},
    SPY_GUESS: {"red", "blue"},
}
_REQUIRED = {
    SCOUT: {"target"},
    DECAPITATE: {"target"},
    PREDICT: {"color"},
    SPY_GUESS: {"red", "blue"},
}
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


class BadRequest(ValueError):
    """A body that is no move request; nothing is looked up or changed (400)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One decision as the page sends it."""

    kind: str
    target: int | None = None
    proxy: bool | None = None
    bodyguard: bool | None = None
    color: str | None = None
    red: int | None = None
    blue: int | None = None


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """A POST /api/move body: the game, the page's own id for this move (a retry sends the
    same), the view version it was made on, and the move."""

    selector: str
    move_id: str
    version: str
    move: Move


def read_move_request(body: bytes) -> MoveRequest:
    """The move request in `body`; raises BadRequest on anything else."""
    if len(body) > MAX_BODY:
        raise BadRequest("body too long")
    try:
        data = json.loads(body)
    except ValueError:
        raise BadRequest("not JSON") from None
    if not isinstance(data, dict) or set(data) != {"g", "move_id", "version", "move"}:
        raise BadRequest("needs exactly g, move_id, version and move")
    for key in ("g", "move_id", "version"):
        if not isinstance(data[key], str) or not _TOKEN.fullmatch(data[key]):
            raise BadRequest(f"{key} must be 1-64 letters, digits, _ or -")
    return MoveRequest(data["g"], data["move_id"], data["version"], _read_move(data["move"]))


def _read_move(data: object) -> Move:
    if not isinstance(data, dict) or data.get("kind") not in KINDS:
        raise BadRequest("unknown move")
    kind = data["kind"]
    values = {k: v for k, v in data.items() if k != "kind"}
    if set(values) - _FIELDS[kind] or _REQUIRED.get(kind, set()) - set(values):
        raise BadRequest(f"{kind} takes {sorted(_FIELDS[kind])}")
    for key in ("target", "red", "blue"):
        if key in values and (type(values[key]) is not int or not 1 <= values[key] <= 99):
            raise BadRequest(f"{key} must be a seat number")
    for key in ("proxy", "bodyguard"):
        if key in values and type(values[key]) is not bool:
            raise BadRequest(f"{key} must be true or false")
    if "color" in values and values["color"] not in COLORS:
        raise BadRequest("color must be red or blue")
    return Move(kind, **values)


def to_action(move: Move, seat: int) -> Action:
    """The engine's decision for `move` made by `seat` (the engine judges whether it is legal)."""
    act = END_TURN if move.kind == DONE else move.kind
    fields = ("target", "proxy", "bodyguard", "color", "red", "blue")
    return Action(act, seat, **{f: getattr(move, f) for f in fields})


def moves_for(actions: list[Action], scout: int | None = None) -> dict:
    """The view's `moves`: what a seat may do now, from the engine's legal decisions for it
    (`scout`: who scouted a Turncoat being offered the swap). Empty when it waits."""
    moves: dict = {}
    acts = {a.act for a in actions}
    scouts = sorted({a.target for a in actions if a.act == SCOUT})
    if scouts:
        moves[SCOUT] = scouts
    strikes = [a for a in actions if a.act == DECAPITATE]
    if strikes:
        declare = [d for d in ("proxy", "bodyguard") if getattr(strikes[0], d) is not None]
        moves[DECAPITATE] = {"targets": sorted({a.target for a in strikes}), "declare": declare}
    if END_TURN in acts:
        moves[DONE] = {}
    colors = [a.color for a in actions if a.act == PREDICT]
    if colors:
        moves[PREDICT] = {"colors": colors}
    if SWAP in acts:
        moves[SWAP] = {"with": scout}
        moves[KEEP] = {}
    guesses = sorted({a.red for a in actions if a.act == SPY_GUESS})
    if guesses:
        moves[SPY_GUESS] = {"seats": guesses}
    return moves
