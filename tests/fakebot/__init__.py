"""A fake Telegram Bot API server for end-to-end tests of the real bot.

    async with FakeTelegram() as fake:          # 127.0.0.1:<free port>, fake.base
        alice, bob = fake.add_user("Alice", "alice"), fake.add_user("Bob")
        group = fake.add_group("Домино", [alice, bob])
        # start `python -m bot` with BOT_TOKEN=TOKEN, TELEGRAM_API_BASE=fake.base
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
"""

from tests.fakebot.errors import ApiError
from tests.fakebot.flood import FloodLimits
from tests.fakebot.models import (
    Call,
    CallbackAnswer,
    CallbackQuery,
    Chat,
    FloodEvent,
    Message,
    Photo,
    Topic,
    Upload,
    User,
)
from tests.fakebot.server import BOT_ID, BOT_NAME, BOT_USERNAME, TOKEN, FakeTelegram
from tests.fakebot.view import ViewMessage

__all__ = [
    "BOT_ID",
    "BOT_NAME",
    "BOT_USERNAME",
    "TOKEN",
    "ApiError",
    "Call",
    "CallbackAnswer",
    "CallbackQuery",
    "Chat",
    "FakeTelegram",
    "FloodEvent",
    "FloodLimits",
    "Message",
    "Photo",
    "Topic",
    "Upload",
    "User",
    "ViewMessage",
]
