"""Links as TDLib checks them: in `text_link` entities, `<a href>` and URL buttons."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

_HOST = re.compile(r"^[a-z0-9\-._~%!$&'*+,;=\u0080-\uffff]+$", re.IGNORECASE)
_TLD = re.compile(r"^(?:[a-z]{2,}|xn--[a-z0-9\-]+|[0-9]{1,3})$", re.IGNORECASE)


def check_link(url: str) -> str:
    """The normalised link, or `ValueError` with TDLib's reason ("Wrong HTTP URL", ...)."""
    url = url.strip()
    if not url:
        raise ValueError("URL host is empty")
    if ":" in url.split("/", 1)[0] and "://" not in url:
        scheme = url.split(":", 1)[0].lower()
        if scheme in {"tg", "ton"}:
            return url
        raise ValueError("Unsupported URL protocol")
    if "://" in url:
        scheme, rest = url.split("://", 1)
        scheme = scheme.lower()
        if scheme in {"tg", "ton"}:
            return f"{scheme}://{rest}"
        if scheme not in {"http", "https"}:
            raise ValueError("Unsupported URL protocol")
    else:
        scheme, rest = "http", url
    if any(c.isspace() for c in rest):
        raise ValueError("Wrong HTTP URL")
    parts = urlsplit(f"{scheme}://{rest}")
    host = parts.hostname or ""
    if not host:
        raise ValueError("URL host is empty")
    labels = host.rstrip(".").split(".")
    if len(labels) < 2 or not all(labels) or not _HOST.match(host) or not _TLD.match(labels[-1]):
        raise ValueError("Wrong HTTP URL")
    try:
        port = parts.port
    except ValueError as error:
        raise ValueError("Wrong port number specified in the URL") from error
    netloc = host if port is None else f"{host}:{port}"
    path = parts.path or "/"
    query = f"?{parts.query}" if parts.query or rest.endswith("?") else ""
    fragment = f"#{parts.fragment}" if parts.fragment else ""
    return f"{scheme}://{netloc}{path}{query}{fragment}"


def checked_link(url: str) -> str | None:
    """`check_link` that answers None instead of raising (links in text are just dropped)."""
    try:
        return check_link(url)
    except ValueError:
        return None
