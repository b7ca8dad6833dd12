"""Bot API errors as Telegram words them."""

from __future__ import annotations

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


def forbidden(message: str) -> ApiError:
    """403 "Forbidden: <message>"."""
    return ApiError(403, f"Forbidden: {message}")
