"""Photos: uploads decoded and checked like Telegram's, their size ladder, getFile."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.playground.api.access import Access
from bot.playground.api.errors import bad_request
from bot.playground.api.params import Handler, Params, Upload
from bot.playground.world.models import Photo

MAX_PHOTO_BYTES = 10 * 1024 * 1024


def file_bytes(file_id: str, photo: Photo) -> bytes:
    """The original upload, or a JPEG scaled to the requested size of the ladder."""
    size = next((s for s in photo.sizes() if s["file_id"] == file_id), None)
    if size is None or (size["width"], size["height"]) == (photo.width, photo.height):
        return photo.data
    out = io.BytesIO()
    photo.image().convert("RGB").resize((size["width"], size["height"])).save(out, "JPEG")
    return out.getvalue()


class FileMethods(Access):
    """Photos the bot sends (a new upload or a known file id) and getFile."""

    def _handlers(self) -> dict[str, Handler]:
        return {**super()._handlers(), "getfile": self._get_file}

    def _photo(self, source: Upload | str) -> Photo:
        if isinstance(source, str):
            if source.startswith(("http://", "https://")):
                raise bad_request("failed to get HTTP URL content")
            photo = self._files.get(source)
            if photo is None:
                raise bad_request("wrong file identifier/HTTP URL specified")
            return photo
        data = source.data
        if not data:
            raise bad_request("file must be non-empty")
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

    async def _get_file(self, p: Params) -> dict[str, Any]:
        file_id = p.text("file_id") or ""
        photo = self._files.get(file_id)
        if photo is None:
            raise bad_request("invalid file_id")
        return {
            "file_id": file_id,
            "file_unique_id": photo.file_unique_id,
            "file_size": len(file_bytes(file_id, photo)),
            "file_path": f"photos/{file_id}.jpg",
        }
