"""The project's own promises: lint, types, and the README's two commands."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = "/".join(("..", "shared"))  # the folder beside the project (spelled so here)


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_ruff_lint_is_clean() -> None:
    done = _run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_clean() -> None:
    done = _run("ruff", "format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean() -> None:
    done = _run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr


def test_import_contracts_hold() -> None:
    """The layers of `pyproject.toml`'s `[tool.importlinter]`: what each part may import."""
    done = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command as c; c()"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_nothing_points_outside_the_repository() -> None:
    """The rules live in docs/RULES.md; no file refers to a folder beside the project."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in tracked:
        path = ROOT / name
        if path.suffix in {".py", ".md", ".toml", ".ftl", ".sql", ""} and path.is_file():
            text = path.read_text("utf-8", errors="replace")
            assert OUTSIDE not in text, name
    assert (ROOT / "docs" / "RULES.md").is_file()


def test_readme_has_two_setup_commands_and_ci_runs_the_test_one() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.+?)\n```", setup)
    assert len(commands) == 2
    run_bot, run_tests = commands
    assert "python -m bot" in run_bot
    assert "pytest" in run_tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert run_tests in ci.splitlines()


def test_the_wheel_ships_catalogs_migrations_and_the_page(tmp_path: Path) -> None:
    """An editable install hides missing package data; the wheel `pip install .` makes
    must carry every catalog and migration, the fonts and the playground's page."""
    done = _run("pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), ".")
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {
        str(path.relative_to(ROOT))
        for pattern in (
            "bot/ui/locales/*/*.ftl",
            "migrations/*.sql",
            "migrations/postgres/*.sql",
            "render/fonts/*.ttf",
            "bot/playground/web/static/*",
        )
        for path in ROOT.glob(pattern)
    }
    assert shipped and shipped <= names, shipped - names
