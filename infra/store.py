"""Durable key-value storage for games, with optimistic concurrency: shared types and helpers
(the backends are `infra.sqlite_store` and `infra.dynamo_store`; `infra.stores` picks one)."""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

# Attribute names as stored in DynamoDB (the SQLite columns mirror them).
PK, VERSION, DATA, EXPIRES_AT = "pk", "version", "data", "expires_at"


@dataclass(frozen=True)
class Item:
    """One stored value and the version it was loaded at.

    `version` 0 means "not stored yet"; every successful save stores `version + 1`.
    Once `expires_at` (epoch seconds) is reached the item counts as gone.
    """

    key: str
    version: int
    data: dict[str, Any]
    expires_at: int | None = None


class Conflict(Exception):
    """The item changed (or appeared) since it was loaded; nothing was written."""

    def __init__(self, key: str | None = None, version: int | None = None) -> None:
        message = "conflict" if key is None else f"{key!r} is no longer at version {version}"
        super().__init__(message)
        self.key = key
        self.version = version


@runtime_checkable
class GameStore(Protocol):
    """Versioned items addressed by key; every write is conditional on the version.

    The concrete stores also count backend calls in `reads` (load) and `writes` (save,
    save_all, delete): a `save_all` is one write call whatever its number of items.
    """

    def load(self, key: str) -> Item | None:
        """Return the live item stored under `key`, or None (expired items are absent)."""
        ...

    def load_many(self, keys: list[str]) -> dict[str, Item | None]:
        """The live items under `keys` (None where absent), in as few backend calls as the
        backend allows (DynamoDB: one)."""
        ...

    def save(self, item: Item) -> Item:
        """Store `item` if `item.version` is the stored version and return it at version + 1.

        Version 0 requires that no live item exists. Raises `Conflict` otherwise.
        """
        ...

    def save_all(self, items: list[Item]) -> list[Item]:
        """Store every item as `save` would, all or none (one transaction): `Conflict`, with
        nothing written, when any of them is not at its version. Returns them as saved."""
        ...

    def delete(self, key: str, version: int) -> None:
        """Delete the live item under `key` if it is at `version`, else raise `Conflict`."""
        ...


def encode_data(data: Mapping[str, Any]) -> str:
    """Compact JSON text for `data`, as stored."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def decode_data(text: str) -> dict[str, Any]:
    """Inverse of `encode_data`."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("stored data is not a JSON object")
    return data


def pack_data(data: Mapping[str, Any]) -> bytes:
    """`data` as DynamoDB stores it: the compact JSON, zlib-compressed (a binary attribute).

    A game's JSON repeats its players' names and its messages' markup; compressed, the
    largest 14-seat game item stays near 2 KB, so no save costs more than two write units.
    """
    return zlib.compress(encode_data(data).encode(), 6)


def unpack_data(value: Mapping[str, Any]) -> dict[str, Any]:
    """The data of a stored DynamoDB attribute value, binary as `pack_data` wrote it (bytes, or
    base64 text as the wire carries it)."""
    blob = value["B"]
    if isinstance(blob, str):
        blob = base64.b64decode(blob)
    return decode_data(zlib.decompress(blob).decode())


UNDECODED = "undecoded"  # the one key of the data of an item whose stored bytes are no item


def undecoded(raw: bytes | str, error: Exception) -> dict[str, Any]:
    """The data of an item whose stored form could not be decoded: its bytes (base64) and why,
    so that its reader sets it aside, rather than every load of it failing."""
    blob = raw.encode(errors="replace") if isinstance(raw, str) else bytes(raw)
    reason = f"{type(error).__name__}: {error}"[:500]
    return {UNDECODED: {"raw": base64.b64encode(blob).decode(), "error": reason}}


def decoded_or_not(decode: Callable[[Any], dict[str, Any]], raw: Any) -> dict[str, Any]:
    """`decode(raw)`, or, when the stored form is no item, `undecoded`."""
    try:
        return decode(raw)
    except (ValueError, UnicodeError, RecursionError, zlib.error, KeyError, TypeError) as error:
        stored = raw.get("B", b"") if isinstance(raw, Mapping) else raw
        return undecoded(stored if isinstance(stored, (bytes, str)) else repr(stored), error)


def is_expired(expires_at: int | None, now: float) -> bool:
    """Whether an item with this expiry is gone at time `now` (epoch seconds)."""
    return expires_at is not None and expires_at <= now


def check_item(item: Item) -> None:
    """Reject items that no backend could store."""
    if not item.key:
        raise ValueError("item key must not be empty")
    if item.version < 0:
        raise ValueError(f"item version must be >= 0, not {item.version}")
    if not isinstance(item.data, Mapping):
        raise TypeError("item data must be a mapping")
    if item.expires_at is not None and not isinstance(item.expires_at, int):
        raise TypeError("expires_at must be whole epoch seconds (an int) or None")


def _number_size(value: int) -> int:
    """Bytes DynamoDB charges for a number: one per two significant digits, plus one."""
    digits = str(abs(value)).strip("0") or "0"
    return (len(digits) + 1) // 2 + 1


def size_of(item: Item) -> int:
    """Bytes the item occupies in DynamoDB terms: attribute names plus values (the key in
    UTF-8, the data as `pack_data` compresses it).

    Counts the stored (next) version number, which has the same size in practice.
    """
    size = len(PK) + len(item.key.encode())
    size += len(VERSION) + _number_size(item.version + 1)
    size += len(DATA) + len(pack_data(item.data))
    if item.expires_at is not None:
        size += len(EXPIRES_AT) + _number_size(item.expires_at)
    return size
