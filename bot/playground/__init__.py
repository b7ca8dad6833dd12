"""A fake Telegram Bot API server (`api/`) and the world of chats it simulates (`world/`),
for end-to-end tests of the real bot and the local playground.

    async with FakeTelegram() as fake:          # 127.0.0.1:<free port>, fake.base
        alice, bob = fake.add_user("Alice", "alice"), fake.add_user("Bob")
        group = fake.add_group("Домино", [alice, bob])
        # start `python -m bot` with BOT_TOKEN=fake.token, TELEGRAM_API_BASE=fake.base
        await fake.wait_polling()
        fake.user_sends(alice, group, "/newgame")
        table = await fake.wait_until(lambda: fake.last_bot_message(group))
        query_id = fake.user_presses(alice, table, "Сесть")
        await fake.wait_until(lambda: fake.answer_for(query_id))
        print(fake.transcript(alice, group))

World: add_user, add_group, add_topic, close_topic, private, user_sends, user_presses,
follow_link, user_blocks_bot, user_unblocks_bot, user_joins, user_leaves, bot_added_to,
bot_removed_from, set_bot_admin, migrate_group_to_supergroup, make_uneditable, advance.
Looking: chat_view, transcript, messages, last_bot_message, calls, calls_of, errors,
answer_for, unanswered_queries, commands_for, flood_events, early_retries(_for),
pending_updates, dropped_updates, chat_actions, wait_until, wait_for_call, wait_polling.
Changes: listen(callback), unlisten(callback); `callback(Change)` runs on each new, edited
or deleted message, accepted callback answer, command menu change, and refused request.
"""

from bot.playground.api.errors import ApiError
from bot.playground.api.flood import FloodEvent, FloodLimits
from bot.playground.api.params import Call, Upload
from bot.playground.fake import FakeTelegram
from bot.playground.world.building import Supergroup
from bot.playground.world.changes import Change
from bot.playground.world.models import (
    CallbackAnswer,
    CallbackQuery,
    Chat,
    Message,
    Photo,
    Topic,
    User,
)
from bot.playground.world.state import BOT_ID, BOT_NAME, BOT_USERNAME, BotAccount
from bot.playground.world.view import ViewMessage

__all__ = [
    "BOT_ID",
    "BOT_NAME",
    "BOT_USERNAME",
    "ApiError",
    "BotAccount",
    "Call",
    "CallbackAnswer",
    "CallbackQuery",
    "Change",
    "Chat",
    "FakeTelegram",
    "FloodEvent",
    "FloodLimits",
    "Message",
    "Photo",
    "Supergroup",
    "Topic",
    "Upload",
    "User",
    "ViewMessage",
]
