"""Settings read from the environment (and an optional `.env` file)."""

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

TELEGRAM_API = "https://api.telegram.org"


class Settings(BaseSettings):
    """Everything the bot needs to start; only `BOT_TOKEN` has no default."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    bot_token: SecretStr = Field(min_length=1)
    telegram_api_base: str = TELEGRAM_API
    database_path: Path = Path("data/kozel.sqlite3")
    log_level: str = "INFO"
    robot_pace_seconds: float = 1.5  # how long a computer player "thinks" before a move
    pacing: bool = True  # keep sends under Telegram's flood limits (off: only 429s slow us)
