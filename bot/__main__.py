"""`python -m bot`: the bot in Telegram with `BOT_TOKEN`, else the local playground.

    python -m bot                     Telegram with BOT_TOKEN (long polling, or a webhook with
                                      WEBHOOK_URL and WEBHOOK_SECRET), else the playground
    python -m bot telegram            Telegram; without BOT_TOKEN one line and exit status 2
    python -m bot playground [--host 127.0.0.1] [--port 8080] [--fast]
                                      (the same options after a plain `python -m bot`)
    python -m bot db-recover PATH [NEW]
    python -m bot migrate-to-postgres [PATH] [URL]

`db-recover` copies what is readable of a damaged database into a new file (default: PATH
with `.recovered` before its suffix) and says what it lost. `migrate-to-postgres` copies
the SQLite database (default: DATABASE_PATH) into an empty PostgreSQL database (default:
DATABASE_URL); stop the bot first.
"""

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from pydantic import ValidationError

from bot.config import Settings
from bot.core.backups import recover
from bot.core.database import UnusableDatabaseError
from bot.core.database.postgres import shown
from bot.core.database.sqlite import SqliteDatabase
from render.budget import pictures_off_the_heap

NO_TOKEN = "Set BOT_TOKEN in the environment or in .env (see .env.example)."
NO_SECRET = "WEBHOOK_URL needs WEBHOOK_SECRET: 1-256 characters of A-Z, a-z, 0-9, _ and -."
HOST, PORT = "127.0.0.1", 8080  # where the playground's page is served by default
COMMANDS = {  # every command in `--help`, one line each: its arguments, what it does
    "telegram": ("", "run in Telegram (BOT_TOKEN required; the default with it)"),
    "playground": ("", f"the local Telegram in the browser, no token: http://{HOST}:{PORT}"),
    "db-recover": ("PATH [NEW]", "copy what is readable of a damaged SQLite database"),
    "migrate-to-postgres": ("[PATH] [URL]", "copy the SQLite database into PostgreSQL"),
    "achievements": ("--backfill", "judge every finished game for badges (again: no new rows)"),
}


def command_help(command: str) -> str:
    needs, does = COMMANDS[command]
    return f"{needs}: {does}" if needs else does


def help_lines(prog: str) -> argparse.HelpFormatter:
    """Wide enough that every option is one line, in any terminal; the epilog as written."""
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=30, width=120)


EPILOG = "commands:\n" + "\n".join(f"  {c:21}{command_help(c)}" for c in COMMANDS)


def asks_help(args: list[str], command: str) -> bool:
    """`args` are `-h` or `--help`: the command's one line is printed."""
    if args not in (["-h"], ["--help"]):
        return False
    needs, does = COMMANDS[command]
    print(f"usage: python -m bot {command} {needs}\n\n{does}")
    return True


def db_recover(args: list[str]) -> int:
    if asks_help(args, "db-recover"):
        return 0
    if not 1 <= len(args) <= 2:
        print("usage: python -m bot db-recover PATH [NEW]", file=sys.stderr)
        return 2
    damaged = Path(args[0])
    target = Path(args[1]) if len(args) == 2 else damaged.with_suffix(f".recovered{damaged.suffix}")
    try:
        done = recover(damaged, target)
    except (OSError, Exception) as error:
        print(f"cannot recover {damaged}: {error}", file=sys.stderr)
        return 3
    copied = ", ".join(f"{table} {rows}" for table, rows in done.rows.items())
    print(f"copied to {done.target}: {copied}")
    for what in done.lost:
        print(f"not readable: {what}")
    print(f"check it, then move it in place of {damaged} (keep the damaged file aside).")
    return 0


def migrate_to_postgres(args: list[str], settings: Settings) -> int:
    from bot.core.database.transfer import (  # noqa: PLC0415 - only this command's
        TargetNotEmptyError,
        copy_to_postgres,
    )

    if asks_help(args, "migrate-to-postgres"):
        return 0
    path = Path(args[0]) if args else settings.database_path
    url = args[1] if len(args) > 1 else settings.database_url
    if len(args) > 2 or url is None:
        print("usage: python -m bot migrate-to-postgres [PATH] [URL]", file=sys.stderr)
        print("(URL defaults to DATABASE_URL, PATH to DATABASE_PATH)", file=sys.stderr)
        return 2
    target = url if isinstance(url, str) else url.get_secret_value()
    try:
        copied = asyncio.run(copy_to_postgres(path, target))
    except (UnusableDatabaseError, TargetNotEmptyError) as error:
        print(f"nothing copied: {error}", file=sys.stderr)
        return 3
    rows = ", ".join(f"{table} {count}" for table, count in copied.items())
    print(f"copied {path} to {shown(target)}: {rows}")
    print("set DATABASE_URL to it and start the bot; keep the SQLite file as a backup.")
    return 0


