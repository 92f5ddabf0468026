"""Store fixtures: SQLite on a temporary file, DynamoDB under moto (in-process or a server,
through boto3, the bot's own client or the DECAPITATION_AWS_CLIENT=boto3 switch)."""

from __future__ import annotations

import sqlite3
import uuid
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.config import Config
from moto import mock_aws

from infra import aws
from infra import dynamo_store as dynamo_module
from infra.dynamo_store import DynamoStore, create_table
from infra.sqlite_store import SQLiteStore
from infra.store import GameStore
from testing.drivers import FakeClock
from testing.moto_server import REGION

THREADED = "threaded"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{THREADED}: drives `store` from many threads; DynamoDB then runs behind a moto server",
    )


def _table_name() -> str:
    return f"games-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def sqlite_store(tmp_path: Path, clock: FakeClock) -> Iterator[SQLiteStore]:
    """A SQLite store on a fresh file, reading time from `clock`."""
    with SQLiteStore(tmp_path / "games.sqlite3", clock=clock) as store:
        yield store


@pytest.fixture
def dynamo_client(aws_env: None) -> Iterator[Any]:
    """A low-level DynamoDB client inside `moto.mock_aws` (single-threaded use only)."""
    with mock_aws():
        yield boto3.client("dynamodb", region_name=REGION)


@pytest.fixture
def dynamo_store(dynamo_client: Any, clock: FakeClock) -> DynamoStore:
    """A DynamoDB store on a fresh table inside `moto.mock_aws`."""
    name = _table_name()
    create_table(dynamo_client, name)
    return DynamoStore(name, client=dynamo_client, clock=clock)


@pytest.fixture
def server_dynamo_client(moto_server: str, aws_env: None) -> Any:
    """A low-level DynamoDB client talking to `moto_server`; safe to share between threads."""
    return boto3.client(
        "dynamodb",
        region_name=REGION,
        endpoint_url=moto_server,
        config=Config(max_pool_connections=64, retries={"mode": "standard"}),
    )


@pytest.fixture
def server_dynamo_store(server_dynamo_client: Any, clock: FakeClock) -> Iterator[DynamoStore]:
    """A DynamoDB store on a fresh table of `moto_server`, for real concurrent requests."""
    name = _table_name()
    create_table(server_dynamo_client, name)
    yield DynamoStore(name, client=server_dynamo_client, clock=clock)
    server_dynamo_client.delete_table(TableName=name)


@pytest.fixture
def own_dynamo_store(
    moto_server: str,
    server_dynamo_client: Any,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[DynamoStore]:
    """A DynamoDB store on a fresh table of `moto_server` through the bot's own default client
    (`infra.aws`), found from the environment as on Lambda."""
    monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", moto_server)
    monkeypatch.setattr(dynamo_module, "_client", None)
    name = _table_name()
    create_table(server_dynamo_client, name)
    yield DynamoStore(name, clock=clock)
    server_dynamo_client.delete_table(TableName=name)


@pytest.fixture
def switched_dynamo_store(
    moto_server: str,
    server_dynamo_client: Any,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[DynamoStore]:
    """A DynamoDB store on a fresh table of `moto_server` through the default client, made by
    `aws.client` with DECAPITATION_AWS_CLIENT=boto3 (so boto3's), found from the environment."""
    monkeypatch.setenv("DECAPITATION_AWS_CLIENT", "boto3")
    monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", moto_server)
    monkeypatch.setattr(dynamo_module, "_client", None)
    name = _table_name()
    create_table(server_dynamo_client, name)
    store = DynamoStore(name, clock=clock)
    assert not isinstance(store.client, aws.Client)
    assert store.client is not server_dynamo_client
    yield store
    server_dynamo_client.delete_table(TableName=name)


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("dynamodb", marks=pytest.mark.slow),
        pytest.param("dynamodb-own-client", marks=pytest.mark.slow),
        pytest.param("dynamodb-boto3-switch", marks=pytest.mark.slow),
    ]
)
def store(request: pytest.FixtureRequest) -> GameStore:
    """Each backend in turn: SQLite; DynamoDB through boto3 (under `mock_aws`, or behind a moto
    server for tests marked `threaded`), through the bot's own client and through the switch."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_store")
    if request.param == "dynamodb-own-client":
        return request.getfixturevalue("own_dynamo_store")
    if request.param == "dynamodb-boto3-switch":
        return request.getfixturevalue("switched_dynamo_store")
    if request.node.get_closest_marker(THREADED):
        return request.getfixturevalue("server_dynamo_store")
    return request.getfixturevalue("dynamo_store")


@pytest.fixture
def reopen(store: GameStore, clock: FakeClock) -> Iterator[Callable[[], GameStore]]:
    """Open another handle on the same storage as `store` (another connection or client)."""
    opened: list[SQLiteStore] = []

    def open_handle() -> GameStore:
        if isinstance(store, SQLiteStore):
            handle = SQLiteStore(store.path, clock=clock)
            opened.append(handle)
            return handle
        assert isinstance(store, DynamoStore)
        return DynamoStore(store.table_name, client=store.client, clock=clock)

    yield open_handle
    for handle in opened:
        handle.close()


@pytest.fixture
def raw_data(store: GameStore) -> Callable[[str], str | None]:
    """Read the stored JSON text under a key straight from the backend (DynamoDB's binary
    attribute decompressed)."""

    def read(key: str) -> str | None:
        if isinstance(store, SQLiteStore):
            conn = sqlite3.connect(store.path)
            try:
                row = conn.execute("SELECT data FROM items WHERE key = ?", (key,)).fetchone()
            finally:
                conn.close()
            return None if row is None else row[0]
        assert isinstance(store, DynamoStore)
        got = store.client.get_item(
            TableName=store.table_name, Key={"pk": {"S": key}}, ConsistentRead=True
        )
        if "Item" not in got:
            return None
        return zlib.decompress(got["Item"]["data"]["B"]).decode()

    return read
