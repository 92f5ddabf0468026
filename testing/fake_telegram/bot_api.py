"""The Bot API methods the bot calls, and the objects they take, as the fake server checks them.

Types use Telegram's notation; objects not in TYPES or UNIONS only need to be JSON objects."""

# Notation: "Integer", "String", "Boolean", "Float", "InputFile", "Array of X", "X or Y" and
# object type names.

from typing import Final, NamedTuple


class Field(NamedTuple):
    """One parameter of a method or one field of an object: its type and whether it is required."""

    type: str
    required: bool = False


def _req(type_: str) -> Field:
    return Field(type_, True)


_CHAT_ID: Final = "Integer or String"
_ANY_MARKUP: Final = (
    "InlineKeyboardMarkup or ReplyKeyboardMarkup or ReplyKeyboardRemove or ForceReply"
)

METHODS: Final[dict[str, dict[str, Field]]] = {
    "getMe": {},
    "getUpdates": {
        "offset": Field("Integer"),
        "limit": Field("Integer"),
        "timeout": Field("Integer"),
        "allowed_updates": Field("Array of String"),
    },
    "setWebhook": {
        "url": _req("String"),
        "certificate": Field("InputFile"),
        "ip_address": Field("String"),
        "max_connections": Field("Integer"),
        "allowed_updates": Field("Array of String"),
        "drop_pending_updates": Field("Boolean"),
        "secret_token": Field("String"),
    },
    "deleteWebhook": {
        "drop_pending_updates": Field("Boolean"),
    },
    "getWebhookInfo": {},
    "sendMessage": {
        "business_connection_id": Field("String"),
        "chat_id": _req(_CHAT_ID),
        "message_thread_id": Field("Integer"),
        "direct_messages_topic_id": Field("Integer"),
        "text": _req("String"),
        "parse_mode": Field("String"),
        "entities": Field("Array of MessageEntity"),
        "link_preview_options": Field("LinkPreviewOptions"),
        "disable_notification": Field("Boolean"),
        "protect_content": Field("Boolean"),
        "allow_paid_broadcast": Field("Boolean"),
        "message_effect_id": Field("String"),
        "suggested_post_parameters": Field("SuggestedPostParameters"),
        "reply_parameters": Field("ReplyParameters"),
        "reply_markup": Field(_ANY_MARKUP),
    },
    "sendDocument": {
        "business_connection_id": Field("String"),
        "chat_id": _req(_CHAT_ID),
        "message_thread_id": Field("Integer"),
        "direct_messages_topic_id": Field("Integer"),
        "document": _req("InputFile or String"),
        "thumbnail": Field("InputFile or String"),
        "caption": Field("String"),
        "parse_mode": Field("String"),
        "caption_entities": Field("Array of MessageEntity"),
        "disable_content_type_detection": Field("Boolean"),
        "disable_notification": Field("Boolean"),
        "protect_content": Field("Boolean"),
        "allow_paid_broadcast": Field("Boolean"),
        "message_effect_id": Field("String"),
        "suggested_post_parameters": Field("SuggestedPostParameters"),
        "reply_parameters": Field("ReplyParameters"),
        "reply_markup": Field(_ANY_MARKUP),
    },
    "editMessageText": {
        "business_connection_id": Field("String"),
        "chat_id": Field(_CHAT_ID),
        "message_id": Field("Integer"),
        "inline_message_id": Field("String"),
        # Optional since rich messages can replace it; the fake still wants one of the two.
        "text": Field("String"),
        "parse_mode": Field("String"),
        "entities": Field("Array of MessageEntity"),
        "link_preview_options": Field("LinkPreviewOptions"),
        "rich_message": Field("InputRichMessage"),
        "reply_markup": Field("InlineKeyboardMarkup"),
    },
    "editMessageReplyMarkup": {
        "business_connection_id": Field("String"),
        "chat_id": Field(_CHAT_ID),
        "message_id": Field("Integer"),
        "inline_message_id": Field("String"),
        "reply_markup": Field("InlineKeyboardMarkup"),
    },
    "deleteMessage": {
        "chat_id": _req(_CHAT_ID),
        "message_id": _req("Integer"),
    },
    "answerCallbackQuery": {
        "callback_query_id": _req("String"),
        "text": Field("String"),
        "show_alert": Field("Boolean"),
        "url": Field("String"),
        "cache_time": Field("Integer"),
    },
    "getChatMember": {
        "chat_id": _req(_CHAT_ID),
        "user_id": _req("Integer"),
    },
    "getChat": {
        "chat_id": _req(_CHAT_ID),
    },
    "setMyCommands": {
        "commands": _req("Array of BotCommand"),
        "scope": Field("BotCommandScope"),
        "language_code": Field("String"),
    },
    "deleteMyCommands": {
        "scope": Field("BotCommandScope"),
        "language_code": Field("String"),
    },
    "getMyCommands": {
        "scope": Field("BotCommandScope"),
        "language_code": Field("String"),
    },
    "sendChatAction": {
        "business_connection_id": Field("String"),
        "chat_id": _req(_CHAT_ID),
        "message_thread_id": Field("Integer"),
        "action": _req("String"),
    },
    "leaveChat": {
        "chat_id": _req(_CHAT_ID),
    },
    "setMyDescription": {
        "description": Field("String"),
        "language_code": Field("String"),
    },
    "setMyShortDescription": {
        "short_description": Field("String"),
        "language_code": Field("String"),
    },
}

