"""The simulated world of the fake Telegram: users, chats, messages, and the records of calls."""

import copy
from dataclasses import dataclass, field
from typing import Any, NamedTuple


@dataclass
class FakeUser:
    """A Telegram user; started/blocked describe their private chat with the bot."""

    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = "en"
    is_bot: bool = False
    started: bool = False
    blocked: bool = False

    def to_api(self) -> dict[str, Any]:
        """The User object Telegram sends for this user."""
        user: dict[str, Any] = {
            "id": self.id,
            "is_bot": self.is_bot,
            "first_name": self.first_name,
        }
        if self.last_name:
            user["last_name"] = self.last_name
        if self.username:
            user["username"] = self.username
        if self.language_code:
            user["language_code"] = self.language_code
        return user


class Button(NamedTuple):
    """An inline keyboard button as a user sees it."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    web_app: str | None = None  # the Mini App's URL a web_app button opens


@dataclass
class MessageVersion:
    """An earlier state of an edited message."""

    text: str | None
    entities: list[dict[str, Any]]
    reply_markup: dict[str, Any] | None
    date: int


@dataclass
class FakeDocument:
    """A file the bot sent as a document: its name, type and the bytes uploaded."""

    file_id: str
    file_name: str | None
    mime_type: str | None
    data: bytes

    def to_api(self) -> dict[str, Any]:
        """The Document object Telegram returns."""
        doc: dict[str, Any] = {
            "file_id": self.file_id,
            "file_unique_id": self.file_id[-16:],
            "file_size": len(self.data),
        }
        if self.file_name:
            doc["file_name"] = self.file_name
        if self.mime_type:
            doc["mime_type"] = self.mime_type
        return doc


@dataclass
class FakeMessage:
    """A message in a chat as its members see it; text is the plain text after formatting."""

    message_id: int
    chat_id: int
    sender_id: int | None
    from_bot: bool
    date: int
    text: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list)
    source_text: str | None = None
    parse_mode: str | None = None
    reply_markup: dict[str, Any] | None = None
    reply_keyboard: dict[str, Any] | None = None
    reply_to_message_id: int | None = None
    edit_date: int | None = None
    history: list[MessageVersion] = field(default_factory=list)
    deleted: bool = False
    protect_content: bool = False
    service: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    document: FakeDocument | None = None
    caption: str | None = None

    @property
    def buttons(self) -> list[list[Button]]:
        """The inline keyboard, row by row."""
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [
            [
                Button(
                    b["text"],
                    b.get("callback_data"),
                    b.get("url"),
                    b.get("web_app", {}).get("url"),
                )
                for b in row
            ]
            for row in rows
        ]

    @property
    def button_labels(self) -> list[str]:
        """The labels of all inline buttons, row by row."""
        return [b.text for row in self.buttons for b in row]

    def button(self, text: str) -> Button:
        """The first button with this label; AssertionError when there is none."""
        for row in self.buttons:
            for b in row:
                if b.text == text:
                    return b
        raise AssertionError(f"no button {text!r} on message {self.message_id}: {self.buttons}")

    def snapshot(self) -> "FakeMessage":
        """A deep copy, safe to read while the world moves on."""
        return copy.deepcopy(self)


@dataclass
class FakeChat:
    """A chat: private (id = the user's id), group, supergroup or channel."""

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    members: list[int] = field(default_factory=list)
    admins: set[int] = field(default_factory=set)
    owner: int | None = None
    banned: set[int] = field(default_factory=set)  # removed by an admin, who may not come back
    restricted: dict[int, bool] = field(default_factory=dict)  # user -> still a member
    bot_status: str = "member"
    bot_can_delete_messages: bool = False
    migrated_to: int | None = None
    migrated_from: int | None = None
    messages: list[FakeMessage] = field(default_factory=list)
    next_message_id: int = 1

    @property
    def is_group(self) -> bool:
        """True for groups and supergroups."""
        return self.type in ("group", "supergroup")

    def to_api(self) -> dict[str, Any]:
        """The Chat object Telegram sends for this chat."""
        chat: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.type == "private":
            chat["first_name"] = self.first_name or ""
            if self.last_name:
                chat["last_name"] = self.last_name
        else:
            chat["title"] = self.title or ""
        if self.username:
            chat["username"] = self.username
        return chat

    def find(self, message_id: int) -> FakeMessage | None:
        """The message with this id, deleted or not."""
        for message in self.messages:
            if message.message_id == message_id:
                return message
        return None


@dataclass
class Call:
    """One request the bot made, with its outcome (kind: see the comment below)."""

    # kind: ok; refused: the bot's mistake; error: the world's doing (blocked, kicked, migrated,
    # flood, webhook conflict); injected: fail_next(); superseded: a long poll cut short by a
    # newer getUpdates; crashed: a bug of the fake; pending: not answered yet.

    method: str
    params: dict[str, Any]
    time: float
    status: int = 200
    kind: str = "ok"
    description: str | None = None
    result: Any = None
    answered: float | None = None  # when the answer was ready (time.time()), None while pending

    def __str__(self) -> str:
        outcome = "ok" if self.kind == "ok" else f"{self.status} {self.description}"
        return f"{self.method}({self.params}) -> {outcome}"


@dataclass
class CallbackAnswer:
    """An answerCallbackQuery the bot made, with the press it answered."""

    query_id: str
    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int | None
    user_id: int
    chat_id: int | None
    message_id: int | None
    time: float


@dataclass
class CallbackQuery:
    """A button press waiting for its answer."""

    id: str
    user_id: int
    chat_id: int | None
    message_id: int | None
    data: str | None
    created: float
    answered: bool = False
    expired: bool = False
