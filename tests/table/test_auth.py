"""initData is accepted exactly when Telegram signed it for this bot within the last hour,
checked against an independent implementation (init-data-py)."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, quote, urlencode

import pytest

from handlers.table.auth import (
    MAX_AGE,
    MAX_AHEAD,
    BadInitData,
    check_init_data,
    sign_init_data,
)

TOKEN = "123456:AAE-table-test-token"
NOW = 1_800_000_000
# A user whose JSON holds CJK, quotes and the `\/` Telegram writes in photo URLs.
USER_JSON = (
    '{"id":4242,"first_name":"张伟 \\"Zhang\\"","last_name":"O\'Neil","username":"zw_42",'
    '"language_code":"zh-hans","photo_url":"https:\\/\\/t.me\\/i\\/userpic\\/320\\/zw.svg"}'
)


@pytest.fixture
def reference():
    """init-data-py, an independent implementation (a development dependency)."""
    return pytest.importorskip("init_data_py", reason="init-data-py is not installed")


def signed_by_reference(reference, **fields: str) -> str:
    pairs = {"user": USER_JSON, "start_param": "gm1001_17", "chat_type": "supergroup", **fields}
    return reference.sign(pairs, TOKEN, auth_date=NOW)


def resigned(init_data: str, change) -> str:
    """`init_data` with its fields changed by `change` (a list of pairs), hash kept."""
    return urlencode(change(parse_qsl(init_data, keep_blank_values=True)), quote_via=quote)


def test_initdata_signed_by_another_implementation_is_accepted(reference):
    opening = check_init_data(signed_by_reference(reference), TOKEN, NOW)
    assert opening.user.id == 4242
    assert opening.user.first_name == '张伟 "Zhang"'
    assert opening.user.last_name == "O'Neil"
    assert opening.user.username == "zw_42"
    assert opening.user.language_code == "zh-hans"
    assert opening.start_param == "gm1001_17"
    assert opening.auth_date == NOW


def test_the_signature_field_is_part_of_what_is_signed(reference):
    signed = signed_by_reference(reference, signature="c2lnbmF0dXJl")
    assert check_init_data(signed, TOKEN, NOW).user.id == 4242
    without = resigned(signed, lambda pairs: [p for p in pairs if p[0] != "signature"])
    with pytest.raises(BadInitData):
        check_init_data(without, TOKEN, NOW)


def test_our_signing_is_accepted_by_another_implementation(reference):
    user = json.loads(USER_JSON)
    signed = sign_init_data(TOKEN, user, "gm1001_17", NOW, chat_type="group")
    assert reference.is_valid_by_hash(signed, TOKEN, expires_in=0)
    assert check_init_data(signed, TOKEN, NOW).user.first_name == user["first_name"]


def test_a_page_opened_without_a_start_parameter_has_an_empty_one():
    signed = sign_init_data(TOKEN, {"id": 7, "first_name": "Ann"}, None, NOW)
    assert check_init_data(signed, TOKEN, NOW).start_param == ""


@pytest.mark.parametrize(
    ("name", "change"),
    [
        (
            "a changed field",
            lambda p: [(k, "gm1001_18" if k == "start_param" else v) for k, v in p],
        ),
        ("a repeated hash", lambda p: [*p, ("hash", dict(p)["hash"])]),
        ("a repeated key", lambda p: [*p, ("start_param", dict(p)["start_param"])]),
        ("no hash", lambda p: [(k, v) for k, v in p if k != "hash"]),
        ("an added field", lambda p: [*p, ("chat_instance", "1")]),
        ("no user", lambda p: [(k, v) for k, v in p if k != "user"]),
    ],
)
def test_initdata_changed_after_signing_is_refused(reference, name, change):
    with pytest.raises(BadInitData):
        check_init_data(resigned(signed_by_reference(reference), change), TOKEN, NOW)


def test_initdata_signed_for_another_bot_is_refused(reference):
    with pytest.raises(BadInitData):
        check_init_data(signed_by_reference(reference), "654321:another-bot", NOW)


@pytest.mark.parametrize(
    ("age", "accepted"),
    [
        (0, True),
        (MAX_AGE, True),
        (MAX_AGE + 1, False),
        (2 * 3600, False),
        (24 * 3600, False),
        (-MAX_AHEAD, True),
        (-MAX_AHEAD - 1, False),
        (-3600, False),
    ],
)
def test_initdata_is_accepted_for_an_hour_and_a_minute_ahead(reference, age, accepted):
    signed = reference.sign({"user": USER_JSON}, TOKEN, auth_date=NOW - age)
    if accepted:
        assert check_init_data(signed, TOKEN, NOW).auth_date == NOW - age
    else:
        with pytest.raises(BadInitData):
            check_init_data(signed, TOKEN, NOW)


@pytest.mark.parametrize(
    "garbage",
    [
        "",
        "hash",
        "=&=",
        "a=1&&b=2",
        "hash=00&auth_date=1800000000",
        "%ff%fe=1&hash=00",
        "user=%7B%7D&auth_date=x&hash=" + "0" * 64,
        "x" * 5000,
        "&".join(f"k{i}=v" for i in range(40)),
    ],
)
def test_garbage_is_refused(garbage):
    with pytest.raises(BadInitData):
        check_init_data(garbage, TOKEN, NOW)


@pytest.mark.parametrize(
    "user",
    [
        {"first_name": "no id"},
        {"id": True, "first_name": "a bool for an id"},
        {"id": -5, "first_name": "negative"},
        {"id": 5, "first_name": ["not", "text"]},
        ["not an object"],
    ],
)
def test_a_signed_but_malformed_user_is_refused(user):
    with pytest.raises(BadInitData):
        check_init_data(sign_init_data(TOKEN, user, None, NOW), TOKEN, NOW)


@pytest.mark.parametrize("bad_hash", ["é" * 64, "0" * 63 + "é", "\u2460" * 64, "%00" * 3])
def test_a_hash_that_is_not_plain_ascii_is_refused_not_an_error(bad_hash):
    signed = sign_init_data(TOKEN, {"id": 5, "first_name": "A"}, None, NOW)
    fields = [(k, bad_hash if k == "hash" else v) for k, v in parse_qsl(signed)]
    with pytest.raises(BadInitData):
        check_init_data(urlencode(fields, quote_via=quote), TOKEN, NOW)
