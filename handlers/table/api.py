"""The table's HTTP contract, whatever serves it: GET /table, GET /api/table, POST /api/move and
GET /api/replay, answered from a `TableSource` (docs/table-view.md)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import parse_qs

from handlers.table.auth import BadInitData, Opening, check_init_data
from handlers.table.moves import BadRequest, MoveRequest, read_move_request
from handlers.table.page import COMMON_HEADERS, table_page
from handlers.table.passes import configure, is_replay_key, is_seat_pass, seat_pass
from handlers.table.selector import REPLAY, TABLE, Selector, parse_selector
from handlers.table.view import stamped, view_version

APPLIED, STALE, NOT_YOURS, ILLEGAL = "applied", "stale", "not_yours", "illegal"
REUSED = "move_id_reused"  # a move id applied before, sent again with another move
GONE = "gone"  # a link to an older game of the group, opened by one of its players
TRY_AGAIN = "try_again"  # Telegram could not say whether the opener is in the group
PASS_HEADER = "X-Table-Pass"  # a seat's pass to its game, given with a view, sent back by the page
# The routes, path -> method (the stack gives each its own API Gateway route). The page also
# answers at the root, where a TABLE_URL given as a local tunnel's bare address sends buttons.
ROUTES = {"/table": "GET", "/api/table": "GET", "/api/move": "POST", "/api/replay": "GET"}
_MOVE_STATUS = {APPLIED: 200, STALE: 409, REUSED: 409, NOT_YOURS: 403, ILLEGAL: 422}


@dataclass(frozen=True, slots=True)
class Response:
    """An HTTP answer, for any server to send as it is."""

    status: int
    headers: dict[str, str]
    body: bytes = b""


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """What became of a move: APPLIED (also for the same move sent again), REUSED (its id
    applied before for another move: nothing done), STALE (made on a view that is no longer
    current), NOT_YOURS (no seat at that game) or ILLEGAL; with the seat's view as it is now
    (None for NOT_YOURS)."""

    result: str
    view: dict | None = None


@dataclass(frozen=True, slots=True)
class Gone:
    """The game a link names is over and another has replaced it (for one of its players):
    its replay's selector when the group keeps it, else None."""

    replay: str | None = None


@dataclass(frozen=True, slots=True)
class Unchanged:
    """The seat's view is the one the page holds (`version`): answered 304, nothing built."""

    version: str


class TableSource(Protocol):
    """The games behind the table: each answers only for the seat `opening.user` holds."""

    def member(self, chat: int, user: int) -> bool | None:
        """Whether `user` is in the group, as Telegram says (None: it could not say)."""

    def view(
        self, selector: Selector, opening: Opening, now: float, held: str | None = None
    ) -> dict | Gone | Unchanged | None:
        """The seat's view (unstamped); `Unchanged` when it is still the version `held` (a
        source may build it anyway); `Gone` when the game is over and replaced and the user
        held a seat at it; None when the user has no seat at that game."""

    def move(
        self, selector: Selector, opening: Opening, request: MoveRequest, now: float
    ) -> MoveOutcome:
        """Apply the move once. Checks in this order: a seat (else NOT_YOURS, whatever the
        game holds), a move id already applied (APPLIED when it is the same move, not applied
        again; REUSED for another move), the version
        (else STALE), the rules (else ILLEGAL)."""

    def replay(
        self, selector: Selector, opening: Opening, now: float, member: bool
    ) -> dict | None:
        """A finished game's replay, or None (no such game, not finished, or neither a `member`
        of the group nor one of those who played it)."""


def handle(
    method: str,
    path: str,
    query: str,
    headers: Mapping[str, str],
    body: bytes,
    *,
    source: TableSource,
    token: str,
    now: float,
    opening: Opening | None = None,
) -> Response:
    """Answer one request to the table's routes; `opening`, when given, is the request's
    initData as its entry has already checked it (it is not checked again)."""
    headers = {k.lower(): v for k, v in headers.items()}
    path = "/table" if path == "/" else path
    if path not in ROUTES:
        return _error(404, "not_found")
    if method != ROUTES[path]:
        return _error(405, "method_not_allowed", {"Allow": ROUTES[path]})
    if path == "/table":
        return _page(headers)
    opening = opening or _opening(headers, token, now)
    if opening is None:
        return _error(401, "unauthorized")
    configure(token)
    if path == "/api/move":
        return _move(body, opening, headers, source, token, now)
    selector = parse_selector(_one(query, "g"))
    kind = TABLE if path == "/api/table" else REPLAY
    if selector is None or selector.kind != kind:
        return _error(400, "bad_request")
    if kind == REPLAY and not is_replay_key(selector.key, selector.chat, selector.game, token):
        return _error(404, "not_found")
    admitted = _admitted(selector, opening, headers, source, token)
    if isinstance(admitted, Response):
        return admitted
    if kind == TABLE:
        view = source.view(selector, opening, now, _held(headers.get("if-none-match")))
        if isinstance(view, Gone):
            return _gone(view)
        if isinstance(view, Unchanged):
            return _with_pass(
                Response(304, _api_headers({"ETag": f'"{view.version}"'})),
                selector,
                opening,
                token,
            )
        if view is None:
            return _error(403, NOT_YOURS)
        shown = stamped(view, now)
        answer = _json(200, shown, shown["version"], headers.get("if-none-match"))
        return _with_pass(answer, selector, opening, token)
    replay = source.replay(selector, opening, now, admitted)
    if replay is None:
        return _error(404, "not_found")
    answer = _json(200, replay, view_version(replay), headers.get("if-none-match"))
    return _with_pass(answer, selector, opening, token)


