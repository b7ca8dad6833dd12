"""Wire the aiogram dispatcher, the session, the storage and the routers together."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot, Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.filters import ExceptionTypeFilter
from aiogram.types import (
    ErrorEvent,
    TelegramObject,
)

from bot.config import Settings
from bot.core.backups import BackupPlan, backup_folder
from bot.core.chats import Chats
from bot.core.computers import Computers
from bot.core.crew import Crew
from bot.core.errors import GameError
from bot.core.follow_up import FollowUp
from bot.core.history import History
from bot.core.outbox import Outbox
from bot.core.scores import Scores
from bot.core.season_tables import SeasonTables
from bot.core.service import GameService
from bot.core.storage import Storage
from bot.core.timers import SystemClock, Timers
from bot.core.watchdog import Watchdog
from bot.telegram.app_side import AppSide
from bot.telegram.asking import Askers
from bot.telegram.courier import Courier
from bot.telegram.gates import bot_pace
from bot.telegram.handlers import routers
from bot.telegram.handlers.chat import BackInTouch
from bot.telegram.handlers.common import ReaderTexts
from bot.telegram.menus import register_commands
from bot.telegram.messenger import Messenger
from bot.telegram.messenger.parcels import pack, unpack
from bot.telegram.pacing import Limits, Pacing
from bot.telegram.private_sends import PrivateSends
from bot.telegram.responses import KeptResponses
from bot.telegram.webhook import ALLOWED_UPDATES, serve_webhook
from bot.ui.i18n import Texts, texts_for
from bot.ui.notices import Shown, shown_as
from bot.ui.table_app import seat_part, shared_view
from bot.ui.texts import refusal
from bot.webapp.backstage import Backstage, Views
from bot.webapp.server import AppServer, table_app

log = logging.getLogger(__name__)
DRAIN_SECONDS = 30  # how long a stop waits for updates still being handled


class InFlight(BaseMiddleware):
    """Counts updates being handled, so a stop can let them finish their messages."""

    def __init__(self) -> None:
        self.count = 0
        self.idle = asyncio.Event()
        self.idle.set()

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        self.count += 1
        self.idle.clear()
        try:
            return await handler(event, data)
        finally:
            self.count -= 1
            if not self.count:
                self.idle.set()

    async def drained(self) -> None:
        try:
            await asyncio.wait_for(self.idle.wait(), DRAIN_SECONDS)
        except TimeoutError:
            log.warning("stopping with %s updates still being handled", self.count)


async def refused(event: ErrorEvent, t: Texts) -> None:
    """A refused action (`GameError`): a short answer — on a button a toast, or an alert
    for what must be read once (`shown_as`), a reply to a command — and nothing changed."""
    assert isinstance(event.exception, GameError)
    try:
        text = refusal(t, event.exception)
    except Exception:  # the answer must not fail: say something short instead
        log.exception("refusal %s could not be worded", event.exception.key)
        text = t("something-wrong")
    update = event.update
    if update.callback_query is not None:
        alert = shown_as(event.exception.key) is Shown.ALERT
        await update.callback_query.answer(text, show_alert=alert)
    elif update.message is not None:
        await update.message.reply(text)


async def on_error(event: ErrorEvent, t: Texts | None = None) -> None:
    """Log what failed with its context; a pressed button still gets an answer."""
    update = event.update
    log.exception(
        "update %s failed: %s", update.update_id, event.exception, exc_info=event.exception
    )
    if update.callback_query is not None:
        try:
            await update.callback_query.answer((t or texts_for(None))("something-wrong"))
        except Exception:  # the answer itself may be what failed
            log.warning("could not answer callback of update %s", update.update_id)


def build_dispatcher(
    service: GameService,
    messenger: Messenger,
    computers: Computers,
    timers: Timers,
    backup_plan: BackupPlan | None = None,
) -> Dispatcher:
    """The dispatcher `python -m bot` runs, with every feature router included; the handlers
    get the service (wired once to the after-turn path, `follow_up`), the read API (`chats`,
    `scores`, `seasons`) and the messenger through its workflow data.

    On a stop it lets the updates in hand, and the computers mid-move, finish their
    messages before the session and the database close; the turn clocks stop (their
    deadlines are stored, so they go on after the restart).
    """
    storage = service.storage
    chats = Chats(storage)
    follow_up = FollowUp(messenger, computers, timers)
    service.wire(follow_up)  # no handler passes the way on after a turn
    dispatcher = Dispatcher(
        disable_fsm=True,  # no dialogues: its memory storage would keep every chat's user
        service=service,
        chats=chats,
        scores=Scores(storage),
        seasons=SeasonTables(storage),
        history=History(storage),
        messenger=messenger,
    )
    dispatcher.include_routers(*routers())
    dispatcher.errors.register(refused, ExceptionTypeFilter(GameError))
    dispatcher.errors.register(on_error)
    in_flight = InFlight()
    dispatcher.update.outer_middleware(in_flight)
    dispatcher.update.outer_middleware(ReaderTexts(chats))
    dispatcher.message.outer_middleware(BackInTouch())
    dispatcher.message.middleware(Askers(messenger.lanes.pacing.crowded))
    watchdog = Watchdog(service, follow_up)
    crew = Crew(storage, follow_up, service.clock)
    watching: list[asyncio.Task[None]] = []

    async def resume() -> None:
        messenger.courier.start(crew.about)  # says its share of what the outbox keeps
        await crew.start()  # the games nobody alive holds: this worker's, resumed
        watching.append(asyncio.create_task(crew.run()))
        watching.append(asyncio.create_task(watchdog.run()))  # a look now, then periodic
        watching.append(asyncio.create_task(backups(storage, backup_plan)))

    async def finish() -> None:
        for task in watching:
            task.cancel()
        await timers.close()
        await in_flight.drained()
        await computers.close()
        await messenger.close()
        await crew.leave()  # what is left is anybody's: another worker goes on with it

    dispatcher.startup.register(resume)
    dispatcher.shutdown.register(finish)
    return dispatcher


async def backups(storage: Storage, plan: BackupPlan | None) -> None:
    """An online backup every `every_minutes` (none when it is 0, or without a plan)."""
    if plan is None or not plan.every_minutes:
        return
    while True:
        await asyncio.sleep(plan.every_minutes * 60)
        try:
            made = await storage.database.backup(
                "hourly" if plan.every_minutes == 60 else "periodic"
            )
            log.info("database backed up to %s", made)
        except Exception:
            log.exception("the database backup failed")


def build_bot(settings: Settings, pacing: Pacing, sends: PrivateSends) -> Bot:
    """A bot whose requests go to `settings.telegram_api_base`, every one through `pacing`
    (and then `sends`, which hears of what goes to private chats)."""
    session = AiohttpSession(api=TelegramAPIServer.from_base(settings.telegram_api_base))
    session.middleware(pacing)
    session.middleware(sends)
    session.middleware(KeptResponses())
    return Bot(settings.token(), session=session)


async def open_storage(settings: Settings) -> tuple[Storage, BackupPlan | None]:
    """PostgreSQL with `DATABASE_URL` (its backups are the server's business), else the
    SQLite file with its backup plan."""
    if settings.database_url is not None:
        return await Storage.connect(settings.database_url.get_secret_value()), None
    plan = BackupPlan(
        backup_folder(settings.database_path, settings.backup_dir),
        settings.backup_keep,
        settings.backup_every_minutes,
    )
    return await Storage.open(settings.database_path, plan), plan


async def open_table_app(
    settings: Settings, service: GameService, bot: Bot, messenger: Messenger, framer: str | None
) -> AppServer | None:
    """The table app's server when `WEBAPP_URL` is set (None without it): its own port, its
    streams woken by every change the storage commits; `framer`, one more origin that may
    show it in a frame (the playground's)."""
    if not settings.webapp_url:
        return None
    backstage = Backstage(
        service=service,
        views=Views(shared_view, seat_part),
        shell=AppSide(bot, messenger),
        bot_token=settings.token(),
        max_age=settings.webapp_max_age_seconds,
        presence=messenger.presence,
    )
    server = AppServer(table_app(backstage, framer=framer))
    await server.start(settings.webapp_host, settings.webapp_port)
    return server


def limits_of(settings: Settings) -> Limits:
    """The pacing the settings ask for: the token's allowance, on or off, the patience."""
    return Limits(
        everywhere=bot_pace(settings.bot_api_per_second),
        paced=settings.pacing,
        reply_patience=settings.reply_patience_seconds,
    )


async def run(settings: Settings, framer: str | None = None) -> None:
    """Poll, or serve the webhook when `WEBHOOK_URL` is set, until the process is stopped;
    open games go on where they were. With `WEBAPP_URL` the table app is served beside
    (framed by Telegram Web and `framer`, the playground's origin when it runs the bot)."""
    storage, plan = await open_storage(settings)
    pacing = Pacing(limits_of(settings))
    sends = PrivateSends()
    bot = build_bot(settings, pacing, sends)
    app: AppServer | None = None
    try:
        async with bot.session:
            me = await bot.me()
            await register_commands(bot)
            outbox = Outbox(storage.database)
            courier = Courier(outbox, pacing, (pack, unpack), storage.worker)
            short_name = settings.webapp_short_name if settings.webapp_url else None
            messenger = Messenger(
                bot, storage, me.username or "", courier, short_name, settings.app_picture_seconds
            )
            sends.told = messenger.hands.below  # whatever else comes, the hands follow
            clock = SystemClock(settings.clock_offset())
            service = GameService(storage, clock.now)
            timers = Timers(service, messenger, clock)
            computers = Computers(service, settings.computer_pace_seconds)
            dispatcher = build_dispatcher(service, messenger, computers, timers, plan)
            app = await open_table_app(settings, service, bot, messenger, framer)
            # what start-up made (modules, aiogram's and pydantic's types) stays for good:
            # kept out of the collector's full passes, which took ~150 ms of a busy loop
            gc.freeze()
            secret = settings.secret()
            if settings.webhook_url and secret:
                await serve_webhook(
                    dispatcher,
                    bot,
                    settings.webhook_url,
                    secret,
                    settings.webhook_host,
                    settings.webhook_port,
                )
            else:
                await bot.delete_webhook()  # polling after a webhook: Telegram wants it gone
                await dispatcher.start_polling(bot, allowed_updates=ALLOWED_UPDATES)
    finally:
        if app is not None:
            await app.stop()
        await storage.close()
