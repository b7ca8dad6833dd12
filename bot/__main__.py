"""`python -m bot`: read the settings and start long polling."""

import asyncio
import logging
import sys

from pydantic import ValidationError

from bot.config import Settings
from bot.core.storage import Storage, UnusableDatabaseError


def main() -> int:
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
