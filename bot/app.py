"""Wire the aiogram dispatcher, the session and the routers together."""

from aiogram import Bot, Dispatcher, Router
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.filters import Command, CommandStart
from aiogram.types import Message

from bot.config import Settings
from bot.game.rules import PRESETS

welcome = Router(name="welcome")


@welcome.message(CommandStart())
@welcome.message(Command("help"))
async def explain(message: Message) -> None:
    """Say what the bot is and which games it knows."""
    presets = "\n".join(f"• {p.name} — {p.description_ru}" for p in PRESETS.values())
    await message.answer(
        "Я веду партии в домино «Козёл» и родственные игры.\n"
        f"Наборы правил:\n{presets}\n"
        "Групповая игра ещё в работе: пока доступен движок правил."
    )


def build_dispatcher() -> Dispatcher:
    """The dispatcher `python -m bot` runs, with every feature router included."""
    dispatcher = Dispatcher()
    dispatcher.include_router(welcome)
    return dispatcher


def build_bot(settings: Settings) -> Bot:
    """A bot whose requests go to `settings.telegram_api_base`."""
    session = AiohttpSession(api=TelegramAPIServer.from_base(settings.telegram_api_base))
    return Bot(settings.bot_token.get_secret_value(), session=session)


async def run(settings: Settings) -> None:
    """Start long polling until the process is stopped."""
    settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    bot = build_bot(settings)
    async with bot.session:
        await build_dispatcher().start_polling(bot)
