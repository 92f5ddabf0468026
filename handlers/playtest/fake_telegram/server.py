"""FakeTelegram: a Bot API server on 127.0.0.1 that simulates Telegram users, chats and rules.

Point the bot at base_url; play users with send_text()/press(); read chats with chat()/texts()."""

# Usage: Bot(fake.token, base_url=fake.base_url). With an Application polling in the same event
# loop, wait for the bot's answer with `await asyncio.to_thread(fake.wait_for, predicate)`. For a
# webhook, take fake.next_updates() (or set fake.on_update(hook)) and post them yourself, with
# fake.webhook_headers(). Calls that break the Bot API or Telegram's rules are answered with
# Telegram's error and recorded in fake.refused; fake.assert_no_refused() checks there are none.
# Groups have privacy mode: the bot only gets commands, replies to it and service messages,
# unless it is an administrator.

import collections
import copy
import itertools
import json
import math
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from email import policy
from email.parser import BytesParser
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self
from urllib.parse import parse_qs, parse_qsl, unquote, urlsplit

from handlers.playtest.fake_telegram import bot_api
from handlers.playtest.fake_telegram.formatting import EntityParseError, parse_text, utf16_len
from handlers.playtest.fake_telegram.validation import ApiError, bad_request, check_params
from handlers.playtest.fake_telegram.world import (
    Button,
    Call,
    CallbackAnswer,
    CallbackQuery,
    FakeChat,
    FakeMessage,
    FakeUser,
    MessageVersion,
)

# A token shaped unlike a real one (those are 8-10 digits, a colon and 35 characters).
TEST_TOKEN = "123456:TEST-TOKEN-not-real"
BOT_USERNAME = "decapitation_test_bot"
BOT_FIRST_NAME = "Decapitation (test)"

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"

UserLike = FakeUser | int
ChatLike = FakeChat | FakeUser | int

_CANONICAL = {name.lower(): name for name in bot_api.METHODS}
_PATH_RE = re.compile(r"/bot([^/]+)/([A-Za-z0-9_]+)/?")
_BUTTON_URL_RE = re.compile(r"(?i)(https?://[^\s/?#]+[^\s]*|tg://[^\s]+)")
_COMMAND_RE = re.compile(r"/([A-Za-z0-9_]{1,32})(@[A-Za-z0-9_]+)?(?=\s|$)")
_COMMAND_NAME_RE = re.compile(r"[a-z0-9_]{1,32}")
_PAYLOAD_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_SECRET_RE = re.compile(r"[A-Za-z0-9_-]{1,256}")
_LANGUAGE_RE = re.compile(r"[a-z]{2}")
_NOT_FOUND = {"ok": False, "error_code": 404, "description": "Not Found"}
_UNAUTHORIZED = {"ok": False, "error_code": 401, "description": "Unauthorized"}


def _world_error(status: int, description: str, **parameters: Any) -> ApiError:
    """An answer caused by the state of the world, not by a mistake of the bot."""
    return ApiError(status, description, parameters=parameters or None, kind="error")


def _chat_word(chat: FakeChat) -> str:
    return {"group": "group chat", "supergroup": "supergroup chat"}.get(chat.type, "channel chat")


@dataclass
class _Fault:
    method: str
    status: int
    description: str
    parameters: dict[str, Any] | None
    times: int
    chat_id: int | None


@dataclass
class _Delay:
    method: str
    seconds: float
    times: int


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # Telegram takes many connections at once; the standard backlog of 5 would drop the SYNs
    # of a bot that opens a dozen side by side, and the kernel retries them a second later.
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return  # the client went away, e.g. a cancelled long poll
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    wbufsize = -1
    timeout = 30
    fake: "FakeTelegram"

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _handle(self) -> None:
        parts = urlsplit(self.path)
        body = self._read_body()
        status, payload = self.fake._handle_http(
            parts.path, parts.query, self.headers.get("Content-Type", ""), body
        )
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (ConnectionError, TimeoutError):
            self.close_connection = True


def _decode_params(query: str, content_type: str, body: bytes) -> dict[str, Any]:
    """Parameters from the query string and a JSON, urlencoded or multipart body."""
    params: dict[str, Any] = dict(parse_qsl(query, keep_blank_values=True))
    ctype = content_type.split(";", 1)[0].strip().lower()
    if not body:
        return params
    if ctype == "application/json":
        try:
            data = json.loads(body)
        except ValueError:
            raise bad_request("can't parse JSON object") from None
        if not isinstance(data, dict):
            raise bad_request("can't parse JSON object")
        params.update({k: v for k, v in data.items() if v is not None})
    elif ctype in ("application/x-www-form-urlencoded", ""):
        params.update(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    elif ctype == "multipart/form-data":
        head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
        message = BytesParser(policy=policy.HTTP).parsebytes(head + body)
        if not message.is_multipart():
            raise bad_request("can't parse multipart/form-data body")
        for part in message.iter_parts():  # type: ignore[attr-defined]
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True) or b""
            if not name:
                continue
            if part.get_filename() is not None:
                params[name] = {"filename": part.get_filename(), "size": len(payload)}
            else:
                params[name] = payload.decode("utf-8", "replace")
    else:
        raise bad_request(f"unsupported Content-Type {ctype!r}")
    return params


