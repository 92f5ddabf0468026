"""Updates for the bot: which ones it gets (privacy mode, allowed updates), and their delivery
by long polling, by a webhook the test posts to, or by a hook."""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from testing.fake_telegram import bot_api
from testing.fake_telegram.core import _COMMAND_RE, Core, _world_error
from testing.fake_telegram.validation import ApiError, bad_request
from testing.fake_telegram.world import FakeChat, FakeMessage

_SECRET_RE = re.compile(r"[A-Za-z0-9_-]{1,256}")


class Updates(Core):
    """The updates Telegram holds for the bot, and how they reach it."""

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
