"""Reading the CloudFormation template: where a Ref or GetAtt points, an IAM resource's policy
statements, and which log lines a metric filter counts."""

from __future__ import annotations

import json
import re
from typing import Any


def target(value: Any) -> str:
    """The logical id a {"Ref": ...} or {"Fn::GetAtt": [...]} points at."""
    if isinstance(value, dict) and "Ref" in value:
        return value["Ref"]
    if isinstance(value, dict) and "Fn::GetAtt" in value:
        return value["Fn::GetAtt"][0]
    raise AssertionError(f"not a Ref or GetAtt: {value!r}")


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def statements(resource: dict[str, Any]) -> list[dict[str, Any]]:
    """Every policy statement of an IAM role, policy or resource policy."""
    props = resource["Properties"]
    docs = [p["PolicyDocument"] for p in props.get("Policies", [])]
    if "PolicyDocument" in props:
        docs.append(props["PolicyDocument"])
    return [s for doc in docs for s in as_list(doc["Statement"])]


_TERM = re.compile(r'^\$\.(\w+)\s*(?:(IS TRUE|IS FALSE)|=\s*(?:"([^"]*)"|(-?\d+)))$')


def log_filter_matches(pattern: str, line: str) -> bool:
    """Whether CloudWatch Logs' JSON filter `pattern` matches a log line, for the terms the
    template uses: `{ $.field IS TRUE }`, `{ $.field = "text" }` or `= 12`, joined by &&."""
    body = pattern.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise AssertionError(f"not a JSON filter pattern: {pattern!r}")
    try:
        event = json.loads(line)
    except ValueError:
        return False
    for term in body[1:-1].split("&&"):
        found = _TERM.match(term.strip())
        if found is None:
            raise AssertionError(f"a term this reader does not know: {term!r}")
        field, flag, text, number = found.groups()
        value = event.get(field) if isinstance(event, dict) else None
        if flag is not None:
            holds = value is (flag == "IS TRUE")
        elif text is not None:
            holds = value == text
        else:
            holds = type(value) is int and value == int(number)
        if not holds:
            return False
    return True
