"""Check and convert request parameters against the description in bot_api.py."""

import json
import re
from typing import Any

from testing.fake_telegram.bot_api import IGNORED_PARAMS, METHODS, TYPES, UNIONS

_INT_RE = re.compile(r"[+-]?[0-9]+")
_FLOAT_RE = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_TRUE = frozenset({"true", "1"})
_FALSE = frozenset({"false", "0"})

# Telegram's own wording for some missing parameters; the rest get a generic sentence.
_MISSING = {
    "chat_id": "Bad Request: chat_id is empty",
    "text": "Bad Request: message text is empty",
    "message_id": "Bad Request: message identifier is not specified",
    "user_id": "Bad Request: user_id is empty",
    "callback_query_id": "Bad Request: query_id is empty",
}


class ApiError(Exception):
    """An error answer of the Bot API; kind is "refused" for the bot's mistakes, "error" for
    answers due to the state of the world (blocked users, kicked bot, ...)."""

    def __init__(
        self,
        status: int,
        description: str,
        *,
        parameters: dict[str, Any] | None = None,
        kind: str = "refused",
    ) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters
        self.kind = kind

    def payload(self) -> dict[str, Any]:
        """The JSON body Telegram answers with."""
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.status,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(reason: str) -> ApiError:
    """A 400 answer for a call that breaks the rules."""
    return ApiError(400, f"Bad Request: {reason}")


def _wrong_type(path: str, type_: str) -> ApiError:
    return bad_request(f'field "{path}" must be of type {type_}')


def _maybe_json(value: Any, path: str) -> Any:
    if isinstance(value, str | bytes):
        try:
            return json.loads(value)
        except ValueError:
            raise bad_request(f"can't parse {path} JSON object") from None
    return value


def coerce(value: Any, type_: str, path: str) -> Any:
    """Check value against a type in Telegram's notation and return it converted."""
    alternatives = type_.split(" or ")
    if len(alternatives) > 1:
        return _coerce_alternatives(value, alternatives, path)
    if type_.startswith("Array of "):
        inner = type_.removeprefix("Array of ")
        items = _maybe_json(value, path)
        if not isinstance(items, list):
            raise _wrong_type(path, type_)
        return [coerce(item, inner, f"{path}[{i}]") for i, item in enumerate(items)]
    if type_ == "Integer":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and _INT_RE.fullmatch(value.strip()):
            return int(value)
        raise _wrong_type(path, type_)
    if type_ == "Float":
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str) and _FLOAT_RE.fullmatch(value.strip()):
            return float(value)
        raise _wrong_type(path, type_)
    if type_ == "String":
        if isinstance(value, str):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        raise _wrong_type(path, type_)
    if type_ == "Boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise _wrong_type(path, type_)
    if type_ == "InputFile":
        return value
    obj = _maybe_json(value, path)
    if not isinstance(obj, dict):
        raise bad_request(f"can't parse {path} JSON object")
    if type_ in UNIONS:
        key, kinds = UNIONS[type_]
        concrete = kinds.get(obj.get(key)) if isinstance(obj.get(key), str) else None
        if concrete is None:
            raise bad_request(f'field "{path}.{key}" has an unsupported value {obj.get(key)!r}')
        return coerce_object(obj, concrete, path)
    if type_ in TYPES:
        return coerce_object(obj, type_, path)
    return obj


def coerce_object(obj: dict[str, Any], type_: str, path: str) -> dict[str, Any]:
    """Check the fields of an object of a type described in bot_api.TYPES."""
    fields = TYPES[type_]
    for name in obj:
        if name not in fields:
            raise bad_request(f'unknown field "{path}.{name}" in {type_}')
    result: dict[str, Any] = {}
    for name, field in fields.items():
        if name not in obj or obj[name] is None:
            if field.required:
                raise bad_request(f'field "{path}.{name}" of {type_} is required')
            continue
        result[name] = coerce(obj[name], field.type, f"{path}.{name}")
    return result


def _coerce_alternatives(value: Any, alternatives: list[str], path: str) -> Any:
    if set(alternatives) == {"InputFile", "String"}:
        if isinstance(value, dict) and "filename" in value:  # uploaded in multipart/form-data
            return value
        if isinstance(value, str) and value.startswith("attach://"):
            return value
        return coerce(value, "String", path)
    if set(alternatives) == {"Integer", "String"}:
        try:
            return coerce(value, "Integer", path)
        except ApiError:
            return coerce(value, "String", path)
    obj = _maybe_json(value, path)
    if isinstance(obj, dict):
        for alternative in alternatives:
            fields = TYPES.get(alternative, {})
            required = [name for name, field in fields.items() if field.required]
            if required and all(name in obj for name in required):
                return coerce(obj, alternative, path)
    raise bad_request(f"can't parse {path} JSON object")


def check_params(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """Check a call's parameters against METHODS[method] and return them converted."""
    spec = METHODS[method]
    ignored = IGNORED_PARAMS.get(method, frozenset())
    params = {name: value for name, value in params.items() if name not in ignored}
    for name in params:
        if name not in spec:
            raise bad_request(f'unknown parameter "{name}" of method {method}')
    result: dict[str, Any] = {}
    for name, field in spec.items():
        if name not in params:
            if field.required:
                raise ApiError(
                    400, _MISSING.get(name, f'Bad Request: parameter "{name}" is required')
                )
            continue
        result[name] = coerce(params[name], field.type, name)
    return result
