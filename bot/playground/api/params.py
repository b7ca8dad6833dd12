"""A request of the bot: its parameters and files (`Params`), and the log of it (`Call`)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.playground.api.errors import bad_request

Handler = Callable[["Params"], Awaitable[Any]]
"""A Bot API method: the request's parameters in, the `result` out (or an `ApiError`)."""


@dataclass(frozen=True)
class Upload:
    """A file part of a multipart request."""

    filename: str
    data: bytes

    def __repr__(self) -> str:
        return f"Upload({self.filename!r}, {len(self.data)} bytes)"


@dataclass(eq=False)
class Call:
    """One request the bot made: method, parameters as received, and the HTTP status."""

    method: str
    params: dict[str, Any]
    started: float
    status: int | None = None
    """None while the request is in flight (a long poll) or when the client gave up on it."""
    cancelled: bool = False
    """The client closed the connection before the answer (a cancelled long poll)."""
    description: str | None = None
    parameters: dict[str, Any] | None = None
    result: Any = None

    @property
    def ok(self) -> bool:
        return self.status == 200

    def __repr__(self) -> str:
        state = "cancelled" if self.cancelled else "…" if self.status is None else str(self.status)
        extra = f" {self.description!r}" if self.description else ""
        return f"Call({self.method} {state}{extra})"


class Params:
    """A request's parameters: form fields (strings), JSON body values and uploaded files."""

    def __init__(self, values: dict[str, Any], files: dict[str, Upload]) -> None:
        self.values = values
        self.files = files

    def has(self, name: str) -> bool:
        return self.values.get(name) not in (None, "")

    def text(self, name: str) -> str | None:
        value = self.values.get(name)
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        return json.dumps(value, ensure_ascii=False)

    def integer(self, name: str, error: str) -> int | None:
        """None when absent; `bad_request(error)` when it is not an integer."""
        value = self.values.get(name)
        if value is None or value == "":
            return None
        try:
            return int(str(value).strip())
        except ValueError:
            raise bad_request(error) from None

    def flag(self, name: str) -> bool:
        return self.values.get(name) in (True, 1, "true", "True", "1")

    def json(self, name: str, error: str) -> Any:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except ValueError:
            raise bad_request(error) from None

    def upload(self, name: str) -> Upload | str | None:
        """A file part named `name`, the part an `attach://` value points to, or a string."""
        if name in self.files:
            return self.files[name]
        return self.attached(self.text(name))

    def attached(self, value: str | None) -> Upload | str | None:
        if value and value.startswith("attach://"):
            return self.files.get(value.removeprefix("attach://"))
        return value or None
