"""Reading the CloudFormation template: where a Ref or GetAtt points, and an IAM resource's
policy statements."""

from __future__ import annotations

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
