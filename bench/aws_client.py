"""AWS client benchmark: the bot's own client against boto3 and botocore, in fresh processes.
Run: `python bench/aws_client.py [--runs N]`; asserts nothing (docs/performance.md)."""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REGION = "us-east-1"
TABLE = "bench-aws-client"

# Each child prints {"import": seconds, "first": seconds, "second": seconds}.
CHILD = """
import json, time
t0 = time.perf_counter()
{imports}
t1 = time.perf_counter()
client = {make}
got = client.get_item(TableName="{table}", Key={{"pk": {{"S": "game#1"}}}}, ConsistentRead=True)
t2 = time.perf_counter()
client.get_item(TableName="{table}", Key={{"pk": {{"S": "game#1"}}}}, ConsistentRead=True)
t3 = time.perf_counter()
assert got["Item"]["pk"] == {{"S": "game#1"}}, got
print(json.dumps({{"import": t1 - t0, "first": t2 - t1, "second": t3 - t2}}))
"""
CLIENTS = {
    "own (infra.aws)": ("from infra import aws", 'aws.client("dynamodb")'),
    "boto3": ("import boto3", 'boto3.client("dynamodb")'),
    "botocore": (
        "import botocore.session",
        'botocore.session.get_session().create_client("dynamodb")',
    ),
}


def child(code: str, env: dict[str, str]) -> dict[str, float]:
    """Run `code` in a fresh interpreter and return what it printed."""
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def median_p90(values: list[float]) -> tuple[float, float]:
    """The median and the 90th percentile (nearest rank) of `values`."""
    ordered = sorted(values)
    return statistics.median(ordered), ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="fresh processes per client")
    runs = parser.parse_args().runs

    import boto3
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    home = Path(tempfile.mkdtemp(prefix="bench-aws-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "DECAPITATION_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        AWS_SESSION_TOKEN="testing",
        AWS_REGION=REGION,
        AWS_DEFAULT_REGION=REGION,
        AWS_ENDPOINT_URL=f"http://{host}:{port}",
        AWS_CONFIG_FILE=str(home / "no-config"),
        AWS_SHARED_CREDENTIALS_FILE=str(home / "no-credentials"),
        AWS_EC2_METADATA_DISABLED="true",
        NO_PROXY="127.0.0.1,localhost",
    )
    setup = boto3.client(
        "dynamodb",
        region_name=REGION,
        endpoint_url=env["AWS_ENDPOINT_URL"],
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    setup.create_table(
        TableName=TABLE,
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    setup.put_item(TableName=TABLE, Item={"pk": {"S": "game#1"}, "data": {"B": b"\x00" * 600}})
    try:
        codes = {
            name: CHILD.format(imports=imports, make=make, table=TABLE)
            for name, (imports, make) in CLIENTS.items()
        }
        for code in codes.values():
            child(code, env)  # compiles what is not compiled yet; not counted
        seen: dict[str, list[dict[str, float]]] = {name: [] for name in codes}
        for _ in range(runs):  # interleaved, so a slow moment hurts every client alike
            for name, code in codes.items():
                seen[name].append(child(code, env))
    finally:
        server.stop()
    print(f"{runs} fresh processes each, Python {sys.version.split()[0]}; ms, median (p90)")
    print(f"{'client':<18}{'import':>16}{'first call':>16}{'import + first':>18}{'warm call':>14}")
    for name, results in seen.items():
        cells = []
        for part in ("import", "first", "total", "second"):
            values = [
                1000 * (r["import"] + r["first"] if part == "total" else r[part]) for r in results
            ]
            median, p90 = median_p90(values)
            cells.append(f"{median:7.1f} ({p90:5.1f})")
        print(f"{name:<18}{cells[0]:>16}{cells[1]:>16}{cells[2]:>18}{cells[3]:>14}")


if __name__ == "__main__":
    main()
