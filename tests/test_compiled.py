"""The mypyc build (`KOZEL_COMPILE=1`, what the Docker image ships) plays as the plain one:
the engine, its formats and the computers compiled in a copy of the project give the same
digest of random games and computer moves (`tests/played.py`)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests import played

ROOT = Path(__file__).resolve().parent.parent


HEADERS = Path(sysconfig.get_paths()["include"], "Python.h")


@pytest.mark.skipif(shutil.which("cc") is None, reason="the mypyc build needs a C compiler")
@pytest.mark.skipif(not HEADERS.exists(), reason="the mypyc build needs Python's headers")
def test_the_compiled_build_plays_as_the_plain_one(tmp_path: Path) -> None:
    for name in ("bot", "setup.py", "pyproject.toml"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    environment = {**os.environ, "KOZEL_COMPILE": "1", "PYTHONPATH": str(tmp_path)}
    build = _run(tmp_path, environment, "setup.py", "build_ext", "--inplace")
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    done = _run(tmp_path, environment, str(ROOT / "tests" / "played.py"))
    assert done.returncode == 0, done.stderr[-2000:]
    engine, compiled = done.stdout.split()
    assert engine.startswith(str(tmp_path)) and not engine.endswith(".py")  # the build played
    assert compiled == played.digest()


def _run(
    folder: Path, environment: dict[str, str], *arguments: str
) -> subprocess.CompletedProcess[str]:
    """Python with `arguments`; past ten minutes it is killed with the compilers it started
    (left running, they would load the tests after)."""
    with subprocess.Popen(
        [sys.executable, *arguments],
        cwd=folder,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            out, err = process.communicate(timeout=600)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)
