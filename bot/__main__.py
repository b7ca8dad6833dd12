"""`python -m bot`: read the settings and start long polling."""

import asyncio
import logging
import sys

from pydantic import ValidationError

from bot.app import run
from bot.config import Settings


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
    asyncio.run(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
