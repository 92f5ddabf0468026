"""Check the bot's own Bot API description (testing/fake_telegram/bot_api.py) against
the spec: its extract in testing/fake_telegram/bot_api_spec.json when there is one
(`python -m testing.spec_extract path/to/api.json` builds it), else a full api.json beside the
project."""

import json
import urllib.request
import warnings
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from testing import spec_extract
from testing.fake_telegram import FakeTelegram, bot_api

ROOT = Path(__file__).resolve().parents[1]
EXTRACT_PATH = ROOT / "testing" / "fake_telegram" / "bot_api_spec.json"
SPEC_PATH = ROOT.parent / "shared" / "telegram-bot-api" / "api.json"


@cache
def _spec() -> dict[str, Any]:
    for path in (EXTRACT_PATH, SPEC_PATH):
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    pytest.skip(
        "neither testing/fake_telegram/bot_api_spec.json nor ../shared/telegram-bot-api/api.json "
        "is here; the bot's own description in testing/fake_telegram/bot_api.py is used unchecked"
    )


def test_the_extract_agrees_with_the_full_spec_for_what_it_holds() -> None:
    """Built again from a full api.json, the extract holds the same methods and types."""
    if not EXTRACT_PATH.is_file() or not SPEC_PATH.is_file():
        pytest.skip("needs both the extract and ../shared/telegram-bot-api/api.json")
    shipped = json.loads(EXTRACT_PATH.read_text(encoding="utf-8"))
    rebuilt = spec_extract.extract(json.loads(SPEC_PATH.read_text(encoding="utf-8")))
    assert shipped["version"] == rebuilt["version"], (shipped["version"], rebuilt["version"])
    for kind in ("methods", "types"):
        for name, entry in shipped[kind].items():
            assert rebuilt[kind].get(name) == entry, f"{kind} {name} differs from the full spec"


def test_the_extract_keeps_the_fakes_methods_and_the_types_they_reach() -> None:
    """A method the fake does not describe, a type nothing reaches and descriptions go."""

    def field(name: str, types: list[str], required: bool = False) -> dict[str, Any]:
        return {"name": name, "types": types, "required": required, "description": "words"}

    full = {
        "version": "Bot API 0.1",
        "release_date": "today",
        "changelog": "https://example.org",
        "methods": {
            "getMe": {"name": "getMe", "href": "h", "description": ["d"], "returns": ["User"]},
            "logOut": {"name": "logOut", "description": ["d"], "returns": ["Boolean"]},
        },
        "types": {
            "User": {"name": "User", "fields": [field("id", ["Integer"], True)]},
            "Update": {"name": "Update", "fields": [field("message", ["Message"])]},
            "Message": {"name": "Message", "fields": [field("photo", ["Array of PhotoSize"])]},
            "PhotoSize": {"name": "PhotoSize", "fields": [field("type", ["String"], True)]},
            "Sticker": {"name": "Sticker", "fields": [field("emoji", ["String"])]},
        },
    }
    built = spec_extract.extract(full)
    assert list(built["methods"]) == ["getMe"]
    assert built["methods"]["getMe"] == {"name": "getMe", "returns": ["User"]}
    assert set(built["types"]) == {"User", "Update", "Message", "PhotoSize"}
    assert built["types"]["User"]["fields"] == [
        {"name": "id", "types": ["Integer"], "required": True}
    ]
    assert built["types"]["PhotoSize"]["fields"][0]["description"] == "words"  # names a kind
    assert (built["version"], built["release_date"]) == ("Bot API 0.1", "today")


