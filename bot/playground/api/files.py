"""Files the bot sends: photos (decoded and checked like Telegram's, with their size
ladder), animations and documents (kept as they came), getFile and what it downloads.

A new upload costs its bytes; a `file_id` the fake gave before costs nothing (an unknown
one: 400 "wrong file identifier/HTTP URL specified"; a photo's where a document is wanted
or the other way round: 400 "type of file mismatch"). Uploads are at most
`MAX_UPLOAD_BYTES` (413 "Request Entity Too Large", as Telegram's front answers), photos
at most `MAX_PHOTO_BYTES`; getFile serves files of at most `MAX_DOWNLOAD_BYTES` (400
"file is too big"). Simplified: a GIF or an MP4 stays as it came (Telegram turns a GIF
into an MP4), and an animation's duration is what the bot passed (0 if none)."""

from __future__ import annotations

import base64
import hashlib
import io
import mimetypes
import re
from typing import Any

from PIL import Image

from bot.playground.api.access import Access
from bot.playground.api.errors import bad_request, too_large
from bot.playground.api.params import Handler, Params, Upload
from bot.playground.world.models import FileKind, Photo, SentFile

MAX_UPLOAD_BYTES = 50 * 1024 * 1024
"""The largest file a bot may upload (sendDocument, sendAnimation, …; 413 above)."""
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024
"""The largest file getFile lets a bot download (400 "file is too big" above)."""
MAX_SIDE = 10_000  # an animation's width or height, as the Bot API clamps them
MAX_DURATION = 24 * 60 * 60
WRONG_FILE_ID = "wrong file identifier/HTTP URL specified"
_MIME = mimetypes.MimeTypes()  # Python's own table only: the same answer on every machine
_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,10}")
_PREFIX = {"animation": "CgACAgIAAxkBAAI", "document": "BQACAgIAAxkBAAI"}
_FOLDER = {"animation": "animations", "document": "documents"}


def file_bytes(file_id: str, photo: Photo) -> bytes:
    """The original upload, or a JPEG scaled to the requested size of the ladder."""
    size = next((s for s in photo.sizes() if s["file_id"] == file_id), None)
    if size is None or (size["width"], size["height"]) == (photo.width, photo.height):
        return photo.data
    out = io.BytesIO()
    photo.image().convert("RGB").resize((size["width"], size["height"])).save(out, "JPEG")
    return out.getvalue()


def check_upload(source: Upload | str | None) -> None:
    """An upload over `MAX_UPLOAD_BYTES`: 413, before anything else is looked at."""
    if isinstance(source, Upload) and len(source.data) > MAX_UPLOAD_BYTES:
        raise too_large()


def unique_id(data: bytes) -> str:
    """A `file_unique_id`: the same for the same bytes, whoever uploads them and when."""
    digest = hashlib.sha256(data).digest()[:12]
    return "AgAD" + base64.urlsafe_b64encode(digest).decode()


def sniffed_mime(data: bytes) -> str | None:
    """The type of an animation's bytes: a GIF or an MP4 (None: neither)."""
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data[4:8] == b"ftyp":
        return "video/mp4"
    return None


