"""Messages the bot sends, edits and deletes: sendMessage, sendPhoto, sendAnimation,
sendDocument, editMessage*, deleteMessage(s), with Telegram's checks of text, entities,
markup, replies and topics."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from bot.playground.api.errors import NOT_MODIFIED, ApiError, bad_request
from bot.playground.api.files import FileMethods, check_upload
from bot.playground.api.formatting import (
    EmptyTextError,
    FormatError,
    check_entities,
    finish_text,
    parse,
)
from bot.playground.api.keyboards import parse_reply_markup
from bot.playground.api.params import Handler, Params, Upload
from bot.playground.world.models import Chat, Message, Rows

MAX_TEXT = 4096
MAX_CAPTION = 1024


class MessageMethods(FileMethods):
    """The bot's messages: what it may send and edit, and how they are stored."""

    def _handlers(self) -> dict[str, Handler]:
        return {
            **super()._handlers(),
            "sendmessage": self._send_message,
            "sendphoto": self._send_photo,
            "sendanimation": self._send_animation,
            "senddocument": self._send_document,
            "editmessagetext": self._edit_message_text,
            "editmessagecaption": self._edit_message_caption,
            "editmessagemedia": self._edit_message_media,
            "editmessagereplymarkup": self._edit_message_reply_markup,
            "deletemessage": self._delete_message,
            "deletemessages": self._delete_messages,
        }

    def _formatted(
        self, p: Params, field: str, entities_field: str, *, caption: bool
    ) -> tuple[str, list[dict[str, Any]]]:
        raw = p.text(field) or ""
        explicit = p.json(entities_field, "can't parse entities JSON object")
        mode = p.text("parse_mode") or ""
        if mode.lower() not in ("", "html", "markdown", "markdownv2"):
            raise bad_request("unsupported parse_mode")
        try:
            if explicit is not None:
                text, entities = raw, check_entities(explicit, raw)
            else:
                text, entities = parse(raw, mode)
        except FormatError as error:
            raise bad_request(f"can't parse entities: {error}") from None
        except ValueError as error:
            raise bad_request(str(error)) from None
        if caption and not text:
            return "", []
        try:
            return finish_text(text, entities)
        except EmptyTextError:
            if caption:
                return "", []
            raise bad_request("text must be non-empty") from None

    def _markup(self, p: Params, *, inline_only: bool = False) -> Rows | None:
        raw = p.json("reply_markup", "can't parse reply keyboard markup JSON object")
        if (
            inline_only
            and raw is not None
            and not (isinstance(raw, dict) and "inline_keyboard" in raw)
        ):
            raise bad_request("inline keyboard expected")
        return parse_reply_markup(raw)

    def _reply_target(self, chat: Chat, p: Params) -> Message | None:
        parameters = p.json("reply_parameters", "can't parse ReplyParameters JSON object")
        allow = p.flag("allow_sending_without_reply")
        target_chat = chat
        message_id: Any = None
        if parameters is not None:
            if not isinstance(parameters, dict) or "message_id" not in parameters:
                raise bad_request('can\'t find field "message_id"')
            message_id = parameters["message_id"]
            allow = bool(parameters.get("allow_sending_without_reply", allow))
            if parameters.get("chat_id") not in (None, chat.id, str(chat.id)):
                other = self.chats.get(int(str(parameters["chat_id"])))
                if other is None:
                    raise bad_request("message to be replied not found")
                target_chat = other
        elif p.has("reply_to_message_id"):
            message_id = p.integer("reply_to_message_id", "message to be replied not found")
        if message_id is None:
            return None
        try:
            target = target_chat.messages.get(int(message_id))
        except (TypeError, ValueError):
            target = None
        if target is None or target.deleted:
            if allow:
                return None
            raise bad_request("message to be replied not found")
        return target

    def _thread(
        self, chat: Chat, p: Params, reply_to: Message | None
    ) -> tuple[int | None, str | None]:
        """Where a new bot message goes: (thread id, message_thread_id as passed)."""
        passed = p.text("message_thread_id") or None
        if passed is None:
            if reply_to is not None and reply_to.chat is chat:
                return reply_to.thread_id, None
            return None, None
        try:
            thread = int(passed)
        except ValueError:
            raise bad_request("message thread not found") from None
        if chat.forum:
            topic = chat.topics.get(thread)
            if topic is None:
                raise bad_request("message thread not found")
            if topic.closed and not chat.bot_is_admin:
                raise bad_request("TOPIC_CLOSED")
        elif chat.type != "supergroup" or thread not in chat.messages:
            raise bad_request("message thread not found")
        return thread, passed

    def _edit_target(self, p: Params, method: str) -> Message:
        if p.has("inline_message_id"):
            raise bad_request("MESSAGE_ID_INVALID")
        self._require_chat_id(p)
        message_id = p.integer("message_id", "message identifier is not specified")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        chat = self._chat(p)
        self._writable(chat, method)
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise bad_request("message to edit not found")
        if not message.from_bot or message.service is not None or not message.editable:
            raise bad_request("message can't be edited")
        return message

    def _apply_edit(self, message: Message, **changes: Any) -> dict[str, Any]:
        message.history.append(message.snapshot())
        for name, value in changes.items():
            setattr(message, name, value)
        message.edit_date = self._date()
        self._emit("message", message.chat.id, message.message_id, what="edit")
        return self._message_json(message)

    async def _send_message(self, p: Params) -> dict[str, Any]:
        self._require_chat_id(p)
        if not p.text("text"):
            raise bad_request("message text is empty")
        text, entities = self._formatted(p, "text", "entities", caption=False)
        chat = self._chat(p)
        self._writable(chat, "sendMessage")
        if len(text) > MAX_TEXT:
            raise bad_request("message is too long")
        rows = self._markup(p)
        reply_to = self._reply_target(chat, p)
        thread, passed = self._thread(chat, p, reply_to)
        self._take(chat, "sendMessage")
        message = self._new_message(
            chat,
            None,
            text=text,
            entities=entities,
            reply_markup=rows,
            thread_id=thread,
            reply_to=reply_to,
            passed_thread_id=passed,
        )
        return self._message_json(message)

    async def _send_photo(self, p: Params) -> dict[str, Any]:
        return await self._send_media(
            p, "sendPhoto", "photo", lambda source: {"photo": self._photo(source)}
        )

    async def _send_animation(self, p: Params) -> dict[str, Any]:
        return await self._send_media(
            p, "sendAnimation", "animation", lambda s: {"file": self._sent_file(s, "animation", p)}
        )

    async def _send_document(self, p: Params) -> dict[str, Any]:
        return await self._send_media(
            p, "sendDocument", "document", lambda s: {"file": self._sent_file(s, "document", p)}
        )

    async def _send_media(
        self,
        p: Params,
        method: str,
        field: str,
        content: Callable[[Upload | str], dict[str, Any]],
    ) -> dict[str, Any]:
        """A photo, animation or document with its caption: `content` makes the message's
        media fields from the upload or file id in `field`."""
        source = p.upload(field)
        check_upload(source)  # Telegram's front refuses it before the Bot API reads a thing
        self._require_chat_id(p)
        if source is None:
            raise bad_request(f"there is no {field} in the request")
        caption, entities = self._formatted(p, "caption", "caption_entities", caption=True)
        chat = self._chat(p)
        self._writable(chat, method)
        if len(caption) > MAX_CAPTION:
            raise bad_request("message caption is too long")
        media = content(source)
        rows = self._markup(p)
        reply_to = self._reply_target(chat, p)
        thread, passed = self._thread(chat, p, reply_to)
        self._take(chat, method)
        message = self._new_message(
            chat,
            None,
            **media,
            uploaded=isinstance(source, Upload),
            caption=caption or None,
            caption_entities=entities,
            reply_markup=rows,
            thread_id=thread,
            reply_to=reply_to,
            passed_thread_id=passed,
        )
        return self._message_json(message)

    async def _edit_message_text(self, p: Params) -> dict[str, Any]:
        if not p.text("text"):
            raise bad_request("message text is empty")
        text, entities = self._formatted(p, "text", "entities", caption=False)
        message = self._edit_target(p, "editMessageText")
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        if len(text) > MAX_TEXT:
            raise bad_request("MESSAGE_TOO_LONG")
        rows = self._markup(p, inline_only=True)
        if (text, entities, rows) == (message.text, message.entities, message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        self._take(message.chat, "editMessageText")
        return self._apply_edit(message, text=text, entities=entities, reply_markup=rows)

    async def _edit_message_caption(self, p: Params) -> dict[str, Any]:
        caption, entities = self._formatted(p, "caption", "caption_entities", caption=True)
        message = self._edit_target(p, "editMessageCaption")
        if message.photo is None and message.file is None:
            raise bad_request("there is no caption in the message to edit")
        if len(caption) > MAX_CAPTION:
            raise bad_request("MEDIA_CAPTION_TOO_LONG")
        rows = self._markup(p, inline_only=True)
        old = (message.caption or "", message.caption_entities, message.reply_markup)
        if (caption, entities, rows) == old:
            raise bad_request(NOT_MODIFIED)
        self._take(message.chat, "editMessageCaption")
        return self._apply_edit(
            message, caption=caption or None, caption_entities=entities, reply_markup=rows
        )

    async def _edit_message_media(self, p: Params) -> dict[str, Any]:
        media = p.json("media", "can't parse InputMedia JSON object")
        if not isinstance(media, dict) or "type" not in media:
            raise bad_request("can't parse InputMedia JSON object")
        if media["type"] != "photo":
            raise bad_request(f"media type {media['type']!r} is not simulated: only photo")
        if not media.get("media"):
            raise bad_request("there is no photo in the request")
        source = p.attached(str(media["media"]))
        if source is None:
            raise bad_request("there is no photo in the request")
        check_upload(source)
        inner = Params(
            {
                "caption": media.get("caption"),
                "caption_entities": media.get("caption_entities"),
                "parse_mode": media.get("parse_mode"),
            },
            {},
        )
        caption, entities = self._formatted(inner, "caption", "caption_entities", caption=True)
        message = self._edit_target(p, "editMessageMedia")
        if len(caption) > MAX_CAPTION:
            raise bad_request("MEDIA_CAPTION_TOO_LONG")
        photo = self._photo(source)
        rows = self._markup(p, inline_only=True)
        old = (message.photo, message.caption or "", message.caption_entities, message.reply_markup)
        if (photo, caption, entities, rows) == old:
            raise bad_request(NOT_MODIFIED)
        self._take(message.chat, "editMessageMedia")
        return self._apply_edit(
            message,
            text=None,
            entities=[],
            photo=photo,
            file=None,
            uploaded=isinstance(source, Upload),
            caption=caption or None,
            caption_entities=entities,
            reply_markup=rows,
        )

    async def _edit_message_reply_markup(self, p: Params) -> dict[str, Any]:
        message = self._edit_target(p, "editMessageReplyMarkup")
        rows = self._markup(p, inline_only=True)
        if rows == message.reply_markup:
            raise bad_request(NOT_MODIFIED)
        self._take(message.chat, "editMessageReplyMarkup")
        return self._apply_edit(message, reply_markup=rows)

    def _delete_one(self, chat: Chat, message_id: int) -> None:
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise bad_request("message to delete not found")
        if chat.is_group and not message.from_bot and not chat.bot_is_admin:
            raise bad_request("message can't be deleted")
        message.deleted = True
        self._emit("message", chat.id, message_id, what="delete")

    async def _delete_message(self, p: Params) -> bool:
        self._require_chat_id(p)
        message_id = p.integer("message_id", "message identifier is not specified")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        chat = self._chat(p)
        self._bot_member(chat)
        self._delete_one(chat, message_id)
        return True

    async def _delete_messages(self, p: Params) -> bool:
        chat = self._chat(p)
        self._bot_member(chat)
        ids = p.json("message_ids", "can't parse message identifiers JSON object")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise bad_request("message identifiers are not specified")
        for message_id in ids:
            with contextlib.suppress(ApiError):
                self._delete_one(chat, int(message_id))
        return True
