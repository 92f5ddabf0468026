"""Decisions a seat can make, in the record format's vocabulary, and the error for illegal ones."""

from __future__ import annotations

import re
from typing import NamedTuple

from engine.cards import ALL_CARDS

SCOUT = "scout"
SWAP = "swap"
KEEP = "keep"
END_TURN = "end_turn"
PREDICT = "predict"
DECAPITATE = "decapitate"
SPY_GUESS = "spy_guess"
TIMEOUT = "timeout"
REMOVE = "remove"  # the seat's player was removed: the seat is virtual from now on

# One-letter codes keep the stored game small (every save must stay under 3 KB).
_CODE = {
    SCOUT: "s",
    SWAP: "w",
    KEEP: "k",
    END_TURN: "e",
    PREDICT: "p",
    DECAPITATE: "d",
    SPY_GUESS: "g",
    TIMEOUT: "t",
    REMOVE: "r",
}
_ACT = {code: act for act, code in _CODE.items()}
_CLAIM = re.compile(rf"(0|[1-9][0-9]?):({'|'.join(ALL_CARDS)})")
_PACKED_ONLY_WHEN_SET = ("claim",)  # a trailing field packed only when made, so older forms stay
_FIELDS = {
    SCOUT: ("seat", "target"),
    SWAP: ("seat",),
    KEEP: ("seat",),
    END_TURN: ("seat", "say", "claim"),
    PREDICT: ("seat", "color"),
    DECAPITATE: ("seat", "target", "proxy", "bodyguard"),
    SPY_GUESS: ("seat", "red", "blue"),
    TIMEOUT: (),
    REMOVE: ("seat",),
}


class IllegalAction(ValueError):
    """An action the rules do not allow now; the game is unchanged."""


class Action(NamedTuple):
    """One decision; fields that do not apply to `act` stay None. Immutable."""

    act: str
    seat: int | None = None
    target: int | None = None
    proxy: bool | None = None
    bodyguard: bool | None = None
    color: str | None = None
    red: int | None = None
    blue: int | None = None
    say: str | None = None
    claim: str | None = None  # "<seat>:<card>", what the speaker says that seat holds

    def to_dict(self) -> dict:
        """The record format's object for this decision."""
        out: dict = {}
        if self.seat is not None:
            out["seat"] = self.seat
        out["act"] = self.act
        for name in _FIELDS[self.act][1:]:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    @classmethod
    def from_dict(cls, data: object) -> Action:
        """Read one record action; raises ValueError on anything malformed."""
        if not isinstance(data, dict):
            raise ValueError("an action must be an object")
        act = data.get("act")
        if not isinstance(act, str) or act not in _FIELDS:
            raise ValueError(f"unknown act {act!r}")
        allowed = {"act", *_FIELDS[act]}
        extra = sorted(set(data) - allowed)
        if extra:
            raise ValueError(f"{act} does not take {', '.join(map(repr, extra))}")
        values = {k: data[k] for k in data if k != "act"}
        for key in ("seat", "target", "red", "blue"):
            if key in values and type(values[key]) is not int:
                raise ValueError(f"{key} must be a seat number")
        for key in ("proxy", "bodyguard"):
            if key in values and type(values[key]) is not bool:
                raise ValueError(f"{key} must be true or false")
        if "color" in values and values["color"] not in ("red", "blue"):
            raise ValueError("color must be red or blue")
        if "say" in values and not isinstance(values["say"], str):
            raise ValueError("say must be text")
        if "claim" in values and claimed(values["claim"]) is None:
            raise ValueError("claim must read <seat>:<card>, like 5:R1")
        if act != TIMEOUT and "seat" not in values:
            raise ValueError(f"{act} needs a seat")
        for key in {
            "scout": ("target",),
            "predict": ("color",),
            "decapitate": ("target",),
            "spy_guess": ("red", "blue"),
        }.get(act, ()):
            if key not in values:
                raise ValueError(f"{act} needs {key}")
        return cls(act=act, **values)

    def stray_fields(self) -> list[str]:
        """Fields set that this kind of decision does not take."""
        if self.act not in _FIELDS:
            return []
        allowed = _FIELDS[self.act]
        return [n for n in self._fields[1:] if n not in allowed and getattr(self, n) is not None]

    def pack(self) -> str:
        """A short text form for storage, like `s1,5` or `e4,5:R1` (code, then the fields; no
        speech; a claim only when one was made)."""
        names = [
            n
            for n in _packed_fields(self.act)
            if getattr(self, n) is not None or (n not in _PACKED_ONLY_WHEN_SET)
        ]
        return _CODE[self.act] + ",".join(_pack_value(getattr(self, n)) for n in names)

    @classmethod
    def unpack(cls, packed: str, say: str | None = None) -> Action:
        """Inverse of `pack` (the speech, if any, is stored beside it)."""
        act = _ACT[packed[0]]
        names = _packed_fields(act)
        parts = packed[1:].split(",") if names else []
        if len(parts) > len(names) or any(
            n not in _PACKED_ONLY_WHEN_SET for n in names[len(parts) :]
        ):
            raise ValueError(f"cannot unpack {packed!r}")
        values = {n: _UNPACKED.get(p, p) for n, p in zip(names, parts, strict=False)}
        for name in ("seat", "target", "red", "blue"):
            if values.get(name) not in (None, ""):
                values[name] = int(values[name])
        values = {n: v for n, v in values.items() if v != ""}
        if say is not None:
            values["say"] = say
        return cls(act=act, **values)


def claimed(claim: object) -> tuple[int, str] | None:
    """The seat and card a claim names (`"5:R1"` -> (5, "R1")), or None if it is malformed."""
    match = _CLAIM.fullmatch(claim) if isinstance(claim, str) else None
    return (int(match[1]), match[2]) if match else None


def _packed_fields(act: str) -> list[str]:
    return [n for n in _FIELDS[act] if n != "say"]


def _pack_value(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "y" if value else "n"
    return {"red": "r", "blue": "b"}.get(value, str(value))


_UNPACKED = {"y": True, "n": False, "r": "red", "b": "blue"}
