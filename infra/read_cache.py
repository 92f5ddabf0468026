"""A store wrapper that reads each item from its backend at most once per update (inside
`scope()`); every write stays conditional on the version."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from infra.store import GameStore, Item, decode_data, encode_data

_ABSENT = None


class ReadCache:
    """A `GameStore` over `backend` that remembers items for the length of one `scope()`."""

    def __init__(self, backend: GameStore) -> None:
        self.backend = backend
        self._items: dict[str, tuple[int, str, int | None] | None] | None = None

    @contextmanager
    def scope(self) -> Iterator[None]:
        """Remember loads and saves until the block ends (one update's handling)."""
        self._items = {}
        try:
            yield
        finally:
            self._items = None

    @property
    def reads(self) -> int:
        """Loads that reached the backend."""
        return self.backend.reads  # type: ignore[attr-defined]

    @property
    def writes(self) -> int:
        """Saves and deletes that reached the backend."""
        return self.backend.writes  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.backend, name)

    def load(self, key: str) -> Item | None:
        """The item under `key`: from this scope's memory when seen, else from the backend.

        Every load returns its own copy of the data, so a caller may change it freely.
        """
        items = self._items
        if items is not None and key in items:
            kept = items[key]
            if kept is _ABSENT:
                return None
            version, text, expires_at = kept
            return Item(key, version, decode_data(text), expires_at)
        item = self.backend.load(key)
        if items is not None:
            items[key] = self._keep(item)
        return item

    def load_many(self, keys: list[str]) -> dict[str, Item | None]:
        """The items under `keys`: those not seen in this scope in one backend call."""
        many = getattr(self.backend, "load_many", None)
        items = self._items
        if items is None:
            return many(keys) if many else {k: self.backend.load(k) for k in dict.fromkeys(keys)}
        unseen = [key for key in dict.fromkeys(keys) if key not in items]
        if len(unseen) > 1 and many is not None:
            fetched = many(unseen)
        else:
            fetched = {key: self.backend.load(key) for key in unseen}
        for key, item in fetched.items():
            items[key] = self._keep(item)
        return {key: self.load(key) for key in dict.fromkeys(keys)}

    def save(self, item: Item) -> Item:
        """Save through the backend; remember the saved item, or forget the key on a `Conflict`."""
        try:
            saved = self.backend.save(item)
        except BaseException:  # a Conflict, or a failure after which the item is unknown
            self._forget(item.key)
            raise
        if self._items is not None:
            self._items[item.key] = self._keep(saved)
        return saved

    def save_all(self, items: list[Item]) -> list[Item]:
        """Save all through the backend; remember what was saved, or forget every key."""
        try:
            saved = self.backend.save_all(items)
        except BaseException:
            for item in items:
                self._forget(item.key)
            raise
        if self._items is not None:
            for item in saved:
                self._items[item.key] = self._keep(item)
        return saved

    def delete(self, key: str, version: int) -> None:
        """Delete through the backend and forget the key."""
        try:
            self.backend.delete(key, version)
        finally:
            self._forget(key)

    def _forget(self, key: str) -> None:
        if self._items is not None:
            self._items.pop(key, None)

    @staticmethod
    def _keep(item: Item | None) -> tuple[int, str, int | None] | None:
        if item is None:
            return _ABSENT
        return item.version, encode_data(item.data), item.expires_at