def achievements(args: list[str], settings: Settings) -> int:
    from bot.core.achievements.store import Achievements  # noqa: PLC0415 - only this command's
    from bot.core.storage import Storage  # noqa: PLC0415

    if asks_help(args, "achievements"):
        return 0
    if args != ["--backfill"]:
        print("usage: python -m bot achievements --backfill", file=sys.stderr)
        return 2
    url = settings.database_url

    async def backfill() -> str:
        if url is None:
            storage = await Storage.open(settings.database_path)
        else:
            storage = await Storage.connect(url.get_secret_value())
        try:
            done = await Achievements(storage).backfill()
        finally:
            await storage.close()
        return f"judged {done.games} finished games: {done.earned} badges earned in them"

    try:
        print(asyncio.run(backfill()))
    except UnusableDatabaseError as error:
        print(error, file=sys.stderr)
        return 3
    return 0


def port(text: str) -> int:
    number = int(text)
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{number} is not a port (0-65535; 0: any free one)")
    return number


def playground_options(parser: argparse.ArgumentParser, *, defaults: bool) -> None:
    """--host, --port and --fast: after `playground`, and after a plain `python -m bot`
    (only one of the two places gives the defaults, so neither overwrites the other)."""

    def default(value: object) -> object:
        return value if defaults else argparse.SUPPRESS

    parser.add_argument(
        "--host",
        default=default(HOST),
        help=f"where the playground listens (default {HOST}; 0.0.0.0: friends on the network)",
    )
    parser.add_argument(
        "--port", type=port, default=default(PORT), help=f"default {PORT}; 0: any free port"
    )
    parser.add_argument(
        "--fast", action="store_true", default=default(False), help="no flood limits, no pacing"
    )


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description=__doc__.splitlines()[0],
        epilog=EPILOG,
        formatter_class=help_lines,
    )
    playground_options(parser, defaults=True)
    modes = parser.add_subparsers(dest="mode", metavar="COMMAND", help="one of the commands below")
    for command in COMMANDS:
        line = command_help(command)
        mode = modes.add_parser(command, description=line, formatter_class=help_lines)
        if command == "playground":
            playground_options(mode, defaults=False)
    return parser.parse_args(argv)


def log_to_stderr(settings: Settings) -> None:
    """LOG_LEVEL for all, but aiogram's line for every update («Update id=… is handled»)
    only at DEBUG, and DEBUG for the loggers LOG_DEBUG names."""
    level = settings.log_level.upper()
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    root = logging.getLogger().getEffectiveLevel()
    if root > logging.DEBUG:
        logging.getLogger("aiogram.event").setLevel(max(root, logging.WARNING))
    for name in settings.debug_loggers():
        logging.getLogger(name).setLevel(logging.DEBUG)


def main() -> int:
    if sys.argv[1:2] == ["db-recover"]:
        return db_recover(sys.argv[2:])
    migrating = sys.argv[1:2] == ["migrate-to-postgres"]
    backfilling = sys.argv[1:2] == ["achievements"]
    args = arguments([] if migrating or backfilling else sys.argv[1:])
    try:
        settings = Settings()
    except ValidationError as error:
        wrong = ", ".join(str(e["loc"][0]).upper() for e in error.errors())
        print(f"Check {wrong} in the environment or in .env (see .env.example).", file=sys.stderr)
        return 2
    if migrating:
        return migrate_to_postgres(sys.argv[2:], settings)
    if backfilling:
        log_to_stderr(settings)
        return achievements(sys.argv[2:], settings)
    mode = args.mode or ("telegram" if settings.has_token() else "playground")
    if not settings.has_token() and (mode == "telegram" or settings.webhook_url):
        print(NO_TOKEN, file=sys.stderr)  # a deployment never falls back to the playground
        return 2
    if mode == "telegram" and settings.webhook_url and settings.secret() is None:
        print(NO_SECRET, file=sys.stderr)
        return 2
    log_to_stderr(settings)
    pictures_off_the_heap()
    if mode == "playground":
        from bot.playground.run import fresh_database  # noqa: PLC0415 - only the playground's

        fresh = fresh_database(settings.database_path)
        # its own fresh file, never the real chats' PostgreSQL
        settings = settings.model_copy(update={"database_path": fresh, "database_url": None})
    try:  # before aiogram is even imported: a broken database file is said at once
        if settings.database_url is None:
            SqliteDatabase.check(settings.database_path)
    except UnusableDatabaseError as error:
        print(error, file=sys.stderr)  # one line: which file and what is wrong with it
        return 3
    # aiogram takes a second or two to import
    if mode == "playground":
        from bot.playground.run import PlaygroundError, serve  # noqa: PLC0415

        try:
            asyncio.run(serve(settings, args.host, args.port, args.fast))
        except PlaygroundError as error:
            print(error, file=sys.stderr)
            return 2
    else:
        from bot.app import run  # noqa: PLC0415

        try:
            asyncio.run(run(settings))
        except UnusableDatabaseError as error:
            print(error, file=sys.stderr)  # one line: which server and why (no password)
            return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
