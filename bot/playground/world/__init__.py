"""The world the fake simulates: people, chats and messages, and its own API.

`models` (users, chats, messages, photos, presses), `state` (`World`: the shared state and
helpers), `view` (a chat as one user sees it, and its transcript), `changes` (what
listeners hear), and the parts of `FakeTelegram` a test uses: `building` (set the world
up), `acting` (what the users do), `apps` (the bot's Mini Apps and their direct links,
opened with `initData` signed as Telegram signs it) and `looking` (what there is to see,
and waiting for it). Knows nothing of the bot.
"""
