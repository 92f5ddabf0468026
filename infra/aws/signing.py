"""Signature Version 4 of a POST, byte for byte as botocore signs it."""

from __future__ import annotations

import hashlib
import hmac

from infra.aws.config import Credentials


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def sign(
    credentials: Credentials,
    region: str,
    service: str,
    host: str,
    path: str,
    headers: dict[str, str],
    body: bytes,
    amz_date: str,
) -> dict[str, str]:
    """`headers` plus Host, X-Amz-Date, X-Amz-Security-Token (if any) and the SigV4
    Authorization of a POST of `body` to `path`; every header given is signed."""
    signed = {**headers, "Host": host, "X-Amz-Date": amz_date}
    if credentials.token:
        signed["X-Amz-Security-Token"] = credentials.token
    canonical = sorted((name.lower(), " ".join(value.split())) for name, value in signed.items())
    names = ";".join(name for name, _ in canonical)
    request = "\n".join(
        (
            "POST",
            path,
            "",
            "".join(f"{name}:{value}\n" for name, value in canonical),
            names,
            hashlib.sha256(body).hexdigest(),
        )
    )
    scope = f"{amz_date[:8]}/{region}/{service}/aws4_request"
    to_sign = "\n".join(
        ("AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(request.encode()).hexdigest())
    )
    key = _hmac(f"AWS4{credentials.secret_key}".encode(), amz_date[:8])
    for part in (region, service, "aws4_request"):
        key = _hmac(key, part)
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    signed["Authorization"] = (
        f"AWS4-HMAC-SHA256 Credential={credentials.access_key}/{scope}, "
        f"SignedHeaders={names}, Signature={signature}"
    )
    return signed