TYPES: Final[dict[str, dict[str, Field]]] = {
    "InlineKeyboardMarkup": {
        "inline_keyboard": _req("Array of Array of InlineKeyboardButton"),
    },
    "InlineKeyboardButton": {
        "text": _req("String"),
        "icon_custom_emoji_id": Field("String"),
        "style": Field("String"),
        "url": Field("String"),
        "callback_data": Field("String"),
        "web_app": Field("WebAppInfo"),
        "login_url": Field("LoginUrl"),
        "switch_inline_query": Field("String"),
        "switch_inline_query_current_chat": Field("String"),
        "switch_inline_query_chosen_chat": Field("SwitchInlineQueryChosenChat"),
        "copy_text": Field("CopyTextButton"),
        "callback_game": Field("CallbackGame"),
        "pay": Field("Boolean"),
    },
    "WebAppInfo": {
        "url": _req("String"),
    },
    "LoginUrl": {
        "url": _req("String"),
        "forward_text": Field("String"),
        "bot_username": Field("String"),
        "request_write_access": Field("Boolean"),
    },
    "SwitchInlineQueryChosenChat": {
        "query": Field("String"),
        "allow_user_chats": Field("Boolean"),
        "allow_bot_chats": Field("Boolean"),
        "allow_group_chats": Field("Boolean"),
        "allow_channel_chats": Field("Boolean"),
    },
    "CopyTextButton": {
        "text": _req("String"),
    },
    "CallbackGame": {},
    "ReplyKeyboardMarkup": {
        "keyboard": _req("Array of Array of KeyboardButton"),
        "is_persistent": Field("Boolean"),
        "resize_keyboard": Field("Boolean"),
        "one_time_keyboard": Field("Boolean"),
        "input_field_placeholder": Field("String"),
        "selective": Field("Boolean"),
    },
    "KeyboardButton": {
        "text": _req("String"),
        "icon_custom_emoji_id": Field("String"),
        "style": Field("String"),
        "request_users": Field("KeyboardButtonRequestUsers"),
        "request_chat": Field("KeyboardButtonRequestChat"),
        "request_managed_bot": Field("KeyboardButtonRequestManagedBot"),
        "request_contact": Field("Boolean"),
        "request_location": Field("Boolean"),
        "request_poll": Field("KeyboardButtonPollType"),
        "web_app": Field("WebAppInfo"),
    },
    "ReplyKeyboardRemove": {
        "remove_keyboard": _req("Boolean"),
        "selective": Field("Boolean"),
    },
    "ForceReply": {
        "force_reply": _req("Boolean"),
        "input_field_placeholder": Field("String"),
        "selective": Field("Boolean"),
    },
    "BotCommand": {
        "command": _req("String"),
        "description": _req("String"),
    },
    "BotCommandScopeDefault": {
        "type": _req("String"),
    },
    "BotCommandScopeAllPrivateChats": {
        "type": _req("String"),
    },
    "BotCommandScopeAllGroupChats": {
        "type": _req("String"),
    },
    "BotCommandScopeAllChatAdministrators": {
        "type": _req("String"),
    },
    "BotCommandScopeChat": {
        "type": _req("String"),
        "chat_id": _req(_CHAT_ID),
    },
    "BotCommandScopeChatAdministrators": {
        "type": _req("String"),
        "chat_id": _req(_CHAT_ID),
    },
    "BotCommandScopeChatMember": {
        "type": _req("String"),
        "chat_id": _req(_CHAT_ID),
        "user_id": _req("Integer"),
    },
    "LinkPreviewOptions": {
        "is_disabled": Field("Boolean"),
        "url": Field("String"),
        "prefer_small_media": Field("Boolean"),
        "prefer_large_media": Field("Boolean"),
        "show_above_text": Field("Boolean"),
    },
    "ReplyParameters": {
        "message_id": _req("Integer"),
        "chat_id": Field(_CHAT_ID),
        "allow_sending_without_reply": Field("Boolean"),
        "quote": Field("String"),
        "quote_parse_mode": Field("String"),
        "quote_entities": Field("Array of MessageEntity"),
        "quote_position": Field("Integer"),
        "checklist_task_id": Field("Integer"),
        "poll_option_id": Field("String"),
    },
    "MessageEntity": {
        "type": _req("String"),
        "offset": _req("Integer"),
        "length": _req("Integer"),
        "url": Field("String"),
        "user": Field("User"),
        "language": Field("String"),
        "custom_emoji_id": Field("String"),
        "unix_time": Field("Integer"),
        "date_time_format": Field("String"),
    },
    "User": {
        "id": _req("Integer"),
        "is_bot": _req("Boolean"),
        "first_name": _req("String"),
        "last_name": Field("String"),
        "username": Field("String"),
        "language_code": Field("String"),
        "is_premium": Field("Boolean"),
        "added_to_attachment_menu": Field("Boolean"),
        "can_join_groups": Field("Boolean"),
        "can_read_all_group_messages": Field("Boolean"),
        "supports_guest_queries": Field("Boolean"),
        "supports_inline_queries": Field("Boolean"),
        "can_connect_to_business": Field("Boolean"),
        "has_main_web_app": Field("Boolean"),
        "has_topics_enabled": Field("Boolean"),
        "allows_users_to_create_topics": Field("Boolean"),
        "can_manage_bots": Field("Boolean"),
        "supports_join_request_queries": Field("Boolean"),
    },
    "SuggestedPostParameters": {
        "price": Field("SuggestedPostPrice"),
        "send_date": Field("Integer"),
    },
    "SuggestedPostPrice": {
        "currency": _req("String"),
        "amount": _req("Integer"),
    },
    "InputRichMessage": {
        "html": Field("String"),
        "markdown": Field("String"),
        "is_rtl": Field("Boolean"),
        "skip_entity_detection": Field("Boolean"),
    },
}

