"""The Bot API side of the fake: Telegram's protocol and rules.

Errors as Telegram words them (`errors`), flood limits (`flood`), text formatting and
entities (`formatting`), keyboards (`keyboards`), request parameters (`params`), the
objects it answers with (`objects`), and the parts of `FakeTelegram` that answer the bot:
`http` (routes, envelope, calls log), `access` (chat, membership and writing checks),
`updates` (getUpdates, webhooks, callback answers, command menus), `messages` (send, edit,
delete), `files` (photos, animations, documents, getFile), `chats` (chats, members,
pins). Knows nothing of the bot.
"""
