"""Low-level AWS clients from one botocore session per process.

The bot needs only low-level clients (DynamoDB, SQS, Secrets Manager). botocore makes them
directly; importing boto3 as well would add its own modules (and s3transfer's) to every cold
start for nothing.
"""

from __future__ import annotations

import os
import threading
from typing import Any

_session: Any = None
_lock = threading.Lock()  # a botocore session is not safe to share while it makes a client


def client(service: str, **options: Any) -> Any:
    """A new client for `service` (thread-safe once made).

    Region: `region_name` if given, else `AWS_REGION` (set by Lambda) or `AWS_DEFAULT_REGION`.
    Credentials and endpoints as botocore finds them (`AWS_ENDPOINT_URL_<SERVICE>` included).
    """
    global _session
    import botocore.session

    region = (
        options.pop("region_name", None)
        or os.environ.get("AWS_REGION")
        or os.environ.get("AWS_DEFAULT_REGION")
    )
    with _lock:
        if _session is None:
            _session = botocore.session.get_session()
        return _session.create_client(service, region_name=region, **options)