class FakeTelegram:
    """A fake Bot API server with simulated users and chats; see the module docstring."""

    def __init__(
        self,
        token: str = TEST_TOKEN,
        *,
        bot_username: str = BOT_USERNAME,
        bot_first_name: str = BOT_FIRST_NAME,
        privacy_mode: bool = True,
        callback_timeout: float = 15.0,
        poll_timeout_cap: float = 1.0,
        rate_limits: bool = False,
    ) -> None:
        self.token = token
        prefix = token.split(":", 1)[0]
        self.bot_id = int(prefix) if prefix.isdigit() else 123456
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        self.privacy_mode = privacy_mode
        self.callback_timeout = callback_timeout
        self.poll_timeout_cap = poll_timeout_cap
        self.rate_limits = rate_limits

        self._cond = threading.Condition(threading.RLock())
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.calls: list[Call] = []
        self.callback_answers: list[CallbackAnswer] = []
        self.chat_actions: list[tuple[int, str, float]] = []
        self.crashes: list[str] = []
        self.webhook: dict[str, Any] | None = None
        self.descriptions: dict[str, str] = {}
        self.short_descriptions: dict[str, str] = {}
        self.my_commands: dict[tuple[str, str], list[dict[str, str]]] = {}

        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(700_000_001)
        self._allowed_updates: list[str] | None = None
        self._poll_generation = 0
        self._hook: Callable[[dict[str, Any]], Any] | None = None
        self._hook_pending: list[dict[str, Any]] = []
        self._queries: dict[str, CallbackQuery] = {}
        self._query_ids = itertools.count(4_611_686_018_427_387_001)
        self._user_ids = itertools.count(500_000_001)
        self._group_ids = itertools.count(4_100_000_001)
        self._super_ids = itertools.count(1_002_100_000_001)
        self._faults: list[_Fault] = []
        self._delays: list[_Delay] = []
        self._sent_times: dict[int, collections.deque[float]] = {}
        self._all_sent_times: collections.deque[float] = collections.deque()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._handlers: dict[str, Callable[[dict[str, Any]], Any]] = {
            name: getattr(self, f"_api_{name}") for name in bot_api.METHODS
        }

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> Self:
        """Start serving on 127.0.0.1 at an ephemeral port; returns self."""
        if self._server is not None:
            return self
        handler = type("FakeTelegramHandler", (_Handler,), {"fake": self})
        self._stopping = False
        self._server = _Server(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fake-telegram",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; long polls in progress return at once."""
        if self._server is None:
            return
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """The server's root URL, e.g. http://127.0.0.1:PORT."""
        if self._server is None:
            raise RuntimeError("FakeTelegram is not started")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def base_url(self) -> str:
        """The value for python-telegram-bot's Bot(base_url=...)."""
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        """The value for python-telegram-bot's Bot(base_file_url=...)."""
        return f"{self.url}/file/bot"

    # -- the world ----------------------------------------------------------------------------

    def add_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        last_name: str | None = None,
        language_code: str | None = "en",
        started: bool = False,
        user_id: int | None = None,
    ) -> FakeUser:
        """Create a user (and their private chat with the bot, which they may not have started)."""
        with self._cond:
            uid = user_id if user_id is not None else next(self._user_ids)
            if uid in self.users:
                raise ValueError(f"user {uid} exists")
            user = FakeUser(uid, first_name, username, last_name, language_code, started=started)
            self.users[uid] = user
            self.chats[uid] = FakeChat(
                uid, "private", username=username, first_name=first_name, last_name=last_name
            )
            return user

    def add_group(
        self,
        title: str,
        members: Iterable[UserLike] = (),
        *,
        admins: Iterable[UserLike] = (),
        owner: UserLike | None = None,
        supergroup: bool = False,
        bot_admin: bool = False,
        bot_can_delete_messages: bool = True,
        bot_member: bool = True,
        username: str | None = None,
        chat_id: int | None = None,
    ) -> FakeChat:
        """Create a group (negative id) or supergroup (-100...) with these members and admins."""
        with self._cond:
            if chat_id is None:
                chat_id = -next(self._super_ids) if supergroup else -next(self._group_ids)
            if chat_id in self.chats:
                raise ValueError(f"chat {chat_id} exists")
            admin_ids = {self._uid(a) for a in admins}
            owner_id = self._uid(owner) if owner is not None else None
            member_ids: list[int] = []
            everyone = [self._uid(m) for m in members] + sorted(admin_ids)
            if owner_id is not None:
                everyone.append(owner_id)
            for uid in everyone:
                if uid not in member_ids:
                    self._user_obj(uid)
                    member_ids.append(uid)
            status = ("administrator" if bot_admin else "member") if bot_member else "left"
            chat = FakeChat(
                chat_id,
                "supergroup" if supergroup else "group",
                title=title,
                username=username,
                members=member_ids,
                admins=admin_ids,
                owner=owner_id,
                bot_status=status,
                bot_can_delete_messages=bot_admin and bot_can_delete_messages,
            )
            self.chats[chat_id] = chat
            return chat

    def add_channel(
        self,
        title: str,
        *,
        username: str | None = None,
        bot_admin: bool = True,
        chat_id: int | None = None,
    ) -> FakeChat:
        """Create a channel; the bot gets its posts when it is a member."""
        with self._cond:
            chat_id = chat_id if chat_id is not None else -next(self._super_ids)
            chat = FakeChat(
                chat_id,
                "channel",
                title=title,
                username=username,
                bot_status="administrator" if bot_admin else "member",
                bot_can_delete_messages=bot_admin,
            )
            self.chats[chat_id] = chat
            return chat

    def set_admin(self, group: ChatLike, user: UserLike, admin: bool = True) -> None:
        """Make a member an administrator of the group, or no longer one."""
        with self._cond:
            chat, uid = self._chat_obj(group), self._uid(user)
            if uid not in chat.members:
                chat.members.append(uid)
            if admin:
                chat.admins.add(uid)
            else:
                chat.admins.discard(uid)

    def set_bot_admin(
        self, group: ChatLike, admin: bool = True, *, can_delete_messages: bool = True
    ) -> dict[str, Any]:
        """Promote or demote the bot in a group; returns the my_chat_member update."""
        with self._cond:
            chat = self._chat_obj(group)
            old = self._member_api(chat, self.bot_id)
            chat.bot_status = "administrator" if admin else "member"
            chat.bot_can_delete_messages = admin and can_delete_messages
            update = self._my_chat_member(chat, self._actor(chat, None), old)
        self._flush_hook()
        return update

    def join(self, user: UserLike, group: ChatLike) -> dict[str, Any] | None:
        """A user joins a group; returns the service message update the bot gets, if any."""
        with self._cond:
            chat, u = self._chat_obj(group), self._user_obj(user)
            if u.id not in chat.members:
                chat.members.append(u.id)
            msg = self._new_message(
                chat, sender_id=u.id, service={"new_chat_members": [u.to_api()]}
            )
            update = self._deliver(chat, msg, "message")
        self._flush_hook()
        return update

    def leave(self, user: UserLike, group: ChatLike) -> dict[str, Any] | None:
        """A user leaves a group; returns the service message update the bot gets, if any."""
        with self._cond:
            chat, u = self._chat_obj(group), self._user_obj(user)
            if u.id in chat.members:
                chat.members.remove(u.id)
            chat.admins.discard(u.id)
            msg = self._new_message(chat, sender_id=u.id, service={"left_chat_member": u.to_api()})
            update = self._deliver(chat, msg, "message")
        self._flush_hook()
        return update

    def block(self, user: UserLike) -> dict[str, Any]:
        """The user blocks the bot; returns the my_chat_member update."""
        with self._cond:
            u = self._user_obj(user)
            chat = self.chats[u.id]
            old = self._member_api(chat, self.bot_id)
            u.blocked = True
            update = self._my_chat_member(chat, u.id, old)
        self._flush_hook()
        return update

    def unblock(self, user: UserLike) -> dict[str, Any]:
        """The user unblocks the bot; returns the my_chat_member update."""
        with self._cond:
            u = self._user_obj(user)
            chat = self.chats[u.id]
            old = self._member_api(chat, self.bot_id)
            u.blocked = False
            update = self._my_chat_member(chat, u.id, old)
        self._flush_hook()
        return update

    def kick_bot(self, group: ChatLike, *, by: UserLike | None = None) -> dict[str, Any]:
        """Remove the bot from a group; returns the my_chat_member update."""
        with self._cond:
            chat = self._chat_obj(group)
            old = self._member_api(chat, self.bot_id)
            chat.bot_status = "kicked"
            chat.bot_can_delete_messages = False
            update = self._my_chat_member(chat, self._actor(chat, by), old)
        self._flush_hook()
        return update

    def invite_bot(
        self,
        group: ChatLike,
        *,
        by: UserLike | None = None,
        admin: bool = False,
        can_delete_messages: bool = True,
    ) -> dict[str, Any]:
        """Add the bot to a group, with its service message; returns the my_chat_member update."""
        with self._cond:
            chat = self._chat_obj(group)
            actor = self._actor(chat, by)
            old = self._member_api(chat, self.bot_id)
            chat.bot_status = "administrator" if admin else "member"
            chat.bot_can_delete_messages = admin and can_delete_messages
            update = self._my_chat_member(chat, actor, old)
            msg = self._new_message(
                chat, sender_id=actor, service={"new_chat_members": [self._bot_user()]}
            )
            self._deliver(chat, msg, "message")
        self._flush_hook()
        return update

    def migrate(self, group: ChatLike, *, by: UserLike | None = None) -> int:
        """Upgrade a group to a supergroup with a new id, as Telegram does; returns the new id."""
        with self._cond:
            old = self._chat_obj(group)
            if old.type != "group" or old.migrated_to is not None:
                raise ValueError(f"chat {old.id} is not a group that can be migrated")
            actor = self._actor(old, by)
            new_id = -next(self._super_ids)
            new = FakeChat(
                new_id,
                "supergroup",
                title=old.title,
                members=list(old.members),
                admins=set(old.admins),
                owner=old.owner,
                bot_status=old.bot_status,
                bot_can_delete_messages=old.bot_can_delete_messages,
                migrated_from=old.id,
            )
            self.chats[new_id] = new
            to_msg = self._new_message(
                old, sender_id=actor, service={"migrate_to_chat_id": new_id}
            )
            self._deliver(old, to_msg, "message")
            old.migrated_to = new_id
            from_msg = self._new_message(
                new, sender_id=actor, service={"migrate_from_chat_id": old.id}
            )
            self._deliver(new, from_msg, "message")
        self._flush_hook()
        return new_id

    # -- users acting -------------------------------------------------------------------------

    def send_text(
        self, user: UserLike, chat: ChatLike, text: str, *, reply_to: int | None = None
    ) -> dict[str, Any] | None:
        """The user writes in a chat (private: starts the bot); returns the Update, or None if
        the bot does not get it (privacy mode in groups)."""
        with self._cond:
            u, c = self._user_obj(user), self._chat_obj(chat)
            self._assert_can_write(u, c)
            if c.type == "private":
                if u.blocked:
                    old = self._member_api(c, self.bot_id)
                    u.blocked = False
                    self._my_chat_member(c, u.id, old)
                u.started = True
            if reply_to is not None:
                target = c.find(reply_to)
                if target is None or target.deleted:
                    raise AssertionError(f"no message {reply_to} in chat {c.id} to reply to")
            msg = self._new_message(
                c,
                sender_id=u.id,
                text=text,
                entities=self._command_entities(text),
                reply_to_message_id=reply_to,
            )
            update = self._deliver(c, msg, "message")
        self._flush_hook()
        return update

    def edited_text(
        self, user: UserLike, chat: ChatLike, message_id: int, text: str
    ) -> dict[str, Any] | None:
        """The user edits one of their messages; returns the edited_message Update, if any."""
        with self._cond:
            u, c = self._user_obj(user), self._chat_obj(chat)
            msg = c.find(message_id)
            if msg is None or msg.deleted or msg.sender_id != u.id or msg.from_bot:
                raise AssertionError(f"user {u.id} has no message {message_id} in chat {c.id}")
            self._apply_edit(msg, text, self._command_entities(text), msg.reply_markup)
            update = self._deliver(c, msg, "edited_message")
        self._flush_hook()
        return update

    def channel_post(self, channel: ChatLike, text: str) -> dict[str, Any] | None:
        """A post in a channel; returns the channel_post Update if the bot is a member."""
        with self._cond:
            c = self._chat_obj(channel)
            if c.type != "channel":
                raise ValueError(f"chat {c.id} is not a channel")
            msg = self._new_message(c, sender_id=None, text=text)
            update = self._deliver(c, msg, "channel_post")
        self._flush_hook()
        return update

    def press(
        self,
        user: UserLike,
        chat: ChatLike,
        message_id: int,
        button_text: str | None = None,
        *,
        callback_data: str | None = None,
    ) -> dict[str, Any]:
        """The user taps the button labelled button_text as shown now (AssertionError if absent),
        or sends raw callback_data (a forged press); returns the Update (deep links: /start)."""
        deep_link = None
        with self._cond:
            u, c = self._user_obj(user), self._chat_obj(chat)
            self._assert_can_see(u, c)
            msg = c.find(message_id)
            visible = msg is not None and not msg.deleted
            if button_text is not None:
                if not visible or msg is None:
                    raise AssertionError(f"no message {message_id} in chat {c.id} to press on")
                button = self._find_button(msg, button_text)
                if "callback_data" in button:
                    data = button["callback_data"]
                    if callback_data is not None and callback_data != data:
                        raise AssertionError(
                            f"button {button_text!r} carries {data!r}, not {callback_data!r}"
                        )
                elif "url" in button:
                    deep_link = button["url"]
                else:
                    kind = next(k for k in bot_api.INLINE_BUTTON_ACTIONS if k in button)
                    raise AssertionError(f"button {button_text!r} is a {kind} button")
            elif callback_data is None:
                raise TypeError("press() needs button_text or callback_data")
            else:
                data = callback_data
            if deep_link is None:
                update = self._callback_query(u, c, message_id, msg if visible else None, data)
        if deep_link is not None:
            return self.open_deep_link(user, deep_link)
        self._flush_hook()
        return update

    def open_deep_link(self, user: UserLike, url: str) -> dict[str, Any]:
        """The user opens https://t.me/<bot>?start=PAYLOAD and taps Start; returns the Update."""
        parts = urlsplit(url)
        query = parse_qs(parts.query, keep_blank_values=True)
        if parts.scheme in ("http", "https") and parts.hostname in ("t.me", "telegram.me"):
            name = parts.path.strip("/").split("/")[0]
        elif parts.scheme == "tg" and parts.netloc == "resolve":
            name = query.get("domain", [""])[0]
        else:
            raise AssertionError(f"{url!r} is not a t.me link; the bot would not see it opened")
        if name.lower() != self.bot_username.lower():
            raise AssertionError(f"{url!r} leads to @{name}, not to @{self.bot_username}")
        if "startgroup" in query or "startchannel" in query:
            raise AssertionError(f"{url!r} adds the bot to a group; use invite_bot()")
        payload = query.get("start", [""])[0]
        if "start" in query and not _PAYLOAD_RE.fullmatch(payload):
            raise AssertionError(
                f"start payload {payload!r} is not 1-64 characters of A-Z, a-z, 0-9, _ and -;"
                " Telegram clients drop it"
            )
        u = self._user_obj(user)
        update = self.send_text(u, u, f"/start {payload}" if payload else "/start")
        if update is None:
            raise AssertionError("the /start message did not reach the bot")
        return update

    def expire_callback_queries(self) -> None:
        """Make every unanswered button press too old to answer."""
        with self._cond:
            for query in self._queries.values():
                query.expired = True

    # -- updates ------------------------------------------------------------------------------

    def next_updates(self) -> list[dict[str, Any]]:
        """Take all pending updates (for tests that deliver them to a webhook themselves)."""
        with self._cond:
            updates, self._updates = self._updates, []
            return [u for u in updates if self._is_allowed(u)]

    def peek_updates(self) -> list[dict[str, Any]]:
        """The pending updates, left in place."""
        with self._cond:
            return copy.deepcopy(self._updates)

    def on_update(self, hook: Callable[[dict[str, Any]], Any] | None) -> None:
        """Hand each new update to hook (outside the lock) instead of queueing it; None undoes."""
        with self._cond:
            self._hook = hook

    def webhook_headers(self) -> dict[str, str]:
        """The headers Telegram sends with a webhook delivery (the secret token, if set)."""
        with self._cond:
            secret = (self.webhook or {}).get("secret_token")
        headers = {"Content-Type": "application/json"}
        if secret:
            headers["X-Telegram-Bot-Api-Secret-Token"] = secret
        return headers

    # -- faults -------------------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        *,
        status: int = 429,
        retry_after: int | None = None,
        description: str | None = None,
        times: int = 1,
        chat_id: ChatLike | None = None,
    ) -> None:
        """Answer the next `times` calls of method (to chat_id, if given) with an error."""
        name = self._method_name(method)
        parameters = None
        if status == 429:
            retry_after = 1 if retry_after is None else retry_after
        if retry_after is not None:
            parameters = {"retry_after": retry_after}
        if description is None and status == 429:
            description = f"Too Many Requests: retry after {retry_after}"
        elif description is None and status == 400:
            description = "Bad Request: injected failure"
        elif description is None:
            try:
                description = HTTPStatus(status).phrase
            except ValueError:
                description = "Error"
        with self._cond:
            self._faults.append(
                _Fault(
                    name,
                    status,
                    description,
                    parameters,
                    times,
                    None if chat_id is None else self._cid(chat_id),
                )
            )

    def delay_next(self, method: str, seconds: float, times: int = 1) -> None:
        """Answer the next `times` calls of method only after `seconds`."""
        with self._cond:
            self._delays.append(_Delay(self._method_name(method), seconds, times))

    def clear_faults(self) -> None:
        """Forget pending failures and delays."""
        with self._cond:
            self._faults.clear()
            self._delays.clear()

    # -- records ------------------------------------------------------------------------------

    @property
    def refused(self) -> list[Call]:
        """Calls Telegram would refuse as the bot's mistake (bad parameters, rules, stale ids)."""
        with self._cond:
            return [c for c in self.calls if c.kind in ("refused", "crashed")]

    @property
    def errors(self) -> list[Call]:
        """Calls answered with an error due to the world (blocked, kicked, migrated, flood)."""
        with self._cond:
            return [c for c in self.calls if c.kind == "error"]

    def assert_no_refused(self) -> None:
        """Fail, listing them, if the bot made any call Telegram would refuse."""
        refused = self.refused
        if refused:
            lines = "\n".join(f"  {call}" for call in refused)
            raise AssertionError(f"{len(refused)} call(s) refused by Telegram:\n{lines}")

    def calls_to(self, method: str) -> list[Call]:
        """The calls of one method, in order."""
        name = self._method_name(method)
        with self._cond:
            return [c for c in self.calls if c.method == name]

    def chat(self, chat: ChatLike) -> list[FakeMessage]:
        """Every message of a chat in order (deleted ones flagged), as users see them now."""
        with self._cond:
            return [m.snapshot() for m in self._chat_obj(chat).messages]

    def message(self, chat: ChatLike, message_id: int) -> FakeMessage:
        """One message of a chat; AssertionError if there is none."""
        with self._cond:
            msg = self._chat_obj(chat).find(message_id)
            if msg is None:
                raise AssertionError(f"no message {message_id} in chat {self._cid(chat)}")
            return msg.snapshot()

    def last_message(self, chat: ChatLike, *, from_bot: bool | None = True) -> FakeMessage | None:
        """The newest message not deleted (by default, the newest from the bot)."""
        with self._cond:
            for msg in reversed(self._chat_obj(chat).messages):
                if not msg.deleted and (from_bot is None or msg.from_bot == from_bot):
                    return msg.snapshot()
            return None

    def texts(self, chat: ChatLike, *, from_bot: bool | None = True) -> list[str]:
        """The current texts of the messages not deleted (by default, the bot's)."""
        with self._cond:
            return [
                m.text
                for m in self._chat_obj(chat).messages
                if not m.deleted
                and m.text is not None
                and (from_bot is None or m.from_bot == from_bot)
            ]

    def buttons(self, chat: ChatLike, message_id: int) -> list[list[Button]]:
        """The inline keyboard of a message as shown now, rows of (text, callback_data, url)."""
        return self.message(chat, message_id).buttons

    def commands(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, str]]:
        """The command list set for exactly this scope and language."""
        with self._cond:
            key = self._scope_key(scope)
            return copy.deepcopy(self.my_commands.get((key, language_code), []))

    def visible_commands(self, user: UserLike, chat: ChatLike) -> list[dict[str, str]]:
        """The command menu this user sees in this chat, by Telegram's scope fallback order."""
        with self._cond:
            u, c = self._user_obj(user), self._chat_obj(chat)
            if c.type == "private":
                scopes = [
                    {"type": "chat", "chat_id": c.id},
                    {"type": "all_private_chats"},
                    {"type": "default"},
                ]
            else:
                is_admin = u.id in c.admins or u.id == c.owner
                scopes = [{"type": "chat_member", "chat_id": c.id, "user_id": u.id}]
                if is_admin:
                    scopes.append({"type": "chat_administrators", "chat_id": c.id})
                scopes.append({"type": "chat", "chat_id": c.id})
                if is_admin:
                    scopes.append({"type": "all_chat_administrators"})
                scopes += [{"type": "all_group_chats"}, {"type": "default"}]
            for scope in scopes:
                key = json.dumps(scope, sort_keys=True)
                for lang in (u.language_code or "", ""):
                    if (key, lang) in self.my_commands:
                        return copy.deepcopy(self.my_commands[(key, lang)])
            return []

    def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 3.0, what: str = "condition"
    ) -> Any:
        """Wait until predicate() is truthy (re-checked on every call the bot makes)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = predicate()
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
                self._cond.wait(min(remaining, 0.05))

    # -- HTTP ---------------------------------------------------------------------------------

    def _handle_http(
        self, path: str, query: str, content_type: str, body: bytes
    ) -> tuple[int, dict[str, Any]]:
        match = _PATH_RE.fullmatch(unquote(path))
        if match is None:
            return 404, dict(_NOT_FOUND)
        token, name = match.groups()
        method = _CANONICAL.get(name.lower())
        call = Call(method or name, {}, time.time(), kind="pending")
        with self._cond:
            self.calls.append(call)
        try:
            raw = _decode_params(query, content_type, body)
            call.params = raw
            if token != self.token:
                raise ApiError(401, "Unauthorized")
            if method is None:
                raise ApiError(404, "Not Found")
            delay = self._take_delay(method)
            if delay:
                time.sleep(delay)
            with self._cond:
                self._take_fault(method, raw)
                params = check_params(method, raw)
                call.params = params
            result = self._handlers[method](params)
        except ApiError as err:
            with self._cond:
                call.status, call.kind, call.description = err.status, err.kind, err.description
                call.answered = time.time()
                self._cond.notify_all()
            return err.status, err.payload()
        except Exception as exc:
            with self._cond:
                self.crashes.append(traceback.format_exc())
                call.status, call.kind, call.description = 500, "crashed", repr(exc)
                call.answered = time.time()
                self._cond.notify_all()
            description = f"Internal Server Error: the fake crashed: {exc!r}"
            return 500, {"ok": False, "error_code": 500, "description": description}
        with self._cond:
            call.kind, call.result = "ok", copy.deepcopy(result)
            call.answered = time.time()
            self._cond.notify_all()
        self._flush_hook()
        return 200, {"ok": True, "result": result}

    def _take_delay(self, method: str) -> float:
        with self._cond:
            for delay in self._delays:
                if delay.method == method:
                    delay.times -= 1
                    if delay.times <= 0:
                        self._delays.remove(delay)
                    return delay.seconds
        return 0.0

    def _take_fault(self, method: str, raw: dict[str, Any]) -> None:
        for fault in self._faults:
            if fault.method != method:
                continue
            if fault.chat_id is not None and str(raw.get("chat_id")) != str(fault.chat_id):
                continue
            fault.times -= 1
            if fault.times <= 0:
                self._faults.remove(fault)
            raise ApiError(
                fault.status, fault.description, parameters=fault.parameters, kind="injected"
            )

    # -- Bot API methods ----------------------------------------------------------------------

    def _api_getMe(self, p: dict[str, Any]) -> dict[str, Any]:
        return {
            **self._bot_user(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def _api_getUpdates(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        timeout = min(max(p.get("timeout", 0), 0), self.poll_timeout_cap)
        limit = p.get("limit", 100)
        limit = limit if 1 <= limit <= 100 else 100
        with self._cond:
            if self.webhook is not None:
                raise _world_error(
                    409,
                    "Conflict: can't use getUpdates method while webhook is active; "
                    "use deleteWebhook to delete the webhook first",
                )
            self._poll_generation += 1
            generation = self._poll_generation
            self._cond.notify_all()
            if "allowed_updates" in p:
                self._allowed_updates = list(p["allowed_updates"])
            offset = p.get("offset", 0)
            if offset > 0:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
            elif offset < 0:
                self._updates = self._updates[offset:]
            deadline = time.monotonic() + timeout
            while True:
                if self._poll_generation != generation:
                    raise ApiError(
                        409,
                        "Conflict: terminated by other getUpdates request; "
                        "make sure that only one bot instance is running",
                        kind="superseded",
                    )
                self._updates = [u for u in self._updates if self._is_allowed(u)]
                batch = copy.deepcopy(self._updates[:limit])
                remaining = deadline - time.monotonic()
                if batch or remaining <= 0 or self._stopping:
                    return batch
                self._cond.wait(remaining)

    def _api_setWebhook(self, p: dict[str, Any]) -> bool:
        url = p["url"]
        with self._cond:
            if url:
                parts = urlsplit(url)
                if parts.scheme != "https":
                    raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
                if not parts.hostname:
                    raise bad_request("bad webhook: Failed to resolve host: no host in the URL")
                if parts.port not in (None, 80, 88, 443, 8443):
                    raise bad_request(
                        "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
                    )
            secret = p.get("secret_token")
            if secret is not None and not _SECRET_RE.fullmatch(secret):
                raise bad_request("secret token contains unallowed characters")
            max_connections = p.get("max_connections", 40)
            if not 1 <= max_connections <= 100:
                raise bad_request("bad webhook: max_connections must be between 1 and 100")
            if "allowed_updates" in p:
                self._allowed_updates = list(p["allowed_updates"])
            if p.get("drop_pending_updates"):
                self._updates.clear()
            if not url:
                self.webhook = None
                return True
            self.webhook = {
                "url": url,
                "secret_token": secret,
                "max_connections": max_connections,
                "ip_address": p.get("ip_address"),
                "has_custom_certificate": "certificate" in p,
            }
            self._poll_generation += 1
            self._cond.notify_all()
            return True

    def _api_deleteWebhook(self, p: dict[str, Any]) -> bool:
        with self._cond:
            self.webhook = None
            if p.get("drop_pending_updates"):
                self._updates.clear()
            return True

    def _api_getWebhookInfo(self, p: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            hook = self.webhook or {}
            info: dict[str, Any] = {
                "url": hook.get("url", ""),
                "has_custom_certificate": hook.get("has_custom_certificate", False),
                "pending_update_count": len(self._updates),
            }
            if hook:
                info["max_connections"] = hook["max_connections"]
                if hook.get("ip_address"):
                    info["ip_address"] = hook["ip_address"]
            if self._allowed_updates:
                info["allowed_updates"] = list(self._allowed_updates)
            return info

    def _api_sendMessage(self, p: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            chat = self._resolve_chat(p["chat_id"])
            self._check_access(chat)
            text, entities = self._render(p["text"], p.get("parse_mode"), p.get("entities"))
            inline, other = self._check_markup(p.get("reply_markup"))
            reply_to = None
            if "reply_parameters" in p:
                reply = p["reply_parameters"]
                target_chat = chat
                if "chat_id" in reply:
                    target_chat = self._resolve_chat(reply["chat_id"])
                target = target_chat.find(reply["message_id"])
                if target is not None and not target.deleted and target_chat is chat:
                    reply_to = target.message_id
                elif not reply.get("allow_sending_without_reply"):
                    raise bad_request("message to be replied not found")
            self._check_rate(chat)
            msg = self._new_message(
                chat,
                sender_id=self.bot_id,
                from_bot=True,
                text=text,
                entities=entities,
                source_text=p["text"],
                parse_mode=p.get("parse_mode"),
                reply_markup=inline,
                reply_keyboard=other,
                reply_to_message_id=reply_to,
                protect_content=bool(p.get("protect_content")),
                params=copy.deepcopy(p),
            )
            return self._message_api(msg)

    def _api_editMessageText(self, p: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            msg = self._edit_target(p)
            if "text" not in p:
                if "rich_message" in p:
                    raise bad_request("the fake does not support rich_message edits")
                raise bad_request("message text is empty")
            text, entities = self._render(p["text"], p.get("parse_mode"), p.get("entities"))
            markup = self._inline_markup(p.get("reply_markup"))
            if (text, entities, markup) == (msg.text, msg.entities, msg.reply_markup):
                raise ApiError(400, NOT_MODIFIED)
            self._apply_edit(msg, text, entities, markup)
            msg.source_text, msg.parse_mode = p["text"], p.get("parse_mode")
            return self._message_api(msg)

    def _api_editMessageReplyMarkup(self, p: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            msg = self._edit_target(p)
            markup = self._inline_markup(p.get("reply_markup"))
            if markup == msg.reply_markup:
                raise ApiError(400, NOT_MODIFIED)
            self._apply_edit(msg, msg.text, msg.entities, markup)
            return self._message_api(msg)

    def _api_deleteMessage(self, p: dict[str, Any]) -> bool:
        with self._cond:
            chat = self._resolve_chat(p["chat_id"])
            self._check_access(chat, posting=False)
            msg = chat.find(p["message_id"])
            if msg is None or msg.deleted:
                raise bad_request("message to delete not found")
            may_delete = chat.bot_status == "administrator" and chat.bot_can_delete_messages
            if not msg.from_bot and chat.type != "private" and not may_delete:
                raise bad_request("message can't be deleted")
            msg.deleted = True
            return True

    def _api_answerCallbackQuery(self, p: dict[str, Any]) -> bool:
        with self._cond:
            query = self._queries.get(p["callback_query_id"])
            too_old = query is None or query.answered or query.expired
            if query is not None and time.monotonic() - query.created > self.callback_timeout:
                too_old = True
            if too_old or query is None:
                raise ApiError(400, QUERY_TOO_OLD)
            text = p.get("text")
            if text is not None and len(text) > bot_api.MAX_CALLBACK_ANSWER_LENGTH:
                raise bad_request("MESSAGE_TOO_LONG")
            url = p.get("url")
            deep_link = f"https://t.me/{self.bot_username.lower()}?"
            if url is not None and not url.lower().startswith(deep_link):
                raise bad_request("URL_INVALID")
            query.answered = True
            self.callback_answers.append(
                CallbackAnswer(
                    query.id,
                    text,
                    bool(p.get("show_alert")),
                    url,
                    p.get("cache_time"),
                    query.user_id,
                    query.chat_id,
                    query.message_id,
                    time.time(),
                )
            )
            return True

    def _api_getChatMember(self, p: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            chat = self._resolve_chat(p["chat_id"])
            self._check_access(chat, posting=False)
            return self._member_api(chat, p["user_id"])

    def _api_getChat(self, p: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            chat = self._resolve_chat(p["chat_id"])
            self._check_access(chat, posting=False)
            info = {
                **chat.to_api(),
                "accent_color_id": 0,
                "max_reaction_count": 11,
                "accepted_gift_types": {
                    "unlimited_gifts": False,
                    "limited_gifts": False,
                    "unique_gifts": False,
                    "premium_subscription": False,
                    "gifts_from_channels": False,
                },
            }
            if chat.is_group:
                info["permissions"] = {"can_send_messages": True, "can_invite_users": True}
            return info

    def _api_setMyCommands(self, p: dict[str, Any]) -> bool:
        commands = p["commands"]
        if len(commands) > bot_api.MAX_COMMANDS:
            raise bad_request("too many commands")
        for command in commands:
            if not _COMMAND_NAME_RE.fullmatch(command["command"]):
                raise bad_request("BOT_COMMAND_INVALID")
            description = command["description"]
            if (
                not description.strip()
                or len(description) > bot_api.MAX_COMMAND_DESCRIPTION_LENGTH
            ):
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        with self._cond:
            key = self._scope_key(p.get("scope"))
            lang = self._language(p)
            self.my_commands[(key, lang)] = [
                {"command": c["command"], "description": c["description"]} for c in commands
            ]
            return True

    def _api_deleteMyCommands(self, p: dict[str, Any]) -> bool:
        with self._cond:
            self.my_commands.pop((self._scope_key(p.get("scope")), self._language(p)), None)
            return True

    def _api_getMyCommands(self, p: dict[str, Any]) -> list[dict[str, str]]:
        with self._cond:
            key = (self._scope_key(p.get("scope")), self._language(p))
            return copy.deepcopy(self.my_commands.get(key, []))

    def _api_sendChatAction(self, p: dict[str, Any]) -> bool:
        with self._cond:
            chat = self._resolve_chat(p["chat_id"])
            self._check_access(chat)
            if p["action"] not in bot_api.CHAT_ACTIONS:
                raise bad_request("wrong parameter action in request")
            self.chat_actions.append((chat.id, p["action"], time.time()))
            return True

    def _api_leaveChat(self, p: dict[str, Any]) -> bool:
        with self._cond:
            chat = self._resolve_chat(p["chat_id"])
            if chat.type == "private":
                raise bad_request("chat member status can't be changed in private chats")
            self._check_access(chat, posting=False)
            old = self._member_api(chat, self.bot_id)
            chat.bot_status = "left"
            chat.bot_can_delete_messages = False
            self._my_chat_member(chat, self.bot_id, old)
            return True

    def _api_setMyDescription(self, p: dict[str, Any]) -> bool:
        description = p.get("description", "")
        if len(description) > bot_api.MAX_DESCRIPTION_LENGTH:
            raise bad_request("BOT_DESCRIPTION_INVALID")
        with self._cond:
            self.descriptions[self._language(p)] = description
            return True

    def _api_setMyShortDescription(self, p: dict[str, Any]) -> bool:
        description = p.get("short_description", "")
        if len(description) > bot_api.MAX_SHORT_DESCRIPTION_LENGTH:
            raise bad_request("BOT_SHORT_DESCRIPTION_INVALID")
        with self._cond:
            self.short_descriptions[self._language(p)] = description
            return True

    # -- rules --------------------------------------------------------------------------------

    def _render(
        self, text: str, parse_mode: str | None, entities: list[dict[str, Any]] | None
    ) -> tuple[str, list[dict[str, Any]]]:
        if parse_mode and parse_mode.lower() not in {m.lower() for m in bot_api.PARSE_MODES}:
            raise bad_request(f"unsupported parse_mode {parse_mode!r}")
        try:
            plain, found = parse_text(text, parse_mode)
        except EntityParseError as err:
            raise bad_request(f"can't parse entities: {err}") from None
        if not parse_mode and entities:
            found = copy.deepcopy(entities)
            size = utf16_len(plain)
            for entity in found:
                if entity["offset"] < 0 or entity["offset"] + entity["length"] > size:
                    raise bad_request("entity is out of the message text")
        if not plain.strip():
            raise bad_request("message text is empty")
        if len(plain) > bot_api.MAX_MESSAGE_LENGTH:
            raise bad_request("message is too long")
        return plain, found

    def _check_markup(
        self, markup: dict[str, Any] | None
    ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        if markup is None:
            return None, None
        if "inline_keyboard" in markup:
            return self._inline_markup(markup), None
        for row in markup.get("keyboard", []):
            for button in row:
                if not button["text"].strip():
                    raise bad_request("keyboard button text must be non-empty")
        return None, markup

    def _inline_markup(self, markup: dict[str, Any] | None) -> dict[str, Any] | None:
        if markup is None:
            return None
        count = 0
        for row in markup["inline_keyboard"]:
            for button in row:
                count += 1
                if not button["text"].strip():
                    raise bad_request("inline keyboard button text must be non-empty")
                actions = [a for a in bot_api.INLINE_BUTTON_ACTIONS if a in button]
                if not actions:
                    raise bad_request("text buttons are unallowed in the inline keyboard")
                if len(actions) > 1:
                    raise bad_request(
                        "can't parse inline keyboard button: exactly one of the optional "
                        f"fields must be used, got {', '.join(actions)}"
                    )
                data = button.get("callback_data")
                if data is not None and not (
                    1 <= len(data.encode("utf-8")) <= bot_api.MAX_CALLBACK_DATA_BYTES
                ):
                    raise bad_request("BUTTON_DATA_INVALID")
                if "url" in button and not _BUTTON_URL_RE.fullmatch(button["url"]):
                    raise bad_request("BUTTON_URL_INVALID")
                for key in ("web_app", "login_url"):
                    if key in button and not button[key]["url"].lower().startswith("https://"):
                        raise bad_request("BUTTON_URL_INVALID")
        if count > bot_api.MAX_INLINE_BUTTONS:
            raise bad_request("reply markup is too long")
        return copy.deepcopy(markup) if count else None

    def _resolve_chat(self, chat_id: int | str) -> FakeChat:
        chat = None
        if isinstance(chat_id, int):
            chat = self.chats.get(chat_id)
        elif chat_id.startswith("@"):
            name = chat_id[1:].lower()
            chat = next(
                (
                    c
                    for c in self.chats.values()
                    if c.type != "private" and (c.username or "").lower() == name
                ),
                None,
            )
        if chat is None:
            raise bad_request("chat not found")
        return chat

    def _check_access(self, chat: FakeChat, *, posting: bool = True) -> None:
        if chat.type == "private":
            user = self.users[chat.id]
            if posting and user.blocked:
                raise _world_error(403, "Forbidden: bot was blocked by the user")
            if posting and not user.started:
                raise _world_error(403, "Forbidden: bot can't initiate conversation with a user")
            return
        if chat.migrated_to is not None:
            raise _world_error(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                migrate_to_chat_id=chat.migrated_to,
            )
        if chat.bot_status == "kicked":
            raise _world_error(403, f"Forbidden: bot was kicked from the {_chat_word(chat)}")
        if chat.bot_status == "left":
            raise _world_error(403, f"Forbidden: bot is not a member of the {_chat_word(chat)}")
        if posting and chat.type == "channel" and chat.bot_status != "administrator":
            raise _world_error(400, "Bad Request: need administrator rights in the channel chat")

    def _check_rate(self, chat: FakeChat) -> None:
        if not self.rate_limits:
            return
        now = time.monotonic()
        while self._all_sent_times and now - self._all_sent_times[0] > 1.0:
            self._all_sent_times.popleft()
        if len(self._all_sent_times) >= 30:
            raise _world_error(429, "Too Many Requests: retry after 1", retry_after=1)
        if chat.is_group:
            sent = self._sent_times.setdefault(chat.id, collections.deque())
            while sent and now - sent[0] > 60.0:
                sent.popleft()
            if len(sent) >= 20:
                wait = max(1, math.ceil(60.0 - (now - sent[0])))
                raise _world_error(429, f"Too Many Requests: retry after {wait}", retry_after=wait)
            sent.append(now)
        self._all_sent_times.append(now)

    def _edit_target(self, p: dict[str, Any]) -> FakeMessage:
        if "inline_message_id" in p:
            raise bad_request("MESSAGE_ID_INVALID")
        if "chat_id" not in p:
            raise bad_request("chat_id is empty")
        if "message_id" not in p:
            raise bad_request("message identifier is not specified")
        chat = self._resolve_chat(p["chat_id"])
        self._check_access(chat, posting=chat.type == "private")
        msg = chat.find(p["message_id"])
        if msg is None or msg.deleted:
            raise bad_request("message to edit not found")
        if not msg.from_bot:
            raise bad_request("message can't be edited")
        return msg

    def _scope_key(self, scope: dict[str, Any] | None) -> str:
        scope = dict(scope or {"type": "default"})
        if "chat_id" in scope:
            scope["chat_id"] = self._resolve_chat(scope["chat_id"]).id
        return json.dumps(scope, sort_keys=True)

    @staticmethod
    def _language(p: dict[str, Any]) -> str:
        lang = p.get("language_code", "")
        if lang and not _LANGUAGE_RE.fullmatch(lang):
            raise bad_request("invalid language code")
        return lang

    # -- building blocks ----------------------------------------------------------------------

    def _bot_user(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    def _method_name(self, method: str) -> str:
        name = _CANONICAL.get(method.lower())
        if name is None:
            raise ValueError(f"{method!r} is not a method described in bot_api.py")
        return name

    @staticmethod
    def _uid(user: UserLike) -> int:
        return user.id if isinstance(user, FakeUser) else int(user)

    @staticmethod
    def _cid(chat: ChatLike) -> int:
        return chat.id if isinstance(chat, FakeUser | FakeChat) else int(chat)

    def _user_obj(self, user: UserLike) -> FakeUser:
        uid = self._uid(user)
        if uid not in self.users:
            raise ValueError(f"unknown user {uid}; create it with add_user()")
        return self.users[uid]

    def _chat_obj(self, chat: ChatLike) -> FakeChat:
        cid = self._cid(chat)
        if cid not in self.chats:
            raise ValueError(f"unknown chat {cid}; create it with add_group() or add_user()")
        return self.chats[cid]

    def _actor(self, chat: FakeChat, by: UserLike | None) -> int:
        if by is not None:
            return self._uid(by)
        for uid in [chat.owner, *sorted(chat.admins), *chat.members]:
            if uid is not None:
                return uid
        raise ValueError(f"chat {chat.id} has nobody to act; pass by=")

    def _assert_can_write(self, user: FakeUser, chat: FakeChat) -> None:
        self._assert_can_see(user, chat)
        if chat.type == "channel":
            raise AssertionError("users do not write in channels here; use channel_post()")
        if chat.migrated_to is not None:
            raise AssertionError(f"group {chat.id} was migrated to {chat.migrated_to}")

    @staticmethod
    def _assert_can_see(user: FakeUser, chat: FakeChat) -> None:
        if chat.type == "private" and chat.id != user.id:
            raise AssertionError(f"chat {chat.id} is another user's private chat")
        if chat.is_group and user.id not in chat.members:
            raise AssertionError(f"user {user.id} is not a member of chat {chat.id}")

    def _find_button(self, msg: FakeMessage, text: str) -> dict[str, Any]:
        rows = (msg.reply_markup or {}).get("inline_keyboard", [])
        for row in rows:
            for button in row:
                if button["text"] == text:
                    return button
        labels = [b["text"] for row in rows for b in row]
        raise AssertionError(
            f"no button {text!r} on message {msg.message_id} in chat {msg.chat_id}; "
            f"it shows {labels}"
        )

    def _command_entities(self, text: str) -> list[dict[str, Any]]:
        match = _COMMAND_RE.match(text)
        if match is None:
            return []
        return [{"type": "bot_command", "offset": 0, "length": utf16_len(match.group(0))}]

    def _new_message(
        self,
        chat: FakeChat,
        *,
        sender_id: int | None,
        from_bot: bool = False,
        **fields: Any,
    ) -> FakeMessage:
        msg = FakeMessage(
            message_id=chat.next_message_id,
            chat_id=chat.id,
            sender_id=sender_id,
            from_bot=from_bot,
            date=int(time.time()),
            **fields,
        )
        chat.next_message_id += 1
        chat.messages.append(msg)
        self._cond.notify_all()
        return msg

    def _apply_edit(
        self,
        msg: FakeMessage,
        text: str | None,
        entities: list[dict[str, Any]],
        markup: dict[str, Any] | None,
    ) -> None:
        msg.history.append(
            MessageVersion(msg.text, msg.entities, msg.reply_markup, msg.edit_date or msg.date)
        )
        msg.text, msg.entities, msg.reply_markup = text, entities, markup
        msg.edit_date = int(time.time())

    def _message_api(self, msg: FakeMessage, *, with_reply: bool = True) -> dict[str, Any]:
        chat = self.chats[msg.chat_id]
        data: dict[str, Any] = {"message_id": msg.message_id}
        if msg.from_bot:
            data["from"] = self._bot_user()
        elif msg.sender_id is not None:
            data["from"] = self.users[msg.sender_id].to_api()
        if chat.type == "channel":
            data["sender_chat"] = chat.to_api()
        data["chat"] = chat.to_api()
        data["date"] = msg.date
        if with_reply and msg.reply_to_message_id is not None:
            target = chat.find(msg.reply_to_message_id)
            if target is not None and not target.deleted:
                data["reply_to_message"] = self._message_api(target, with_reply=False)
        if msg.edit_date is not None:
            data["edit_date"] = msg.edit_date
        if msg.protect_content:
            data["has_protected_content"] = True
        if msg.text is not None:
            data["text"] = msg.text
            if msg.entities:
                data["entities"] = copy.deepcopy(msg.entities)
        data.update(copy.deepcopy(msg.service))
        if msg.reply_markup:
            data["reply_markup"] = copy.deepcopy(msg.reply_markup)
        return data

    def _member_api(self, chat: FakeChat, user_id: int) -> dict[str, Any]:
        if user_id == self.bot_id:
            bot = self._bot_user()
            if chat.type == "private":
                status = "kicked" if self.users[chat.id].blocked else "member"
            else:
                status = chat.bot_status
            if status == "administrator":
                return self._admin_api(chat, bot, chat.bot_can_delete_messages)
            if status == "kicked":
                return {"status": "kicked", "user": bot, "until_date": 0}
            return {"status": status, "user": bot}
        user = self.users.get(user_id)
        if user is None or (chat.type == "private" and chat.id != user_id):
            raise bad_request("user not found")
        if chat.type == "private":
            return {"status": "member", "user": user.to_api()}
        if user_id == chat.owner:
            return {"status": "creator", "user": user.to_api(), "is_anonymous": False}
        if user_id in chat.admins:
            return self._admin_api(chat, user.to_api(), True)
        if user_id in chat.members:
            return {"status": "member", "user": user.to_api()}
        return {"status": "left", "user": user.to_api()}

    @staticmethod
    def _admin_api(chat: FakeChat, user: dict[str, Any], can_delete: bool) -> dict[str, Any]:
        member: dict[str, Any] = {
            "status": "administrator",
            "user": user,
            "can_be_edited": False,
            "is_anonymous": False,
            "can_manage_chat": True,
            "can_delete_messages": can_delete,
            "can_manage_video_chats": True,
            "can_restrict_members": True,
            "can_promote_members": False,
            "can_change_info": True,
            "can_invite_users": True,
            "can_post_stories": False,
            "can_edit_stories": False,
            "can_delete_stories": False,
        }
        if chat.type == "channel":
            member.update(can_post_messages=True, can_edit_messages=True)
        else:
            member["can_pin_messages"] = True
        if chat.type == "supergroup":
            member["can_manage_topics"] = False
        return member

    def _my_chat_member(
        self, chat: FakeChat, actor_id: int, old: dict[str, Any]
    ) -> dict[str, Any]:
        actor = self._bot_user() if actor_id == self.bot_id else self.users[actor_id].to_api()
        payload = {
            "chat": chat.to_api(),
            "from": actor,
            "date": int(time.time()),
            "old_chat_member": old,
            "new_chat_member": self._member_api(chat, self.bot_id),
        }
        return self._emit("my_chat_member", payload)

    def _callback_query(
        self,
        user: FakeUser,
        chat: FakeChat,
        message_id: int,
        msg: FakeMessage | None,
        data: str | None,
    ) -> dict[str, Any]:
        query_id = str(next(self._query_ids))
        self._queries[query_id] = CallbackQuery(
            query_id, user.id, chat.id, message_id, data, time.monotonic()
        )
        payload: dict[str, Any] = {
            "id": query_id,
            "from": user.to_api(),
            "message": (
                self._message_api(msg)
                if msg is not None
                else {"chat": chat.to_api(), "message_id": message_id, "date": 0}
            ),
            "chat_instance": str(abs(chat.id) * 7919 % 10**18 + 10**17),
        }
        if data is not None:
            payload["data"] = data
        return self._emit("callback_query", payload)

    def _bot_receives(self, chat: FakeChat, msg: FakeMessage) -> bool:
        if chat.type == "private":
            return True
        if chat.bot_status not in ("member", "administrator"):
            return False
        if chat.type == "channel" or not self.privacy_mode:
            return True
        if chat.bot_status == "administrator" or msg.service:
            return True
        match = _COMMAND_RE.match(msg.text or "")
        if match is not None:
            mention = match.group(2)
            return mention is None or mention[1:].lower() == self.bot_username.lower()
        if msg.reply_to_message_id is not None:
            target = chat.find(msg.reply_to_message_id)
            return target is not None and target.from_bot
        return False

    def _deliver(self, chat: FakeChat, msg: FakeMessage, kind: str) -> dict[str, Any] | None:
        if not self._bot_receives(chat, msg):
            return None
        return self._emit(kind, self._message_api(msg))

    def _emit(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        update = {"update_id": next(self._update_ids), kind: payload}
        if self._hook is not None:
            self._hook_pending.append(update)
        else:
            self._updates.append(update)
            self._cond.notify_all()
        return copy.deepcopy(update)

    def _is_allowed(self, update: dict[str, Any]) -> bool:
        kind = next(k for k in update if k != "update_id")
        if self._allowed_updates:
            return kind in self._allowed_updates
        return kind not in bot_api.DEFAULT_EXCLUDED_UPDATES

    def _flush_hook(self) -> None:
        with self._cond:
            hook, pending, self._hook_pending = self._hook, self._hook_pending, []
            pending = [u for u in pending if self._is_allowed(u)]
        if hook is not None:
            for update in pending:
                hook(update)
