"""Pictures in turn as an animated GIF: each frame held `FRAME_MS`, the last `LAST_MS`, looping.

The frames (PNG bytes, such as `render_table` gives, or PIL images) share one palette: the
table pictures' own fixed palette when they all have it, else one adaptive palette made
from all of them. Every frame but the first is stored as the rectangle that changed, its
unchanged pixels transparent (they compress to almost nothing), drawn over the one before
(disposal 1): a move changes a tile, two seat panels and the caption. A frame equal to the
one before is not stored again: the one before is held for both.

Frames of different sizes are laid on one canvas as large as the largest, centred across
and from the top, the room below filled with each frame's own bottom-left colour. The GIF
is written frame by frame (PNG frames are decoded one at a time), so a long round of big
pictures does not hold all its frames at once. Over `max_bytes`, the frames are drawn again
smaller (averaged down, then mapped onto the palette again), but no narrower than `MIN_WIDTH`.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from PIL import GifImagePlugin, Image, ImageChops

FRAME_MS = 700
LAST_MS = 3000
SHRINK_MARGIN = 0.95  # over the limit, the bytes go about as the width: a little narrower …
MIN_WIDTH = 640  # … but no narrower than this: readable on a phone (a table is 840 px wide)
LOOP = 0  # for ever
COLOURS = 255  # an adaptive palette leaves one index free: the unchanged pixels'

Frame = bytes | Image.Image


@dataclass(frozen=True, slots=True, kw_only=True)
class Animation:
    """An animated GIF: `frames` stored, `width` × `height`, `duration_ms` one loop."""

    data: bytes
    frames: int
    width: int
    height: int
    duration_ms: int


@dataclass(slots=True)
class _Pending:
    """A frame waiting for its duration: the next one may equal it and add to it."""

    image: Image.Image
    offset: tuple[int, int]
    transparency: int | None
    duration: int


def animate(
    frames: Sequence[Frame],
    *,
    frame_ms: int = FRAME_MS,
    last_ms: int = LAST_MS,
    max_bytes: int | None = None,
) -> Animation:
    """The frames as a looping GIF, each held `frame_ms`, the last `last_ms`; drawn smaller
    (down to `MIN_WIDTH`) if it would be over `max_bytes`."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    palette = _shared_palette(frames)
    width = _canvas(frames)[0]
    animation = _encode(frames, durations, palette, width)
    if max_bytes is None or len(animation.data) <= max_bytes or width <= MIN_WIDTH:
        return animation
    for smaller in (round(width * max_bytes / len(animation.data) * SHRINK_MARGIN), MIN_WIDTH):
        animation = _encode(frames, durations, palette, max(MIN_WIDTH, smaller))
        if len(animation.data) <= max_bytes or smaller <= MIN_WIDTH:
            break
    return animation


def _open(frame: Frame) -> Image.Image:
    if isinstance(frame, Image.Image):
        return frame
    return Image.open(io.BytesIO(frame))


def _size(frame: Frame) -> tuple[int, int]:
    return _open(frame).size  # a PNG's size is in its header: nothing is decoded


def _canvas(frames: Sequence[Frame]) -> tuple[int, int]:
    sizes = [_size(frame) for frame in frames]
    return max(w for w, _ in sizes), max(h for _, h in sizes)


def _shared_palette(frames: Sequence[Frame]) -> Image.Image | None:
    """None when every frame is a palette image of one and the same palette (the table
    pictures' fixed one), else an adaptive palette made from a sample of every frame."""
    palettes = set()
    for frame in frames:
        image = _open(frame)
        shared = image.palette  # read with a PNG's header: nothing is decoded
        if (
            image.mode != "P"
            or shared is None
            or shared.mode != "RGB"
            or "transparency" in image.info
        ):
            break
        palettes.add(bytes(shared.palette))
        if len(palettes) > 1:
            break
    else:
        return None
    samples = [_open(frame).convert("RGB").reduce(4) for frame in frames]
    montage = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
    top = 0
    for sample in samples:
        montage.paste(sample, (0, top))
        top += sample.height
    return montage.quantize(COLOURS, Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _frames(
    frames: Sequence[Frame], palette: Image.Image | None, size: tuple[int, int], scale: float
) -> Iterator[Image.Image]:
    """Each frame in the shared palette, `scale` times its size, on a canvas of `size`."""
    for frame in frames:
        image = _open(frame)
        image.load()
        if scale != 1 or palette is not None:
            reference = palette or image
            if scale != 1:
                shrunk = (round(image.width * scale), max(1, round(image.height * scale)))
                image = image.convert("RGB").resize(shrunk, Image.Resampling.BOX)
            image = image.convert("RGB").quantize(palette=reference, dither=Image.Dither.NONE)
        if image.size != size:
            image = _padded(image, size)
        yield image


def _padded(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """The frame centred across a canvas of `size`, from its top, the rest in the frame's
    own bottom-left colour."""
    ground = image.getpixel((0, image.height - 1))
    assert isinstance(ground, int)
    canvas = Image.new("P", size, ground)
    canvas.putpalette(image.getpalette() or ())
    canvas.paste(image, ((size[0] - image.width) // 2, 0))
    return canvas


def _encode(
    frames: Sequence[Frame],
    durations: Sequence[int],
    palette: Image.Image | None,
    width: int,
) -> Animation:
    """The GIF `width` px wide (the largest frame's width, or less to scale them down)."""
    full = _canvas(frames)
    scale = width / full[0]
    size = (width, max(1, round(full[1] * scale)))
    out = io.BytesIO()
    previous: Image.Image | None = None
    pending: _Pending | None = None
    stored = 0
    for image, duration in zip(_frames(frames, palette, size, scale), durations, strict=True):
        if previous is None:
            header, _ = GifImagePlugin.getheader(image.copy(), None, {"loop": LOOP})
            out.write(b"".join(header))
            pending = _Pending(image.copy(), (0, 0), None, duration)
            previous = image
            continue
        assert pending is not None
        change = _change(previous, image)
        if change is None:  # the same picture: the one before is held longer
            pending.duration += duration
            continue
        _write(out, pending)
        stored += 1
        pending = change
        pending.duration = duration
        previous = image
    assert pending is not None
    _write(out, pending)
    out.write(b";")
    return Animation(
        data=out.getvalue(),
        frames=stored + 1,
        width=size[0],
        height=size[1],
        duration_ms=sum(durations),
    )


def _change(before: Image.Image, after: Image.Image) -> _Pending | None:
    """What changed from `before` to `after`: the rectangle, its unchanged pixels in an
    index the rectangle does not use (transparent); None if nothing did."""
    delta = ImageChops.subtract_modulo(after, before)
    box = delta.getbbox(alpha_only=False)
    if box is None:
        return None
    part = after.crop(box)
    free = [i for i, count in enumerate(part.histogram()) if not count]
    transparency = free[-1] if free else None
    if transparency is not None:
        unchanged = delta.crop(box).point([255, *(0,) * 255], "1")
        part.paste(transparency, mask=unchanged)
    return _Pending(part, box[:2], transparency, 0)


def _write(out: io.BytesIO, frame: _Pending) -> None:
    """One frame: its graphic control (time, transparency, do not dispose) and its data."""
    params: dict[str, int] = {"duration": frame.duration, "disposal": 1}
    if frame.transparency is not None:
        params["transparency"] = frame.transparency
    out.write(b"".join(GifImagePlugin.getdata(frame.image, frame.offset, **params)))
