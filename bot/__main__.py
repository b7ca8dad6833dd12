"""`python -m bot`: read the settings and start long polling.

`python -m bot db-recover PATH [NEW]` copies what is readable of a damaged database into a
new file (default: PATH with `.recovered` before its suffix) and says what it lost.
"""

import asyncio
import logging
import sys
from pathlib import Path

from pydantic import ValidationError

from bot.config import Settings
from bot.core.backups import recover
from bot.core.storage import Storage, UnusableDatabaseError


def db_recover(args: list[str]) -> int:
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


def main() -> int:
    if sys.argv[1:2] == ["db-recover"]:
        return db_recover(sys.argv[2:])
    try:
        settings = Settings()
    except ValidationError as error:
        missing = ", ".join(str(e["loc"][0]).upper() for e in error.errors())
        print(f"Set {missing} in the environment or in .env (see .env.example).", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:  # before aiogram is even imported: a broken database is said at once
        Storage.check(settings.database_path)
    except UnusableDatabaseError as error:
        print(error, file=sys.stderr)  # one line: which file and what is wrong with it
        return 3
    from bot.app import run  # noqa: PLC0415 - aiogram takes a second or two to import

    asyncio.run(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
