"""The project's own promises: lint, types, and the README's two commands."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import grimp

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


def test_no_import_circle_in_bot() -> None:
    """No module of `bot` reaches itself through its imports, those under `TYPE_CHECKING`
    included (the formats read the rules through `bot.game.formats.base.Rules`)."""
    graph = grimp.build_graph(
        "bot", include_external_packages=False, exclude_type_checking_imports=False, cache_dir=None
    )
    done: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        path.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported in path:
                circles.append([*path[path.index(imported) :], imported])
            elif imported not in done:
                visit(imported, path)
        path.pop()
        done.add(module)

    for module in sorted(graph.modules):
        if module not in done:
            visit(module, [])
    assert circles == []


def test_every_module_of_the_core_has_its_layer() -> None:
    """The contract that orders `bot.core`'s modules names every one of them, so a new
    module cannot slip into an import circle unseen."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = (
        c
        for c in config["tool"]["importlinter"]["contracts"]
        if c.get("containers") == ["bot.core"]
    )
    named = {name.strip() for layer in contract["layers"] for name in layer.split("|")}
    core = ROOT / "bot" / "core"
    modules = {p.stem for p in core.glob("*.py") if p.stem != "__init__"}
    modules |= {p.name for p in core.iterdir() if (p / "__init__.py").exists()}
    assert modules == named, (modules - named, named - modules)


MODULE_LINES, FUNCTION_LINES, PARAMETERS = 400, 60, 7
OVER_THE_LIMITS = {
    # the engine's hot path: the next state built in one call from its 13 fields; built
    # with GameState._replace by keyword instead, a move costs 5.13 µs against 4.82-4.92
    # in bench/engine.py (--players 4 --seconds 4 --seed 1, two runs each, interleaved)
    "bot/game/bazaar.py:turn_state has 13 parameters",
}
"""What is over the limits today, each named with its figure: a module or function that
grows past them, or one not named here, fails the test, and so does a named one that no
longer is (take it off the list)."""


def _over_the_limits() -> set[str]:
    over = set()
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "render").rglob("*.py")]):
        name = path.relative_to(ROOT).as_posix()
        source = path.read_text(encoding="utf-8")
        if (lines := len(source.splitlines())) > MODULE_LINES:
            over.add(f"{name} has {lines} lines")
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if (length := (node.end_lineno or node.lineno) - node.lineno + 1) > FUNCTION_LINES:
                over.add(f"{name}:{node.name} has {length} lines")
            a = node.args
            given = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
            count = len([p for p in given if p not in {"self", "cls"}])
            count += (a.vararg is not None) + (a.kwarg is not None)
            if count > PARAMETERS:
                over.add(f"{name}:{node.name} has {count} parameters")
    return over


def test_modules_and_functions_keep_to_their_limits() -> None:
    """At most 400 lines a module, 60 lines and 7 parameters a function, in `bot/` and
    `render/` (`OVER_THE_LIMITS` names what is not there yet)."""
    over = _over_the_limits()
    assert over - OVER_THE_LIMITS == set(), "over the limits"
    assert OVER_THE_LIMITS - over == set(), "within the limits now: take off the list"


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
    must carry every catalog and migration, the fonts, the playground's and the table app's
    pages."""
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
            "bot/webapp/static/*",
        )
        for path in ROOT.glob(pattern)
    }
    assert shipped and shipped <= names, shipped - names


STILL_TO_RENAME: set[str] = set()
"""Class names still shared today: the renames take them off, and this set stays empty. A
name here that is no longer shared fails the test too (take it off)."""


def _classes() -> dict[str, list[str]]:
    """Every class defined in `bot/` and `render/`, nested ones too: where each name is."""
    found: dict[str, list[str]] = {}
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "render").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where = f"{path.relative_to(ROOT).as_posix()}:{node.lineno}"
                found.setdefault(node.name, []).append(where)
    return found


def test_no_two_classes_share_a_name() -> None:
    """A name says one thing: no two classes of `bot/` and `render/` are called alike
    (`STILL_TO_RENAME` names those not renamed yet)."""
    shared = {name: where for name, where in _classes().items() if len(where) > 1}
    assert set(shared) - STILL_TO_RENAME == set(), shared
    assert STILL_TO_RENAME - set(shared) == set(), "no longer shared: take off the list"


MOST_POSITIONAL = 5
"""A record of more fields than this is built by keyword."""
POSITIONAL_RECORDS = {"GameState"}
"""Built positionally all the same: the engine makes one on every move (bench/engine.py)."""


def _records(trees: dict[Path, ast.Module]) -> dict[str, int]:
    """The NamedTuples and dataclasses of the code, by name: how many fields each has."""
    records = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = {ast.unparse(base) for base in node.bases}
            decorators = {ast.unparse(d).split("(")[0] for d in node.decorator_list}
            if "NamedTuple" in bases or "dataclass" in decorators:
                annotated = [s for s in node.body if isinstance(s, ast.AnnAssign)]
                records[node.name] = len(annotated)
    return records


def test_records_of_more_than_five_fields_are_built_by_keyword() -> None:
    trees = {
        path: ast.parse(path.read_text(encoding="utf-8"))
        for folder in ("bot", "render")
        for path in sorted((ROOT / folder).rglob("*.py"))
    }
    wide = {name for name, count in _records(trees).items() if count > MOST_POSITIONAL}
    positional = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or len(node.args) <= MOST_POSITIONAL:
                continue
            called = node.func
            name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
            if name in wide and name not in POSITIONAL_RECORDS:
                positional.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert not positional, positional