def _gif_size(data: bytes) -> tuple[int, int]:
    """A GIF's width and height from its header (nothing decoded); (0, 0) if unreadable."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Exception:
        return 0, 0


def _clamped(p: Params, name: str, most: int) -> int | None:
    """An integer parameter as the Bot API reads it: clamped, garbage is 0; None if absent."""
    if not p.has(name):
        return None
    try:
        value = int(str(p.text(name)).strip())
    except ValueError:
        value = 0
    return min(max(value, 0), most)


def file_path(file_id: str, kept: SentFile) -> str:
    """Where getFile says a kept file is: `documents/<file_id>.pdf` and the like."""
    suffix = ""
    if kept.file_name and "." in kept.file_name:
        suffix = "." + kept.file_name.rsplit(".", 1)[1]
    if not _SUFFIX.fullmatch(suffix):
        suffix = _MIME.guess_extension(kept.mime_type) or ""
    return f"{_FOLDER[kept.kind]}/{file_id}{suffix}"


def downloadable(
    file_id: str, photos: dict[str, Photo], kept: dict[str, SentFile]
) -> tuple[bytes, str] | None:
    """What `{base}/file/bot<token>/<file_path>` serves for `file_id`: bytes and their
    content type (None: no such file, or one too big to download)."""
    photo = photos.get(file_id)
    if photo is not None:
        return file_bytes(file_id, photo), "image/jpeg"
    file = kept.get(file_id)
    if file is None or file.file_size > MAX_DOWNLOAD_BYTES:
        return None
    return file.data, file.mime_type


class FileMethods(Access):
    """Photos, animations and documents the bot sends (a new upload or a known file id),
    and getFile."""

    def _handlers(self) -> dict[str, Handler]:
        return {**super()._handlers(), "getfile": self._get_file}

    def _known(self, source: str, kind: str) -> Photo | SentFile:
        """A `file_id` the fake gave before, of the right kind of file."""
        if source.startswith(("http://", "https://")):
            raise bad_request("failed to get HTTP URL content")
        known = self._files.get(source) or self._kept.get(source)
        if known is None:
            raise bad_request(WRONG_FILE_ID)
        if isinstance(known, Photo) != (kind == "photo"):
            raise bad_request("type of file mismatch")
        return known

    def _photo(self, source: Upload | str) -> Photo:
        if isinstance(source, str):
            known = self._known(source, "photo")
            assert isinstance(known, Photo)
            return known
        data = source.data
        if not data:
            raise bad_request("file must be non-empty")
        check_upload(source)
        if len(data) > MAX_PHOTO_BYTES:
            raise bad_request("PHOTO_SAVE_FILE_INVALID")
        try:
            with Image.open(io.BytesIO(data)) as image:
                if self.decode_photos:
                    image.load()
                width, height = image.size
                kind = image.format or "unknown"
        except Exception:
            raise bad_request("IMAGE_PROCESS_FAILED") from None
        if width + height > 10_000 or max(width, height) > 20 * min(width, height):
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        self._file_count += 1
        number = self._file_count
        photo = Photo(
            file_id=f"AgACAgIAAxkBAAI{number:08d}",
            file_unique_id=f"AQAD{number:08d}",
            width=width,
            height=height,
            data=data,
            format=kind,
        )
        self._files[photo.file_id] = photo
        for size in photo.sizes():
            self._files[size["file_id"]] = photo
        return photo

    def _sent_file(self, source: Upload | str, asked: FileKind, p: Params) -> SentFile:
        """The animation or document a send names: one sent before (`file_id`: as it was),
        or a new upload, kept. An animation that is neither a GIF nor an MP4 goes as a
        document, and a GIF sent as a document goes as an animation (unless
        `disable_content_type_detection`), as Telegram sends them."""
        if isinstance(source, str):
            known = self._known(source, asked)
            assert isinstance(known, SentFile)
            return known
        data = source.data
        if not data:
            raise bad_request("file must be non-empty")
        check_upload(source)
        sniffed = sniffed_mime(data)
        if asked == "animation":
            animated = sniffed is not None
        else:
            animated = sniffed == "image/gif" and not p.flag("disable_content_type_detection")
        kind: FileKind = "animation" if animated else "document"
        name = source.filename or None
        mime = sniffed or (name and _MIME.guess_type(name)[0]) or "application/octet-stream"
        self._file_count += 1
        kept = SentFile(
            kind=kind,
            file_id=f"{_PREFIX[kind]}{self._file_count:08d}",
            file_unique_id=unique_id(data),
            data=data,
            mime_type=mime,
            file_name=name,
        )
        if kind == "animation":
            width, height = _gif_size(data) if mime == "image/gif" else (0, 0)
            kept.width = _clamped(p, "width", MAX_SIDE) or width
            kept.height = _clamped(p, "height", MAX_SIDE) or height
            kept.duration = _clamped(p, "duration", MAX_DURATION) or 0
        self._kept[kept.file_id] = kept
        return kept

    async def _get_file(self, p: Params) -> dict[str, Any]:
        file_id = p.text("file_id") or ""
        photo = self._files.get(file_id)
        if photo is not None:
            return {
                "file_id": file_id,
                "file_unique_id": photo.file_unique_id,
                "file_size": len(file_bytes(file_id, photo)),
                "file_path": f"photos/{file_id}.jpg",
            }
        kept = self._kept.get(file_id)
        if kept is None:
            raise bad_request("invalid file_id")
        if kept.file_size > MAX_DOWNLOAD_BYTES:
            raise bad_request("file is too big")
        return {
            "file_id": file_id,
            "file_unique_id": kept.file_unique_id,
            "file_size": kept.file_size,
            "file_path": file_path(file_id, kept),
        }
