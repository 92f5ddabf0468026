"""Which store the environment asks for: DynamoDB when a table is named, else a SQLite file."""

from __future__ import annotations

import os
from collections.abc import Mapping

from infra.dynamo_store import DynamoStore
from infra.sqlite_store import DEFAULT_DB_PATH, SQLiteStore
from infra.store import GameStore


def open_store(env: Mapping[str, str] | None = None) -> GameStore:
    """The store the environment asks for.

    `DECAPITATION_TABLE` selects DynamoDB (through boto3 rather than the bot's own client
    under `DECAPITATION_AWS_CLIENT=boto3`); otherwise SQLite at `DECAPITATION_DB` (default
    `./decapitation.sqlite3`).
    """
    env = os.environ if env is None else env
    table = env.get("DECAPITATION_TABLE")
    if table:
        return DynamoStore(table)
    return SQLiteStore(env.get("DECAPITATION_DB") or DEFAULT_DB_PATH)
