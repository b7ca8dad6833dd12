"""Benchmark: redraw the full 28-tile table of a 4-player game (PNG encoding included).

Prints timings, then as its last line JSON with the median and 95th percentile in ms, the
PNG size in KB and the picture size.
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

from render import render_table  # noqa: E402
from tests.render.samples import table  # noqa: E402

WARMUP = 3  # the first pictures draw and cache every sprite
RUNS = 200


def main() -> None:
    scene = table(28, hands=(3, 2, 2, 1))  # every tile down, some backs drawn as well
    for _ in range(WARMUP):
        png = render_table(scene)
    times: list[float] = []
    for _ in range(RUNS):
        start = time.perf_counter()
        png = render_table(scene)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    width, height = Image.open(io.BytesIO(png)).size
    p50 = statistics.median(times)
    p95 = times[round(0.95 * (len(times) - 1))]
    print(f"{RUNS} renders: min {times[0]:.2f} ms, p50 {p50:.2f} ms, p95 {p95:.2f} ms")
    result = {
        "table_ms_p50": round(p50, 2),
        "table_ms_p95": round(p95, 2),
        "png_kb": round(len(png) / 1024, 1),
        "width": width,
        "height": height,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
