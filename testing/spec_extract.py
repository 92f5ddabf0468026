"""Builds the compact extract of the Bot API spec the fake's checks need, from a full api.json
of the public spec repository PaulSonOfLars/telegram-bot-api-spec (file api.json):

    python -m testing.spec_extract path/to/api.json > extract.json

Kept: the spec's version, date and changelog; the methods the fake describes (and sendMessage,
whose parameters the dropped ones are checked against), with their parameters and what they
return; every type the fake describes, names or may send (the types reachable from Update and
from those methods' returns), with each field's name, types and required flag. A union keeps
its members, and a member the description of its `type` field, which names the member's value.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from testing.fake_telegram import bot_api

SCALARS = frozenset({"Integer", "String", "Boolean", "Float", "InputFile"})


def _named(types: list[str]) -> set[str]:
    """The object types a field's or a return's types name."""
    names = set()
    for alternative in types:
        base = alternative
        while base.startswith("Array of "):
            base = base.removeprefix("Array of ")
        if base not in SCALARS:
            names.add(base)
    return names


def _field(field: dict[str, Any]) -> dict[str, Any]:
    kept = {"name": field["name"], "types": field["types"], "required": field["required"]}
    if field["name"] == "type":
        kept["description"] = field.get("description", "")
    return kept


def _entry(entry: dict[str, Any]) -> dict[str, Any]:
    kept: dict[str, Any] = {"name": entry["name"]}
    for key in ("returns", "subtypes"):
        if key in entry:
            kept[key] = entry[key]
    if "fields" in entry:
        kept["fields"] = [_field(f) for f in entry["fields"]]
    return kept


def wanted_methods() -> set[str]:
    return set(bot_api.METHODS) | set(bot_api.IGNORED_PARAMS) | {"sendMessage"}


def wanted_types(spec: dict[str, Any], methods: set[str]) -> set[str]:
    """The fake's types and every type reachable from them, from Update and from the returns."""
    start = set(bot_api.TYPES) | set(bot_api.UNIONS) | {"Update"}
    for group in (bot_api.METHODS, bot_api.TYPES):
        for params in group.values():
            for described in params.values():
                start |= _named(described.type.split(" or "))
    for method in methods:
        start |= _named(spec["methods"].get(method, {}).get("returns", []))
        for field in spec["methods"].get(method, {}).get("fields", []):
            start |= _named(field["types"])
    seen: set[str] = set()
    todo = sorted(start)
    while todo:
        name = todo.pop()
        if name in seen or name not in spec["types"]:
            continue
        seen.add(name)
        entry = spec["types"][name]
        todo.extend(entry.get("subtypes", []))
        for field in entry.get("fields", []):
            todo.extend(_named(field["types"]))
    return seen


def extract(spec: dict[str, Any]) -> dict[str, Any]:
    """The extract of a full spec: what the fake's checks read, nothing else."""
    methods = {m for m in wanted_methods() if m in spec["methods"]}
    types = wanted_types(spec, methods)
    return {
        "source": "https://github.com/PaulSonOfLars/telegram-bot-api-spec (api.json)",
        "rebuild": "python -m testing.spec_extract path/to/api.json",
        "version": spec.get("version"),
        "release_date": spec.get("release_date"),
        "changelog": spec.get("changelog"),
        "methods": {m: _entry(spec["methods"][m]) for m in sorted(methods)},
        "types": {t: _entry(spec["types"][t]) for t in sorted(types)},
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m testing.spec_extract path/to/api.json", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as full:
        spec = json.load(full)
    json.dump(extract(spec), sys.stdout, indent=1, ensure_ascii=False, sort_keys=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
