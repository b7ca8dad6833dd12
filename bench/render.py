"""Benchmark: redraw the full 28-tile table of a 4-player game (PNG encoding included), a
double-twelve table of a 2-player game (61 tiles down, 29 backs in the hands), the largest
game room table (10 seats, double-twelve, 55 tiles down, hands up to 12, two seats out) and
the largest spinner table (all 91 double-twelve tiles on four arms round the 12-12).

Prints timings, then as its last line JSON with the median and 95th percentile in ms, the
PNG size in KB and the picture size (the `table12_` keys are the double-twelve table's, the
`room_` keys the room's, the `spinner_` keys the spinner table's).
"""

import io
import json
import statistics
import sys
import time
from pathlib import Path

# this file is called like the package it measures: look the package up from the repo root
sys.path[0] = str(Path(__file__).resolve().parents[1])

from PIL import Image  # noqa: E402

from render import TableScene, render_table  # noqa: E402
from tests.render.samples import largest_spinner_table, table  # noqa: E402

WARMUP = 3  # the first pictures draw and cache every sprite
RUNS = 200


def measure(name: str, scene: TableScene) -> tuple[float, float, bytes]:
    """Median and 95th percentile of `RUNS` renders in ms, and the last PNG."""
    for _ in range(WARMUP):
        png = render_table(scene)
    times: list[float] = []
    for _ in range(RUNS):
        start = time.perf_counter()
        png = render_table(scene)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p50 = statistics.median(times)
    p95 = times[round(0.95 * (len(times) - 1))]
    print(f"{name}: {RUNS} renders: min {times[0]:.2f} ms, p50 {p50:.2f} ms, p95 {p95:.2f} ms")
    return p50, p95, png


def main() -> None:
    # every tile down, some backs drawn as well
    p50, p95, png = measure("double-six", table(28, hands=(3, 2, 2, 1)))
    # the golden `double_twelve` table: a long line with 10 … 12 pips, hands of 14 and 15
    p50_12, p95_12, png_12 = measure("double-twelve", table(61, hands=(14, 15), max_pip=12))
    room = table(55, hands=(12, 12, 3, 2, 0, 1, 1, 0, 2, 3), max_pip=12, out=(4, 7))
    p50_room, p95_room, png_room = measure("room", room)
    p50_spin, p95_spin, png_spin = measure("spinner", largest_spinner_table())
    width, height = Image.open(io.BytesIO(png)).size
    result = {
        "table_ms_p50": round(p50, 2),
        "table_ms_p95": round(p95, 2),
        "png_kb": round(len(png) / 1024, 1),
        "width": width,
        "height": height,
        "table12_ms_p50": round(p50_12, 2),
        "table12_ms_p95": round(p95_12, 2),
        "table12_png_kb": round(len(png_12) / 1024, 1),
        "room_ms_p50": round(p50_room, 2),
        "room_ms_p95": round(p95_room, 2),
        "room_png_kb": round(len(png_room) / 1024, 1),
        "spinner_ms_p50": round(p50_spin, 2),
        "spinner_ms_p95": round(p95_spin, 2),
        "spinner_png_kb": round(len(png_spin) / 1024, 1),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