# Parameters that python-telegram-bot's Defaults (disable_notification, protect_content,
# parse_mode, link_preview_options) add to these methods although Telegram does not take them
# there. Telegram ignores them; the fake accepts and drops them too.
IGNORED_PARAMS: Final[dict[str, frozenset[str]]] = {
    "editMessageText": frozenset({"disable_notification", "protect_content"}),
    "editMessageReplyMarkup": frozenset(
        {"disable_notification", "protect_content", "parse_mode", "link_preview_options"}
    ),
}

# Abstract types whose concrete kind is chosen by the value of a discriminating field.
UNIONS: Final[dict[str, tuple[str, dict[str, str]]]] = {
    "BotCommandScope": (
        "type",
        {
            "default": "BotCommandScopeDefault",
            "all_private_chats": "BotCommandScopeAllPrivateChats",
            "all_group_chats": "BotCommandScopeAllGroupChats",
            "all_chat_administrators": "BotCommandScopeAllChatAdministrators",
            "chat": "BotCommandScopeChat",
            "chat_administrators": "BotCommandScopeChatAdministrators",
            "chat_member": "BotCommandScopeChatMember",
        },
    ),
}

# The action buttons of an inline keyboard: a button must have exactly one of these.
INLINE_BUTTON_ACTIONS: Final = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)

PARSE_MODES: Final = ("HTML", "MarkdownV2", "Markdown")

CHAT_ACTIONS: Final = (
    "typing",
    "upload_photo",
    "record_video",
    "upload_video",
    "record_voice",
    "upload_voice",
    "upload_document",
    "choose_sticker",
    "find_location",
    "record_video_note",
    "upload_video_note",
)

# Update kinds a bot gets when it names none in allowed_updates.
DEFAULT_EXCLUDED_UPDATES: Final = ("chat_member", "message_reaction", "message_reaction_count")

# Limits Telegram enforces on the values above.
MAX_MESSAGE_LENGTH: Final = 4096
MAX_CALLBACK_DATA_BYTES: Final = 64
MAX_CAPTION_LENGTH: Final = 1024
MAX_UPLOAD_BYTES: Final = 50 * 1024 * 1024
MAX_CALLBACK_ANSWER_LENGTH: Final = 200
MAX_COMMANDS: Final = 100
MAX_COMMAND_LENGTH: Final = 32
MAX_COMMAND_DESCRIPTION_LENGTH: Final = 256
MAX_DESCRIPTION_LENGTH: Final = 512
MAX_SHORT_DESCRIPTION_LENGTH: Final = 120
MAX_INLINE_BUTTONS: Final = 100