def _spec_fields(entry: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    return {
        f["name"]: (" or ".join(f["types"]), bool(f["required"])) for f in entry.get("fields", [])
    }


def _compare(kind: str, name: str, ours: dict[str, bot_api.Field], theirs: dict[str, Any]) -> None:
    spec = _spec_fields(theirs)
    for field, described in ours.items():
        assert field in spec, f"{kind} {name}: Telegram has no {field!r}"
        assert (described.type, described.required) == spec[field], (
            f"{kind} {name}.{field}: we say {described}, Telegram says {spec[field]}"
        )
    missing_required = [f for f, (_, required) in spec.items() if required and f not in ours]
    assert not missing_required, f"{kind} {name} lacks required {missing_required}"
    missing_optional = [f for f in spec if f not in ours]
    if missing_optional:
        warnings.warn(
            f"{kind} {name} does not describe optional {missing_optional}; the fake would "
            "refuse them",
            stacklevel=2,
        )


@pytest.mark.parametrize("method", sorted(bot_api.METHODS))
def test_method_matches_spec(method: str) -> None:
    methods = _spec()["methods"]
    assert method in methods, f"Telegram has no method {method}"
    _compare("method", method, bot_api.METHODS[method], methods[method])


@pytest.mark.parametrize("method", sorted(bot_api.IGNORED_PARAMS))
def test_ignored_params_are_not_telegram_params_of_the_method(method: str) -> None:
    """Parameters the fake drops are ones Telegram does not take there (else describe them)."""
    methods = _spec()["methods"]
    taken = _spec_fields(methods[method])
    for name in bot_api.IGNORED_PARAMS[method]:
        assert name not in taken, f"{method} takes {name}: describe it in METHODS instead"
        assert name in _spec_fields(methods["sendMessage"]), f"{name} is no Telegram parameter"


@pytest.mark.parametrize("type_name", sorted(bot_api.TYPES))
def test_type_matches_spec(type_name: str) -> None:
    types = _spec()["types"]
    assert type_name in types, f"Telegram has no type {type_name}"
    _compare("type", type_name, bot_api.TYPES[type_name], types[type_name])


@pytest.mark.parametrize("union", sorted(bot_api.UNIONS))
def test_union_matches_spec(union: str) -> None:
    types = _spec()["types"]
    _, kinds = bot_api.UNIONS[union]
    assert sorted(kinds.values()) == sorted(types[union]["subtypes"])
    for value, concrete in kinds.items():
        described = " ".join(
            f["description"] for f in types[concrete]["fields"] if f["name"] == "type"
        )
        assert value in described, f"{concrete}.type is not {value!r} in the spec"


def test_every_named_type_is_known() -> None:
    """Every object type bot_api.py mentions exists in Telegram's spec."""
    types = _spec()["types"]
    scalars = {"Integer", "String", "Boolean", "Float", "InputFile"}
    for group in (bot_api.METHODS, bot_api.TYPES):
        for params in group.values():
            for field in params.values():
                for alternative in field.type.split(" or "):
                    base = alternative.replace("Array of ", "")
                    assert base in scalars or base in types, f"unknown type {base}"


_SCALARS = {"Integer": int, "String": str, "Boolean": bool, "Float": float}


def _conforms(value: Any, type_: str, path: str) -> None:
    """Assert that a value the fake sends is a valid object of a type of the spec."""
    types = _spec()["types"]
    alternatives = type_.split(" or ") if " or " in type_ else [type_]
    if len(alternatives) > 1:
        failures = []
        for alternative in alternatives:
            try:
                _conforms(value, alternative, path)
                return
            except AssertionError as err:
                failures.append(str(err))
        raise AssertionError(f"{path}: fits none of {alternatives}: {failures}")
    if type_.startswith("Array of "):
        assert isinstance(value, list), f"{path}: not an array"
        for i, item in enumerate(value):
            _conforms(item, type_.removeprefix("Array of "), f"{path}[{i}]")
        return
    if type_ in _SCALARS:
        expected = _SCALARS[type_]
        ok = isinstance(value, expected) and (type_ == "Boolean" or not isinstance(value, bool))
        assert ok or (type_ == "Float" and isinstance(value, int)), f"{path}: not {type_}"
        return
    entry = types[type_]
    if entry.get("subtypes"):
        _conforms(value, " or ".join(entry["subtypes"]), path)
        return
    assert isinstance(value, dict), f"{path}: not an object"
    fields = {f["name"]: f for f in entry.get("fields", [])}
    for name in value:
        assert name in fields, f"{path}: {type_} has no field {name!r}"
    for name, field in fields.items():
        if field["required"]:
            assert name in value, f"{path}: {type_} lacks required {name!r}"
        if name in value:
            _conforms(value[name], " or ".join(field["types"]), f"{path}.{name}")


def _call(fake: FakeTelegram, method: str, **params: Any) -> Any:
    request = urllib.request.Request(
        f"{fake.base_url}{fake.token}/{method}",
        data=json.dumps(params).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        body = json.loads(response.read())
    assert body["ok"], body
    return body["result"]


@pytest.mark.slow
def test_fake_answers_use_spec_objects() -> None:
    """Everything the fake sends (results and updates) is made of the spec's objects."""
    methods = _spec()["methods"]
    with FakeTelegram() as fake:
        owner = fake.add_user("Olga", username="olga", started=True)
        admin = fake.add_user("Adam", last_name="Smith")
        member = fake.add_user("Mia", language_code=None)
        outsider = fake.add_user("Otto")
        group = fake.add_group("Table", [member], admins=[admin], owner=owner, bot_admin=True)

        def check(method: str, **params: Any) -> None:
            result = _call(fake, method, **params)
            _conforms(result, " or ".join(methods[method]["returns"]), method)

        check("getMe")
        keyboard = {"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]}
        check("sendMessage", chat_id=group.id, text="<b>Hi</b>", parse_mode="HTML")
        sent = _call(fake, "sendMessage", chat_id=owner.id, text="x", reply_markup=keyboard)
        check(
            "editMessageText",
            chat_id=owner.id,
            message_id=sent["message_id"],
            text="y",
            reply_markup=keyboard,
        )
        for user in (owner, admin, member, outsider):
            check("getChatMember", chat_id=group.id, user_id=user.id)
        check("getChatMember", chat_id=group.id, user_id=fake.bot_id)
        check("getChat", chat_id=group.id)
        check("getChat", chat_id=owner.id)
        check("setMyCommands", commands=[{"command": "play", "description": "Play"}])
        check("getMyCommands")
        check("getWebhookInfo")
        fake.send_text(owner, group, "/play@decapitation_test_bot", reply_to=1)
        fake.press(owner, owner, sent["message_id"], "Go")
        fake.press(member, group, 99, callback_data="forged")
        fake.edited_text(owner, group, 2, "/play")
        fake.join(outsider, group)
        fake.leave(outsider, group)
        fake.block(owner)
        fake.migrate(group)
        fake.kick_bot(fake.add_group("Other", [member]))
        fake.channel_post(fake.add_channel("News", username="news"), "hello")
        updates = fake.next_updates()
        assert len(updates) == 11
        _conforms(updates, "Array of Update", "updates")
