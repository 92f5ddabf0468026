"""The state every part of the fake shares (its world, records and lock) and the look-ups
by id and the access rules every part applies."""

from __future__ import annotations

import collections
import itertools
import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from testing.fake_telegram import bot_api
from testing.fake_telegram.validation import ApiError, bad_request
from testing.fake_telegram.world import (
    Call,
    CallbackAnswer,
    CallbackQuery,
    FakeChat,
    FakeUser,
)

if TYPE_CHECKING:
    from testing.fake_telegram.faults import _Delay, _Fault
    from testing.fake_telegram.serving import _Server

# A token shaped unlike a real one (those are 8-10 digits, a colon and 35 characters).
TEST_TOKEN = "123456:TEST-TOKEN-not-real"
BOT_USERNAME = "decapitation_test_bot"
BOT_FIRST_NAME = "Decapitation (test)"

UserLike = FakeUser | int
ChatLike = FakeChat | FakeUser | int
_CANONICAL = {name.lower(): name for name in bot_api.METHODS}
_COMMAND_RE = re.compile(r"/([A-Za-z0-9_]{1,32})(@[A-Za-z0-9_]+)?(?=\s|$)")


def _world_error(status: int, description: str, **parameters: Any) -> ApiError:
    """An answer caused by the state of the world, not by a mistake of the bot."""
    return ApiError(status, description, parameters=parameters or None, kind="error")


def _chat_word(chat: FakeChat) -> str:
    return {"group": "group chat", "supergroup": "supergroup chat"}.get(chat.type, "channel chat")


class Core:
    """The state of a FakeTelegram and what every part of it looks things up with."""

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
        latency: float = 0.0,
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
        self.latency = latency  # seconds every call waits before it is answered (the network)
        self.slept: list[float] = []  # the latency each call sat out, in order

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
        self.mini_apps: dict[str, str] = {}  # the bot's Mini Apps: short name -> page URL
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

    def _assert_can_write(self, user: FakeUser, chat: FakeChat) -> None:
        self._assert_can_see(user, chat)
        if chat.type == "channel":
            raise AssertionError("users do not write in channels here; use channel_post()")
        if chat.migrated_to is not None:
            raise AssertionError(f"group {chat.id} was migrated to {chat.migrated_to}")
        if user.id in chat.restricted:
            raise AssertionError(f"user {user.id} is restricted in chat {chat.id}: cannot write")

    @staticmethod
    def _assert_can_see(user: FakeUser, chat: FakeChat) -> None:
        if chat.type == "private" and chat.id != user.id:
            raise AssertionError(f"chat {chat.id} is another user's private chat")
        if chat.is_group and user.id not in chat.members:
            raise AssertionError(f"user {user.id} is not a member of chat {chat.id}")
