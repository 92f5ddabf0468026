"""DynamoDB game store for production: one table, conditional writes, TTL on `expires_at`; a save
recognises itself by its token when a resent try fails its condition."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from infra.store import (
    DATA,
    EXPIRES_AT,
    PK,
    VERSION,
    Conflict,
    Item,
    check_item,
    decoded_or_not,
    is_expired,
    pack_data,
    unpack_data,
)

_client: Any = None
_client_lock = threading.Lock()

# An item that is absent or expired may be created; a live one only at the expected version.
_MAY_CREATE = "attribute_not_exists(#pk) OR #exp <= :now"
_IS_EXPECTED = "#v = :expected AND (attribute_not_exists(#exp) OR #exp > :now)"
# The write token: a fresh random id per save (64 bits; 18 bytes of the item), which a save
# looks for in the item its failed condition returns. Loads ignore it.
TOKEN = "wt"
TOKEN_BYTES = 8


def default_client() -> Any:
    """The process-wide DynamoDB client (`infra.aws.client`: boto3's under
    DECAPITATION_AWS_CLIENT=boto3), made on first use so warm Lambda starts reuse it."""
    global _client
    with _client_lock:
        if _client is None:
            from infra import aws

            _client = aws.client("dynamodb")
        return _client


def create_table(client: Any, table_name: str) -> None:
    """Create the game table (on-demand, hash key `pk`) and enable TTL on `expires_at`."""
    client.create_table(
        TableName=table_name,
        AttributeDefinitions=[{"AttributeName": PK, "AttributeType": "S"}],
        KeySchema=[{"AttributeName": PK, "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    client.get_waiter("table_exists").wait(
        TableName=table_name, WaiterConfig={"Delay": 1, "MaxAttempts": 60}
    )
    client.update_time_to_live(
        TableName=table_name,
        TimeToLiveSpecification={"Enabled": True, "AttributeName": EXPIRES_AT},
    )


def _code(error: Exception) -> str | None:
    """The error code of an AWS error answer (our AwsError or botocore's ClientError)."""
    response = getattr(error, "response", None)
    if not isinstance(response, dict):
        return None
    return (response.get("Error") or {}).get("Code")


def _is_conflict(error: Exception) -> bool:
    """Whether `error` is a failed write condition."""
    return _code(error) == "ConditionalCheckFailedException"


def _met_a_transaction(error: Exception) -> bool:
    """Whether `error` refused a plain write because a transaction in progress holds its item
    (the end of a game saving the table with its statistics). Neither botocore's standard
    retries nor the bot's own client send such a write again: the store takes it for a lost
    race."""
    return _code(error) == "TransactionConflictException"


def _old_item(error: Exception) -> dict[str, Any] | None:
    """The item a failed condition met, as the error carries it (ALL_OLD), if it does."""
    item = getattr(error, "response", {}).get("Item")
    return item if isinstance(item, dict) else None


# Why a transaction's item was refused when another writer got there first: retried as a Conflict.
_RACED = ("ConditionalCheckFailed", "TransactionConflict")


def _cancellation(error: Exception) -> list[dict[str, Any]] | None:
    """The reasons of a cancelled transaction, one per item, when `error` is a cancellation
    for a lost race (a failed condition, another transaction on an item); else None."""
    response = getattr(error, "response", None)
    if not isinstance(response, dict):
        return None
    if (response.get("Error") or {}).get("Code") != "TransactionCanceledException":
        return None
    reasons = response.get("CancellationReasons") or []
    if reasons and not any(reason.get("Code") in _RACED for reason in reasons):
        return None
    return reasons


def _conflicted(items: list[Item], reasons: list[dict[str, Any]]) -> str:
    """The key of the first item a cancelled transaction found changed."""
    for item, reason in zip(items, reasons, strict=False):
        if reason.get("Code") in _RACED:
            return item.key
    return items[0].key


BATCH_KEYS = 100  # the most one BatchGetItem takes
BATCH_TRIES = 3  # BatchGetItem calls for keys DynamoDB left unprocessed, before one by one


class DynamoStore:
    """A `GameStore` in one DynamoDB table with attributes pk, version, data, expires_at."""

    def __init__(
        self,
        table_name: str,
        *,
        client: Any = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.table_name = table_name
        self.reads = 0
        self.writes = 0
        self._client = client
        self._clock = clock
        self._count_lock = threading.Lock()

    def _count(self, *, write: bool) -> None:
        with self._count_lock:
            if write:
                self.writes += 1
            else:
                self.reads += 1

    @property
    def client(self) -> Any:
        """The DynamoDB client in use (the shared default unless one was given)."""
        if self._client is None:
            self._client = default_client()
        return self._client

    def _now(self) -> int:
        return int(self._clock())

    def load(self, key: str) -> Item | None:
        """Return the live item stored under `key`, or None (strongly consistent read)."""
        now = self._now()
        self._count(write=False)
        response = self.client.get_item(
            TableName=self.table_name, Key={PK: {"S": key}}, ConsistentRead=True
        )
        stored = response.get("Item")
        return None if stored is None else self._item(key, stored, now)

    def load_many(self, keys: list[str]) -> dict[str, Item | None]:
        """The live items under `keys` (None where absent) in one strongly consistent
        BatchGetItem; keys DynamoDB leaves unprocessed are asked for again, then one by one."""
        keys = list(dict.fromkeys(keys))[:BATCH_KEYS]
        now = self._now()
        found: dict[str, Item | None] = dict.fromkeys(keys)
        wanted = keys
        for attempt in range(BATCH_TRIES):
            if not wanted:
                return found
            if attempt:
                time.sleep(0.02 * 2**attempt)
            self._count(write=False)
            response = self.client.batch_get_item(
                RequestItems={
                    self.table_name: {
                        "Keys": [{PK: {"S": key}} for key in wanted],
                        "ConsistentRead": True,
                    }
                }
            )
            for stored in response.get("Responses", {}).get(self.table_name, []):
                key = stored[PK]["S"]
                found[key] = self._item(key, stored, now)
            left = response.get("UnprocessedKeys", {}).get(self.table_name, {}).get("Keys", [])
            wanted = [key[PK]["S"] for key in left]
        for key in wanted:
            found[key] = self.load(key)
        return found

    @staticmethod
    def _item(key: str, stored: dict[str, Any], now: int) -> Item | None:
        expires_at = int(stored[EXPIRES_AT]["N"]) if EXPIRES_AT in stored else None
        if is_expired(expires_at, now):
            return None
        data = decoded_or_not(unpack_data, stored[DATA])
        return Item(key, int(stored[VERSION]["N"]), data, expires_at)

    def _put(self, item: Item, token: str, now: int) -> dict[str, Any]:
        """The conditional PutItem of `item` at its next version, carrying the write `token`."""
        attributes: dict[str, Any] = {
            PK: {"S": item.key},
            VERSION: {"N": str(item.version + 1)},
            DATA: {"B": pack_data(item.data)},
            TOKEN: {"S": token},
        }
        if item.expires_at is not None:
            attributes[EXPIRES_AT] = {"N": str(item.expires_at)}
        values: dict[str, Any] = {":now": {"N": str(now)}}
        if item.version == 0:
            condition = _MAY_CREATE
            names = {"#pk": PK, "#exp": EXPIRES_AT}
        else:
            condition = _IS_EXPECTED
            names = {"#v": VERSION, "#exp": EXPIRES_AT}
            values[":expected"] = {"N": str(item.version)}
        return {
            "TableName": self.table_name,
            "Item": attributes,
            "ConditionExpression": condition,
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values,
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        }

    def save(self, item: Item) -> Item:
        """Store `item` at `item.version + 1` if `item.version` is current; else `Conflict`
        (also when a transaction in progress holds the item). A try the client sent again after
        a lost answer, finding this save applied, is done."""
        check_item(item)
        token = secrets.token_hex(TOKEN_BYTES)
        put = self._put(item, token, self._now())
        self._count(write=True)
        try:
            self.client.put_item(**put)
        except Exception as error:
            if not (_is_conflict(error) or _met_a_transaction(error)):
                raise
            if not self._wrote(item.key, item.version + 1, token, _old_item(error)):
                raise Conflict(item.key, item.version) from None
        return Item(item.key, item.version + 1, item.data, item.expires_at)

    def save_all(self, items: list[Item]) -> list[Item]:
        """Store every item at its version + 1, all or none, in one TransactWriteItems; else
        `Conflict`. The items share one write token: a try sent again after a lost answer
        finds it on the first item, and is done."""
        if len(items) == 1:
            return [self.save(items[0])]
        for item in items:
            check_item(item)
        token = secrets.token_hex(TOKEN_BYTES)
        now = self._now()
        puts = [{"Put": self._put(item, token, now)} for item in items]
        self._count(write=True)
        try:
            self.client.transact_write_items(TransactItems=puts, ClientRequestToken=token)
        except Exception as error:
            reasons = _cancellation(error)
            if reasons is None:
                raise
            first = items[0]
            old = reasons[0].get("Item") if reasons else None
            if not self._wrote(first.key, first.version + 1, token, old):
                raise Conflict(_conflicted(items, reasons), first.version) from None
        return [Item(i.key, i.version + 1, i.data, i.expires_at) for i in items]

    def _wrote(self, key: str, version: int, token: str, old: dict[str, Any] | None) -> bool:
        """Whether the item a save's condition failed on is that save's own write: its token at
        `version`. Without the item in the failure (absent, or a backend that returns none),
        a strongly consistent read tells."""
        if old is None:
            self._count(write=False)
            old = self.client.get_item(
                TableName=self.table_name, Key={PK: {"S": key}}, ConsistentRead=True
            ).get("Item")
        if old is None or old.get(TOKEN) != {"S": token}:
            return False
        return int(old.get(VERSION, {}).get("N", 0)) == version

    def delete(self, key: str, version: int) -> None:
        """Delete the live item under `key` if it is at `version`; else `Conflict` (also when a
        transaction in progress holds the item).

        A delete sent again after a lost answer finds the item gone, which it cannot tell from
        someone else's delete: it says `Conflict`, and the caller reloads and finds it gone
        (`handlers.storage.side_items.forget`, the one caller, is then done)."""
        if version < 1:
            raise ValueError(f"only stored items (version >= 1) can be deleted, not {version}")
        self._count(write=True)
        try:
            self.client.delete_item(
                TableName=self.table_name,
                Key={PK: {"S": key}},
                ConditionExpression=_IS_EXPECTED,
                ExpressionAttributeNames={"#v": VERSION, "#exp": EXPIRES_AT},
                ExpressionAttributeValues={
                    ":expected": {"N": str(version)},
                    ":now": {"N": str(self._now())},
                },
            )
        except Exception as error:
            if _is_conflict(error) or _met_a_transaction(error):
                raise Conflict(key, version) from None
            raise
