"""The table's HTTP contract: who is answered what, with which headers, in which order."""

from __future__ import annotations

import json

import pytest

from engine import Action
from handlers.table.api import handle
from handlers.table.auth import sign_init_data
from handlers.table.selector import replay_selector, table_selector
from tests.support.table_game import CHAT, GAME, OUTSIDER, TOKEN, TableGame

NOW = 1_800_000_000.0
G = table_selector(CHAT, GAME)
OTHER_GAME = table_selector(CHAT, GAME + 1)


class NoSource:
    """A source that must not be asked: the request is refused before any game is looked up."""

    def __getattr__(self, name):
        raise AssertionError(f"the source was asked for {name}")


def tma(user: int, *, when: float = NOW, token: str = TOKEN, lang: str = "en") -> dict:
    init = sign_init_data(
        token, {"id": user, "first_name": "X", "language_code": lang}, G, int(when)
    )
    return {"Authorization": f"tma {init}"}


def get(source, path: str, query: str = "", headers: dict | None = None):
    return handle("GET", path, query, headers or {}, b"", source=source, token=TOKEN, now=NOW)


def post(source, payload: dict, headers: dict):
    data = json.dumps(payload).encode()
    return handle("POST", "/api/move", "", headers, data, source=source, token=TOKEN, now=NOW)


def move(version: str, move_id: str = "m1", g: str = G, **kind) -> dict:
    return {"g": g, "move_id": move_id, "version": version, "move": kind or {"kind": "done"}}


@pytest.fixture
def game() -> TableGame:
    return TableGame.deal(NOW)


def version_of(game: TableGame, user: int) -> str:
    return json.loads(get(game, "/api/table", f"g={G}", tma(user)).body)["version"]


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer x"},
        {"Authorization": "tma "},
        {"Authorization": "tma user=1&hash=00"},
        tma(101, token="654321:another-bot"),
        tma(101, when=NOW - 25 * 3600),
        tma(101, when=NOW - 2 * 3600),
        tma(101, when=NOW + 120),
        {"Authorization": "tma user=%7B%22id%22%3A1%7D&auth_date=1800000000&hash=%C3%A9%C3%A9"},
    ],
)
def test_without_fresh_initdata_every_api_route_answers_401_before_any_lookup(headers):
    for path, method in (("/api/table", "GET"), ("/api/replay", "GET"), ("/api/move", "POST")):
        response = handle(
            method, path, f"g={G}", headers, b"{}", source=NoSource(), token=TOKEN, now=NOW
        )
        assert response.status == 401
        assert json.loads(response.body) == {"error": "unauthorized"}
        assert response.headers["Cache-Control"] == "no-store"


def test_a_player_gets_their_view_with_its_version_as_etag(game):
    response = get(game, "/api/table", f"g={G}", tma(101))
    view = json.loads(response.body)
    assert response.status == 200
    assert response.headers["ETag"] == f'"{view["version"]}"'
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Content-Type"].startswith("application/json")
    assert view["you"]["seat"] == 1 and view["now"] == NOW


@pytest.mark.parametrize("form", ['"{v}"', 'W/"{v}"', '"other", "{v}"', "*"])
def test_an_unchanged_view_answers_304_without_a_body(game, form):
    version = version_of(game, 101)
    headers = tma(101) | {"If-None-Match": form.format(v=version)}
    response = get(game, "/api/table", f"g={G}", headers)
    assert (response.status, response.body) == (304, b"")
    assert response.headers["ETag"] == f'"{version}"'


def test_a_changed_view_answers_200_to_the_old_version(game):
    old = version_of(game, 102)
    game.act(Action("scout", 1, target=3), NOW)
    response = get(game, "/api/table", f"g={G}", tma(102) | {"If-None-Match": f'"{old}"'})
    assert response.status == 200 and json.loads(response.body)["version"] != old


