"""The faults the AWS proxy plays (testing/aws_proxy.py): which DynamoDB requests they match,
what each does, and the items a write touches."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PUT_ITEM = "DynamoDB_20120810.PutItem"
DELETE_ITEM = "DynamoDB_20120810.DeleteItem"
UPDATE_ITEM = "DynamoDB_20120810.UpdateItem"
TRANSACT_WRITE_ITEMS = "DynamoDB_20120810.TransactWriteItems"
PLAIN_WRITES = frozenset({PUT_ITEM, DELETE_ITEM, UPDATE_ITEM})
# DynamoDB's answer to a plain write on an item an ongoing transaction holds.
CONFLICT_TYPE = "com.amazonaws.dynamodb.v20120810#TransactionConflictException"
CONFLICT_MESSAGE = "Transaction is ongoing for the item"
CANCELLED_TYPE = "com.amazonaws.dynamodb.v20120810#TransactionCanceledException"
KEY_NAMES = ("pk",)  # the key attributes of the tables behind the proxy (the bot's: pk)
Where = Callable[[dict[str, Any]], bool]
ItemKey = tuple[str, str]  # (table, the key attributes as JSON)
DROP, STALL, CONFLICT, WAIT = "drop", "stall", "conflict", "wait"


def json_body(body: bytes) -> dict[str, Any] | None:
    """A request body as a JSON object, or None."""
    try:
        parsed = json.loads(body)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def body_matches(where: Where | None, body: bytes) -> bool:
    """Whether a request body satisfies `where` (every body does when it is None)."""
    if where is None:
        return True
    parsed = json_body(body)
    return parsed is not None and bool(where(parsed))


@dataclass
class Drop:
    """A fault for the next `times` requests whose X-Amz-Target is `target` and whose JSON body
    satisfies `where` (every body, if None): their answers lost (`kind` "drop"), stalled for
    up to `seconds` ("stall"), a plain write refused with TransactionConflictException
    ("conflict"), or the request kept from moto until `until` is set ("wait", for up to
    `seconds`; `reached` is set when one arrives)."""

    target: str
    times: int
    where: Where | None = None
    kind: str = DROP
    seconds: float = 0.0
    until: threading.Event | None = None
    reached: threading.Event = field(default_factory=threading.Event)

    def matches(self, target: str, body: bytes) -> bool:
        if self.times <= 0 or target != self.target:
            return False
        return body_matches(self.where, body)


@dataclass
class Hold:
    """A TransactWriteItems held in progress before it reaches moto: from `arrived` on, until
    `refused` plain writes to its items have been refused, `release()` is called or `seconds`
    have passed. `done` is set once moto has applied it and its items are free."""

    where: Where | None
    refused: int
    seconds: float
    arrived: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    keys: frozenset[ItemKey] = frozenset()
    conflicts: int = 0
    taken: bool = False
    _free: threading.Event = field(default_factory=threading.Event)

    def release(self) -> None:
        """Let the held transaction go on to moto now."""
        self._free.set()


def _item_key(table: Any, attributes: Any) -> ItemKey | None:
    if not isinstance(table, str) or not isinstance(attributes, dict):
        return None
    key = {name: attributes[name] for name in KEY_NAMES if name in attributes}
    return (table, json.dumps(key, sort_keys=True)) if key else None


def write_key(target: str, body: dict[str, Any]) -> ItemKey | None:
    """The item a plain write (PutItem, UpdateItem, DeleteItem) writes."""
    attributes = body.get("Item") if target == PUT_ITEM else body.get("Key")
    return _item_key(body.get("TableName"), attributes)


def transaction_keys(body: dict[str, Any]) -> list[ItemKey | None]:
    """The items of a TransactWriteItems, one per action, in order."""
    keys: list[ItemKey | None] = []
    for entry in body.get("TransactItems") or []:
        action = next(iter(entry.values()), None) if isinstance(entry, dict) else None
        if not isinstance(action, dict):
            keys.append(None)
            continue
        attributes = action.get("Item") if "Item" in action else action.get("Key")
        keys.append(_item_key(action.get("TableName"), attributes))
    return keys
