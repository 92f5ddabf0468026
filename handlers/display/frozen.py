"""An immutable record of a few fields, light to import: what a press is made of."""

from __future__ import annotations

import inspect
from dataclasses import FrozenInstanceError
from typing import ClassVar


class Frozen:
    """An immutable record of its annotated fields (a class value is the default), equal and
    hashed by its values like a frozen dataclass, without one's generated code at import."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, object]] = {}
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:
        names = tuple(inspect.get_annotations(cls))
        cls._fields = cls.__match_args__ = names
        cls._defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}

    def __init__(self, *args: object, **kwargs: object) -> None:
        names = self._fields
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__} takes {len(names)} fields, got {len(args)}")
        values = dict(zip(names, args, strict=False))
        for name, value in kwargs.items():
            if name not in names or name in values:
                raise TypeError(f"{type(self).__name__}: unexpected or repeated field {name!r}")
            values[name] = value
        for name in names:
            if name not in values:
                if name not in self._defaults:
                    raise TypeError(f"{type(self).__name__} is missing the field {name!r}")
                values[name] = self._defaults[name]
        self.__dict__.update(values)

    def _values(self) -> tuple[object, ...]:
        return tuple(self.__dict__[name] for name in self._fields)

    def replace(self, **changes: object) -> Frozen:
        """A copy with `changes` made."""
        return type(self)(**{**self.__dict__, **changes})

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"
