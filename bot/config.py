"""Settings read from the environment (and an optional `.env` file)."""

import re
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

TELEGRAM_API = "https://api.telegram.org"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what Telegram accepts as a secret_token


class MissingTokenError(Exception):
    """Telegram was asked for, and no `BOT_TOKEN` is set."""


class Settings(BaseSettings):
    """Everything the bot needs to start. Only Telegram needs `BOT_TOKEN`: without it
    `python -m bot` starts the playground."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    bot_token: SecretStr | None = None
    webhook_url: str | None = None  # set: Telegram POSTs updates there (no polling)
    webhook_secret: SecretStr | None = None  # required with webhook_url
    webhook_host: str = "0.0.0.0"  # where the webhook server listens
    webhook_port: int = Field(8080, ge=0, le=65535)
    telegram_api_base: str = TELEGRAM_API
    # the table app (docs/webapp.md): its public HTTPS URL and @BotFather's short name for it;
    # unset: no app, no «📱 За стол» button
    webapp_url: str | None = None
    webapp_short_name: str | None = None
    webapp_host: str = "0.0.0.0"  # where the app's own server listens
    webapp_port: int = Field(8081, ge=0, le=65535)  # 0: any free port (logged)
    webapp_max_age_seconds: int = Field(86400, gt=0)  # the oldest initData accepted
    # while everybody at a table plays in the app, the group's picture follows at least
    # this often (and at each round's end, and when somebody leaves the app)
    app_picture_seconds: float = Field(30.0, gt=0)
    database_path: Path = Path("data/kozel.sqlite3")
    database_url: SecretStr | None = None  # postgresql://…: PostgreSQL instead of the file
    log_level: str = "INFO"
    # loggers at DEBUG whatever LOG_LEVEL says (comma-separated): "aiogram.event" (each
    # update handled), "bot.telegram.courier" (the outbox sending and done)
    log_debug: str = ""
    # how long a computer player "thinks" before a move (ROBOT_PACE_SECONDS: its old name)
    computer_pace_seconds: float = Field(
        1.5, validation_alias=AliasChoices("computer_pace_seconds", "robot_pace_seconds")
    )
    backup_every_minutes: int = Field(60, ge=0)  # 0: only before a migration
    backup_dir: Path | None = None  # default: backups/ beside the database
    backup_keep: int = Field(5, ge=1)
    pacing: bool = True  # keep sends under Telegram's flood limits (off: only 429s slow us)
    # Telegram's allowance for the token's sends and edits a second, shared by the workers
    bot_api_per_second: float = Field(30.0, gt=0)
    # seconds a reply to a command waits for its place in a busy chat before it is skipped
    reply_patience_seconds: float = Field(10.0, gt=0)
    # tests only: a file holding the seconds the bot's clock is moved by (`SystemClock`),
    # read at the start, heeded only while the Bot API is on this machine (the fake's)
    test_clock_file: Path | None = None

    @field_validator("database_url")
    @classmethod
    def _postgres(cls, url: SecretStr | None) -> SecretStr | None:
        """Only PostgreSQL's URLs; an empty one counts as none."""
        if url is None or not url.get_secret_value().strip():
            return None
        if not url.get_secret_value().startswith(POSTGRES_SCHEMES):
            raise ValueError("DATABASE_URL must start with postgresql://")
        return url

    def debug_loggers(self) -> list[str]:
        """The loggers `LOG_DEBUG` names."""
        return [name for name in (part.strip() for part in self.log_debug.split(",")) if name]

    def clock_offset(self) -> float:
        """The seconds `TEST_CLOCK_FILE` holds, if the Bot API is a loopback address (a
        test's fake); else (or without the file) 0."""
        loopback = urlsplit(self.telegram_api_base).hostname == "127.0.0.1"
        if not loopback or self.test_clock_file is None:
            return 0.0
        return float(self.test_clock_file.read_text(encoding="utf-8"))

    def has_token(self) -> bool:
        """A token is set (an empty one counts as none)."""
        return self.bot_token is not None and bool(self.bot_token.get_secret_value().strip())

    def secret(self) -> str | None:
        """The webhook's secret if it has a shape Telegram accepts, else None."""
        value = "" if self.webhook_secret is None else self.webhook_secret.get_secret_value()
        return value if SECRET_SHAPE.fullmatch(value) else None

    def token(self) -> str:
        """The bot's token, or `MissingTokenError`."""
        if self.bot_token is None or not self.has_token():
            raise MissingTokenError
        return self.bot_token.get_secret_value().strip()
