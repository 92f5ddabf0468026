"""Messages: users writing, the bot sending, editing and deleting, and the rules Telegram
checks on each (formatting, keyboards, lengths, flood limits)."""

from __future__ import annotations

import collections
import copy
import math
import re
import time
import zlib
from typing import Any

from testing.fake_telegram import bot_api
from testing.fake_telegram.core import (
    _COMMAND_RE,
    ChatLike,
    Core,
    UserLike,
    _world_error,
)
from testing.fake_telegram.formatting import EntityParseError, parse_text, utf16_len
from testing.fake_telegram.validation import ApiError, bad_request
from testing.fake_telegram.world import (
    FakeChat,
    FakeDocument,
    FakeMessage,
    MessageVersion,
)

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
_BUTTON_URL_RE = re.compile(r"(?i)(https?://[^\s/?#]+[^\s]*|tg://[^\s]+)")


class Messages(Core):
    """The messages of every chat."""

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

    def _api_sendMessage(self, p: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            chat = self._resolve_chat(p["chat_id"])
            self._check_access(chat)
            text, entities = self._render(p["text"], p.get("parse_mode"), p.get("entities"))
            inline, other = self._check_markup(p.get("reply_markup"), chat)
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

    def _api_sendDocument(self, p: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            chat = self._resolve_chat(p["chat_id"])
            self._check_access(chat)
            document = self._uploaded(p["document"])
            caption, entities = None, []
            if p.get("caption"):
                caption, entities = self._render(p["caption"], p.get("parse_mode"), None)
                if len(caption) > bot_api.MAX_CAPTION_LENGTH:
                    raise bad_request("message caption is too long")
            inline, other = self._check_markup(p.get("reply_markup"), chat)
            self._check_rate(chat)
            msg = self._new_message(
                chat,
                sender_id=self.bot_id,
                from_bot=True,
                entities=entities,
                reply_markup=inline,
                reply_keyboard=other,
                protect_content=bool(p.get("protect_content")),
                params={k: v for k, v in p.items() if k != "document"},
                document=document,
                caption=caption,
            )
            return self._message_api(msg)

    def _uploaded(self, document: Any) -> FakeDocument:
        """The file a sendDocument carries: only uploads (multipart/form-data) are kept."""
        if not isinstance(document, dict):
            raise bad_request("wrong file identifier/HTTP URL specified")
        data = document.get("bytes", b"")
        if not data:
            raise bad_request("file must be non-empty")
        if len(data) > bot_api.MAX_UPLOAD_BYTES:
            raise ApiError(413, "Request Entity Too Large")
        file_id = f"BQAC{len(self.calls):08d}{zlib.crc32(data):010d}"
        return FakeDocument(file_id, document.get("filename"), document.get("mime_type"), data)

    def _api_editMessageText(self, p: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            msg = self._edit_target(p)
            if "text" not in p:
                if "rich_message" in p:
                    raise bad_request("the fake does not support rich_message edits")
                raise bad_request("message text is empty")
            text, entities = self._render(p["text"], p.get("parse_mode"), p.get("entities"))
            markup = self._inline_markup(p.get("reply_markup"), self._chat_obj(msg.chat_id))
            if (text, entities, markup) == (msg.text, msg.entities, msg.reply_markup):
                raise ApiError(400, NOT_MODIFIED)
            self._apply_edit(msg, text, entities, markup)
            msg.source_text, msg.parse_mode = p["text"], p.get("parse_mode")
            return self._message_api(msg)

    def _api_editMessageReplyMarkup(self, p: dict[str, Any]) -> dict[str, Any]:
        with self._cond:
            msg = self._edit_target(p)
            markup = self._inline_markup(p.get("reply_markup"), self._chat_obj(msg.chat_id))
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

    def _api_sendChatAction(self, p: dict[str, Any]) -> bool:
        with self._cond:
            chat = self._resolve_chat(p["chat_id"])
            self._check_access(chat)
            if p["action"] not in bot_api.CHAT_ACTIONS:
                raise bad_request("wrong parameter action in request")
            self.chat_actions.append((chat.id, p["action"], time.time()))
            return True

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
        self, markup: dict[str, Any] | None, chat: FakeChat
    ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        if markup is None:
            return None, None
        if "inline_keyboard" in markup:
            return self._inline_markup(markup, chat), None
        for row in markup.get("keyboard", []):
            for button in row:
                if not button["text"].strip():
                    raise bad_request("keyboard button text must be non-empty")
        return None, markup

    def _inline_markup(
        self, markup: dict[str, Any] | None, chat: FakeChat
    ) -> dict[str, Any] | None:
        """An inline keyboard as Telegram checks it for `chat` (a web_app button only in a
        private chat: elsewhere Telegram answers BUTTON_TYPE_INVALID)."""
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
                if "web_app" in button and chat.type != "private":
                    raise bad_request("BUTTON_TYPE_INVALID")
        if count > bot_api.MAX_INLINE_BUTTONS:
            raise bad_request("reply markup is too long")
        return copy.deepcopy(markup) if count else None

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
        if msg.document is not None:
            data["document"] = msg.document.to_api()
            if msg.caption is not None:
                data["caption"] = msg.caption
                if msg.entities:
                    data["caption_entities"] = copy.deepcopy(msg.entities)
        data.update(copy.deepcopy(msg.service))
        if msg.reply_markup:
            data["reply_markup"] = copy.deepcopy(msg.reply_markup)
        return data
