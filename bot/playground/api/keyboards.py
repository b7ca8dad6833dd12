"""`reply_markup` as the Bot API checks it; only inline keyboards stay on the message."""

from __future__ import annotations

from typing import Any

from bot.playground.api.errors import bad_request
from bot.playground.api.formatting.links import check_link

MAX_BUTTONS = 100
MAX_ROW = 8
MAX_CALLBACK_DATA = 64
TOO_LONG = "reply markup is too long"
_BUTTON = "can't parse inline keyboard button"
_TEXT_BUTTON = f"{_BUTTON}: Text buttons are unallowed in the inline keyboard"


def parse_reply_markup(raw: Any) -> list[list[dict[str, Any]]] | None:
    """Validate any reply markup; return the inline keyboard's rows (None for other kinds)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in raw:
        return _inline_keyboard(raw["inline_keyboard"])
    if "keyboard" in raw:
        _reply_keyboard(raw)
        return None
    for flag in ("remove_keyboard", "force_reply"):
        if flag in raw:
            _boolean(raw, flag)
            _boolean(raw, "selective")
            return None
    raise bad_request("can't parse reply keyboard markup JSON object")


def _boolean(raw: dict[str, Any], name: str) -> None:
    if name in raw and not isinstance(raw[name], bool):
        raise bad_request(f'field "{name}" must be of type Boolean')


def _reply_keyboard(raw: dict[str, Any]) -> None:
    rows = raw["keyboard"]
    if not isinstance(rows, list):
        raise bad_request('field "keyboard" must be of type Array')
    for name in ("resize_keyboard", "one_time_keyboard", "is_persistent", "selective"):
        _boolean(raw, name)
    for row in rows:
        if not isinstance(row, list):
            raise bad_request(
                'field "keyboard" of the ReplyKeyboardMarkup should be an Array of Arrays'
            )
        for button in row:
            if isinstance(button, str):
                continue
            if not isinstance(button, dict) or not isinstance(button.get("text"), str):
                raise bad_request("can't parse keyboard button: Can't find field \"text\"")


def _inline_keyboard(rows: Any) -> list[list[dict[str, Any]]]:
    if not isinstance(rows, list):
        raise bad_request('field "inline_keyboard" must be of type Array')
    kept: list[list[dict[str, Any]]] = []
    for row in rows:
        if not isinstance(row, list):
            raise bad_request(
                'field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays'
            )
        kept.append([_inline_button(button) for button in row])
    kept = [row for row in kept if row]
    if sum(len(row) for row in kept) > MAX_BUTTONS or any(len(row) > MAX_ROW for row in kept):
        raise bad_request(TOO_LONG)
    return kept


def _inline_button(button: Any) -> dict[str, Any]:
    if not isinstance(button, dict):
        raise bad_request(f"{_BUTTON}: InlineKeyboardButton must be an Object")
    if "text" not in button:
        raise bad_request(f'{_BUTTON}: Can\'t find field "text"')
    text = button["text"]
    if not isinstance(text, str):
        raise bad_request(f'{_BUTTON}: Field "text" must be of type String')
    if not text.strip():
        raise bad_request("inline keyboard button text must be non-empty")
    kept: dict[str, Any] = {"text": text}
    if button.get("url"):
        url = str(button["url"])
        try:
            kept["url"] = check_link(url)
        except ValueError as error:
            raise bad_request(f"inline keyboard button URL '{url}' is invalid: {error}") from None
    elif button.get("callback_data"):
        data = str(button["callback_data"])
        if len(data.encode("utf-8")) > MAX_CALLBACK_DATA:
            raise bad_request("BUTTON_DATA_INVALID")
        kept["callback_data"] = data
    elif isinstance(button.get("web_app"), dict):
        url = str(button["web_app"].get("url", ""))
        if not url.lower().startswith("https://"):
            raise bad_request(
                f"inline keyboard button Web App URL '{url}' is invalid: "
                "Only HTTPS links are allowed"
            )
        kept["web_app"] = {"url": url}
    elif "switch_inline_query" in button or "switch_inline_query_current_chat" in button:
        for name in ("switch_inline_query", "switch_inline_query_current_chat"):
            if name in button:
                kept[name] = str(button[name])
    elif isinstance(button.get("switch_inline_query_chosen_chat"), dict):
        kept["switch_inline_query_chosen_chat"] = button["switch_inline_query_chosen_chat"]
    elif isinstance(button.get("copy_text"), dict):
        copied = button["copy_text"].get("text")
        if not isinstance(copied, str) or not 1 <= len(copied) <= 256:
            raise bad_request("BUTTON_COPY_TEXT_INVALID")
        kept["copy_text"] = {"text": copied}
    elif "callback_game" in button or button.get("pay"):
        raise bad_request("BUTTON_TYPE_INVALID")
    elif isinstance(button.get("login_url"), dict):
        raise bad_request("BOT_DOMAIN_INVALID")
    else:
        raise bad_request(_TEXT_BUTTON)
    return kept


def inline_markup(rows: list[list[dict[str, Any]]] | None) -> dict[str, Any] | None:
    """The `reply_markup` field of a Message."""
    return None if rows is None else {"inline_keyboard": rows}
