"""Animated GIFs of pictures in turn: frames and their times read back with Pillow, a table
picture's frames exactly as drawn, sizes and palettes mixed, and a GIF too big drawn
smaller."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from render import render_table
from render.animation import FRAME_MS, LAST_MS, MIN_WIDTH, Animation, animate
from tests.render import samples


def _read(animation: Animation) -> tuple[Image.Image, list[int], list[Image.Image]]:
    """The GIF as Pillow reads it: itself, each frame's duration and each frame (RGB)."""
    gif = Image.open(io.BytesIO(animation.data))
    assert gif.format == "GIF"
    durations, frames = [], []
    for number in range(gif.n_frames):
        gif.seek(number)
        durations.append(gif.info["duration"])
        frames.append(gif.convert("RGB"))
    return gif, durations, frames


def _rgb(frame: bytes | Image.Image) -> Image.Image:
    image = frame if isinstance(frame, Image.Image) else Image.open(io.BytesIO(frame))
    return image.convert("RGB")


def _same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def _tables(count: int) -> list[bytes]:
    """A line growing tile by tile: `count` table pictures of one size."""
    return [render_table(samples.table(6 + i, (4, 3, 2, 3))) for i in range(count)]


def test_every_frame_is_held_its_time_the_last_longest_and_it_loops() -> None:
    pictures = _tables(5)
    animation = animate(pictures)
    gif, durations, frames = _read(animation)
    assert gif.n_frames == animation.frames == 5
    assert gif.is_animated
    assert gif.info["loop"] == 0
    assert durations == [FRAME_MS] * 4 + [LAST_MS] == [700, 700, 700, 700, 3000]
    assert animation.duration_ms == sum(durations)
    assert (animation.width, animation.height) == gif.size == _rgb(pictures[0]).size
    assert all(_same(frame, _rgb(p)) for frame, p in zip(frames, pictures, strict=True))
    still = animate(pictures[:1])
    assert len(animation.data) < 5 * len(still.data) * 0.7  # only what changed is stored


def test_a_frame_like_the_one_before_holds_that_one_longer() -> None:
    first, second = _tables(2)
    animation = animate([first, first, second, second], frame_ms=500, last_ms=2000)
    gif, durations, frames = _read(animation)
    assert animation.frames == gif.n_frames == 2
    assert durations == [1000, 2500]
    assert animation.duration_ms == 3500
    assert _same(frames[0], _rgb(first)) and _same(frames[1], _rgb(second))


def test_one_frame_is_a_still_gif() -> None:
    (picture,) = _tables(1)
    gif, _, frames = _read(animate([picture]))
    assert gif.n_frames == 1
    assert _same(frames[0], _rgb(picture))


def test_no_frames_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one frame"):
        animate([])


def test_frames_of_different_heights_share_the_tallest_canvas() -> None:
    short = render_table(samples.table(6, (4, 3, 2, 3)))
    tall = render_table(samples.table(45, (5, 12, 3, 11, 0, 9, 1, 0, 4, 1), max_pip=12))
    assert _rgb(short).height < _rgb(tall).height
    animation = animate([short, tall, short])
    _, _, frames = _read(animation)
    assert (animation.width, animation.height) == _rgb(tall).size
    for frame, picture in zip(frames, (short, tall, short), strict=True):
        shown = _rgb(picture)
        assert _same(frame.crop((0, 0, *shown.size)), shown)
    below = frames[0].crop((0, _rgb(short).height, animation.width, animation.height))
    ground = _rgb(short).getpixel((0, _rgb(short).height - 1))
    assert below.getcolors() == [(below.width * below.height, ground)]


def _photos(count: int, size: tuple[int, int] = (320, 200)) -> list[Image.Image]:
    """RGB pictures of many colours: a gradient with a square moving across it."""
    ramp = Image.linear_gradient("L").resize(size)
    flipped = ramp.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    base = Image.merge(
        "RGB", (ramp, ramp.transpose(Image.Transpose.TRANSPOSE).resize(size), flipped)
    )
    frames = []
    for i in range(count):
        frame = base.copy()
        ImageDraw.Draw(frame).rectangle((20 + 30 * i, 40, 60 + 30 * i, 80), fill=(200, 30, 60))
        frames.append(frame)
    return frames


def test_pictures_of_any_colours_share_one_adaptive_palette() -> None:
    photos = _photos(4)
    animation = animate(photos)
    gif, durations, frames = _read(animation)
    assert gif.n_frames == 4 and durations[-1] == LAST_MS
    for frame, photo in zip(frames, photos, strict=True):
        error = ImageStat.Stat(ImageChops.difference(frame, photo)).mean
        assert max(error) < 6, error


def _noisy(count: int, width: int) -> Sequence[Image.Image]:
    """Pictures that hardly compress: noise changing everywhere from frame to frame."""
    return [
        Image.effect_noise((width, 120), 60 + 10 * i).convert("RGB").quantize(64)
        for i in range(count)
    ]


def test_a_gif_over_its_limit_is_drawn_smaller_but_not_below_the_least_width() -> None:
    frames = _noisy(3, 900)
    full = animate(frames)
    smaller = animate(frames, max_bytes=len(full.data) * 3 // 4)
    assert MIN_WIDTH <= smaller.width < full.width
    assert smaller.height < full.height
    assert len(smaller.data) < len(full.data)
    assert smaller.frames == 3
    least = animate(frames, max_bytes=1000)
    assert least.width == MIN_WIDTH
    assert Image.open(io.BytesIO(least.data)).size == (least.width, least.height)