def _admitted(
    selector: Selector,
    opening: Opening,
    headers: dict[str, str],
    source: TableSource,
    token: str,
) -> bool | Response:
    """Whether the opener may be shown the game, decided before anything is read: the game the
    opening was signed for (a direct link's start_param) and no other; then a seat's pass, or
    else Telegram's word that the opener is in the group (True). A non-member is refused,
    except at a replay (False: the replay is theirs only if they played it)."""
    opened = parse_selector(opening.start_param)
    if opened is not None and (opened.chat, opened.game) != (selector.chat, selector.game):
        return _error(403, NOT_YOURS)
    user, chat, game = opening.user.id, selector.chat, selector.game
    if is_seat_pass(headers.get(PASS_HEADER.lower()), user, chat, game, token):
        return True
    member = source.member(chat, user)
    if member is None:
        return _error(503, TRY_AGAIN, {"Retry-After": "2"})
    if not member and selector.kind == TABLE:
        return _error(403, NOT_YOURS)
    return member


def _with_pass(answer: Response, selector: Selector, opening: Opening, token: str) -> Response:
    """The answer with the opener's pass to the game, for the page to send back."""
    if answer.status in (200, 304):
        user = opening.user.id
        answer.headers[PASS_HEADER] = seat_pass(user, selector.chat, selector.game, token)
    return answer


def _page(headers: dict[str, str]) -> Response:
    page = table_page()
    if _matches(headers.get("if-none-match"), page.etag.strip('"')):
        out = page.headers()
        del out["Content-Type"]
        return Response(304, out)
    return Response(200, page.headers(), page.body)


def _opening(headers: dict[str, str], token: str, now: float) -> Opening | None:
    scheme, _, init_data = headers.get("authorization", "").partition(" ")
    if scheme != "tma":
        return None
    try:
        return check_init_data(init_data, token, now)
    except BadInitData:
        return None


def _move(
    body: bytes,
    opening: Opening,
    headers: dict[str, str],
    source: TableSource,
    token: str,
    now: float,
) -> Response:
    try:
        request = read_move_request(body)
    except BadRequest:
        return _error(400, "bad_request")
    selector = parse_selector(request.selector)
    if selector is None or selector.kind != TABLE:
        return _error(400, "bad_request")
    admitted = _admitted(selector, opening, headers, source, token)
    if isinstance(admitted, Response):
        return admitted
    outcome = source.move(selector, opening, request, now)
    if outcome.result == NOT_YOURS or outcome.view is None:
        return _error(403, NOT_YOURS)
    shown = stamped(outcome.view, now)
    payload = {"view": shown} if outcome.result == APPLIED else {"error": outcome.result}
    answer = _json(_MOVE_STATUS[outcome.result], payload | {"view": shown}, shown["version"])
    return _with_pass(answer, selector, opening, token)


def _gone(gone: Gone) -> Response:
    headers = _api_headers({"Content-Type": "application/json; charset=utf-8"})
    body = json.dumps({"error": GONE, "replay": gone.replay}).encode()
    return Response(410, headers, body)


def _one(query: str, name: str) -> str | None:
    try:
        values = parse_qs(query, strict_parsing=True).get(name, [])
    except ValueError:
        return None
    return values[0] if len(values) == 1 else None


def _held(if_none_match: str | None) -> str | None:
    """The one version an If-None-Match names (None for none, several, or '*')."""
    tags = [t.strip() for t in (if_none_match or "").split(",") if t.strip()]
    if len(tags) != 1 or tags[0] == "*":
        return None
    return tags[0].removeprefix("W/").strip('"') or None


def _matches(if_none_match: str | None, version: str) -> bool:
    """True when the request's If-None-Match names `version` (weak or strong, or '*')."""
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/").strip('"') for t in if_none_match.split(",")]
    return version in tags or "*" in tags


def _api_headers(extra: dict[str, str] | None = None) -> dict[str, str]:
    return {"Cache-Control": "no-store", **COMMON_HEADERS, **(extra or {})}


def _json(status: int, payload: dict, version: str, if_none_match: str | None = None) -> Response:
    headers = _api_headers({"ETag": f'"{version}"'})
    if status == 200 and _matches(if_none_match, version):
        return Response(304, headers)
    headers["Content-Type"] = "application/json; charset=utf-8"
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return Response(status, headers, text.encode())


def _error(status: int, error: str, extra: dict[str, str] | None = None) -> Response:
    headers = _api_headers({"Content-Type": "application/json; charset=utf-8", **(extra or {})})
    return Response(status, headers, json.dumps({"error": error}).encode())