def test_an_outsider_is_answered_alike_whether_or_not_the_game_exists(game):
    here = get(game, "/api/table", f"g={G}", tma(OUTSIDER))
    elsewhere = get(game, "/api/table", f"g={OTHER_GAME}", tma(OUTSIDER))
    player_elsewhere = get(game, "/api/table", f"g={OTHER_GAME}", tma(101))
    assert here.status == elsewhere.status == player_elsewhere.status == 403
    assert here.body == elsewhere.body == player_elsewhere.body == b'{"error": "not_yours"}'
    moved = post(game, move(version_of(game, 101)), tma(OUTSIDER))
    moved_elsewhere = post(game, move("x", g=OTHER_GAME), tma(OUTSIDER))
    assert (moved.status, moved.body) == (moved_elsewhere.status, moved_elsewhere.body)
    assert moved.status == 403


@pytest.mark.parametrize(
    "query", ["", "g=", "g=nope", f"g={G}&g={G}", f"g={replay_selector(1, 2)}"]
)
def test_a_query_naming_no_table_is_a_bad_request(game, query):
    response = get(game, "/api/table", query, tma(101))
    assert response.status == 400


def test_a_move_is_applied_once_and_answered_with_the_new_view(game):
    version = version_of(game, 101)
    first = post(game, move(version, kind="scout", target=3), tma(101))
    assert first.status == 200
    view = json.loads(first.body)["view"]
    assert view["seats"][2]["card"] == "R4"
    again = post(game, move(version, kind="scout", target=3), tma(101))
    assert again.status == 200
    assert json.loads(again.body)["view"]["version"] == view["version"]
    assert len(game.state.log) == 1


def test_a_move_made_on_an_old_view_is_stale_and_brings_the_current_one(game):
    version = version_of(game, 101)
    game.act(Action("timeout"), NOW)
    response = post(game, move(version, move_id="late", kind="scout", target=3), tma(101))
    body = json.loads(response.body)
    assert response.status == 409 and body["error"] == "stale"
    assert body["view"]["turn"] == 2
    assert game.state.log == (Action("timeout"),)


def test_a_move_the_rules_refuse_is_illegal_and_changes_nothing(game):
    version = version_of(game, 101)
    response = post(game, move(version, kind="scout", target=1), tma(101))
    assert response.status == 422 and json.loads(response.body)["error"] == "illegal"
    assert game.state.log == ()


def test_a_malformed_move_is_a_bad_request(game):
    response = post(game, move(version_of(game, 101), kind="scout"), tma(101))
    assert response.status == 400 and game.state.log == ()


def test_the_replay_opens_once_the_game_is_over(game):
    query = f"g={replay_selector(CHAT, GAME)}"
    assert get(game, "/api/replay", query, tma(OUTSIDER)).status == 404
    game.act(Action("decapitate", 1, target=2), NOW)
    response = get(game, "/api/replay", query, tma(101, lang="zh"))
    replay = json.loads(response.body)
    assert response.status == 200 and replay["lang"] == "zh"
    assert [s["card"] for s in replay["seats"]] == ["R1", "B7", "R4", "B3"]
    assert response.headers["ETag"] == f'"{replay["version"]}"'
    assert get(game, "/api/replay", f"g={G}", tma(101)).status == 400


def test_the_page_is_served_with_its_policy_and_revalidated_by_etag(game):
    page = get(NoSource(), "/table")
    assert page.status == 200 and page.body.startswith(b"<!doctype html>")
    assert page.headers["Cache-Control"] == "no-cache"
    assert "frame-ancestors https://web.telegram.org" in page.headers["Content-Security-Policy"]
    assert get(NoSource(), "/").body == page.body  # a TABLE_URL with no path opens the page
    again = get(NoSource(), "/table", headers={"If-None-Match": page.headers["ETag"]})
    assert (again.status, again.body) == (304, b"")
    assert again.headers["ETag"] == page.headers["ETag"]


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/index.html", 404),
        ("GET", "/api/tables", 404),
        ("POST", "/api/table", 405),
        ("GET", "/api/move", 405),
        ("POST", "/table", 405),
    ],
)
def test_other_routes_and_methods_are_refused(method, path, status):
    response = handle(method, path, "", {}, b"", source=NoSource(), token=TOKEN, now=NOW)
    assert response.status == status
