"""The bot's own account: who it is, its command menus and its descriptions."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from testing.fake_telegram import bot_api
from testing.fake_telegram.core import ChatLike, Core, UserLike
from testing.fake_telegram.validation import bad_request

_COMMAND_NAME_RE = re.compile(r"[a-z0-9_]{1,32}")
_LANGUAGE_RE = re.compile(r"[a-z]{2}")


class Profile(Core):
    """The bot's account as Telegram keeps it."""

    def _api_getMe(self, p: dict[str, Any]) -> dict[str, Any]:
        return {
            **self._bot_user(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

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
