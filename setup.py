"""Optional speed-up: `KOZEL_COMPILE=1 pip install .` compiles the rules engine, its formats
and the computer players with mypyc (what the Docker image ships).

Without the variable the package installs as plain Python (what development and the tests
use, so an edit to `bot/game/` always takes effect).
"""

import os
from pathlib import Path

from setuptools import setup

MODULES = "tiles kinds values rules table moves events scoring state shuffle"
MODULES += " illegal order deal legal ending bazaar engine"  # the engine, in its modules
ENGINE = [f"bot/game/{name}.py" for name in MODULES.split()]
ENGINE += sorted(  # whatever game the registry holds
    str(p) for p in Path("bot/game/formats").glob("*.py") if p.name != "__init__.py"
)
AI = "weights knobs knowledge position clubs races policy inference sampling search"
ENGINE += ["bot/game/view.py", *(f"bot/ai/{name}.py" for name in AI.split())]  # the hard level

if os.environ.get("KOZEL_COMPILE") == "1":
    from mypyc.build import mypycify

    # the engine needs no mypy plugins: skip the project config (pydantic is not built with)
    setup(ext_modules=mypycify(["--config-file=", *ENGINE], opt_level="3"))
else:
    setup()
