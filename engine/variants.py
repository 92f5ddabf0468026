"""The seven optional variants of the rule card, as one immutable settings object."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

VARIANT_NAMES = (
    "virtual_players",
    "no_first_round_decapitation",
    "uncertain_sides",
    "turncoat",
    "bodyguards",
    "observer",
    "spy",
)


@dataclass(frozen=True, slots=True)
class Variants:
    """Which optional rules are on; everything off by default."""

    virtual_players: int = 0
    no_first_round_decapitation: bool = False
    uncertain_sides: bool = False
    turncoat: bool = False
    bodyguards: bool = False
    observer: bool = False
    spy: bool = False

    def to_dict(self) -> dict:
        """Every switch, as the record format writes it."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Variants:
        """Read the record format's `variants` object; unknown keys and bad types are errors."""
        if not isinstance(data, dict):
            raise ValueError("variants must be an object")
        known = {f.name for f in fields(cls)}
        for key, value in data.items():
            if key not in known:
                raise ValueError(f"unknown variant {key!r}")
            if key == "virtual_players":
                if type(value) is not int or not 0 <= value <= 2:
                    raise ValueError("virtual_players must be 0, 1 or 2")
            elif type(value) is not bool:
                raise ValueError(f"variant {key} must be true or false")
        return cls(**data)

    def names_on(self) -> tuple[str, ...]:
        """The names of the variants in play, in the card's order."""
        return tuple(n for n in VARIANT_NAMES if getattr(self, n))
