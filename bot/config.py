"""Settings read from the environment (and an optional `.env` file)."""

from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

TELEGRAM_API = "https://api.telegram.org"


class Settings(BaseSettings):
    """Everything the bot needs to start; only `BOT_TOKEN` has no default."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    bot_token: SecretStr = Field(min_length=1)
    telegram_api_base: str = TELEGRAM_API
    database_path: Path = Path("data/kozel.sqlite3")
    log_level: str = "INFO"
    # how long a computer player "thinks" before a move (ROBOT_PACE_SECONDS: its old name)
    computer_pace_seconds: float = Field(
        1.5, validation_alias=AliasChoices("computer_pace_seconds", "robot_pace_seconds")
    )
    backup_every_minutes: int = Field(60, ge=0)  # 0: only before a migration
    backup_dir: Path | None = None  # default: backups/ beside the database
    backup_keep: int = Field(5, ge=1)
    pacing: bool = True  # keep sends under Telegram's flood limits (off: only 429s slow us)
