"""What a listener of the fake hears (`FakeTelegram.listen`): one `Change` per event."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

ChangeKind = Literal["message", "answer", "commands", "violation"]


@dataclass(frozen=True)
class Change:
    """Something a screen of the world would redraw.

    * `"message"`: a message was added, edited or deleted in a chat (the bot's or a
      user's, service messages too); `detail["what"]` is `"new"`, `"edit"` or `"delete"`.
    * `"answer"`: the bot's answer to a button press was accepted; `detail` has
      `user_id` (who pressed), `text`, `show_alert`, `url`; the ids are the pressed
      message's.
    * `"commands"`: the bot's command menu changed; `detail` has `scope` (as a list)
      and `language` (`""` for every language); `chat_id` is the scope's chat, if any.
    * `"violation"`: the fake refused a request of the bot with a 4xx other than 429 (a
      Telegram rule it broke; faults a test injects with `fail` are not counted);
      `detail` has `method`, `code`, `description`; the ids are the request's, if given.
    """

    kind: str
    chat_id: int | None
    message_id: int | None
    detail: dict[str, Any] = field(default_factory=dict)


Listener = Callable[[Change], object]
"""Called synchronously with each change, inside the fake; what it returns is ignored."""
