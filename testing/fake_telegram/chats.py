"""Users, groups and channels: who is in them, the bot's standing there, and the changes
Telegram tells the bot of (joins, blocks, kicks, migrations)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from testing.fake_telegram.core import ChatLike, Core, UserLike
from testing.fake_telegram.validation import bad_request
from testing.fake_telegram.world import FakeChat, FakeUser

RESTRICTED_RIGHTS = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_react_to_messages",
    "can_edit_tag",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
)


class Chats(Core):
    """The chats of the simulated world and their members."""

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
            if u.id in chat.banned:
                raise AssertionError(f"user {u.id} is banned from chat {chat.id}")
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
            if u.id in chat.restricted:
                chat.restricted[u.id] = False
            msg = self._new_message(chat, sender_id=u.id, service={"left_chat_member": u.to_api()})
            update = self._deliver(chat, msg, "message")
        self._flush_hook()
        return update

    def ban(self, user: UserLike, group: ChatLike, *, by: UserLike | None = None) -> dict | None:
        """An admin removes a user from the group for good (status "kicked"); returns the
        service message update the bot gets, if any."""
        with self._cond:
            chat, u = self._chat_obj(group), self._user_obj(user)
            actor = self._actor(chat, by)
            if u.id in chat.members:
                chat.members.remove(u.id)
            chat.admins.discard(u.id)
            chat.restricted.pop(u.id, None)
            chat.banned.add(u.id)
            gone = {"left_chat_member": u.to_api()}
            msg = self._new_message(chat, sender_id=actor, service=gone)
            update = self._deliver(chat, msg, "message")
        self._flush_hook()
        return update

    def restrict(self, user: UserLike, group: ChatLike, *, is_member: bool = True) -> None:
        """An admin restricts a user in the group (status "restricted"): still a member, or
        (`is_member` False) restricted but out of the group."""
        with self._cond:
            chat, u = self._chat_obj(group), self._user_obj(user)
            chat.admins.discard(u.id)
            chat.restricted[u.id] = is_member
            if is_member and u.id not in chat.members:
                chat.members.append(u.id)
            if not is_member and u.id in chat.members:
                chat.members.remove(u.id)

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
        if user_id in chat.banned:
            return {"status": "kicked", "user": user.to_api(), "until_date": 0}
        if user_id in chat.restricted:
            return self._restricted_api(user.to_api(), chat.restricted[user_id])
        if user_id in chat.members:
            return {"status": "member", "user": user.to_api()}
        return {"status": "left", "user": user.to_api()}

    @staticmethod
    def _restricted_api(user: dict[str, Any], is_member: bool) -> dict[str, Any]:
        """A restricted user's ChatMember: may read, may not write (restricted forever)."""
        member: dict[str, Any] = {"status": "restricted", "user": user, "is_member": is_member}
        for right in RESTRICTED_RIGHTS:
            member[right] = False
        member["until_date"] = 0
        return member

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
