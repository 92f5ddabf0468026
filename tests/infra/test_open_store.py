"""Which store the environment opens (DynamoDB or a SQLite file), and DynamoDB's default client."""

from __future__ import annotations

from pathlib import Path

import pytest

from infra import dynamo_store
from infra.dynamo_store import DynamoStore
from infra.sqlite_store import SQLiteStore
from infra.stores import open_store


def test_open_store_uses_dynamodb_when_a_table_is_named() -> None:
    store = open_store({"DECAPITATION_TABLE": "decapitation-games"})

    assert isinstance(store, DynamoStore)
    assert store.table_name == "decapitation-games"


def test_open_store_uses_the_sqlite_file_named_by_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "local.sqlite3"
    store = open_store({"DECAPITATION_DB": str(path)})

    assert isinstance(store, SQLiteStore)
    store.close()
    assert path.exists()


def test_open_store_defaults_to_sqlite_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = open_store({})

    assert isinstance(store, SQLiteStore)
    store.close()
    assert (tmp_path / "decapitation.sqlite3").exists()


def test_dynamo_default_client_is_shared_and_uses_the_environment_region(
    aws_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dynamo_store, "_client", None)
    monkeypatch.setenv("AWS_REGION", "eu-west-1")

    first, second = DynamoStore("a"), DynamoStore("b")

    assert first.client is second.client
    assert first.client.region == "eu-west-1"
