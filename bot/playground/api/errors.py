"""Bot API errors as Telegram words them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"


class ApiError(Exception):
    """An error answer: HTTP status = `error_code`, with Telegram's description."""

    def __init__(
        self, code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def envelope(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(message: str, parameters: dict[str, Any] | None = None) -> ApiError:
    """400 "Bad Request: <message>"."""
    return ApiError(400, f"Bad Request: {message}", parameters)


def too_large() -> ApiError:
    """413 "Request Entity Too Large": Telegram's answer to an upload over its limit."""
    return ApiError(413, "Request Entity Too Large")


def forbidden(message: str) -> ApiError:
    """403 "Forbidden: <message>"."""
    return ApiError(403, f"Forbidden: {message}")


@dataclass
class Fault:
    """What a method's calls meet for a while: an error answer (`code`, 0 for none) after
    `delay` seconds. It lasts `times` calls, or until the fake's clock passes `until`
    (whichever is given; both: whichever ends first)."""

    code: int = 502
    description: str = "Bad Gateway"
    retry_after: int | None = None
    delay: float = 0.0
    times: int | None = None
    until: float | None = None
    met: int = 0  # calls that met it so far

    def active(self, now: float) -> bool:
        if self.times is not None and self.met >= self.times:
            return False
        return self.until is None or now < self.until

    def error(self) -> ApiError | None:
        if not self.code:
            return None
        parameters = {"retry_after": self.retry_after} if self.retry_after is not None else None
        return ApiError(self.code, self.description, parameters)
